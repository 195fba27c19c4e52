// The Model of a core pinned to one model (core_config.h, RFK_PIN_MODEL), defined where every
// source of the core sees it: kPinnedModel, made of the values `rfk export --pin` wrote (which the
// host's full OpenModel read from the model's bytes), pointing into the model's array
// (RFK_PIN_ARRAY). A pinned core's OpenModel fills a Model with it or leaves it empty, so each entry
// point reads kPinnedModel itself once its argument is open (ModelOf): the compiler then folds
// every field into the code as a constant and drops the branches for kinds, storages and sections
// the model does not have. Included by core_config.h only. Internal to lib/core.
#pragma once

#ifdef RFK_PIN_MODEL
#include <cstddef>
#include <cstdint>

#include "rfk/model.hpp"
#include "rfk/status.hpp"

// The pinned model's bytes: `rfk export --c-header --name <RFK_PIN_ARRAY> --pin`'s array.
extern "C" const std::uint8_t RFK_PIN_ARRAY[];

namespace rfk::core {
namespace pin {

// A pinned value, converted to the type of the member it initializes (a constant expression: an
// enum from its number, a float from its exact hex literal, an integer).
template <typename A>
struct PinValue {
  A value;
  template <typename T>
  constexpr operator T() const noexcept {  // NOLINT(google-explicit-constructor): the point of it
    return static_cast<T>(value);
  }
};
template <typename A>
constexpr PinValue<A> Pin(A value) noexcept {
  return {value};
}

}  // namespace pin

// The designated initializer in declaration order (GCC refuses any other order): an extension
// before C++20 that both GCC and Clang accept, warnings off here only. The pointers are address
// constants, so the object is initialized statically, in flash; members not listed are zero. An
// inline variable: one object for the whole core, its initializer visible in every source, which
// is what lets GCC fold its fields. It stays in flash only where its address is taken.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpragmas"                  // GCC: an option below it does not know
#pragma GCC diagnostic ignored "-Wunknown-warning-option"  // Clang: the same
#pragma GCC diagnostic ignored "-Wpedantic"
#pragma GCC diagnostic ignored "-Wc++20-extensions"
#pragma GCC diagnostic ignored "-Wc++20-designator"
#pragma GCC diagnostic ignored "-Wc99-designator"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"  // the point: members not listed are zero
#define RFK_PIN_V_(member, value) .member = pin::Pin(value),
#define RFK_PIN_P_(member, pointee, at) \
  .member = reinterpret_cast<const pointee*>(RFK_PIN_ARRAY + (at)),
#define RFK_PIN_G_(view, entries) .view = {entries},
#if RFK_READ_NAMES
#define RFK_PIN_N_(entry) entry
#else
#define RFK_PIN_N_(entry)
#endif
inline const Model kPinnedModel = {RFK_PIN_MODEL(RFK_PIN_V_, RFK_PIN_P_, RFK_PIN_G_, RFK_PIN_N_)};
#undef RFK_PIN_V_
#undef RFK_PIN_P_
#undef RFK_PIN_G_
#undef RFK_PIN_N_
#pragma GCC diagnostic pop

// The entry points the C API of a pinned core calls once the handle says the model is open: the
// public ones (rfk/model.hpp, rfk/fixed.hpp) without the Model, which is kPinnedModel. So no code
// takes kPinnedModel's address, and the object itself is not linked.
namespace pinned {
std::size_t ScratchBytes() noexcept;
std::size_t BatchScratchBytes() noexcept;
Status Predict(const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes, float* out,
               std::size_t out_len) noexcept;
Status PredictBatch(const float* X, std::size_t n, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                    float* out, std::size_t out_len, std::size_t* done) noexcept;
Status ComputeBins(const float* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                   std::uint64_t* keys, std::uint32_t* columns, std::size_t len) noexcept;
const char* ClassLabel(std::uint32_t index) noexcept;
const char* FeatureName(std::uint32_t index) noexcept;
std::uint32_t DecideClassRaw(const float* outputs) noexcept;
std::uint32_t DecideClass(const float* outputs) noexcept;
Status Probabilities(const float* outputs, std::size_t out_len, float* proba, std::size_t proba_len) noexcept;
std::size_t FixedScratchBytes() noexcept;
Status PredictFixed(const std::int16_t* x, std::size_t x_len, void* scratch, std::size_t scratch_bytes,
                    std::int32_t* out, std::size_t out_len) noexcept;
std::uint32_t DecideClassFixed(const std::int32_t* out) noexcept;
float FixedOutputScale() noexcept;
Status QuantizeInput(const float* x, std::size_t x_len, std::int16_t* xq, std::size_t xq_len,
                     std::uint32_t* saturated) noexcept;
}  // namespace pinned

}  // namespace rfk::core
#endif  // RFK_PIN_MODEL

namespace rfk::core {

// Whether this core is pinned to one model (RFK_PIN_MODEL).
#ifdef RFK_PIN_MODEL
inline constexpr bool kPinned = true;
#else
inline constexpr bool kPinned = false;
#endif

// The Model an entry point reads once it has checked that `m` is open (m.bytes != null): a pinned
// core's kPinnedModel (the only Model its OpenModel fills), whose fields are then constants; `m`
// itself in any other core. Every entry of a source must read through it, so that each internal
// function is called with kPinnedModel alone and GCC propagates it into them.
[[gnu::always_inline]] inline const Model& ModelOf(const Model& m) noexcept {
#ifdef RFK_PIN_MODEL
  static_cast<void>(m);
  return kPinnedModel;
#else
  return m;
#endif
}

// In a pinned core, a copy of one of the Model's nested views made member by member: each member is
// then a constant, where a copy of the whole view (or a reference to it) reads the pinned Model in
// memory, and so links it. For views a function takes by reference (the kernels, Fastfood's
// blocks); bind the result to a const reference. In any other core, the view itself (no copy on
// the stack).
#ifdef RFK_PIN_MODEL
[[gnu::always_inline]] inline WeightsView MemberCopy(const WeightsView& w) noexcept { return {w.type, w.data, w.scale}; }
[[gnu::always_inline]] inline FastfoodArrays MemberCopy(const FastfoodArrays& a) noexcept {
  return {a.dp, a.blocks, a.index_bits, a.storage, a.G, a.S, a.perm, a.signs};
}
#else
template <class View>
[[gnu::always_inline]] inline const View& MemberCopy(const View& v) noexcept {
  return v;
}
#endif
// Fastfood's arrays for the kernels, bound to a const reference: a pinned core's member by member
// (MemberCopy), a configured one's derived (FastfoodOf, a value), any other's the member itself.
[[gnu::always_inline]] inline decltype(auto) FastfoodCopy(const Model& m) noexcept {
#ifdef RFK_PIN_MODEL
  return MemberCopy(m.fastfood);
#else
  return FastfoodOf(m);
#endif
}

}  // namespace rfk::core
