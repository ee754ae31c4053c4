// Python's string formatting, to the character: the format-spec mini-language of format()
// and f-strings, the str.format engine (numbering, field names, conversions, nested specs)
// and printf-style `%` formatting, with CPython 3.11's error messages.
#include "host/interp/format.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "support/utf8.h"

namespace tilec::host {

namespace {

// One parsed format spec: [[fill]align][sign][z][#][0][width][grouping][.precision][type].
struct Spec {
  std::string fill = " ";  // one code point, UTF-8
  char align = 0;          // '<', '>', '^', '=' or 0 (the type's default)
  char sign = 0;           // '+', '-', ' ' or 0
  bool z = false;          // coerce negative zero
  bool alt = false;        // '#'
  bool zero_fill = false;  // fill '0' set by a leading zero of the width
  int64_t width = -1;
  char grouping = 0;  // ',' or '_'
  int64_t precision = -1;
  char type = 0;
};

size_t CodePoints(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

size_t Utf8Length(unsigned char lead) {
  return lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
}

bool IsAlign(char c) { return c == '<' || c == '>' || c == '^' || c == '='; }

[[noreturn]] void Fail(const std::string& m) { ValueError(m); }

Spec ParseSpec(const std::string& spec, const std::string& type_name, char default_type) {
  Spec s;
  size_t p = 0;
  size_t first = spec.empty() ? 0 : Utf8Length(static_cast<unsigned char>(spec[0]));
  bool fill_given = false;
  if (spec.size() > first && IsAlign(spec[first])) {
    s.fill = spec.substr(0, first);
    s.align = spec[first];
    fill_given = true;
    p = first + 1;
  } else if (!spec.empty() && IsAlign(spec[0])) {
    s.align = spec[0];
    p = 1;
  }
  if (p < spec.size() && (spec[p] == '+' || spec[p] == '-' || spec[p] == ' ')) s.sign = spec[p++];
  if (p < spec.size() && spec[p] == 'z') s.z = true, ++p;
  if (p < spec.size() && spec[p] == '#') s.alt = true, ++p;
  if (p < spec.size() && spec[p] == '0' && !fill_given) {
    s.fill = "0";
    s.zero_fill = true;
    if (!s.align && default_type != 's') s.align = '=';
    ++p;
  }
  auto digits = [&](int64_t& out) {
    size_t st = p;
    int64_t v = 0;
    while (p < spec.size() && std::isdigit(static_cast<unsigned char>(spec[p]))) {
      v = v * 10 + (spec[p++] - '0');
      if (v > 1000000) Fail("Too many decimal digits in format string");
    }
    if (p > st) out = v;
    return p > st;
  };
  digits(s.width);
  if (p < spec.size() && (spec[p] == ',' || spec[p] == '_')) {
    s.grouping = spec[p++];
    if (p < spec.size() && (spec[p] == ',' || spec[p] == '_')) {
      if (spec[p] != s.grouping) Fail("Cannot specify both ',' and '_'.");
      Fail(std::string("Cannot specify '") + s.grouping + "' with '" + s.grouping + "'.");
    }
  }
  if (p < spec.size() && spec[p] == '.') {
    ++p;
    if (!digits(s.precision)) Fail("Format specifier missing precision");
  }
  if (spec.size() - p > 1) Fail("Invalid format specifier '" + spec + "' for object of type '" + type_name + "'");
  s.type = p < spec.size() ? spec[p] : default_type;
  if (s.grouping) {
    static const std::string kDecimal = "defgEFG%";
    bool ok = s.type == 0 || kDecimal.find(s.type) != std::string::npos ||
              (s.grouping == '_' && std::string("boxX").find(s.type) != std::string::npos);
    if (!ok) Fail(std::string("Cannot specify '") + s.grouping + "' with '" + s.type + "'.");
  }
  return s;
}

// Separators into the integer digits `d`, zero-filled on the left to `min_width` characters
// when asked (CPython groups the padding zeros too).
std::string Group(const std::string& d, char sep, size_t every, size_t min_width) {
  std::string out;
  size_t in_group = 0;
  size_t k = d.size();
  while (k > 0 || out.size() < min_width) {
    if (in_group == every) {
      out += sep;
      in_group = 0;
    }
    out += k > 0 ? d[--k] : '0';
    ++in_group;
  }
  return std::string(out.rbegin(), out.rend());
}

// Lays out a number: sign and prefix, digits (grouped), the rest (fraction, exponent, `%`),
// padded to the width with the spec's alignment.
std::string Layout(const Spec& s, bool negative, const std::string& prefix, std::string int_digits,
                   const std::string& rest, size_t group_every) {
  std::string sign = negative ? "-" : s.sign == '+' ? "+" : s.sign == ' ' ? " " : "";
  char align = s.align ? s.align : '>';
  size_t fixed = sign.size() + prefix.size() + rest.size();
  bool numeric_digits = !int_digits.empty() && std::isdigit(static_cast<unsigned char>(int_digits[0]));
  if (align == '=' && s.fill == "0" && numeric_digits) {
    size_t min = s.width > int64_t(fixed) ? size_t(s.width) - fixed : 0;
    int_digits = s.grouping ? Group(int_digits, s.grouping, group_every, min)
                            : std::string(min > int_digits.size() ? min - int_digits.size() : 0, '0') + int_digits;
    return sign + prefix + int_digits + rest;
  }
  if (s.grouping && numeric_digits) int_digits = Group(int_digits, s.grouping, group_every, 0);
  std::string body = int_digits + rest;
  size_t len = sign.size() + prefix.size() + CodePoints(body);
  size_t pad = s.width > int64_t(len) ? size_t(s.width) - len : 0;
  auto fill = [&](size_t n) {
    std::string f;
    for (size_t k = 0; k < n; ++k) f += s.fill;
    return f;
  };
  switch (align) {
    case '<': return sign + prefix + body + fill(pad);
    case '^': return fill(pad / 2) + sign + prefix + body + fill(pad - pad / 2);
    case '=': return sign + prefix + fill(pad) + body;
    default: return fill(pad) + sign + prefix + body;
  }
}

std::string PadString(const Spec& s, const std::string& body) {
  Spec t = s;
  t.sign = 0;
  if (!t.align) t.align = '<';
  return Layout(t, false, "", "", body, 3);
}

std::string ToBase(uint64_t u, int base, bool upper) {
  if (u == 0) return "0";
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out;
  while (u) out += digits[u % base], u /= base;
  return std::string(out.rbegin(), out.rend());
}


std::string Printf(const char* fmt, int precision, double d) {
  std::vector<char> buf(512);
  int n = std::snprintf(buf.data(), buf.size(), fmt, precision, d);
  if (n >= int(buf.size())) {
    buf.resize(size_t(n) + 1);
    std::snprintf(buf.data(), buf.size(), fmt, precision, d);
  }
  return buf.data();
}

// The digits of |d| for type e/f/g/% (or 0: repr, or 'g' that keeps a `.0`), without sign.
std::string FloatDigits(double d, char type, int64_t precision, bool alt) {
  bool upper = type == 'E' || type == 'F' || type == 'G';
  if (std::isinf(d)) return upper ? "INF" : "inf";
  if (std::isnan(d)) return upper ? "NAN" : "nan";
  if (type == 0 && precision < 0) return FloatRepr(d);
  char conv = type == 0 || type == 'n' ? 'g' : type == '%' ? 'f' : type == 'F' ? 'f' : type;
  if (type == 'F') conv = 'f';
  int prec = int(precision < 0 ? 6 : precision);
  if ((conv == 'g' || conv == 'G') && prec == 0) prec = 1;
  std::string fmt = std::string("%") + (alt ? "#" : "") + ".*" + conv;
  std::string out = Printf(fmt.c_str(), prec, type == '%' ? d * 100 : d);
  if (type == 0 && out.find_first_of(".e") == std::string::npos) out += ".0";
  if (type == '%') out += "%";
  return out;
}

std::string FormatFloatSpec(double d, const Spec& s, const std::string& type_name) {
  static const std::string kTypes = "eEfFgGn%";
  if (s.type != 0 && kTypes.find(s.type) == std::string::npos)
    Fail(std::string("Unknown format code '") + s.type + "' for object of type '" + type_name + "'");
  bool negative = std::signbit(d) && !std::isnan(d);
  std::string digits = FloatDigits(std::fabs(d), s.type, s.precision, s.alt);
  // `z`: a result that rounded to zero loses its minus sign.
  if (s.z && negative && digits.find_first_of("123456789") == std::string::npos) negative = false;
  size_t int_end = 0;
  while (int_end < digits.size() && std::isdigit(static_cast<unsigned char>(digits[int_end]))) ++int_end;
  if (int_end == 0) int_end = digits.size();  // inf, nan
  return Layout(s, negative, "", digits.substr(0, int_end), digits.substr(int_end), 3);
}

std::string FormatIntSpec(int64_t v, const Spec& s, const std::string& type_name) {
  switch (s.type) {
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case '%':
      return FormatFloatSpec(double(v), s, type_name);
    case 'b': case 'c': case 'd': case 'n': case 'o': case 'x': case 'X': break;
    default: Fail(std::string("Unknown format code '") + s.type + "' for object of type '" + type_name + "'");
  }
  if (s.precision >= 0) Fail("Precision not allowed in integer format specifier");
  if (s.z) Fail("Negative zero coercion (z) not allowed in integer format specifier");
  if (s.type == 'c') {
    if (s.sign) Fail("Sign not allowed with integer format specifier 'c'");
    if (s.alt) Fail("Alternate form (#) not allowed with integer format specifier 'c'");
    if (v < 0 || v > 0x10FFFF) Raise("OverflowError", "%c arg not in range(0x110000)");
    std::string ch;
    AppendUtf8(ch, uint32_t(v));
    return Layout(s, false, "", "", ch, 3);
  }
  bool negative = v < 0;
  uint64_t u = negative ? 0 - uint64_t(v) : uint64_t(v);
  int base = s.type == 'b' ? 2 : s.type == 'o' ? 8 : (s.type == 'x' || s.type == 'X') ? 16 : 10;
  std::string prefix;
  if (s.alt && base != 10) prefix = base == 2 ? "0b" : base == 8 ? "0o" : s.type == 'X' ? "0X" : "0x";
  return Layout(s, negative, prefix, ToBase(u, base, s.type == 'X'), "", base == 10 ? 3 : 4);
}

std::string FormatStrSpec(const std::string& str, const Spec& s) {
  if (s.type != 's') Fail(std::string("Unknown format code '") + s.type + "' for object of type 'str'");
  if (s.sign) Fail("Sign not allowed in string format specifier");
  if (s.z) Fail("Negative zero coercion (z) not allowed in string format specifier");
  if (s.alt) Fail("Alternate form (#) not allowed in string format specifier");
  if (s.align == '=') Fail("'=' alignment not allowed in string format specifier");
  std::string body = str;
  if (s.precision >= 0 && CodePoints(body) > size_t(s.precision)) {
    size_t cut = 0;
    for (int64_t n = 0; n < s.precision; ++n) cut += Utf8Length(static_cast<unsigned char>(body[cut]));
    body.resize(cut);
  }
  return PadString(s, body);
}

// ascii(): repr with every non-ASCII code point escaped.
std::string AsciiRepr(const Value& v) {
  std::string r = Repr(v), out;
  for (size_t k = 0; k < r.size();) {
    unsigned char c = static_cast<unsigned char>(r[k]);
    size_t n = Utf8Length(c);
    if (n == 1) {
      out += r[k++];
      continue;
    }
    uint32_t cp = c & (0xFF >> (n + 1));
    for (size_t j = 1; j < n && k + j < r.size(); ++j) cp = (cp << 6) | (static_cast<unsigned char>(r[k + j]) & 0x3F);
    char buf[16];
    if (cp < 0x100) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
    else if (cp < 0x10000) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
    out += buf;
    k += n;
  }
  return out;
}

}  // namespace

std::string FormatWithSpec(const Value& v0, const std::string& spec) {
  Value v = v0;
  // NumPy scalars format as the Python number they convert to.
  if (auto* nd = v.As<NdArrayObj>(); nd && nd->scalar)
    if (auto s = nd->AsScalar()) v = *s;
  if (spec.empty()) return Str(v);
  if (v.IsBool() || v.IsInt()) return FormatIntSpec(v.i(), ParseSpec(spec, TypeName(v), 'd'), TypeName(v));
  if (v.IsFloat()) return FormatFloatSpec(v.f(), ParseSpec(spec, "float", 0), "float");
  if (auto* s = v.As<StrObj>()) return FormatStrSpec(s->s, ParseSpec(spec, "str", 's'));
  TypeError("unsupported format string passed to " + TypeName(v) + ".__format__");
}

// ---------------------------------------------------------------- str.format

namespace {

class Formatter {
 public:
  Formatter(Interpreter& in, const CallArgs& args) : in_(in), args_(args) {}

