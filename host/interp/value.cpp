// Python value semantics shared by every part of the interpreter: repr and str, truth,
// equality, indexing and slicing of the built-in containers.
#include "host/interp/value.h"
#include "host/interp/array_values.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "host/interp/errors.h"

namespace tilec::host {

Value MakeStr(std::string s) { return Value(std::make_shared<StrObj>(std::move(s))); }
Value MakeList(std::vector<Value> v) { return Value(std::make_shared<ListObj>(std::move(v))); }
Value MakeTuple(std::vector<Value> v) { return Value(std::make_shared<TupleObj>(std::move(v))); }

namespace {
struct IteratorObj : Object {
  IteratorObj(std::vector<Value> items, std::string type) : items(std::move(items)), type(std::move(type)) {}
  std::string TypeName() const override { return type; }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    std::vector<Value> rest(items.begin() + ptrdiff_t(next), items.end());
    next = items.size();
    return rest;
  }
  bool IsIterator() const override { return true; }
  std::optional<Value> Next(Interpreter&) override {
    if (next < items.size()) return items[next++];
    return std::nullopt;
  }
  std::vector<Value> items;
  std::string type;
  size_t next = 0;
};
}  // namespace

Value MakeIterator(std::vector<Value> items, std::string type_name) {
  return Value(std::make_shared<IteratorObj>(std::move(items), std::move(type_name)));
}

Value IterOf(Interpreter& in, const Value& v) {
  if (v.IsObj() && v.obj()->IsIterator()) return v;
  std::optional<std::vector<Value>> items = v.IsObj() ? v.obj()->Iterate(in) : std::nullopt;
  if (!items) TypeError("'" + TypeName(v) + "' object is not iterable");
  return MakeIterator(std::move(*items), TypeName(v) + "_iterator");
}

// next(it[, default]): only iterators answer, as in Python.
Value IteratorNext(Interpreter& in, const Value& it, const Value* dflt) {
  if (!it.IsObj() || !it.obj()->IsIterator()) TypeError("'" + TypeName(it) + "' object is not an iterator");
  if (std::optional<Value> v = it.obj()->Next(in)) return *v;
  if (dflt) return *dflt;
  Raise("StopIteration", "");
}

std::string TypeName(const Value& v) {
  switch (v.kind()) {
    case VKind::None: return "NoneType";
    case VKind::Bool: return "bool";
    case VKind::Int: return "int";
    case VKind::Float: return "float";
    case VKind::Obj: return v.obj()->TypeName();
  }
  return "object";
}

std::string FloatRepr(double d) {
  if (std::isnan(d)) return "nan";
  if (std::isinf(d)) return d > 0 ? "inf" : "-inf";
  if (d == 0) return std::signbit(d) ? "-0.0" : "0.0";
  // Shortest round-trip digits come from to_chars in scientific form; Python then picks
  // fixed notation for decimal exponents in [-4, 16).
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  std::string sci(buf, res.ptr);
  bool neg = sci[0] == '-';
  if (neg) sci.erase(0, 1);
  size_t epos = sci.find('e');
  int exp = std::stoi(sci.substr(epos + 1));
  std::string digits;
  for (size_t k = 0; k < epos; ++k)
    if (sci[k] != '.') digits += sci[k];
  int decpt = exp + 1;  // position of the decimal point relative to the digits
  std::string out = neg ? "-" : "";
  if (decpt > -4 && decpt <= 16) {
    if (decpt <= 0) {
      out += "0." + std::string(-decpt, '0') + digits;
    } else if (size_t(decpt) >= digits.size()) {
      out += digits + std::string(decpt - digits.size(), '0') + ".0";
    } else {
      out += digits.substr(0, decpt) + "." + digits.substr(decpt);
    }
  } else {
    out += digits.substr(0, 1);
    if (digits.size() > 1) out += "." + digits.substr(1);
    char e[16];
    std::snprintf(e, sizeof e, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
    out += e;
  }
  return out;
}

std::string StrRepr(const std::string& s) { return QuotedLiteral(s, false); }

std::string QuotedLiteral(const std::string& s, bool bytes) {
  char quote = (s.find('\'') != std::string::npos && s.find('"') == std::string::npos) ? '"' : '\'';
  std::string out = bytes ? std::string("b") + quote : std::string(1, quote);
  for (unsigned char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c == quote) out += std::string("\\") + char(c);
    else if (c < 0x20 || c == 0x7f || (bytes && c > 0x7f)) {
      char b[8];
      std::snprintf(b, sizeof b, "\\x%02x", c);
      out += b;
    } else {
      out += char(c);
    }
  }
  out += quote;
  return out;
}

