// Modules the host's Python answers only in part: CPython's introspection modules (`ast`,
// `inspect`, `weakref`, ...) and Warp's internals. Importing one succeeds, so that a program
// that uses it only on some paths still runs; using a name tilec lacks raises
// NotImplementedError naming it. `struct`, `ctypes`' scalar types and `types.NoneType` are
// real.
#include <cmath>
#include <cstring>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_enum.h"
#include "host/interp/py_std_modules.h"
#include "support/dtype.h"

namespace tilec::host {
namespace {

struct UnprovidedObj : Object {
  UnprovidedObj(std::string path, std::string owner) : path(std::move(path)), owner(std::move(owner)) {}
  std::string TypeName() const override { return "unprovided"; }
  std::string Repr() const override { return "<unprovided '" + path + "'>"; }
  [[noreturn]] void Refuse() const {
    Raise("NotImplementedError", "`" + path + "` is part of " + owner + ", which tilec does not provide");
  }
  bool Truth() const override { Refuse(); }
  bool Callable() const override { return true; }
  Value Call(Interpreter&, CallArgs&) override { Refuse(); }
  Value GetItem(Interpreter&, const Value&) override { Refuse(); }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override { Refuse(); }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name.rfind("__", 0) == 0) return std::nullopt;
    return MakeUnprovided(path + "." + name, owner);
  }
  std::string path, owner;
};

// `struct`'s format: an optional byte order, then counted codes. Sizes are the standard ones
// (CPython's native sizes on x86-64 and aarch64 Linux agree with them for these codes, and no
// code tilec accepts has native padding other than alignment, applied for `@`).
struct FormatItem {
  char code;
  size_t size;
};

std::vector<FormatItem> ParseFormat(const std::string& fmt, bool& little, bool& align) {
  size_t at = 0;
  little = true;
  align = true;
  if (!fmt.empty() && std::strchr("@=<>!", fmt[0])) {
    align = fmt[0] == '@';
    little = fmt[0] != '>' && fmt[0] != '!';
    at = 1;
  }
  std::vector<FormatItem> items;
  while (at < fmt.size()) {
    if (fmt[at] == ' ') {
      ++at;
      continue;
    }
    size_t count = 1;
    if (std::isdigit(static_cast<unsigned char>(fmt[at]))) {
      count = 0;
      while (at < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[at]))) count = count * 10 + size_t(fmt[at++] - '0');
      if (at == fmt.size()) Raise("struct.error", "repeat count given without format specifier");
    }
    const char c = fmt[at++];
    size_t size = 0;
    switch (c) {
      case 'x': case 'c': case 'b': case 'B': case '?': size = 1; break;
      case 'h': case 'H': case 'e': size = 2; break;
      case 'i': case 'I': case 'l': case 'L': case 'f': size = 4; break;
      case 'q': case 'Q': case 'd': size = 8; break;
      default: Raise("struct.error", "bad char in struct format");
    }
    if ((c == 'l' || c == 'L') && align) size = 8;  // native long on LP64
    for (size_t k = 0; k < count; ++k) items.push_back({c, size});
  }
  return items;
}

size_t Aligned(size_t offset, const FormatItem& it, bool align) {
  return align && it.code != 'x' ? (offset + it.size - 1) / it.size * it.size : offset;
}

uint16_t FloatToHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000;
  const int32_t exp = int32_t((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFF;
  if (((x >> 23) & 0xFF) == 0xFF) return uint16_t(sign | 0x7C00 | (mant ? 0x200 : 0));
  if (exp >= 31) Raise("OverflowError", "float too large to pack with e format");
  if (exp <= 0) {
    if (exp < -10) return uint16_t(sign);
    mant |= 0x800000;
    const uint32_t shift = uint32_t(14 - exp);
    uint32_t half = mant >> shift;
    const uint32_t rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) ++half;
    return uint16_t(sign | half);
  }
  uint32_t half = sign | uint32_t(exp) << 10 | mant >> 13;
  const uint32_t rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) ++half;
  if ((half & 0x7C00) == 0x7C00) Raise("OverflowError", "float too large to pack with e format");
  return uint16_t(half);
}

double HalfToDouble(uint16_t h) {
  const int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v = exp == 0 ? std::ldexp(mant, -24) : exp == 31 ? (mant ? NAN : INFINITY) : std::ldexp(mant | 0x400, exp - 25);
  return (h & 0x8000) ? -v : v;
}

void PutBytes(std::string& out, uint64_t bits, size_t size, bool little) {
  for (size_t k = 0; k < size; ++k) {
    const size_t shift = 8 * (little ? k : size - 1 - k);
    out.push_back(char((bits >> shift) & 0xFF));
  }
}