  std::string Render(const std::string& fmt, int depth) {
    if (depth > 2) Fail("Max string recursion exceeded");
    std::string out;
    for (size_t k = 0; k < fmt.size(); ++k) {
      char c = fmt[k];
      if (c == '}') {
        if (k + 1 < fmt.size() && fmt[k + 1] == '}') {
          out += '}';
          ++k;
          continue;
        }
        Fail("Single '}' encountered in format string");
      }
      if (c != '{') {
        out += c;
        continue;
      }
      if (k + 1 < fmt.size() && fmt[k + 1] == '{') {
        out += '{';
        ++k;
        continue;
      }
      // The field runs to the `}` that balances its `{`, nested spec fields included.
      size_t end = k + 1;
      int level = 1;
      for (; end < fmt.size(); ++end) {
        if (fmt[end] == '{') ++level;
        else if (fmt[end] == '}' && --level == 0) break;
      }
      if (end >= fmt.size()) {
        if (fmt.find('}', k) == std::string::npos) Fail(depth == 0 ? "expected '}' before end of string" : "unmatched '{' in format spec");
        Fail("unmatched '{' in format spec");
      }
      out += Field(fmt.substr(k + 1, end - k - 1), depth);
      k = end;
    }
    return out;
  }

 private:
  std::string Field(const std::string& field, int depth) {
    size_t name_end = 0;
    int bracket = 0;
    while (name_end < field.size()) {
      char c = field[name_end];
      if (c == '[') ++bracket;
      else if (c == ']') --bracket;
      else if (bracket == 0 && (c == '!' || c == ':')) break;
      ++name_end;
    }
    std::string name = field.substr(0, name_end);
    char conversion = 0;
    size_t p = name_end;
    if (p < field.size() && field[p] == '!') {
      if (p + 1 >= field.size()) Fail("end of string while looking for conversion specifier");
      conversion = field[p + 1];
      p += 2;
      if (p < field.size() && field[p] != ':') Fail("expected ':' after conversion specifier");
    }
    std::string spec = p < field.size() ? field.substr(p + 1) : "";
    Value v = Lookup(name);
    if (conversion == 'r') v = MakeStr(Repr(v));
    else if (conversion == 's') v = MakeStr(Str(v));
    else if (conversion == 'a') v = MakeStr(AsciiRepr(v));
    else if (conversion) Fail(std::string("Unknown conversion specifier ") + conversion);
    if (spec.find('{') != std::string::npos) spec = Render(spec, depth + 1);
    return FormatWithSpec(v, spec);
  }