std::string Repr(const Value& v) {
  switch (v.kind()) {
    case VKind::None: return "None";
    case VKind::Bool: return v.b() ? "True" : "False";
    case VKind::Int: return std::to_string(v.i());
    case VKind::Float: return FloatRepr(v.f());
    case VKind::Obj: return v.obj()->Repr();
  }
  return "?";
}

std::string Str(const Value& v) { return v.IsObj() ? v.obj()->Str() : Repr(v); }

bool Truth(const Value& v) {
  switch (v.kind()) {
    case VKind::None: return false;
    case VKind::Bool:
    case VKind::Int: return v.i() != 0;
    case VKind::Float: return v.f() != 0;
    case VKind::Obj: return v.obj()->Truth();
  }
  return false;
}

static bool SeqEquals(const std::vector<Value>& a, const std::vector<Value>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k)
    if (!ValueEquals(a[k], b[k])) return false;
  return true;
}

bool ValueEquals(const Value& a, const Value& b) {
  if (a.IsNumber() && b.IsNumber()) {
    if (a.IsFloat() || b.IsFloat()) return a.AsDouble() == b.AsDouble();
    return a.i() == b.i();
  }
  if (a.IsNone() || b.IsNone()) return a.IsNone() && b.IsNone();
  if (!a.IsObj() || !b.IsObj()) {
    // A NumPy scalar equals the Python number it stands for.
    const Value& o = a.IsObj() ? a : b;
    const Value& n = a.IsObj() ? b : a;
    if (auto s = o.obj()->AsScalar()) return ValueEquals(*s, n);
    return false;
  }
  if (a.obj() == b.obj()) return true;
  if (auto* x = a.As<StrObj>()) {
    auto* y = b.As<StrObj>();
    return y && x->s == y->s;
  }
  if (const std::string* x = BytesOf(a)) {
    const std::string* y = BytesOf(b);
    return y && *x == *y;
  }
  if (auto* x = a.As<ListObj>()) {
    auto* y = b.As<ListObj>();
    return y && SeqEquals(x->items, y->items);
  }
  if (auto* x = a.As<TupleObj>()) {
    auto* y = b.As<TupleObj>();
    return y && SeqEquals(x->items, y->items);
  }
  if (auto* x = a.As<DictObj>()) {
    auto* y = b.As<DictObj>();
    if (!y || x->items.size() != y->items.size()) return false;
    for (auto& [k, val] : x->items) {
      const Value* o = y->Find(k);
      if (!o || !ValueEquals(val, *o)) return false;
    }
    return true;
  }
  // Dtypes are keys of dicts made once and looked up with a fresh `np.dtype(...)`: NumPy's
  // scalar type and dtype object for one type are equal, Warp's type is not either of them.
  if (auto* x = a.As<DTypeObj>()) {
    auto* y = b.As<DTypeObj>();
    using F = DTypeObj::Flavor;
    return y && x->type == y->type && (x->flavor == F::WpType) == (y->flavor == F::WpType);
  }
  auto sa = a.obj()->AsScalar(), sb = b.obj()->AsScalar();
  if (sa && sb) return ValueEquals(*sa, *sb);
  return false;
}

int64_t ToIndex(const Value& v, const std::string& what) {
  if (v.IsIntLike()) return v.i();
  if (v.IsObj())
    if (auto i = v.obj()->AsIndex()) return *i;
  TypeError(what + " indices must be integers or slices, not " + TypeName(v));
}

int64_t NormalizeIndex(int64_t i, int64_t length, const std::string& what) {
  if (i < 0) i += length;
  if (i < 0 || i >= length) IndexError(what + " index out of range");
  return i;
}

std::vector<Value> IterateValue(Interpreter& in, const Value& v) {
  if (v.IsObj())
    if (auto items = v.obj()->Iterate(in)) return std::move(*items);
  TypeError("'" + TypeName(v) + "' object is not iterable");
}