uint64_t GetBytes(const std::string& in, size_t at, size_t size, bool little) {
  uint64_t bits = 0;
  for (size_t k = 0; k < size; ++k) {
    const size_t shift = 8 * (little ? k : size - 1 - k);
    bits |= uint64_t(static_cast<unsigned char>(in[at + k])) << shift;
  }
  return bits;
}

Value MakeStructModule() {
  auto m = std::make_shared<ModuleObj>("struct");
  m->attrs["error"] = Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType("struct.error")));
  m->Def("calcsize", [](Interpreter&, CallArgs& a) {
    ArgBinder b("calcsize", a, {"format"}, 1);
    bool little, align;
    size_t size = 0;
    for (const FormatItem& it : ParseFormat(ToStr(b.Get(0), "calcsize() format"), little, align))
      size = Aligned(size, it, align) + it.size;
    return Value::Int(int64_t(size));
  });
  m->Def("pack", [](Interpreter&, CallArgs& a) {
    if (a.pos.empty()) TypeError("pack expected at least 1 argument, got 0");
    bool little, align;
    const std::vector<FormatItem> items = ParseFormat(ToStr(a.pos[0], "pack() format"), little, align);
    size_t values = 0;
    for (const FormatItem& it : items) values += it.code != 'x';
    if (values != a.pos.size() - 1)
      Raise("struct.error", "pack expected " + std::to_string(values) + " items for packing (got " +
                                std::to_string(a.pos.size() - 1) + ")");
    std::string out;
    size_t arg = 1;
    for (const FormatItem& it : items) {
      out.resize(Aligned(out.size(), it, align), '\0');
      if (it.code == 'x') {
        out.push_back('\0');
        continue;
      }
      const Value& v = a.pos[arg++];
      uint64_t bits = 0;
      if (it.code == 'f' || it.code == 'd' || it.code == 'e') {
        if (!v.IsNumber()) Raise("struct.error", "required argument is not a float");
        const double d = v.AsDouble();
        if (it.code == 'd') std::memcpy(&bits, &d, 8);
        else if (it.code == 'f') {
          const float f = float(d);
          uint32_t u;
          std::memcpy(&u, &f, 4);
          bits = u;
        } else {
          bits = FloatToHalf(float(d));
        }
      } else if (it.code == '?') {
        bits = v.IsBool() ? v.b() : v.IsInt() ? v.i() != 0 : v.IsFloat() ? v.f() != 0.0 : true;
      } else if (it.code == 'c') {
        const std::string* s = BytesOf(v);
        if (!s || s->size() != 1) Raise("struct.error", "char format requires a bytes object of length 1");
        bits = static_cast<unsigned char>((*s)[0]);
      } else {
        if (!v.IsInt() && !v.IsBool()) Raise("struct.error", "required argument is not an integer");
        const int64_t i = v.IsBool() ? v.b() : v.i();
        const bool is_signed = std::islower(static_cast<unsigned char>(it.code));
        const int bits_n = int(it.size * 8);
        const bool fits = is_signed ? (bits_n == 64 || (i >= -(int64_t(1) << (bits_n - 1)) && i < (int64_t(1) << (bits_n - 1))))
                                    : (i >= 0 && (bits_n == 64 || i < (int64_t(1) << bits_n)));
        if (!fits) {
          const std::string lo = is_signed ? (bits_n == 64 ? "-9223372036854775808" : std::to_string(-(int64_t(1) << (bits_n - 1)))) : "0";
          const std::string hi = is_signed ? (bits_n == 64 ? "9223372036854775807" : std::to_string((int64_t(1) << (bits_n - 1)) - 1))
                                           : (bits_n == 64 ? "18446744073709551615" : std::to_string((int64_t(1) << bits_n) - 1));
          const char* word = it.code == 'b' ? "byte" : it.code == 'B' ? "ubyte" : it.code == 'h' ? "short"
                           : it.code == 'H' ? "ushort" : nullptr;
          Raise("struct.error", (word ? std::string(word) : std::string("'") + it.code + "'") + " format requires " + lo +
                                    " <= number <= " + hi);
        }
        bits = uint64_t(i);
      }
      PutBytes(out, bits, it.size, little);
    }
    return MakeBytes(out);
  });
  m->Def("unpack", [](Interpreter&, CallArgs& a) {
    ArgBinder b("unpack", a, {"format", "buffer"}, 2);
    bool little, align;
    const std::vector<FormatItem> items = ParseFormat(ToStr(b.Get(0), "unpack() format"), little, align);
    const std::string* buf = BytesOf(b.Get(1));
    if (!buf) TypeError("a bytes-like object is required, not '" + TypeName(b.Get(1)) + "'");
    size_t size = 0;
    for (const FormatItem& it : items) size = Aligned(size, it, align) + it.size;
    if (buf->size() != size)
      Raise("struct.error", "unpack requires a buffer of " + std::to_string(size) + " bytes");
    std::vector<Value> out;
    size_t at = 0;
    for (const FormatItem& it : items) {
      at = Aligned(at, it, align);
      const uint64_t bits = GetBytes(*buf, at, it.size, little);
      at += it.size;
      switch (it.code) {
        case 'x': break;
        case 'f': {
          uint32_t u = uint32_t(bits);
          float f;
          std::memcpy(&f, &u, 4);
          out.push_back(Value::Float(f));
          break;
        }
        case 'd': {
          double d;
          std::memcpy(&d, &bits, 8);
          out.push_back(Value::Float(d));
          break;
        }
        case 'e': out.push_back(Value::Float(HalfToDouble(uint16_t(bits)))); break;
        case '?': out.push_back(Value::Bool(bits != 0)); break;
        case 'c': out.push_back(MakeBytes(std::string(1, char(bits)))); break;
        default: {
          const bool is_signed = std::islower(static_cast<unsigned char>(it.code));
          int64_t i = int64_t(bits);
          if (is_signed && it.size < 8 && (bits >> (it.size * 8 - 1)) & 1) i -= int64_t(1) << (it.size * 8);
          if (!is_signed && it.size == 8 && i < 0) Raise("OverflowError", "integer overflow (host ints are 64-bit)");
          out.push_back(Value::Int(i));
        }
      }
    }
    return MakeTuple(out);
  });
  return Value(m);
}

