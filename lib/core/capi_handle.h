// What an rfk_model (include/rfk/rfk.h) holds, for the C API's two translation units (capi.cc,
// fixed_capi.cc). Generic and configured cores: an rfk::Model placed in its storage by rfk_open. A
// core pinned to one model (RFK_PIN_MODEL): the model's bytes in its first word -- null until
// rfk_open succeeds -- and core::kPinnedModel as its Model. Always inlined: a load and a test in each
// wrapper (at -Os GCC otherwise calls it, 20 instructions more per rfk_predict). Internal to lib/core.
#pragma once

#include <new>

#include "core_config.h"
#include "rfk/model.hpp"
#include "rfk/rfk.h"

namespace rfk::core {

#ifdef RFK_PIN_MODEL
// The first word is the whole handle in a pinned build's rfk.h, and the first of the generic
// handle's 48 (an application compiled without the configuration): the same place in both. It holds
// the bytes rfk_open accepted (null until it succeeds); the Model is kPinnedModel, a constant whose
// fields the wrappers and the core fold (its address is not stored, so it takes no flash).
[[gnu::always_inline]] inline void SetHandle(rfk_model* h, const void* bytes) noexcept { h->pinned = bytes; }
[[gnu::always_inline]] inline const Model* OpenedModel(const rfk_model* h) noexcept {
  return h != nullptr && h->pinned != nullptr ? &kPinnedModel : nullptr;
}
#else
static_assert(sizeof(Model) <= sizeof(rfk_model),
              "rfk_model storage too small for rfk::Model: update RFK_MODEL_HANDLE_BYTES (include/rfk/rfk.h)");
static_assert(alignof(Model) <= alignof(rfk_model), "rfk_model storage under-aligned");
#if RFK_MODEL_CONFIGURED
// rfk/model_layout.h counts the configured Model's words: exact on a 32-bit core (the handle no
// larger than the Model rounded up to 8 bytes), an upper bound on a 64-bit host.
static_assert(sizeof(void*) != 4 || sizeof(rfk_model) < sizeof(Model) + 8,
              "rfk/model_layout.h: RFK_MODEL_CONFIGURED_BYTES counts more than the configured Model stores");
#endif
// The Model rfk_open placed in the handle, or null for a null handle or a failed open (an empty
// Model: no bytes).
[[gnu::always_inline]] inline const Model* OpenedModel(const rfk_model* h) noexcept {
  if (h == nullptr) return nullptr;
  const auto* m = std::launder(static_cast<const Model*>(static_cast<const void*>(h->opaque)));
  return m->bytes != nullptr ? m : nullptr;
}
#endif

}  // namespace rfk::core

// A wrapper's call of entry point `name` on the opened model m (not null): rfk::name(*m, ...), or in
// a pinned core core::pinned::name(...), which reads kPinnedModel itself (pinned_model.h). The 0
// form: an entry point with no argument but the model.
#ifdef RFK_PIN_MODEL
#define RFK_ON_MODEL(m, name, ...) (static_cast<void>(m), ::rfk::core::pinned::name(__VA_ARGS__))
#define RFK_ON_MODEL0(m, name) (static_cast<void>(m), ::rfk::core::pinned::name())
#else
#define RFK_ON_MODEL(m, name, ...) ::rfk::name(*(m), __VA_ARGS__)
#define RFK_ON_MODEL0(m, name) ::rfk::name(*(m))
#endif