// ---------------------------------------------------------------- Object defaults

std::string Object::Repr() const { return "<" + TypeName() + " object>"; }

std::optional<Value> Object::GetAttr(Interpreter&, const std::string&) { return std::nullopt; }

Value Object::Call(Interpreter&, CallArgs&) {
  TypeError("'" + TypeName() + "' object is not callable");
}

Value Object::GetItem(Interpreter&, const Value&) {
  TypeError("'" + TypeName() + "' object is not subscriptable");
}

void Object::SetItem(Interpreter&, const Value&, const Value&) {
  TypeError("'" + TypeName() + "' object does not support item assignment");
}

// ---------------------------------------------------------------- slices

std::string SliceObj::Repr() const {
  return "slice(" + host::Repr(lower) + ", " + host::Repr(upper) + ", " + host::Repr(step) + ")";
}

void SliceObj::Indices(int64_t length, int64_t& start, int64_t& stop, int64_t& st,
                       int64_t& count) const {
  st = step.IsNone() ? 1 : ToIndex(step, "slice");
  if (st == 0) ValueError("slice step cannot be zero");
  auto clamp = [&](const Value& v, int64_t def) -> int64_t {
    if (v.IsNone()) return def;
    int64_t i = ToIndex(v, "slice");
    if (i < 0) {
      i += length;
      if (i < 0) i = st < 0 ? -1 : 0;
    } else if (i >= length) {
      i = st < 0 ? length - 1 : length;
    }
    return i;
  };
  start = clamp(lower, st < 0 ? length - 1 : 0);
  stop = clamp(upper, st < 0 ? -1 : length);
  if (st > 0) count = stop > start ? (stop - start + st - 1) / st : 0;
  else count = start > stop ? (start - stop - st - 1) / (-st) : 0;
}

template <class Seq>
static std::vector<Value> SliceItems(const Seq& items, const SliceObj& s) {
  int64_t start, stop, step, count;
  s.Indices(int64_t(items.size()), start, stop, step, count);
  std::vector<Value> out;
  for (int64_t k = 0, i = start; k < count; ++k, i += step) out.push_back(items[i]);
  return out;
}

// ---------------------------------------------------------------- containers

static std::string JoinRepr(const std::vector<Value>& items) {
  std::string out;
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) out += ", ";
    out += host::Repr(items[k]);
  }
  return out;
}

std::string StrObj::Repr() const { return StrRepr(s); }

Value StrObj::GetItem(Interpreter&, const Value& key) {
  if (auto* sl = key.As<SliceObj>()) {
    int64_t start, stop, step, count;
    sl->Indices(int64_t(s.size()), start, stop, step, count);
    std::string out;
    for (int64_t k = 0, i = start; k < count; ++k, i += step) out += s[i];
    return MakeStr(out);
  }
  int64_t i = NormalizeIndex(ToIndex(key, "string"), int64_t(s.size()), "string");
  return MakeStr(std::string(1, s[i]));
}

std::optional<std::vector<Value>> StrObj::Iterate(Interpreter&) {
  std::vector<Value> out;
  for (char c : s) out.push_back(MakeStr(std::string(1, c)));
  return out;
}

std::string ListObj::Repr() const { return "[" + JoinRepr(items) + "]"; }

Value ListObj::GetItem(Interpreter&, const Value& key) {
  if (auto* sl = key.As<SliceObj>()) return MakeList(SliceItems(items, *sl));
  return items[NormalizeIndex(ToIndex(key, "list"), int64_t(items.size()), "list")];
}

bool ListObj::DelItem(Interpreter&, const Value& key) {
  if (auto* sl = key.As<SliceObj>()) {
    int64_t start, stop, step, count;
    sl->Indices(int64_t(items.size()), start, stop, step, count);
    std::vector<bool> drop(items.size(), false);
    for (int64_t k = 0, i = start; k < count; ++k, i += step) drop[size_t(i)] = true;
    std::vector<Value> kept;
    for (size_t i = 0; i < items.size(); ++i)
      if (!drop[i]) kept.push_back(items[i]);
    items = std::move(kept);
    return true;
  }
  items.erase(items.begin() + NormalizeIndex(ToIndex(key, "list"), int64_t(items.size()), "list assignment"));
  return true;
}

