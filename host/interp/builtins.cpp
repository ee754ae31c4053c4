// Python's built-in functions of the host subset (print, range, len, int, float, ...) and a
// small `math` module.
#include <algorithm>
#include <cerrno>
#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ostream>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/set_value.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_enum.h"
#include "host/interp/py_stdio.h"
#include "support/utf8.h"

namespace tilec::host {

std::vector<Value> SortValues(Interpreter& in, std::vector<Value> items, const Value* key, bool reverse) {
  // Keys are computed once per element, as CPython does; a reversed sort stays stable.
  std::vector<Value> keys = items;
  if (key && !key->IsNone())
    for (Value& k : keys) {
      CallArgs one{{k}, {}};
      k = in.CallValue(*key, one);
    }
  std::vector<size_t> order(items.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    return Truth(CompareValues(in, ast::CmpOp::Lt, reverse ? keys[y] : keys[x], reverse ? keys[x] : keys[y]));
  });
  std::vector<Value> out;
  for (size_t k : order) out.push_back(std::move(items[k]));
  return out;
}

namespace {

void Def(std::map<std::string, Value>& t, const std::string& name, NativeFn fn) {
  t[name] = Value(std::make_shared<BuiltinFn>(name, std::move(fn)));
}
void DefType(std::map<std::string, Value>& t, const std::string& name, NativeFn fn) {
  t[name] = Value(std::make_shared<PyTypeObj>(name, std::move(fn)));
}

std::optional<Value> ScalarOf(const Value& v) {
  if (v.IsNumber()) return v;
  if (v.IsObj()) return v.obj()->AsScalar();
  return std::nullopt;
}

Value ToIntValue(const Value& v) {
  if (v.IsIntLike()) return Value::Int(v.i());
  if (v.IsFloat()) {
    double d = v.f();
    if (std::isinf(d)) Raise("OverflowError", "cannot convert float infinity to integer");
    if (std::isnan(d)) ValueError("cannot convert float NaN to integer");
    if (d >= 9.2233720368547758e18 || d < -9.2233720368547758e18)
      Raise("OverflowError", "int too large (host ints are 64-bit)");
    return Value::Int(int64_t(std::trunc(d)));
  }
  if (auto* s = v.As<StrObj>()) {
    std::string t = s->s;
    t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
    size_t l = t.find_first_not_of(" \t\n"), r = t.find_last_not_of(" \t\n");
    std::string body = l == std::string::npos ? "" : t.substr(l, r - l + 1);
    char* end = nullptr;
    errno = 0;
    long long x = body.empty() ? 0 : std::strtoll(body.c_str(), &end, 10);
    if (body.empty() || *end || errno)
      ValueError("invalid literal for int() with base 10: " + StrRepr(s->s));
    return Value::Int(x);
  }
  if (auto sc = ScalarOf(v)) return ToIntValue(*sc);
  TypeError("int() argument must be a string, a bytes-like object or a real number, not '" + TypeName(v) + "'");
}

Value ToFloatValue(const Value& v) {
  if (v.IsNumber()) return Value::Float(v.AsDouble());
  if (auto* s = v.As<StrObj>()) {
    size_t l = s->s.find_first_not_of(" \t\n"), r = s->s.find_last_not_of(" \t\n");
    std::string body = l == std::string::npos ? "" : s->s.substr(l, r - l + 1);
    std::string low = body;
    for (char& c : low) c = char(tolower((unsigned char)c));
    if (low == "inf" || low == "+inf" || low == "infinity") return Value::Float(INFINITY);
    if (low == "-inf" || low == "-infinity") return Value::Float(-INFINITY);
    if (low == "nan" || low == "+nan" || low == "-nan") return Value::Float(NAN);
    char* end = nullptr;
    double d = body.empty() ? 0 : std::strtod(body.c_str(), &end);
    if (body.empty() || *end || low.find("x") != std::string::npos)
      ValueError("could not convert string to float: " + StrRepr(s->s));
    return Value::Float(d);
  }
  if (auto sc = ScalarOf(v)) return ToFloatValue(*sc);
  TypeError("float() argument must be a string or a real number, not '" + TypeName(v) + "'");
}

Value MinMax(Interpreter& in, CallArgs& a, bool is_max) {
  const char* name = is_max ? "max" : "min";
  CallArgs kw_only{{}, a.kw};
  ArgBinder b(name, kw_only, {"default", "key"}, 0);
  std::vector<Value> items;
  if (a.pos.empty())
    TypeError(std::string(name) + " expected at least 1 argument, got 0");
  if (a.pos.size() == 1) items = IterateValue(in, a.pos[0]);
  else items = a.pos;
  if (a.pos.size() > 1 && b.Has(0))
    TypeError(std::string("Cannot specify a default for ") + name + "() with multiple positional arguments");
  if (items.empty()) {
    if (b.Has(0)) return b.Get(0);
    ValueError(std::string(name) + "() arg is an empty sequence");
  }
  bool keyed = b.Has(1) && !b.Get(1).IsNone();
  auto key_of = [&](const Value& v) {
    if (!keyed) return v;
    CallArgs one{{v}, {}};
    return in.CallValue(b.Get(1), one);
  };
  Value best = items[0], best_key = key_of(items[0]);
  for (size_t k = 1; k < items.size(); ++k) {
    Value key = key_of(items[k]);
    if (Truth(CompareValues(in, is_max ? ast::CmpOp::Gt : ast::CmpOp::Lt, key, best_key))) {
      best = items[k];
      best_key = key;
    }
  }
  return best;
}

double RoundHalfEven(double x) {
  int saved = std::fegetround();
  std::fesetround(FE_TONEAREST);
  double r = std::nearbyint(x);
  std::fesetround(saved);
  return r;
}

// round(int, ndigits): exact, halves to even.
int64_t RoundInt(int64_t x, int64_t ndigits) {
  if (ndigits >= 0) return x;
  __int128 unit = 1;
  for (int64_t k = 0; k < -ndigits && unit <= __int128(INT64_MAX) * 10; ++k) unit *= 10;
  __int128 q = x / unit, r = x % unit;
  if (r < 0) r += unit, q -= 1;
  if (2 * r > unit || (2 * r == unit && (q & 1))) q += 1;
  __int128 out = q * unit;
  if (out > INT64_MAX || out < INT64_MIN) Raise("OverflowError", "int too large (host ints are 64-bit)");
  return int64_t(out);
}

// round(float, ndigits) as CPython does it: the exact decimal value rounded half to even at
// digit `ndigits`, read back. printf's `%.Nf` is exact, so it does the work for ndigits >= 0;
// below that the integer digits are rounded by hand.
double RoundFloat(double x, int64_t ndigits) {
  if (!std::isfinite(x) || x == 0.0) return x;
  if (ndigits > 323) return x;
  if (ndigits < -308) return 0.0 * x;
  std::vector<char> buf(700);
  if (ndigits >= 0) {
    std::snprintf(buf.data(), buf.size(), "%.*f", int(ndigits), x);
    return std::strtod(buf.data(), nullptr);
  }
  // Every double of magnitude >= 1 has an exact expansion within 60 fraction digits; smaller
  // magnitudes round to zero at any negative ndigits.
  std::snprintf(buf.data(), buf.size(), "%.60f", std::fabs(x));
  std::string text = buf.data();
  size_t dot = text.find('.');
  std::string digits = text.substr(0, dot), frac = text.substr(dot + 1);
  if (digits == "0") return 0.0 * x;
  size_t drop = size_t(-ndigits);
  std::string kept = drop < digits.size() ? digits.substr(0, digits.size() - drop) : "";
  std::string rest = drop < digits.size() ? digits.substr(digits.size() - drop) : std::string(drop - digits.size(), '0') + digits;
  rest += frac;
  bool beyond_half = rest.find_first_not_of('0', 1) != std::string::npos;
  int last = kept.empty() ? 0 : kept.back() - '0';
  bool up = rest[0] > '5' || (rest[0] == '5' && (beyond_half || (last & 1)));
  if (up) {
    int k = int(kept.size()) - 1;
    while (k >= 0 && kept[k] == '9') kept[k--] = '0';
    if (k >= 0) kept[k]++;
    else kept.insert(kept.begin(), '1');
  }
  if (kept.empty()) return 0.0 * x;
  double r = std::strtod((kept + "e" + std::to_string(drop)).c_str(), nullptr);
  if (std::isinf(r)) Raise("OverflowError", "rounded value too large to represent");
  return std::copysign(r, x);
}


}  // namespace

