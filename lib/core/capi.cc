// The C API (include/rfk/rfk.h): thin wrappers over the C++ core, same contract (no allocation,
// no exceptions, no environment). rfk_model is caller-owned storage holding an rfk::Model, or in a
// pinned core the address of the Model in flash (capi_handle.h).
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "capi_handle.h"

#include <new>

#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

static_assert(RFK_MODEL_ALIGNMENT == rfk::format::kAlignment, "C and C++ model alignment differ");
static_assert(RFK_SCRATCH_ALIGNMENT == rfk::kScratchAlignment, "C and C++ scratch alignment differ");
static_assert(RFK_NO_COLUMN == rfk::kNoColumn, "C and C++ no-column markers differ");
#define RFK_CHECK_STATUS(name, c_name, msg) \
  static_assert(c_name == static_cast<int>(rfk::Status::name), "C status value differs");
RFK_STATUS_LIST(RFK_CHECK_STATUS)
#undef RFK_CHECK_STATUS

namespace {

using rfk::core::OpenedModel;

rfk_status C(rfk::Status s) noexcept { return static_cast<rfk_status>(s); }

// A count of the opened model (`get` reads it: some are constants of a configured core, not
// members, rfk/model_layout.h); 0 for a null handle or a failed open.
template <class Get>
[[gnu::always_inline]] inline std::uint32_t Fact(const rfk_model* model, Get get) noexcept {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? get(*m) : 0;
}

rfk_status NullModel(rfk_model_error* error) noexcept {
  if (error != nullptr) *error = {RFK_NULL_ARGUMENT, "model", 0};
  return RFK_NULL_ARGUMENT;
}

}  // namespace

extern "C" {

#ifdef RFK_PIN_MODEL
// rfk.h names it rfk_open_pinned where the application sees the pinned configuration (its handle is
// one pointer), so that such an application never links a generic core, which would write a
// whole Model there. The plain rfk_open, below, serves an application compiled without it.
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error) {
  if (model == nullptr) return NullModel(error);
  const rfk::Status s = rfk::core::CheckPinned(bytes, size, error);
  rfk::core::SetHandle(model, s == rfk::Status::kOk ? bytes : nullptr);
  return C(s);
}
#undef rfk_open
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error) {
  return rfk_open_pinned(model, bytes, size, error);
}
#else
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error) {
  if (model == nullptr) return NullModel(error);
  rfk::ModelError err;
  auto* m = new (static_cast<void*>(model->opaque)) rfk::Model();
  const rfk::Status s = rfk::OpenModel(bytes, size, m, &err);
  if (error != nullptr) *error = {C(err.status), err.field, err.offset};
  return C(s);
}
#if RFK_MODEL_CONFIGURED
// rfk.h names the one above after the configured layout where the application sees the
// configuration (its handle is the configured Model's size), so that such an application never
// links a core of another layout. The plain rfk_open serves an application compiled without it,
// whose handle is larger.
#undef rfk_open
rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error) {
  return RFK_ML_XCAT_(rfk_open_, RFK_MODEL_LAYOUT_ID)(model, bytes, size, error);
}
#endif
#endif

uint32_t rfk_input_dim(const rfk_model* model) { return Fact(model, [](const rfk::Model& m) { return m.input_dim; }); }
uint32_t rfk_num_outputs(const rfk_model* model) { return Fact(model, [](const rfk::Model& m) { return m.num_outputs; }); }
uint32_t rfk_num_classes(const rfk_model* model) { return Fact(model, [](const rfk::Model& m) { return rfk::NumClasses(m); }); }
uint32_t rfk_num_grids(const rfk_model* model) { return Fact(model, [](const rfk::Model& m) { return m.num_grids; }); }
uint32_t rfk_num_features(const rfk_model* model) { return Fact(model, [](const rfk::Model& m) { return m.num_features; }); }

size_t rfk_scratch_bytes(const rfk_model* model) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL0(m, ScratchBytes) : 0;
}
size_t rfk_batch_scratch_bytes(const rfk_model* model) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL0(m, BatchScratchBytes) : 0;
}

rfk_status rfk_predict(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                       size_t scratch_bytes, float* out, size_t out_len) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return C(RFK_ON_MODEL(m, Predict, x, x_len, scratch, scratch_bytes, out, out_len));
}

rfk_status rfk_predict_batch(const rfk_model* model, const float* X, size_t n, size_t x_len,
                             void* scratch, size_t scratch_bytes, float* out, size_t out_len,
                             size_t* done) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return C(RFK_ON_MODEL(m, PredictBatch, X, n, x_len, scratch, scratch_bytes, out, out_len, done));
}

uint32_t rfk_decide_class(const rfk_model* model, const float* outputs) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr || outputs == nullptr) return 0;
  return RFK_ON_MODEL(m, DecideClass, outputs);
}

uint32_t rfk_decide_class_raw(const rfk_model* model, const float* outputs) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr || outputs == nullptr) return 0;
  return RFK_ON_MODEL(m, DecideClassRaw, outputs);
}

rfk_status rfk_probabilities(const rfk_model* model, const float* outputs, size_t out_len,
                             float* proba, size_t proba_len) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return C(RFK_ON_MODEL(m, Probabilities, outputs, out_len, proba, proba_len));
}

const char* rfk_class_label(const rfk_model* model, uint32_t class_index) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL(m, ClassLabel, class_index) : "";
}

const char* rfk_feature_name(const rfk_model* model, uint32_t index) {
  const rfk::Model* m = OpenedModel(model);
  return m != nullptr ? RFK_ON_MODEL(m, FeatureName, index) : "";
}

rfk_status rfk_compute_bins(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                            size_t scratch_bytes, uint64_t* keys, uint32_t* columns, size_t len) {
  const rfk::Model* m = OpenedModel(model);
  if (m == nullptr) return RFK_NULL_ARGUMENT;
  return C(RFK_ON_MODEL(m, ComputeBins, x, x_len, scratch, scratch_bytes, keys, columns, len));
}

const char* rfk_status_name(rfk_status status) { return rfk::StatusName(static_cast<rfk::Status>(status)); }
const char* rfk_status_message(rfk_status status) {
  return rfk::StatusMessage(static_cast<rfk::Status>(status));
}

size_t rfk_kernel_table_count(void) { return rfk::KernelTableCount(); }
const char* rfk_kernel_table_backend(size_t index) {
  const rfk::KernelTable* t = rfk::KernelTableAt(index);
  return t != nullptr ? t->backend : nullptr;
}
const char* rfk_kernel_table_target(size_t index) {
  const rfk::KernelTable* t = rfk::KernelTableAt(index);
  return t != nullptr ? t->target : nullptr;
}
int rfk_select_kernels(const char* name) { return rfk::SelectKernels(name) ? 1 : 0; }
const char* rfk_active_target(void) { return rfk::ActiveKernels().target; }

}  // extern "C"
