// The methods of host `str` values (split, strip, replace, find, startswith, ...) with
// CPython 3.11's results and error messages. Strings are UTF-8 bytes; case mapping and the
// character classes are ASCII's.
#include <cctype>
#include <string>
#include <vector>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/format.h"
#include "host/interp/value.h"

namespace tilec::host {

namespace {

using StrFn = Value (*)(const std::string& s, Interpreter& in, CallArgs& a);

// CPython's str methods take their arguments by position only. Their argument-count
// messages come in three styles, depending on how each method is declared in CPython.
enum class Style { Clinic, Varargs, Exact };

const std::vector<Value>& Positional(CallArgs& a, const char* name, size_t min, size_t max,
                                     Style style = Style::Clinic) {
  if (!a.kw.empty()) TypeError(std::string(name) + "() takes no keyword arguments");
  size_t n = a.pos.size();
  if (n >= min && n <= max) return a.pos;
  std::string got = std::to_string(n), nm = name;
  auto plural = [](size_t k) { return std::to_string(k) + (k == 1 ? " argument" : " arguments"); };
  if (max == 0) TypeError("str." + nm + "() takes no arguments (" + got + " given)");
  if (style == Style::Exact) TypeError("str." + nm + "() takes exactly one argument (" + got + " given)");
  if (style == Style::Varargs)
    TypeError(nm + "() takes " + (n < min ? "at least " + plural(min) : "at most " + plural(max)) + " (" + got + " given)");
  TypeError(nm + " expected " + (n < min ? "at least " + plural(min) : "at most " + plural(max)) + ", got " + got);
}

const std::string& StrArg(const Value& v, const std::string& message_prefix) {
  auto* s = v.As<StrObj>();
  if (!s) TypeError(message_prefix + TypeName(v));
  return s->s;
}

int64_t IntArg(const Value& v) {
  if (v.IsIntLike()) return v.i();
  if (auto i = v.IsObj() ? v.obj()->AsIndex() : std::nullopt) return *i;
  TypeError("'" + TypeName(v) + "' object cannot be interpreted as an integer");
}

// Python's slice-index adjustment of optional start/end arguments against `len`.
void Bounds(const std::vector<Value>& args, size_t first, int64_t len, int64_t& start, int64_t& end) {
  auto adjust = [&](size_t k, int64_t def) {
    if (k >= args.size() || args[k].IsNone()) return def;
    if (!args[k].IsIntLike() && !(args[k].IsObj() && args[k].obj()->AsIndex()))
      TypeError("slice indices must be integers or None or have an __index__ method");
    int64_t v = IntArg(args[k]);
    if (v < 0) v = std::max<int64_t>(0, v + len);
    return std::min(v, len);
  };
  start = adjust(first, 0);
  end = adjust(first + 1, len);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::string Strip(const std::string& s, const std::vector<Value>& args, const char* name, bool left, bool right) {
  std::string chars;
  bool whitespace = args.empty() || args[0].IsNone();
  if (!whitespace) {
    auto* c = args[0].As<StrObj>();
    if (!c) TypeError(std::string(name) + " arg must be None or str");
    chars = c->s;
  }
  auto strip_char = [&](char c) { return whitespace ? IsSpace(c) : chars.find(c) != std::string::npos; };
  size_t l = 0, r = s.size();
  if (left)
    while (l < r && strip_char(s[l])) ++l;
  if (right)
    while (r > l && strip_char(s[r - 1])) --r;
  return s.substr(l, r - l);
}

// str.split / str.rsplit: by runs of whitespace without a separator, else by `sep`.
Value Split(const std::string& s, CallArgs& a, bool from_right) {
  const char* name = from_right ? "rsplit" : "split";
  ArgBinder b(name, a, {"sep", "maxsplit"}, 0);
  int64_t maxsplit = b.Has(1) ? IntArg(b.Get(1)) : -1;
  std::vector<std::string> parts;
  if (!b.Has(0) || b.Get(0).IsNone()) {
    std::vector<std::pair<size_t, size_t>> words;
    for (size_t k = 0; k < s.size();) {
      while (k < s.size() && IsSpace(s[k])) ++k;
      size_t st = k;
      while (k < s.size() && !IsSpace(s[k])) ++k;
      if (k > st) words.push_back({st, k});
    }
    size_t n = words.size();
    if (maxsplit < 0 || size_t(maxsplit) >= n) {
      for (auto [st, en] : words) parts.push_back(s.substr(st, en - st));
    } else if (!from_right) {
      for (size_t k = 0; k < size_t(maxsplit); ++k) parts.push_back(s.substr(words[k].first, words[k].second - words[k].first));
      // The remainder keeps its trailing whitespace.
      parts.push_back(s.substr(words[size_t(maxsplit)].first));
    } else {
      size_t keep = n - size_t(maxsplit);
      parts.push_back(s.substr(0, words[keep - 1].second));
      for (size_t k = keep; k < n; ++k) parts.push_back(s.substr(words[k].first, words[k].second - words[k].first));
    }
  } else {
    const std::string& sep = StrArg(b.Get(0), "must be str or None, not ");
    if (sep.empty()) ValueError("empty separator");
    std::vector<size_t> hits;
    size_t limit = maxsplit < 0 ? SIZE_MAX : size_t(maxsplit);
    if (from_right) {
      // rsplit finds separators from the end, which differs when they overlap.
      for (size_t end = s.size(); hits.size() < limit && end >= sep.size();) {
        size_t pos = s.rfind(sep, end - sep.size());
        if (pos == std::string::npos) break;
        hits.insert(hits.begin(), pos);
        end = pos;
      }
    } else {
      for (size_t pos = s.find(sep); pos != std::string::npos && hits.size() < limit; pos = s.find(sep, pos + sep.size()))
        hits.push_back(pos);
    }
    size_t st = 0;
    for (size_t pos : hits) {
      parts.push_back(s.substr(st, pos - st));
      st = pos + sep.size();
    }
    parts.push_back(s.substr(st));
  }
  std::vector<Value> out;
  for (auto& p : parts) out.push_back(MakeStr(std::move(p)));
  return MakeList(std::move(out));
}

Value Find(const std::string& s, CallArgs& a, const char* name, bool from_right, bool raise) {
  const auto& args = Positional(a, name, 1, 3, Style::Varargs);
  const std::string& sub = StrArg(args[0], "must be str, not ");
  int64_t start, end;
  Bounds(args, 1, int64_t(s.size()), start, end);
  int64_t found = -1;
  if (end - start >= int64_t(sub.size())) {
    if (from_right) {
      size_t pos = s.rfind(sub, size_t(end) - sub.size());
      if (pos != std::string::npos && int64_t(pos) >= start) found = int64_t(pos);
    } else {
      size_t pos = s.find(sub, size_t(start));
      if (pos != std::string::npos && int64_t(pos + sub.size()) <= end) found = int64_t(pos);
    }
  }
  if (found < 0 && raise) ValueError("substring not found");
  return Value::Int(found);
}

Value Affix(const std::string& s, CallArgs& a, bool start) {
  const char* name = start ? "startswith" : "endswith";
  const auto& args = Positional(a, name, 1, 3, Style::Varargs);
  std::vector<Value> options;
  if (auto* t = args[0].As<TupleObj>()) options = t->items;
  else if (args[0].As<StrObj>()) options.push_back(args[0]);
  else TypeError(std::string(name) + " first arg must be str or a tuple of str, not " + TypeName(args[0]));
  int64_t lo, hi;
  Bounds(args, 1, int64_t(s.size()), lo, hi);
  // Tuple entries are checked as they are tried, so a match stops before a bad entry.
  for (const Value& v : options) {
    auto* e = v.As<StrObj>();
    if (!e) TypeError("tuple for " + std::string(name) + " must only contain str, not " + TypeName(v));
    const std::string& p = e->s;
    if (hi - lo < int64_t(p.size())) continue;
    size_t at = start ? size_t(lo) : size_t(hi) - p.size();
    if (s.compare(at, p.size(), p) == 0) return Value::Bool(true);
  }
  return Value::Bool(false);
}

Value Pad(const std::string& s, CallArgs& a, const char* name, int where) {
  const auto& args = Positional(a, name, 1, 2);
  int64_t width = IntArg(args[0]);
  char fill = ' ';
  if (args.size() > 1) {
    auto* f = args[1].As<StrObj>();
    if (!f) TypeError(std::string(name) + "() argument 2 must be str, not " + TypeName(args[1]));
    if (f->s.size() != 1) TypeError("The fill character must be exactly one character long");
    fill = f->s[0];
  }
  if (width <= int64_t(s.size())) return MakeStr(s);
  size_t total = size_t(width) - s.size();
  // CPython's center puts the extra character on the left when the string length is odd.
  size_t left = where < 0 ? 0 : where > 0 ? total : total / 2 + (total & size_t(width) & 1);
  return MakeStr(std::string(left, fill) + s + std::string(total - left, fill));
}

Value CharClass(const std::string& s, int (*pred)(int)) {
  if (s.empty()) return Value::Bool(false);
  for (unsigned char c : s)
    if (!pred(c)) return Value::Bool(false);
  return Value::Bool(true);
}

// str and bytes hold UTF-8; other encodings are refused rather than mis-converted.
void CheckUtf8(const ArgBinder& b) {
  if (!b.Has(0)) return;
  std::string e = ToStr(b.Get(0), "encoding");
  for (char& c : e) c = char(tolower((unsigned char)c));
  if (e != "utf-8" && e != "utf8" && e != "ascii") Raise("LookupError", "unknown encoding: " + ToStr(b.Get(0), "encoding") + " (tilec's strings are UTF-8)");
}

const std::map<std::string, StrFn>& Methods() {
  static const std::map<std::string, StrFn> kMethods = {
      {"join", [](const std::string& s, Interpreter& in, CallArgs& a) {
         const auto& args = Positional(a, "join", 1, 1, Style::Exact);
         std::string out;
         auto items = IterateValue(in, args[0]);
         for (size_t k = 0; k < items.size(); ++k) {
           auto* e = items[k].As<StrObj>();
           if (!e)
             TypeError("sequence item " + std::to_string(k) + ": expected str instance, " + TypeName(items[k]) + " found");
           if (k) out += s;
           out += e->s;
         }
         return MakeStr(out);
       }},
      {"encode", [](const std::string& s, Interpreter&, CallArgs& a) {
         ArgBinder b("encode", a, {"encoding", "errors"}, 0);
         CheckUtf8(b);
         return MakeBytes(s);
       }},
      {"upper", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "upper", 0, 0);
         std::string out = s;
         for (char& c : out) c = char(toupper((unsigned char)c));
         return MakeStr(out);
       }},
      {"swapcase", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "swapcase", 0, 0);
         std::string out = s;
         for (char& c : out)
           c = char(isupper((unsigned char)c) ? tolower((unsigned char)c) : toupper((unsigned char)c));
         return MakeStr(out);
       }},
      {"lower", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "lower", 0, 0);
         std::string out = s;
         for (char& c : out) c = char(tolower((unsigned char)c));
         return MakeStr(out);
       }},
      {"capitalize", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "capitalize", 0, 0);
         std::string out = s;
         for (size_t k = 0; k < out.size(); ++k) out[k] = char(k ? tolower((unsigned char)out[k]) : toupper((unsigned char)out[k]));
         return MakeStr(out);
       }},
      {"title", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "title", 0, 0);
         std::string out = s;
         bool prev_cased = false;
         for (char& c : out) {
           bool alpha = isalpha((unsigned char)c);
           c = char(alpha ? (prev_cased ? tolower((unsigned char)c) : toupper((unsigned char)c)) : c);
           prev_cased = alpha;
         }
         return MakeStr(out);
       }},
      {"strip", [](const std::string& s, Interpreter&, CallArgs& a) {
         return MakeStr(Strip(s, Positional(a, "strip", 0, 1), "strip", true, true));
       }},
      {"lstrip", [](const std::string& s, Interpreter&, CallArgs& a) {
         return MakeStr(Strip(s, Positional(a, "lstrip", 0, 1), "lstrip", true, false));
       }},
      {"rstrip", [](const std::string& s, Interpreter&, CallArgs& a) {
         return MakeStr(Strip(s, Positional(a, "rstrip", 0, 1), "rstrip", false, true));
       }},
      {"split", [](const std::string& s, Interpreter&, CallArgs& a) { return Split(s, a, false); }},
      {"rsplit", [](const std::string& s, Interpreter&, CallArgs& a) { return Split(s, a, true); }},
      {"splitlines", [](const std::string& s, Interpreter&, CallArgs& a) {
         ArgBinder b("splitlines", a, {"keepends"}, 0);
         bool keep = b.Has(0) && Truth(b.Get(0));
         std::vector<Value> out;
         size_t st = 0;
         for (size_t k = 0; k < s.size(); ++k) {
           if (s[k] != '\n' && s[k] != '\r') continue;
           size_t brk = (s[k] == '\r' && k + 1 < s.size() && s[k + 1] == '\n') ? 2 : 1;
           out.push_back(MakeStr(s.substr(st, k - st + (keep ? brk : 0))));
           k += brk - 1;
           st = k + 1;
         }
         if (st < s.size()) out.push_back(MakeStr(s.substr(st)));
         return MakeList(std::move(out));
       }},
      {"startswith", [](const std::string& s, Interpreter&, CallArgs& a) { return Affix(s, a, true); }},
      {"endswith", [](const std::string& s, Interpreter&, CallArgs& a) { return Affix(s, a, false); }},
      {"replace", [](const std::string& s, Interpreter&, CallArgs& a) {
         const auto& args = Positional(a, "replace", 2, 3);
         const std::string& o = StrArg(args[0], "replace() argument 1 must be str, not ");
         const std::string& n = StrArg(args[1], "replace() argument 2 must be str, not ");
         int64_t count = args.size() > 2 ? IntArg(args[2]) : -1;
         std::string out;
         if (o.empty()) {
           // An empty pattern matches between every character and at both ends.
           int64_t done = 0;
           for (size_t k = 0; k <= s.size(); ++k) {
             if (count < 0 || done < count) {
               out += n;
               ++done;
             }
             if (k < s.size()) out += s[k];
           }
           return MakeStr(out);
         }
         size_t st = 0, pos;
         for (int64_t done = 0; (count < 0 || done < count) && (pos = s.find(o, st)) != std::string::npos; ++done) {
           out += s.substr(st, pos - st) + n;
           st = pos + o.size();
         }
         return MakeStr(out + s.substr(st));
       }},
      {"find", [](const std::string& s, Interpreter&, CallArgs& a) { return Find(s, a, "find", false, false); }},
      {"rfind", [](const std::string& s, Interpreter&, CallArgs& a) { return Find(s, a, "rfind", true, false); }},
      {"index", [](const std::string& s, Interpreter&, CallArgs& a) { return Find(s, a, "index", false, true); }},
      {"rindex", [](const std::string& s, Interpreter&, CallArgs& a) { return Find(s, a, "rindex", true, true); }},
      {"count", [](const std::string& s, Interpreter&, CallArgs& a) {
         const auto& args = Positional(a, "count", 1, 3, Style::Varargs);
         const std::string& sub = StrArg(args[0], "must be str, not ");
         int64_t start, end;
         Bounds(args, 1, int64_t(s.size()), start, end);
         if (end - start < int64_t(sub.size())) return Value::Int(0);
         std::string part = s.substr(size_t(start), size_t(end - start));
         if (sub.empty()) return Value::Int(int64_t(part.size()) + 1);
         int64_t n = 0;
         for (size_t pos = part.find(sub); pos != std::string::npos; pos = part.find(sub, pos + sub.size())) ++n;
         return Value::Int(n);
       }},
      {"partition", [](const std::string& s, Interpreter&, CallArgs& a) {
         const std::string& sep = StrArg(Positional(a, "partition", 1, 1, Style::Exact)[0], "must be str, not ");
         if (sep.empty()) ValueError("empty separator");
         size_t pos = s.find(sep);
         if (pos == std::string::npos) return MakeTuple({MakeStr(s), MakeStr(""), MakeStr("")});
         return MakeTuple({MakeStr(s.substr(0, pos)), MakeStr(sep), MakeStr(s.substr(pos + sep.size()))});
       }},
      {"rpartition", [](const std::string& s, Interpreter&, CallArgs& a) {
         const std::string& sep = StrArg(Positional(a, "rpartition", 1, 1, Style::Exact)[0], "must be str, not ");
         if (sep.empty()) ValueError("empty separator");
         size_t pos = s.rfind(sep);
         if (pos == std::string::npos) return MakeTuple({MakeStr(""), MakeStr(""), MakeStr(s)});
         return MakeTuple({MakeStr(s.substr(0, pos)), MakeStr(sep), MakeStr(s.substr(pos + sep.size()))});
       }},
      {"center", [](const std::string& s, Interpreter&, CallArgs& a) { return Pad(s, a, "center", 0); }},
      {"ljust", [](const std::string& s, Interpreter&, CallArgs& a) { return Pad(s, a, "ljust", -1); }},
      {"rjust", [](const std::string& s, Interpreter&, CallArgs& a) { return Pad(s, a, "rjust", 1); }},
      {"zfill", [](const std::string& s, Interpreter&, CallArgs& a) {
         int64_t width = IntArg(Positional(a, "zfill", 1, 1, Style::Exact)[0]);
         if (width <= int64_t(s.size())) return MakeStr(s);
         size_t sign = !s.empty() && (s[0] == '+' || s[0] == '-') ? 1 : 0;
         return MakeStr(s.substr(0, sign) + std::string(size_t(width) - s.size(), '0') + s.substr(sign));
       }},
      {"isdigit", [](const std::string& s, Interpreter&, CallArgs& a) { Positional(a, "isdigit", 0, 0); return CharClass(s, isdigit); }},
      {"isalpha", [](const std::string& s, Interpreter&, CallArgs& a) { Positional(a, "isalpha", 0, 0); return CharClass(s, isalpha); }},
      {"isalnum", [](const std::string& s, Interpreter&, CallArgs& a) { Positional(a, "isalnum", 0, 0); return CharClass(s, isalnum); }},
      {"isspace", [](const std::string& s, Interpreter&, CallArgs& a) { Positional(a, "isspace", 0, 0); return CharClass(s, isspace); }},
      {"isupper", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "isupper", 0, 0);
         bool cased = false;
         for (unsigned char c : s) {
           if (islower(c)) return Value::Bool(false);
           cased |= bool(isupper(c));
         }
         return Value::Bool(cased);
       }},
      {"islower", [](const std::string& s, Interpreter&, CallArgs& a) {
         Positional(a, "islower", 0, 0);
         bool cased = false;
         for (unsigned char c : s) {
           if (isupper(c)) return Value::Bool(false);
           cased |= bool(islower(c));
         }
         return Value::Bool(cased);
       }},
  };
  return kMethods;
}

}  // namespace