// `...`: a singleton that annotations and stub bodies use.
struct EllipsisObj : Object {
  std::string TypeName() const override { return "ellipsis"; }
  std::string Repr() const override { return "Ellipsis"; }
};

void InstallBuiltins(std::map<std::string, Value>& t) {
  t["Ellipsis"] = Value(std::make_shared<EllipsisObj>());
  Def(t, "print", [](Interpreter& in, CallArgs& a) {
    CallArgs kw_only{{}, a.kw};
    ArgBinder b("print", kw_only, {"sep", "end", "file", "flush"}, 0);
    std::string sep = " ", end = "\n";
    if (b.Has(0) && !b.Get(0).IsNone()) sep = ToStr(b.Get(0), "print() sep");
    if (b.Has(1) && !b.Get(1).IsNone()) end = ToStr(b.Get(1), "print() end");
    std::string line;
    for (size_t k = 0; k < a.pos.size(); ++k) {
      if (k) line += sep;
      line += Str(a.pos[k]);
    }
    WriteText(in, b.Get(2, Value()), line + end, /*flush=*/true);
    return Value();
  });
  Def(t, "iter", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("iter", a, {"object"}, 1);
    return IterOf(in, b.Get(0));
  });
  Def(t, "next", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("next", a, {"iterator", "default"}, 1);
    return IteratorNext(in, b.Get(0), b.Has(1) ? &b.Get(1) : nullptr);
  });
  DefType(t, "range", [](Interpreter&, CallArgs& a) {
    if (!a.kw.empty()) TypeError("range() takes no keyword arguments");
    if (a.pos.empty() || a.pos.size() > 3)
      TypeError("range expected at least 1 argument, got " + std::to_string(a.pos.size()));
    std::vector<int64_t> v;
    for (const Value& x : a.pos) {
      if (x.IsIntLike()) v.push_back(x.i());
      else if (auto i = x.IsObj() ? x.obj()->AsIndex() : std::nullopt) v.push_back(*i);
      else TypeError("'" + TypeName(x) + "' object cannot be interpreted as an integer");
    }
    if (v.size() == 1) return Value(std::make_shared<RangeObj>(0, v[0], 1));
    if (v.size() == 3 && v[2] == 0) ValueError("range() arg 3 must not be zero");
    return Value(std::make_shared<RangeObj>(v[0], v[1], v.size() == 3 ? v[2] : 1));
  });
  // slice(stop) and slice(start, stop[, step]): what `a[start:stop:step]` builds.
  DefType(t, "slice", [](Interpreter&, CallArgs& a) {
    if (!a.kw.empty()) TypeError("slice() takes no keyword arguments");
    if (a.pos.empty() || a.pos.size() > 3)
      TypeError(std::string(a.pos.empty() ? "slice expected at least 1 argument, got 0"
                                          : "slice expected at most 3 arguments, got " + std::to_string(a.pos.size())));
    auto s = std::make_shared<SliceObj>();
    if (a.pos.size() == 1) {
      s->upper = a.pos[0];
    } else {
      s->lower = a.pos[0];
      s->upper = a.pos[1];
      if (a.pos.size() == 3) s->step = a.pos[2];
    }
    return Value(s);
  });
  Def(t, "len", [](Interpreter&, CallArgs& a) {
    ArgBinder b("len", a, {"obj"}, 1);
    const Value& v = b.Get(0);
    if (v.IsObj())
      if (auto n = v.obj()->Len()) return Value::Int(*n);
    TypeError("object of type '" + TypeName(v) + "' has no len()");
  });
  DefType(t, "int", [](Interpreter&, CallArgs& a) {
    ArgBinder b("int", a, {"x"}, 0);
    return b.Has(0) ? ToIntValue(b.Get(0)) : Value::Int(0);
  });
  DefType(t, "float", [](Interpreter&, CallArgs& a) {
    ArgBinder b("float", a, {"x"}, 0);
    return b.Has(0) ? ToFloatValue(b.Get(0)) : Value::Float(0);
  });
  DefType(t, "bool", [](Interpreter&, CallArgs& a) {
    ArgBinder b("bool", a, {"x"}, 0);
    return Value::Bool(b.Has(0) && Truth(b.Get(0)));
  });
  DefType(t, "str", [](Interpreter&, CallArgs& a) {
    ArgBinder b("str", a, {"object"}, 0);
    return MakeStr(b.Has(0) ? Str(b.Get(0)) : "");
  });
  Def(t, "repr", [](Interpreter&, CallArgs& a) {
    ArgBinder b("repr", a, {"obj"}, 1);
    return MakeStr(Repr(b.Get(0)));
  });
  Def(t, "abs", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("abs", a, {"x"}, 1);
    const Value& v = b.Get(0);
    if (v.IsIntLike()) {
      if (v.i() == INT64_MIN) Raise("OverflowError", "integer overflow (host ints are 64-bit)");
      return Value::Int(v.i() < 0 ? -v.i() : v.i());
    }
    if (v.IsFloat()) return Value::Float(std::fabs(v.f()));
    if (v.IsObj())
      if (auto f = v.obj()->GetAttr(in, "__abs__")) {
        CallArgs none;
        return in.CallValue(*f, none);
      }
    TypeError("bad operand type for abs(): '" + TypeName(v) + "'");
  });
  Def(t, "min", [](Interpreter& in, CallArgs& a) { return MinMax(in, a, false); });
  Def(t, "max", [](Interpreter& in, CallArgs& a) { return MinMax(in, a, true); });
  Def(t, "sum", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("sum", a, {"iterable", "start"}, 1);
    Value acc = b.Get(1, Value::Int(0));
    if (acc.As<StrObj>()) TypeError("sum() can't sum strings [use ''.join(seq) instead]");
    for (const Value& v : IterateValue(in, b.Get(0))) acc = BinaryOpValues(in, ast::BinaryOp::Add, acc, v);
    return acc;
  });
  DefType(t, "list", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("list", a, {"iterable"}, 0);
    return MakeList(b.Has(0) ? IterateValue(in, b.Get(0)) : std::vector<Value>{});
  });
  DefType(t, "tuple", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("tuple", a, {"iterable"}, 0);
    return MakeTuple(b.Has(0) ? IterateValue(in, b.Get(0)) : std::vector<Value>{});
  });
  DefType(t, "dict", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("dict", a, {"mapping"}, 0, true);
    auto d = std::make_shared<DictObj>();
    if (b.Has(0)) {
      if (auto* src = b.Get(0).As<DictObj>()) d->items = src->items;
      else
        for (const Value& kv : IterateValue(in, b.Get(0))) {
          auto items = IterateValue(in, kv);
          if (items.size() != 2)
            ValueError("dictionary update sequence element has length " + std::to_string(items.size()) + "; 2 is required");
          d->Put(items[0], items[1]);
        }
    }
    for (auto& [k, v] : b.extra()) d->Put(MakeStr(k), v);
    return Value(d);
  });
  t["dict"].As<PyTypeObj>()->class_attrs["fromkeys"] =
      Value(std::make_shared<BuiltinFn>("fromkeys", [](Interpreter& in, CallArgs& a) {
        ArgBinder b("fromkeys", a, {"iterable", "value"}, 1);
        auto d = std::make_shared<DictObj>();
        for (const Value& k : IterateValue(in, b.Get(0))) d->Put(k, b.Get(1, Value()));
        return Value(d);
      }));
  Def(t, "enumerate", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("enumerate", a, {"iterable", "start"}, 1);
    int64_t start = b.Has(1) ? ToInt(b.Get(1), "enumerate() start") : 0;
    std::vector<Value> out;
    for (const Value& v : IterateValue(in, b.Get(0))) out.push_back(MakeTuple({Value::Int(start++), v}));
    return MakeList(out);
  });
  Def(t, "zip", [](Interpreter& in, CallArgs& a) {
    // Python 3.10's zip(..., strict=True): sequences of different lengths are a ValueError.
    bool strict = false;
    for (const auto& [k, v] : a.kw) {
      if (k != "strict") TypeError("'" + k + "' is an invalid keyword argument for zip()");
      strict = Truth(v);
    }
    // Iterators (possibly endless: itertools.count, generators) are stepped only as far as the
    // shortest of the other arguments reaches.
    std::vector<std::vector<Value>> seqs;
    std::optional<size_t> bound;
    std::vector<bool> lazy;
    for (const Value& v : a.pos) {
      if (!v.IsObj()) TypeError("'" + TypeName(v) + "' object is not iterable");
      lazy.push_back(v.obj()->IsIterator());
      if (lazy.back()) {
        seqs.emplace_back();
        continue;
      }
      std::optional<std::vector<Value>> items = v.obj()->Iterate(in);
      if (!items) TypeError("'" + TypeName(v) + "' object is not iterable");
      bound = std::min(bound.value_or(SIZE_MAX), items->size());
      seqs.push_back(std::move(*items));
    }
    size_t reach = bound.value_or(SIZE_MAX);
    for (size_t k = 0; k < seqs.size(); ++k) {
      if (!lazy[k]) continue;
      while (seqs[k].size() < reach)
        if (std::optional<Value> x = a.pos[k].obj()->Next(in)) seqs[k].push_back(*x);
        else break;
      reach = std::min(reach, seqs[k].size());
    }
    std::vector<Value> out;
    if (seqs.empty()) return MakeList(out);
    size_t n = seqs[0].size();
    for (auto& s : seqs) n = std::min(n, s.size());
    if (strict)
      for (size_t k = 1; k < seqs.size(); ++k)
        if (seqs[k].size() != seqs[0].size())
          ValueError("zip() argument " + std::to_string(k + 1) + " is " +
                     (seqs[k].size() < seqs[0].size() ? "shorter" : "longer") + " than argument" +
                     (k == 1 ? " 1" : "s 1-" + std::to_string(k)));
    for (size_t k = 0; k < n; ++k) {
      std::vector<Value> row;
      for (auto& s : seqs) row.push_back(s[k]);
      out.push_back(MakeTuple(row));
    }
    return MakeList(out);
  });
  Def(t, "sorted", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() > 1)
      TypeError("sorted expected 1 argument, got " + std::to_string(a.pos.size()));
    ArgBinder b("sorted", a, {"iterable", "key", "reverse"}, 1);
    return MakeList(SortValues(in, IterateValue(in, b.Get(0)), b.Has(1) ? &b.Get(1) : nullptr,
                               b.Has(2) && Truth(b.Get(2))));
  });
  // map and filter apply their function as they are made (host iterables are eager), and
  // like Python's they can be iterated once.
  Def(t, "map", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() < 2) TypeError("map() must have at least two arguments.");
    if (!a.kw.empty()) TypeError("map() takes no keyword arguments");
    std::vector<std::vector<Value>> seqs;
    size_t n = SIZE_MAX;
    for (size_t k = 1; k < a.pos.size(); ++k) {
      seqs.push_back(IterateValue(in, a.pos[k]));
      n = std::min(n, seqs.back().size());
    }
    auto out = std::make_shared<GeneratorObj>();
    out->type_name = "map";
    for (size_t i = 0; i < n; ++i) {
      CallArgs args;
      for (auto& s : seqs) args.pos.push_back(s[i]);
      out->items.push_back(in.CallValue(a.pos[0], args));
    }
    return Value(out);
  });
  Def(t, "filter", [](Interpreter& in, CallArgs& a) {
    if (!a.kw.empty()) TypeError("filter() takes no keyword arguments");
    if (a.pos.size() != 2) TypeError("filter expected 2 arguments, got " + std::to_string(a.pos.size()));
    auto out = std::make_shared<GeneratorObj>();
    out->type_name = "filter";
    for (const Value& v : IterateValue(in, a.pos[1])) {
      bool keep;
      if (a.pos[0].IsNone()) {
        keep = Truth(v);
      } else {
        CallArgs one{{v}, {}};
        keep = Truth(in.CallValue(a.pos[0], one));
      }
      if (keep) out->items.push_back(v);
    }
    return Value(out);
  });
  // type(x): the built-in class for Python values (so `type(x) is int` holds), the exception
  // class for exceptions, else a class object named after the value's type.
  auto* table = &t;
  Def(t, "type", [table](Interpreter&, CallArgs& a) {
    ArgBinder b("type", a, {"object"}, 1);
    const Value& v = b.Get(0);
    if (auto* e = v.As<ExcObj>()) return Value(std::const_pointer_cast<ExcTypeObj>(e->type));
    if (std::optional<Value> cls = HostClassOf(v)) return *cls;
    std::string name = TypeName(v);
    auto it = table->find(name);
    if (it != table->end() && it->second.As<PyTypeObj>()) return it->second;
    // One class object per type name, so that `type(a) is type(b)` holds (types.NoneType).
    static std::map<std::string, Value> made;
    Value& cls = made[name];
    if (!cls.IsObj())
      cls = Value(std::make_shared<PyTypeObj>(name, [name](Interpreter&, CallArgs&) -> Value {
        TypeError("cannot create '" + name + "' instances");
      }));
    return cls;
  });
  // Strings are UTF-8: ord decodes one code point, chr encodes one.
  Def(t, "ord", [](Interpreter&, CallArgs& a) {
    ArgBinder b("ord", a, {"c"}, 1);
    auto* s = b.Get(0).As<StrObj>();
    if (!s) TypeError("ord() expected string of length 1, but " + TypeName(b.Get(0)) + " found");
    const std::string& x = s->s;
    size_t len = x.empty() ? 0 : (unsigned char)x[0] < 0x80 ? 1 : (unsigned char)x[0] < 0xE0 ? 2
                                  : (unsigned char)x[0] < 0xF0 ? 3 : 4;
    size_t chars = 0;
    for (unsigned char c : x) chars += (c & 0xC0) != 0x80;
    if (chars != 1 || len != x.size())
      TypeError("ord() expected a character, but string of length " + std::to_string(chars) + " found");
    uint32_t cp = len == 1 ? (unsigned char)x[0] : (unsigned char)x[0] & (0x7F >> len);
    for (size_t k = 1; k < len; ++k) cp = (cp << 6) | ((unsigned char)x[k] & 0x3F);
    return Value::Int(cp);
  });
  Def(t, "chr", [](Interpreter&, CallArgs& a) {
    ArgBinder b("chr", a, {"i"}, 1);
    int64_t cp = ToInt(b.Get(0), "chr()");
    if (cp < 0 || cp > 0x10FFFF) ValueError("chr() arg not in range(0x110000)");
    std::string out;
    AppendUtf8(out, uint32_t(cp));
    return MakeStr(out);
  });
  Def(t, "hash", [](Interpreter&, CallArgs& a) {
    ArgBinder b("hash", a, {"obj"}, 1);
    auto h = PyHash(b.Get(0));
    if (!h) TypeError("unhashable type: '" + TypeName(b.Get(0)) + "'");
    return Value::Int(*h);
  });
  DefType(t, "set", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("set", a, {"iterable"}, 0);
    if (b.Has(0))
      if (auto* s = b.Get(0).As<SetObj>()) return Value(CopySet(*s));
    return Value(MakeSet(in, b.Has(0) ? IterateValue(in, b.Get(0)) : std::vector<Value>{}));
  });
  for (bool want_all : {false, true}) {
    const char* name = want_all ? "all" : "any";
    Def(t, name, [want_all, name](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"iterable"}, 1);
      for (const Value& v : IterateValue(in, b.Get(0)))
        if (Truth(v) != want_all) return Value::Bool(!want_all);
      return Value::Bool(want_all);
    });
  }
  Def(t, "reversed", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("reversed", a, {"sequence"}, 1);
    std::vector<Value> items = IterateValue(in, b.Get(0));
    std::reverse(items.begin(), items.end());
    return MakeList(items);
  });
  Def(t, "round", [](Interpreter&, CallArgs& a) {
    ArgBinder b("round", a, {"number", "ndigits"}, 1);
    const Value& v = b.Get(0);
    bool has_digits = b.Has(1) && !b.Get(1).IsNone();
    int64_t nd = has_digits ? ToInt(b.Get(1), "round() ndigits") : 0;
    if (auto* nd_obj = v.As<NdArrayObj>()) {
      if (!nd_obj->scalar) TypeError("type numpy.ndarray doesn't define __round__ method");
      // NumPy scalars round as np.round does; without ndigits the result is a Python int.
      NdArray r = Round(nd_obj->a, nd);
      if (!has_digits) return ToIntValue(Value::Float(r.Item().AsDouble()));
      return WrapNd(r, true);
    }
    if (v.IsIntLike()) return Value::Int(has_digits ? RoundInt(v.i(), nd) : v.i());
    if (!v.IsFloat()) TypeError("type " + TypeName(v) + " doesn't define __round__ method");
    if (!has_digits) return ToIntValue(Value::Float(RoundHalfEven(v.f())));
    return Value::Float(RoundFloat(v.f(), nd));
  });
  Def(t, "format", [](Interpreter&, CallArgs& a) {
    ArgBinder b("format", a, {"value", "format_spec"}, 1);
    return MakeStr(FormatWithSpec(b.Get(0), b.Has(1) ? ToStr(b.Get(1), "format()") : ""));
  });
  Def(t, "divmod", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("divmod", a, {"x", "y"}, 2);
    return MakeTuple({BinaryOpValues(in, ast::BinaryOp::FloorDiv, b.Get(0), b.Get(1)),
                      BinaryOpValues(in, ast::BinaryOp::Mod, b.Get(0), b.Get(1))});
  });
  Def(t, "pow", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("pow", a, {"base", "exp"}, 2);
    return BinaryOpValues(in, ast::BinaryOp::Pow, b.Get(0), b.Get(1));
  });
  Def(t, "isinstance", [](Interpreter&, CallArgs& a) {
    ArgBinder b("isinstance", a, {"obj", "class_or_tuple"}, 2);
    std::vector<Value> classes;
    if (auto* tu = b.Get(1).As<TupleObj>()) classes = tu->items;
    else classes.push_back(b.Get(1));
    std::string tn = TypeName(b.Get(0));
    for (const Value& c : classes) {
      if (auto* et = c.As<ExcTypeObj>()) {
        auto* ex = b.Get(0).As<ExcObj>();
        if (ex && ex->type->IsSubclassOf(et)) return Value::Bool(true);
        continue;
      }
      if (IsHostClass(c)) {
        std::optional<Value> own = HostClassOf(b.Get(0));
        if (own && ClassDerivesFrom(*own, c)) return Value::Bool(true);
        continue;
      }
      auto* ty = c.As<PyTypeObj>();
      if (!ty) TypeError("isinstance() arg 2 must be a type or tuple of types");
      if (ty->name == tn || (ty->name == "int" && tn == "bool")) return Value::Bool(true);
      if (ty->name == "int" && EnumIntValue(b.Get(0))) return Value::Bool(true);  // IntEnum, IntFlag
    }
    return Value::Bool(false);
  });
  // issubclass over the classes isinstance knows: exception classes, host classes, built-in types.
  Def(t, "issubclass", [](Interpreter&, CallArgs& a) {
    ArgBinder b("issubclass", a, {"cls", "class_or_tuple"}, 2);
    const Value& cls = b.Get(0);
    if (!cls.As<ExcTypeObj>() && !IsHostClass(cls) && !cls.As<PyTypeObj>())
      TypeError("issubclass() arg 1 must be a class");
    std::vector<Value> classes;
    if (auto* tu = b.Get(1).As<TupleObj>()) classes = tu->items;
    else classes.push_back(b.Get(1));
    for (const Value& c : classes) {
      if (auto* et = c.As<ExcTypeObj>()) {
        if (auto* mine = cls.As<ExcTypeObj>(); mine && mine->IsSubclassOf(et)) return Value::Bool(true);
        continue;
      }
      if (IsHostClass(c)) {
        if (IsHostClass(cls) && ClassDerivesFrom(cls, c)) return Value::Bool(true);
        continue;
      }
      auto* ty = c.As<PyTypeObj>();
      if (!ty) TypeError("issubclass() arg 2 must be a class, a tuple of classes, or a union");
      if (auto* mine = cls.As<PyTypeObj>(); mine && (mine->name == ty->name || (ty->name == "int" && mine->name == "bool")))
        return Value::Bool(true);
    }
    return Value::Bool(false);
  });
  Def(t, "classmethod", [](Interpreter&, CallArgs& a) {
    ArgBinder b("classmethod", a, {"function"}, 1);
    return MakeClassMethod(b.Get(0));
  });
  Def(t, "staticmethod", [](Interpreter&, CallArgs& a) {
    ArgBinder b("staticmethod", a, {"function"}, 1);
    return MakeStaticMethod(b.Get(0));
  });
  for (const char* name : {"exit", "quit"})
    Def(t, name, [name](Interpreter&, CallArgs& a) -> Value {
      ArgBinder b(name, a, {"code"}, 0);
      RaiseSystemExit(b.Get(0, Value()));
    });
  t["None"] = Value();
}