  // arg_name ("." attribute | "[" index "]")*
  Value Lookup(const std::string& name) {
    size_t p = 0;
    while (p < name.size() && name[p] != '.' && name[p] != '[') ++p;
    std::string first = name.substr(0, p);
    Value v;
    bool numeric = !first.empty() && first.find_first_not_of("0123456789") == std::string::npos;
    if (first.empty() || numeric) {
      size_t index;
      if (first.empty()) {
        if (manual_) Fail("cannot switch from manual field specification to automatic field numbering");
        automatic_ = true;
        index = next_++;
      } else {
        if (automatic_) Fail("cannot switch from automatic field numbering to manual field specification");
        manual_ = true;
        index = std::stoul(first);
      }
      if (index >= args_.pos.size())
        IndexError("Replacement index " + std::to_string(index) + " out of range for positional args tuple");
      v = args_.pos[index];
    } else {
      bool found = false;
      for (auto& [k, val] : args_.kw)
        if (k == first) v = val, found = true;
      if (!found) KeyError(StrRepr(first));
    }
    while (p < name.size()) {
      if (name[p] == '.') {
        size_t e = p + 1;
        while (e < name.size() && name[e] != '.' && name[e] != '[') ++e;
        if (e == p + 1) Fail("Empty attribute in format string");
        v = in_.GetAttr(v, name.substr(p + 1, e - p - 1));
        p = e;
      } else {
        size_t e = name.find(']', p);
        if (e == std::string::npos) Fail("Missing ']' in format string");
        std::string key = name.substr(p + 1, e - p - 1);
        if (key.empty()) Fail("Empty attribute in format string");
        Value k = key.find_first_not_of("0123456789") == std::string::npos ? Value::Int(std::stoll(key)) : MakeStr(key);
        if (!v.IsObj()) TypeError("'" + TypeName(v) + "' object is not subscriptable");
        v = v.obj()->GetItem(in_, k);
        p = e + 1;
        if (p < name.size() && name[p] != '.' && name[p] != '[')
          Fail("Only '.' or '[' may follow ']' in format field specifier");
      }
    }
    return v;
  }

