// Pinned cores (`rfk export --config-header --pin`): RFK_MODEL_FIELDS covers every member of
// Model, and the RFK_PIN_MODEL / RFK_PIN_NAMES text the exporter writes, parsed here on its own,
// gives back every member of the model the host opened, for each kind of model.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <string>
#include <type_traits>

#include "fixed_util.h"
#include "rfk/host/c_export.hpp"
#include "rfk/model.hpp"

namespace {

namespace f = rfk::format;
using fixed_util::Data;
using fixed_util::Fixed;
using fixed_util::Trained;
using rfk_test::Blob;

// "name" -> its text, from each V(name, text) and P(name, text) of the header's two pin macros.
std::map<std::string, std::string> PinEntries(const std::string& header) {
  std::map<std::string, std::string> entries;
  for (const char* macro : {"#define RFK_PIN_MODEL(V, P)", "#define RFK_PIN_NAMES(V, P)"}) {
    std::size_t at = header.find(macro);
    REQUIRE(at != std::string::npos);
    const std::size_t end = header.find("\n#", at + 1);
    while ((at = header.find('(', header.find_first_of("VP", header.find("\\\n", at)))) < end) {
      const std::size_t comma = header.find(", ", at), close = header.find(')', at);
      entries[header.substr(at + 1, comma - at - 1)] = header.substr(comma + 2, close - comma - 2);
    }
  }
  return entries;
}

// Member `name` of the opened model against its entry: absent where it is zero (null pointers,
// zeros, an enum's 0); pointers as offsets into the blob, floats exactly.
template <typename T>
void CheckMember(const std::map<std::string, std::string>& e, const char* name, const T& value,
                 const std::uint8_t* base) {
  CAPTURE(name);
  const T unset{};
  const auto it = e.find(name);
  if constexpr (std::is_pointer_v<T>) {
    if (value == nullptr) {
      CHECK(it == e.end());
      return;
    }
    REQUIRE(it != e.end());
    const auto at = static_cast<const std::uint8_t*>(static_cast<const void*>(value)) - base;
    CHECK(std::strtoll(it->second.c_str(), nullptr, 10) == at);
  } else {
    if (value == unset) {
      CHECK(it == e.end());
      return;
    }
    REQUIRE(it != e.end());
    if constexpr (std::is_floating_point_v<T>)
      CHECK(std::strtof(it->second.c_str(), nullptr) == value);
    else if constexpr (std::is_enum_v<T>)
      CHECK(std::strtoull(it->second.c_str(), nullptr, 10) == static_cast<std::uint64_t>(value));
    else
      CHECK(std::strtoull(it->second.c_str(), nullptr, 10) == static_cast<std::uint64_t>(value));
  }
}

void CheckPin(const std::vector<std::uint8_t>& bytes) {
  Blob b(bytes);
  rfk::Model m;
  REQUIRE(b.Open(&m) == rfk::Status::kOk);
  const std::string h = rfk::host::CoreConfigHeader(m, "test", true);
  CHECK(h.find("#define RFK_PIN_BYTES " + std::to_string(m.total_bytes) + "u") != std::string::npos);
  CHECK(h.find("#define RFK_PIN_FIELDS_VERSION " + std::to_string(rfk::kPinFieldsVersion)) != std::string::npos);
  const auto e = PinEntries(h);
  std::size_t members = 0;
#define RFK_CHECK_MEMBER_(field) \
  CheckMember(e, #field, m.field, m.bytes); \
  ++members;
  RFK_MODEL_FIELDS(RFK_CHECK_MEMBER_)
#undef RFK_CHECK_MEMBER_
  // Every entry is a member: the names each matched one above, and none is left over.
  std::size_t set = 0;
#define RFK_COUNT_SET_(field) set += e.count(#field);
  RFK_MODEL_FIELDS(RFK_COUNT_SET_)
#undef RFK_COUNT_SET_
  CHECK(set == e.size());
  CHECK(members > 50);
  // The same switches as without the pin, which only adds its macros before the #endif.
  const std::string plain = rfk::host::CoreConfigHeader(m, "test");
  CHECK(h.compare(0, plain.size() - 7, plain, 0, plain.size() - 7) == 0);
}

}  // namespace

TEST_CASE("Model: RFK_MODEL_FIELDS lists every member") {
  // Default-initialised in storage filled with 0x00 and with 0xFF: the bytes its members'
  // initialisers write agree, padding keeps the fill. Every byte that agrees is some listed member's.
  alignas(rfk::Model) static unsigned char zeros[sizeof(rfk::Model)], ones[sizeof(rfk::Model)];
  for (std::size_t i = 0; i < sizeof(rfk::Model); ++i) {
    static_cast<volatile unsigned char*>(zeros)[i] = 0x00;
    static_cast<volatile unsigned char*>(ones)[i] = 0xFF;
  }
  const auto* a = new (zeros) rfk::Model;
  const auto* c = new (ones) rfk::Model;
  std::vector<bool> listed(sizeof(rfk::Model), false);
#define RFK_MARK_MEMBER_(field)                                                                   \
  {                                                                                               \
    const auto at = reinterpret_cast<const unsigned char*>(&a->field) - reinterpret_cast<const unsigned char*>(a); \
    for (std::size_t i = 0; i < sizeof(a->field); ++i) listed[static_cast<std::size_t>(at) + i] = true;          \
  }
  RFK_MODEL_FIELDS(RFK_MARK_MEMBER_)
#undef RFK_MARK_MEMBER_
  const auto* za = reinterpret_cast<const volatile unsigned char*>(a);
  const auto* zc = reinterpret_cast<const volatile unsigned char*>(c);
  for (std::size_t i = 0; i < sizeof(rfk::Model); ++i) {
    CAPTURE(i);
    if (za[i] == zc[i]) CHECK(listed[i]);
  }
}

TEST_CASE("rfk export --pin: the pin gives back every member of the opened model, for each kind") {
  const auto ds = Data(6, 240, 3), reg = Data(6, 240, 0);
  SUBCASE("dense pairs, f32, 3 classes (labels, calibration)") { CheckPin(Trained(ds, f::MapKind::kFourier, 64)); }
  SUBCASE("dense phase, int8") { CheckPin(Trained(reg, f::MapKind::kFourierPhase, 64, f::Storage::kInt8)); }
  SUBCASE("Fastfood pairs, f16") { CheckPin(Trained(ds, f::MapKind::kFastfood, 64, f::Storage::kF16)); }
  SUBCASE("fixed-point dense") { CheckPin(Fixed(Trained(reg, f::MapKind::kFourier, 64), reg)); }
  SUBCASE("fixed-point Fastfood") { CheckPin(Fixed(Trained(ds, f::MapKind::kFastfood, 64), ds)); }
  SUBCASE("fixed-point binning, exact") {
    rfk::host::TrainOptions o;
    o.fourier = false;
    o.grids = 4;
    CheckPin(Fixed(rfk::host::Train(reg, o).model, reg));
  }
  SUBCASE("binning, hashed") {
    rfk::host::TrainOptions o;
    o.fourier = false;
    o.grids = 8;
    o.buckets = 16;
    CheckPin(rfk::host::Train(ds, o).model);
  }
}
