// The C API (include/rfk/rfk.h): thin wrappers over the C++ core, same contract (no allocation,
// no exceptions, no environment). rfk_model is caller-owned storage holding an rfk::Model.
#include "fp_contract.h"  // first: no compiler-fused multiply-adds in this file
#include "rfk/rfk.h"

#include <new>

#include "rfk/kernels.hpp"
#include "rfk/model.hpp"

static_assert(sizeof(rfk::Model) <= sizeof(rfk_model), "rfk_model storage too small for rfk::Model");
static_assert(alignof(rfk::Model) <= alignof(rfk_model), "rfk_model storage under-aligned");
static_assert(RFK_MODEL_ALIGNMENT == rfk::format::kAlignment, "C and C++ model alignment differ");
static_assert(RFK_SCRATCH_ALIGNMENT == rfk::kScratchAlignment, "C and C++ scratch alignment differ");
static_assert(RFK_NO_COLUMN == rfk::kNoColumn, "C and C++ no-column markers differ");
#define RFK_CHECK_STATUS(name, c_name, msg) \
  static_assert(c_name == static_cast<int>(rfk::Status::name), "C status value differs");
RFK_STATUS_LIST(RFK_CHECK_STATUS)
#undef RFK_CHECK_STATUS

namespace {

// The Model that rfk_open placed in an rfk_model, or null for a null handle. A model whose
// rfk_open failed is empty (bytes == null), so every function then fails cleanly.
const rfk::Model* Get(const rfk_model* m) noexcept {
  return m != nullptr ? std::launder(static_cast<const rfk::Model*>(static_cast<const void*>(m->opaque)))
                      : nullptr;
}

bool IsOpen(const rfk_model* m) noexcept { return m != nullptr && Get(m)->bytes != nullptr; }
const rfk::Model& View(const rfk_model* m) noexcept { return *Get(m); }  // only when IsOpen(m)

rfk_status C(rfk::Status s) noexcept { return static_cast<rfk_status>(s); }

}  // namespace

extern "C" {

rfk_status rfk_open(rfk_model* model, const void* bytes, size_t size, rfk_model_error* error) {
  rfk::ModelError err;
  if (model == nullptr) {
    if (error != nullptr) *error = {RFK_NULL_ARGUMENT, "model", 0};
    return RFK_NULL_ARGUMENT;
  }
  auto* m = new (static_cast<void*>(model->opaque)) rfk::Model();
  const rfk::Status s = rfk::OpenModel(bytes, size, m, &err);
  if (error != nullptr) *error = {C(err.status), err.field, err.offset};
  return C(s);
}

uint32_t rfk_input_dim(const rfk_model* model) { return IsOpen(model) ? View(model).input_dim : 0; }
uint32_t rfk_num_outputs(const rfk_model* model) { return IsOpen(model) ? View(model).num_outputs : 0; }
uint32_t rfk_num_classes(const rfk_model* model) { return IsOpen(model) ? View(model).num_classes : 0; }
uint32_t rfk_num_grids(const rfk_model* model) { return IsOpen(model) ? View(model).num_grids : 0; }
uint32_t rfk_num_features(const rfk_model* model) { return IsOpen(model) ? View(model).num_features : 0; }

size_t rfk_scratch_bytes(const rfk_model* model) {
  return IsOpen(model) ? rfk::ScratchBytes(View(model)) : 0;
}
size_t rfk_batch_scratch_bytes(const rfk_model* model) {
  return IsOpen(model) ? rfk::BatchScratchBytes(View(model)) : 0;
}

rfk_status rfk_predict(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                       size_t scratch_bytes, float* out, size_t out_len) {
  if (!IsOpen(model)) return RFK_NULL_ARGUMENT;
  return C(rfk::Predict(View(model), x, x_len, scratch, scratch_bytes, out, out_len));
}

rfk_status rfk_predict_batch(const rfk_model* model, const float* X, size_t n, size_t x_len,
                             void* scratch, size_t scratch_bytes, float* out, size_t out_len,
                             size_t* done) {
  if (!IsOpen(model)) return RFK_NULL_ARGUMENT;
  return C(rfk::PredictBatch(View(model), X, n, x_len, scratch, scratch_bytes, out, out_len, done));
}

uint32_t rfk_decide_class(const rfk_model* model, const float* outputs) {
  if (!IsOpen(model) || outputs == nullptr) return 0;
  return rfk::DecideClass(View(model), outputs);
}

uint32_t rfk_decide_class_raw(const rfk_model* model, const float* outputs) {
  if (!IsOpen(model) || outputs == nullptr) return 0;
  return rfk::DecideClassRaw(View(model), outputs);
}

rfk_status rfk_probabilities(const rfk_model* model, const float* outputs, size_t out_len,
                             float* proba, size_t proba_len) {
  if (!IsOpen(model)) return RFK_NULL_ARGUMENT;
  return C(rfk::Probabilities(View(model), outputs, out_len, proba, proba_len));
}

const char* rfk_class_label(const rfk_model* model, uint32_t class_index) {
  return IsOpen(model) ? rfk::ClassLabel(View(model), class_index) : "";
}

const char* rfk_feature_name(const rfk_model* model, uint32_t index) {
  return IsOpen(model) ? rfk::FeatureName(View(model), index) : "";
}

rfk_status rfk_compute_bins(const rfk_model* model, const float* x, size_t x_len, void* scratch,
                            size_t scratch_bytes, uint64_t* keys, uint32_t* columns, size_t len) {
  if (!IsOpen(model)) return RFK_NULL_ARGUMENT;
  return C(rfk::ComputeBins(View(model), x, x_len, scratch, scratch_bytes, keys, columns, len));
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
