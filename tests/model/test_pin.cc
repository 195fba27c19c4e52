// Pinned cores (`rfk export --config-header --pin`): RFK_MODEL_FIELDS covers every member of
// Model, and the RFK_PIN_MODEL text the exporter writes, parsed here on its own,
// gives back every member of the model the host opened, for each kind of model.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include "fixed_util.h"
#include "rfk/host/c_export.hpp"
#include "rfk/model.hpp"

namespace {

namespace f = rfk::format;
using fixed_util::Data;
using fixed_util::Fixed;
using fixed_util::Trained;
using rfk_test::Blob;

// What the header's RFK_PIN_MODEL lists: "member" (or "view.member" inside RFK_G(view, ...)) -> its
// value, the offset of a pointer; and the members that sit in RFK_N(...), the names the core reads
// with RFK_READ_NAMES only.
struct Pins {
  std::map<std::string, std::string> entries;
  std::set<std::string> names;
};

Pins PinEntries(const std::string& header) {
  const std::string macro = "#define RFK_PIN_MODEL(RFK_V, RFK_P, RFK_G, RFK_N)";
  const std::size_t at = header.find(macro);
  REQUIRE(at != std::string::npos);
  const std::size_t end = header.find("\n#", at + 1);
  const std::string text = header.substr(at + macro.size(), end - at - macro.size());
  Pins pins;
  std::vector<std::string> open;  // "view." for each RFK_G open, "" for each RFK_N
  for (std::size_t i = 0; i < text.size();) {
    // An entry: RFK_ and its letter, then the parenthesis; args start after it.
    const bool call = text.compare(i, 4, "RFK_") == 0 && i + 5 < text.size() && text[i + 5] == '(';
    const char kind = call ? text[i + 4] : '\0';
    if (kind == 'G') {
      const std::size_t comma = text.find(',', i);
      open.push_back(text.substr(i + 6, comma - i - 6) + ".");
      i = comma + 1;
    } else if (kind == 'N') {
      open.push_back("");
      i += 6;
    } else if (kind == 'V' || kind == 'P') {
      const std::size_t close = text.find(')', i);
      const std::string args = text.substr(i + 6, close - i - 6);
      std::string name;
      for (const std::string& o : open) name += o;
      name += args.substr(0, args.find(", "));
      // RFK_P(member, pointee, offset): the pointee names a type the core casts to; RFK_V(member, value).
      CHECK(std::count(args.begin(), args.end(), ',') == (kind == 'P' ? 2 : 1));
      CHECK(pins.entries.count(name) == 0);
      pins.entries[name] = args.substr(args.rfind(", ") + 2);
      if (std::find(open.begin(), open.end(), "") != open.end()) pins.names.insert(name);
      i = close + 1;
    } else if (text[i] == ')') {
      REQUIRE(!open.empty());
      open.pop_back();
      ++i;
    } else {
      CHECK(std::string(" \\\n").find(text[i]) != std::string::npos);  // nothing else between entries
      ++i;
    }
  }
  CHECK(open.empty());
  return pins;
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
  const std::string h = rfk::host::CoreConfigHeader(m, "test", "pinned_model");
  CHECK(h.find("#define RFK_PIN_BYTES " + std::to_string(m.total_bytes) + "u") != std::string::npos);
  CHECK(h.find("#define RFK_PIN_FIELDS_VERSION " + std::to_string(rfk::kPinFieldsVersion)) != std::string::npos);
  CHECK(h.find("#define RFK_PIN_ARRAY pinned_model ") != std::string::npos);
  const Pins pins = PinEntries(h);
  const auto& e = pins.entries;
  // The names' members, and only they, in RFK_N(...).
  for (const std::string& n : pins.names) {
    CAPTURE(n);
    CHECK((n == "label_offsets" || n == "label_pool" || n == "num_names" || n == "name_offsets" || n == "name_pool"));
  }
  CHECK(pins.names.size() == (m.label_offsets != nullptr) + (m.label_pool != nullptr) + (m.num_names != 0) +
                                 (m.name_offsets != nullptr) + (m.name_pool != nullptr));
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
  // In declaration order too (the pinned core's designated initializer takes them so): each
  // member's offset above the one listed before it.
  std::ptrdiff_t previous = -1;
#define RFK_MARK_MEMBER_(field)                                                                   \
  {                                                                                               \
    const auto at = reinterpret_cast<const unsigned char*>(&a->field) - reinterpret_cast<const unsigned char*>(a); \
    CAPTURE(#field);                                                                              \
    CHECK(at > previous);                                                                         \
    previous = at;                                                                                \
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