void ListObj::SetItem(Interpreter&, const Value& key, const Value& v) {
  if (key.As<SliceObj>()) TypeError("slice assignment to a list is not supported");
  items[NormalizeIndex(ToIndex(key, "list"), int64_t(items.size()), "list assignment")] = v;
}

std::string TupleObj::Repr() const {
  if (items.size() == 1) return "(" + host::Repr(items[0]) + ",)";
  return "(" + JoinRepr(items) + ")";
}

Value TupleObj::GetItem(Interpreter&, const Value& key) {
  if (auto* sl = key.As<SliceObj>()) return MakeTuple(SliceItems(items, *sl));
  return items[NormalizeIndex(ToIndex(key, "tuple"), int64_t(items.size()), "tuple")];
}

std::string DictObj::Repr() const {
  std::string out = "{";
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) out += ", ";
    out += host::Repr(items[k].first) + ": " + host::Repr(items[k].second);
  }
  return out + "}";
}

const Value* DictObj::Find(const Value& key) const {
  for (auto& [k, v] : items) {
    // Objects without value semantics (arrays) are keys by identity.
    if (k.IsObj() && key.IsObj() && k.obj() == key.obj()) return &v;
    if (ValueEquals(k, key)) return &v;
  }
  return nullptr;
}

void DictObj::Put(const Value& key, const Value& v) {
  for (auto& [k, val] : items)
    if ((k.IsObj() && key.IsObj() && k.obj() == key.obj()) || ValueEquals(k, key)) {
      val = v;
      return;
    }
  items.emplace_back(key, v);
}

static void CheckHashable(const Value& key) {
  if (key.As<ListObj>() || key.As<DictObj>())
    TypeError("unhashable type: '" + TypeName(key) + "'");
}

Value DictObj::GetItem(Interpreter&, const Value& key) {
  CheckHashable(key);
  if (const Value* v = Find(key)) return *v;
  KeyError(host::Repr(key));
}

bool DictObj::DelItem(Interpreter&, const Value& key) {
  CheckHashable(key);
  const Value* v = Find(key);
  for (size_t k = 0; k < items.size(); ++k)
    if (&items[k].second == v) {
      items.erase(items.begin() + std::ptrdiff_t(k));
      return true;
    }
  KeyError(host::Repr(key));
}

void DictObj::SetItem(Interpreter&, const Value& key, const Value& v) {
  CheckHashable(key);
  Put(key, v);
}

std::optional<std::vector<Value>> DictObj::Iterate(Interpreter&) {
  std::vector<Value> out;
  for (auto& kv : items) out.push_back(kv.first);
  return out;
}

std::string RangeObj::Repr() const {
  std::string out = "range(" + std::to_string(start) + ", " + std::to_string(stop);
  if (step != 1) out += ", " + std::to_string(step);
  return out + ")";
}

std::optional<int64_t> RangeObj::Len() const {
  if (step > 0) return stop > start ? (stop - start + step - 1) / step : 0;
  return start > stop ? (start - stop - step - 1) / (-step) : 0;
}

Value RangeObj::GetItem(Interpreter&, const Value& key) {
  int64_t n = *Len();
  return Value::Int(start + step * NormalizeIndex(ToIndex(key, "range object"), n, "range object"));
}

std::optional<std::vector<Value>> RangeObj::Iterate(Interpreter&) {
  std::vector<Value> out;
  int64_t n = *Len();
  out.reserve(size_t(n));
  for (int64_t k = 0; k < n; ++k) out.push_back(Value::Int(start + k * step));
  return out;
}

std::optional<Value> ModuleObj::GetAttr(Interpreter&, const std::string& attr) {
  auto it = attrs.find(attr);
  if (it == attrs.end()) return std::nullopt;
  return it->second;
}

void ModuleObj::Def(const std::string& attr, NativeFn fn) {
  attrs[attr] = Value(std::make_shared<BuiltinFn>(attr, std::move(fn)));
}

std::optional<Value> PyTypeObj::GetAttr(Interpreter&, const std::string& attr) {
  if (auto it = class_attrs.find(attr); it != class_attrs.end()) return it->second;
  if (attr != "__name__") return std::nullopt;
  size_t dot = name.rfind('.');
  return MakeStr(dot == std::string::npos ? name : name.substr(dot + 1));
}

}  // namespace tilec::host