  Interpreter& in_;
  const CallArgs& args_;
  size_t next_ = 0;
  bool automatic_ = false, manual_ = false;
};

}  // namespace

std::string StrFormat(Interpreter& in, const std::string& fmt, const CallArgs& args) {
  return Formatter(in, args).Render(fmt, 0);
}

// ---------------------------------------------------------------- printf-style %

std::string PercentFormat(Interpreter& in, const std::string& fmt, const Value& args) {
  std::vector<Value> items;
  const DictObj* mapping = args.As<DictObj>();
  if (auto* t = args.As<TupleObj>()) items = t->items;
  else items.push_back(args);
  size_t next = 0;
  bool used_mapping = false;
  auto take = [&]() -> Value {
    if (next >= items.size()) TypeError("not enough arguments for format string");
    return items[next++];
  };
  std::string out;
  for (size_t k = 0; k < fmt.size(); ++k) {
    if (fmt[k] != '%') {
      out += fmt[k];
      continue;
    }
    ++k;
    Value v;
    bool have_value = false;
    if (k < fmt.size() && fmt[k] == '(') {
      size_t close = k + 1;
      for (int level = 1; close < fmt.size(); ++close) {
        if (fmt[close] == '(') ++level;
        else if (fmt[close] == ')' && --level == 0) break;
      }
      if (close >= fmt.size()) ValueError("incomplete format key");
      if (!mapping) TypeError("format requires a mapping");
      Value key = MakeStr(fmt.substr(k + 1, close - k - 1));
      const Value* found = mapping->Find(key);
      if (!found) KeyError(Repr(key));
      v = *found;
      have_value = used_mapping = true;
      k = close + 1;
    }
    Spec s;
    bool left = false, zero = false;
    for (; k < fmt.size() && std::strchr("-+ #0", fmt[k]); ++k) {
      if (fmt[k] == '-') left = true;
      else if (fmt[k] == '+') s.sign = '+';
      else if (fmt[k] == ' ' && s.sign != '+') s.sign = ' ';
      else if (fmt[k] == '#') s.alt = true;
      else zero = true;
    }
    auto number = [&](int64_t& target) {
      if (k < fmt.size() && fmt[k] == '*') {
        Value w = take();
        if (!w.IsIntLike()) TypeError("* wants int");
        target = w.i();
        ++k;
        return;
      }
      int64_t n = -1;
      while (k < fmt.size() && std::isdigit(static_cast<unsigned char>(fmt[k]))) n = (n < 0 ? 0 : n) * 10 + (fmt[k++] - '0');
      target = n;
    };
    number(s.width);
    if (s.width < -1) left = true, s.width = -s.width;
    if (k < fmt.size() && fmt[k] == '.') {
      ++k;
      number(s.precision);
      if (s.precision < 0) s.precision = 0;
    }
    while (k < fmt.size() && std::strchr("hlL", fmt[k])) ++k;
    if (k >= fmt.size()) ValueError("incomplete format");
    char conv = fmt[k];
    if (conv == '%') {
      out += '%';
      continue;
    }
    if (!have_value) v = take();
    Value num = v;
    if (auto* nd = v.As<NdArrayObj>(); nd && nd->scalar)
      if (auto sc = nd->AsScalar()) num = *sc;
    s.align = left ? '<' : '>';
    if (zero && !left && std::strchr("diouxXeEfFgG", conv)) s.fill = "0", s.align = '=';
    switch (conv) {
      case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': {
        bool decimal = conv == 'd' || conv == 'i' || conv == 'u';
        if (!num.IsNumber() || (!decimal && num.IsFloat()))
          TypeError(std::string("%") + conv + " format: " + (decimal ? "a real number" : "an integer") +
                    " is required, not " + TypeName(v));
        int64_t i = num.IsFloat() ? int64_t(std::trunc(num.f())) : num.i();
        bool negative = i < 0;
        uint64_t u = negative ? 0 - uint64_t(i) : uint64_t(i);
        int base = decimal ? 10 : conv == 'o' ? 8 : 16;
        std::string digits = ToBase(u, base, conv == 'X');
        // The precision is a minimum digit count here.
        if (s.precision > int64_t(digits.size())) digits.insert(0, size_t(s.precision) - digits.size(), '0');
        std::string prefix = s.alt && !decimal ? (conv == 'o' ? "0o" : conv == 'x' ? "0x" : "0X") : "";
        Spec t = s;
        t.precision = -1;
        out += Layout(t, negative, prefix, digits, "", 3);
        break;
      }
      case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': {
        if (!num.IsNumber()) TypeError("must be real number, not " + TypeName(v));
        double d = num.AsDouble();
        bool negative = std::signbit(d) && !std::isnan(d);
        std::string digits = FloatDigits(std::fabs(d), conv, s.precision < 0 ? 6 : s.precision, s.alt);
        size_t int_end = 0;
        while (int_end < digits.size() && std::isdigit(static_cast<unsigned char>(digits[int_end]))) ++int_end;
        if (int_end == 0) int_end = digits.size();
        out += Layout(s, negative, "", digits.substr(0, int_end), digits.substr(int_end), 3);
        break;
      }
      case 'c': {
        std::string ch;
        if (auto* str = v.As<StrObj>(); str && CodePoints(str->s) == 1) ch = str->s;
        else if (num.IsIntLike()) {
          if (num.i() < 0 || num.i() > 0x10FFFF) Raise("OverflowError", "%c arg not in range(0x110000)");
          AppendUtf8(ch, uint32_t(num.i()));
        } else {
          TypeError("%c requires int or char");
        }
        out += PadString(s, ch);
        break;
      }
      case 's': case 'r': case 'a': {
        std::string text = conv == 's' ? Str(v) : conv == 'r' ? Repr(v) : AsciiRepr(v);
        Spec t = s;
        t.type = 's';
        t.sign = 0;
        t.alt = false;
        out += FormatStrSpec(text, t);
        break;
      }
      default: {
        char buf[96];
        std::snprintf(buf, sizeof buf, "unsupported format character '%c' (0x%x) at index %zu", conv,
                      unsigned(static_cast<unsigned char>(conv)), k);
        ValueError(buf);
      }
    }
  }
  if (next < items.size() && !mapping && !used_mapping)
    TypeError("not all arguments converted during string formatting");
  return out;
}

}  // namespace tilec::host