// textwrap.dedent: the leading whitespace every non-blank line shares is removed; lines of
// only whitespace become empty.
std::string Dedent(const std::string& text) {
  std::vector<std::string> lines;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  std::optional<std::string> margin;
  for (const std::string& l : lines) {
    const size_t lead = l.find_first_not_of(" \t");
    if (lead == std::string::npos) continue;
    const std::string m = l.substr(0, lead);
    if (!margin) margin = m;
    size_t k = 0;
    while (k < margin->size() && k < m.size() && (*margin)[k] == m[k]) ++k;
    margin->resize(k);
  }
  std::string out;
  for (size_t k = 0; k < lines.size(); ++k) {
    const std::string& l = lines[k];
    if (l.find_first_not_of(" \t") == std::string::npos) out += "";
    else out += l.substr(margin ? margin->size() : 0);
    if (k + 1 < lines.size()) out += '\n';
  }
  return out;
}

// ---------------------------------------------------------------- ctypes, its scalar types

// A ctypes scalar (`ctypes.c_int32(5)`): the value converted as C converts it (ints wrap to
// the type's width, c_float rounds to float32), read back by `.value`.
struct CScalarObj : Object {
  CScalarObj(std::string type, Value value) : type(std::move(type)), value(std::move(value)) {}
  std::string TypeName() const override { return type; }
  std::string Repr() const override { return type + "(" + host::Repr(value) + ")"; }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "value") return value;
    return std::nullopt;
  }
  bool SetAttr(Interpreter&, const std::string& name, const Value& v) override {
    if (name != "value") return false;
    value = v;
    return true;
  }
  std::string type;
  Value value;
};

// A ctypes scalar type: calling it converts its argument.
Value CScalarType(const std::string& name, ScalarType t) {
  return Value(std::make_shared<PyTypeObj>(name, [name, t](Interpreter&, CallArgs& a) -> Value {
    ArgBinder b(name, a, {"value"}, 0);
    const Value v = b.Has(0) ? b.Get(0) : Value::Int(0);
    if (t == ScalarType::Bool) return Value(std::make_shared<CScalarObj>(name, Value::Bool(Truth(v))));
    std::optional<Value> num = v.IsNumber() ? std::optional<Value>(v) : v.IsObj() ? v.obj()->AsScalar() : std::nullopt;
    if (IsFloat(t)) {
      if (!num || !num->IsNumber()) TypeError("must be real number, not " + TypeName(v));
      const double d = num->AsDouble();
      return Value(std::make_shared<CScalarObj>(name, Value::Float(t == ScalarType::Float32 ? double(float(d)) : d)));
    }
    if (!num || !num->IsIntLike()) TypeError("int expected instead of " + TypeName(v));
    const int bits = int(ScalarSize(t)) * 8;
    uint64_t u = uint64_t(num->i());
    if (bits < 64) u &= (uint64_t(1) << bits) - 1;
    int64_t out = int64_t(u);
    if (IsSigned(t) && bits < 64 && (u >> (bits - 1))) out = int64_t(u) - (int64_t(1) << bits);
    if (!IsSigned(t) && bits == 64 && out < 0) Raise("OverflowError", "integer overflow (host ints are 64-bit)");
    return Value(std::make_shared<CScalarObj>(name, Value::Int(out)));
  }));
}