std::optional<Value> StrObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<StrObj>(shared_from_this());
  if (name == "format")
    return Value(std::make_shared<BuiltinFn>(
        name, [self](Interpreter& in, CallArgs& a) { return MakeStr(StrFormat(in, self->s, a)); }));
  auto it = Methods().find(name);
  if (it == Methods().end()) return std::nullopt;
  StrFn fn = it->second;
  return Value(std::make_shared<BuiltinFn>(name, [self, fn](Interpreter& in, CallArgs& a) { return fn(self->s, in, a); }));
}

}  // namespace tilec::host

namespace tilec::host {
namespace {

// bytes: literals (b"..."), str.encode() and .decode(); the bytes are compared, hashed as
// dict keys by value, indexed as ints and printed as Python prints them.
struct BytesObj : Object {
  explicit BytesObj(std::string s) : s(std::move(s)) {}
  std::string TypeName() const override { return "bytes"; }
  std::string Repr() const override { return QuotedLiteral(s, true); }
  bool Truth() const override { return !s.empty(); }
  std::optional<int64_t> Len() const override { return int64_t(s.size()); }
  std::optional<std::vector<Value>> Iterate(Interpreter&) override {
    std::vector<Value> out;
    for (unsigned char c : s) out.push_back(Value::Int(c));
    return out;
  }
  Value GetItem(Interpreter&, const Value& key) override {
    int64_t i = NormalizeIndex(ToIndex(key, "byte"), int64_t(s.size()), "index");
    return Value::Int((unsigned char)s[size_t(i)]);
  }
  std::optional<Value> CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) override {
    auto* o = other.As<BytesObj>();
    if (op == ast::CmpOp::Eq || op == ast::CmpOp::NotEq) return Value::Bool((o && o->s == s) == (op == ast::CmpOp::Eq));
    return std::nullopt;
  }
  std::optional<Value> BinOp(Interpreter&, ast::BinaryOp op, const Value& other, bool reflected) override {
    auto* o = other.As<BytesObj>();
    if (op != ast::BinaryOp::Add || !o) return std::nullopt;
    return MakeBytes(reflected ? o->s + s : s + o->s);
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    auto self = std::static_pointer_cast<BytesObj>(shared_from_this());
    if (name == "hex")
      return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter&, CallArgs& a) {
        ArgBinder b("hex", a, {}, 0);
        static const char* kDigits = "0123456789abcdef";
        std::string out;
        for (unsigned char c : self->s) out += kDigits[c >> 4], out += kDigits[c & 15];
        return MakeStr(out);
      }));
    if (name != "decode") return std::nullopt;
    return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter&, CallArgs& a) {
      ArgBinder b("decode", a, {"encoding", "errors"}, 0);
      CheckUtf8(b);
      return MakeStr(self->s);
    }));
  }
  std::string s;
};

}  // namespace

Value MakeBytes(std::string s) { return Value(std::make_shared<BytesObj>(std::move(s))); }

const std::string* BytesOf(const Value& v) {
  auto* b = v.As<BytesObj>();
  return b ? &b->s : nullptr;
}

}  // namespace tilec::host
