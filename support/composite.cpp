// Names of Warp's vector-like types, parsed and printed in one place so the checker, the IR
// text, the runtime signature and the host all agree on them.
#include "support/composite.h"

#include <cctype>

namespace tilec {

namespace {
struct Suffix { ScalarType type; std::string_view suffix; };
constexpr Suffix kSuffixes[] = {
    {ScalarType::Float16, "h"}, {ScalarType::Float32, "f"}, {ScalarType::Float64, "d"},
    {ScalarType::Int32, "i"},   {ScalarType::UInt32, "ui"}, {ScalarType::Int8, "b"},
    {ScalarType::UInt8, "ub"},  {ScalarType::Int16, "s"},   {ScalarType::UInt16, "us"},
    {ScalarType::Int64, "l"},   {ScalarType::UInt64, "ul"},
};

std::optional<ScalarType> FromSuffix(std::string_view s) {
  if (s.empty()) return ScalarType::Float32;
  for (const Suffix& x : kSuffixes)
    if (x.suffix == s) return x.type;
  return std::nullopt;
}

bool IsFloatSuffixOnly(ScalarType t) {
  return t == ScalarType::Float16 || t == ScalarType::Float32 || t == ScalarType::Float64;
}

// "3" or "33" at the front of `rest`; the digits consumed.
int Digits(std::string_view rest, int want, int out[2]) {
  if (int(rest.size()) < want) return 0;
  for (int i = 0; i < want; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(rest[i])) || rest[i] == '0') return 0;
    out[i] = rest[i] - '0';
  }
  return want;
}
}  // namespace

std::string_view CompositeSuffix(ScalarType s) {
  for (const Suffix& x : kSuffixes)
    if (x.type == s) return x.suffix;
  return "";
}

std::string CompositeName(const Composite& c) {
  std::string suf(CompositeSuffix(c.scalar));
  switch (c.kind) {
    case CompositeKind::None: return "";
    case CompositeKind::Vector: return "vec" + std::to_string(c.rows) + suf;
    case CompositeKind::Matrix: return "mat" + std::to_string(c.rows) + std::to_string(c.cols) + suf;
    case CompositeKind::Quaternion: return "quat" + suf;
    case CompositeKind::Transform: return "transform" + suf;
    case CompositeKind::SpatialVector: return "spatial_vector" + suf;
    case CompositeKind::SpatialMatrix: return "spatial_matrix" + suf;
  }
  return "";
}

std::optional<Composite> CompositeFromName(std::string_view name) {
  auto fixed = [&](std::string_view stem, Composite (*make)(ScalarType)) -> std::optional<Composite> {
    if (name.substr(0, stem.size()) != stem) return std::nullopt;
    std::optional<ScalarType> s = FromSuffix(name.substr(stem.size()));
    if (!s || !IsFloatSuffixOnly(*s)) return std::nullopt;
    return make(*s);
  };
  if (auto c = fixed("spatial_vector", Composite::SpatialVector)) return c;
  if (auto c = fixed("spatial_matrix", Composite::SpatialMatrix)) return c;
  if (auto c = fixed("transform", Composite::Transform)) return c;
  if (auto c = fixed("quat", Composite::Quat)) return c;
  int d[2];
  if (name.substr(0, 3) == "vec" && Digits(name.substr(3), 1, d)) {
    std::optional<ScalarType> s = FromSuffix(name.substr(4));
    if (s) return Composite::Vector(d[0], *s);
  }
  if (name.substr(0, 3) == "mat" && Digits(name.substr(3), 2, d)) {
    std::optional<ScalarType> s = FromSuffix(name.substr(5));
    if (s && IsFloatSuffixOnly(*s)) return Composite::Matrix(d[0], d[1], *s);
  }
  return std::nullopt;
}

std::string CompositeFieldName(const Composite& c, int i) {
  static const char kXyzw[] = "xyzw";
  if ((c.kind == CompositeKind::Vector && c.rows <= 4) || c.kind == CompositeKind::Quaternion)
    return std::string(1, kXyzw[i]);
  if (c.is_matrix() && c.rows <= 9 && c.cols <= 9)
    return "m" + std::to_string(i / c.cols) + std::to_string(i % c.cols);
  return "c" + std::to_string(i);
}

int SwizzleIndex(char c) {
  switch (c) {
    case 'x': return 0;
    case 'y': return 1;
    case 'z': return 2;
    case 'w': return 3;
  }
  return -1;
}

}  // namespace tilec