constexpr std::pair<const char*, ScalarType> kCTypes[] = {
    {"c_bool", ScalarType::Bool},      {"c_int8", ScalarType::Int8},       {"c_uint8", ScalarType::UInt8},
    {"c_int16", ScalarType::Int16},    {"c_uint16", ScalarType::UInt16},   {"c_int32", ScalarType::Int32},
    {"c_uint32", ScalarType::UInt32},  {"c_int64", ScalarType::Int64},     {"c_uint64", ScalarType::UInt64},
    {"c_float", ScalarType::Float32},  {"c_double", ScalarType::Float64},  {"c_byte", ScalarType::Int8},
    {"c_ubyte", ScalarType::UInt8},    {"c_short", ScalarType::Int16},     {"c_ushort", ScalarType::UInt16},
    {"c_int", ScalarType::Int32},      {"c_uint", ScalarType::UInt32},     {"c_long", ScalarType::Int64},
    {"c_ulong", ScalarType::UInt64},   {"c_longlong", ScalarType::Int64},  {"c_ulonglong", ScalarType::UInt64},
    {"c_size_t", ScalarType::UInt64},  {"c_ssize_t", ScalarType::Int64}};

Value MakeCtypesModule() {
  auto m = std::make_shared<UnprovidedModule>("ctypes", "CPython's `ctypes` module");
  for (auto [name, t] : kCTypes) m->attrs[name] = CScalarType(name, t);
  // As on CPython for 64-bit Linux, the fixed-width names are the C-named types themselves
  // (`c_int32 is c_int`, and its repr says c_int).
  constexpr std::pair<const char*, const char*> kAliases[] = {
      {"c_int8", "c_byte"},    {"c_uint8", "c_ubyte"},  {"c_int16", "c_short"},     {"c_uint16", "c_ushort"},
      {"c_int32", "c_int"},    {"c_uint32", "c_uint"},  {"c_int64", "c_long"},      {"c_uint64", "c_ulong"},
      {"c_longlong", "c_long"}, {"c_ulonglong", "c_ulong"}, {"c_size_t", "c_ulong"}, {"c_ssize_t", "c_long"}};
  for (auto [alias, name] : kAliases)
    m->attrs[alias] = m->attrs.at(name);
  m->Def("sizeof", [](Interpreter&, CallArgs& a) {
    ArgBinder b("sizeof", a, {"obj_or_type"}, 1);
    std::string name;
    if (const auto* c = b.Get(0).As<CScalarObj>()) name = c->type;
    else if (const auto* t = b.Get(0).As<PyTypeObj>()) name = t->name;
    for (auto [n, t] : kCTypes)
      if (name == n) return Value::Int(int64_t(ScalarSize(t)));
    TypeError("this type has no size");
  });
  return Value(m);
}

}  // namespace

Value MakeUnprovided(std::string path, std::string owner) {
  return Value(std::make_shared<UnprovidedObj>(std::move(path), std::move(owner)));
}

std::optional<Value> UnprovidedModule::GetAttr(Interpreter& in, const std::string& attr) {
  if (std::optional<Value> v = ModuleObj::GetAttr(in, attr)) return v;
  if (attr.rfind("__", 0) == 0) return std::nullopt;
  return MakeUnprovided(name + "." + attr, owner);
}

std::optional<Value> MakeCPythonOnlyModule(Interpreter& in, const std::string& name) {
  if (name == "struct") return MakeStructModule();
  if (name == "enum") return MakeEnumModule();
  if (name == "ctypes") return MakeCtypesModule();
  for (const char* n : {"ast", "inspect", "weakref", "linecache", "types", "textwrap"}) {
    if (name != n) continue;
    auto m = std::make_shared<UnprovidedModule>(name, "CPython's `" + name + "` module");
    if (name == "types") {
      CallArgs none;
      none.pos.push_back(Value());
      m->attrs["NoneType"] = in.CallValue(in.builtins().at("type"), none);
    }
    if (name == "textwrap") m->Def("dedent", [](Interpreter&, CallArgs& a) {
      ArgBinder b("dedent", a, {"text"}, 1);
      return MakeStr(Dedent(ToStr(b.Get(0), "dedent() text")));
    });
    return Value(m);
  }
  return std::nullopt;
}

}  // namespace tilec::host