Value MakeMathModule() {
  auto m = std::make_shared<ModuleObj>("math");
  m->attrs["pi"] = Value::Float(M_PI);
  m->attrs["e"] = Value::Float(M_E);
  m->attrs["inf"] = Value::Float(INFINITY);
  m->attrs["nan"] = Value::Float(NAN);
  auto unary = [&](const std::string& name, double (*f)(double), bool domain_log) {
    m->Def(name, [name, f, domain_log](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {"x"}, 1);
      double x = ToDouble(b.Get(0), name + "()");
      if ((domain_log && x <= 0) || (name == "sqrt" && x < 0)) ValueError("math domain error");
      return Value::Float(f(x));
    });
  };
  unary("sqrt", [](double x) { return std::sqrt(x); }, false);
  unary("exp", [](double x) { return std::exp(x); }, false);
  unary("log", [](double x) { return std::log(x); }, true);
  unary("sin", [](double x) { return std::sin(x); }, false);
  unary("cos", [](double x) { return std::cos(x); }, false);
  unary("tan", [](double x) { return std::tan(x); }, false);
  unary("fabs", [](double x) { return std::fabs(x); }, false);
  unary("log2", [](double x) { return std::log2(x); }, true);
  unary("log10", [](double x) { return std::log10(x); }, true);
  unary("sinh", [](double x) { return std::sinh(x); }, false);
  unary("cosh", [](double x) { return std::cosh(x); }, false);
  unary("tanh", [](double x) { return std::tanh(x); }, false);
  unary("atan", [](double x) { return std::atan(x); }, false);
  unary("asinh", [](double x) { return std::asinh(x); }, false);
  unary("expm1", [](double x) { return std::expm1(x); }, false);
  unary("erf", [](double x) { return std::erf(x); }, false);
  unary("erfc", [](double x) { return std::erfc(x); }, false);
  unary("degrees", [](double x) { return x * (180.0 / M_PI); }, false);
  unary("radians", [](double x) { return x * (M_PI / 180.0); }, false);
  m->attrs["tau"] = Value::Float(2 * M_PI);
  // Functions defined on part of the line: outside it, CPython's "math domain error".
  auto partial = [&](const std::string& name, double (*f)(double), bool (*inside)(double)) {
    m->Def(name, [name, f, inside](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {"x"}, 1);
      double x = ToDouble(b.Get(0), name + "()");
      if (!std::isnan(x) && !inside(x)) ValueError("math domain error");
      return Value::Float(f(x));
    });
  };
  partial("asin", [](double x) { return std::asin(x); }, [](double x) { return x >= -1 && x <= 1; });
  partial("acos", [](double x) { return std::acos(x); }, [](double x) { return x >= -1 && x <= 1; });
  partial("acosh", [](double x) { return std::acosh(x); }, [](double x) { return x >= 1; });
  partial("atanh", [](double x) { return std::atanh(x); }, [](double x) { return x > -1 && x < 1; });
  partial("log1p", [](double x) { return std::log1p(x); }, [](double x) { return x > -1; });
  for (const char* name : {"isnan", "isinf", "isfinite"}) {
    std::string n = name;
    m->Def(n, [n](Interpreter&, CallArgs& a) {
      ArgBinder b(n, a, {"x"}, 1);
      double x = ToDouble(b.Get(0), n + "()");
      return Value::Bool(n == "isnan" ? std::isnan(x) : n == "isinf" ? std::isinf(x) : std::isfinite(x));
    });
  }
  auto binary = [&](const std::string& name, double (*f)(double, double)) {
    m->Def(name, [name, f](Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {"x", "y"}, 2);
      return Value::Float(f(ToDouble(b.Get(0), name + "()"), ToDouble(b.Get(1), name + "()")));
    });
  };
  binary("atan2", [](double y, double x) { return std::atan2(y, x); });
  binary("copysign", [](double x, double y) { return std::copysign(x, y); });
  binary("hypot", [](double x, double y) { return std::hypot(x, y); });
  m->Def("fmod", [](Interpreter&, CallArgs& a) {
    ArgBinder b("fmod", a, {"x", "y"}, 2);
    double x = ToDouble(b.Get(0), "fmod()"), y = ToDouble(b.Get(1), "fmod()");
    if (y == 0 && !std::isnan(x)) ValueError("math domain error");
    return Value::Float(std::fmod(x, y));
  });
  m->Def("pow", [](Interpreter&, CallArgs& a) {
    ArgBinder b("pow", a, {"x", "y"}, 2);
    double x = ToDouble(b.Get(0), "pow()"), y = ToDouble(b.Get(1), "pow()");
    if ((x == 0 && y < 0) || (x < 0 && std::isfinite(x) && std::isfinite(y) && y != std::floor(y)))
      ValueError("math domain error");
    return Value::Float(std::pow(x, y));
  });
  m->Def("trunc", [](Interpreter&, CallArgs& a) {
    ArgBinder b("trunc", a, {"x"}, 1);
    if (b.Get(0).IsIntLike()) return Value::Int(b.Get(0).i());
    return ToIntValue(Value::Float(std::trunc(ToDouble(b.Get(0), "trunc()"))));
  });
  for (const char* name : {"floor", "ceil"}) {
    std::string n = name;
    m->Def(n, [n](Interpreter&, CallArgs& a) {
      ArgBinder b(n, a, {"x"}, 1);
      if (b.Get(0).IsIntLike()) return Value::Int(b.Get(0).i());
      double x = ToDouble(b.Get(0), n + "()");
      return ToIntValue(Value::Float(n == "floor" ? std::floor(x) : std::ceil(x)));
    });
  }
  m->Def("isclose", [](Interpreter&, CallArgs& a) {
    ArgBinder b("isclose", a, {"a", "b", "rel_tol", "abs_tol"}, 2);
    double x = ToDouble(b.Get(0), "isclose()"), y = ToDouble(b.Get(1), "isclose()");
    double rt = b.Has(2) ? ToDouble(b.Get(2), "isclose()") : 1e-9;
    double at = b.Has(3) ? ToDouble(b.Get(3), "isclose()") : 0.0;
    return Value::Bool(x == y || std::fabs(x - y) <= std::max(rt * std::max(std::fabs(x), std::fabs(y)), at));
  });
  return Value(m);
}

}  // namespace tilec::host
