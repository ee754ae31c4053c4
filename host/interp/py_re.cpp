// `re`: Python's regular expressions on the C++ library's ECMAScript engine. Python's own
// syntax (named groups, \A, \Z, inline flags, DOTALL, VERBOSE) is rewritten into ECMAScript;
// what ECMAScript cannot express (lookbehind, conditionals) is an re.error that says so.
#include <algorithm>
#include <functional>
#include <map>
#include <regex>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

namespace tilec::host {
namespace {

enum Flag : int64_t { kIgnoreCase = 2, kMultiline = 8, kDotAll = 16, kAscii = 256, kVerbose = 64 };

[[noreturn]] void ReError(const std::string& pattern, const std::string& why) {
  Raise("re.error", why + " in pattern " + StrRepr(pattern));
}

struct Compiled {
  std::string pattern;
  int64_t flags = 0;
  std::regex re;
  size_t groups = 0;
  std::map<std::string, size_t> names;  // named group -> number
};

// Python pattern -> ECMAScript, collecting group names and inline flags.
std::string Translate(const std::string& p, int64_t& flags, std::map<std::string, size_t>& names, size_t& groups) {
  // Inline flags at the start: (?aimsx)
  size_t i = 0;
  while (p.compare(i, 2, "(?") == 0 && i + 2 < p.size() && std::string("aimsxLu").find(p[i + 2]) != std::string::npos) {
    size_t close = p.find(')', i);
    if (close == std::string::npos) ReError(p, "missing ), unterminated subpattern");
    for (size_t k = i + 2; k < close; ++k) switch (p[k]) {
        case 'i': flags |= kIgnoreCase; break;
        case 'm': flags |= kMultiline; break;
        case 's': flags |= kDotAll; break;
        case 'x': flags |= kVerbose; break;
        case 'a': flags |= kAscii; break;
        case 'L': case 'u': break;
        default: ReError(p, "unknown flag");
      }
    i = close + 1;
  }
  std::string out;
  bool in_class = false;
  for (; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\' && i + 1 < p.size()) {
      const char n = p[i + 1];
      if (!in_class && n == 'A') out += '^';
      else if (!in_class && n == 'Z') out += "$(?![\\s\\S])";
      else out += p.substr(i, 2);
      ++i;
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += "\\]", ++i;  // a leading ] is literal
      continue;
    }
    if ((flags & kVerbose) && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) continue;
    if ((flags & kVerbose) && c == '#') {
      while (i < p.size() && p[i] != '\n') ++i;
      continue;
    }
    if (c == '.' && (flags & kDotAll)) {
      out += "[\\s\\S]";
      continue;
    }
    if (c == '(') {
      if (p.compare(i, 3, "(?P") == 0 && i + 3 < p.size() && p[i + 3] == '<') {
        size_t close = p.find('>', i);
        if (close == std::string::npos) ReError(p, "missing >, unterminated name");
        names[p.substr(i + 4, close - i - 4)] = ++groups;
        out += '(';
        i = close;
        continue;
      }
      if (p.compare(i, 4, "(?P=") == 0) {
        size_t close = p.find(')', i);
        if (close == std::string::npos) ReError(p, "missing ), unterminated name");
        auto it = names.find(p.substr(i + 4, close - i - 4));
        if (it == names.end()) ReError(p, "unknown group name " + StrRepr(p.substr(i + 4, close - i - 4)));
        out += "(?:\\" + std::to_string(it->second) + ")";
        i = close;
        continue;
      }
      if (p.compare(i, 4, "(?<=") == 0 || p.compare(i, 4, "(?<!") == 0)
        ReError(p, "lookbehind assertions are not supported by tilec's regular expressions");
      if (p.compare(i, 3, "(?(") == 0) ReError(p, "conditional groups are not supported by tilec's regular expressions");
      if (p.compare(i, 3, "(?#") == 0) {
        size_t close = p.find(')', i);
        i = close == std::string::npos ? p.size() : close;
        continue;
      }
      if (i + 1 >= p.size() || p[i + 1] != '?') ++groups;
    }
    out += c;
  }
  return out;
}

std::shared_ptr<Compiled> Compile(const std::string& pattern, int64_t flags) {
  auto c = std::make_shared<Compiled>();
  c->pattern = pattern;
  c->flags = flags;
  const std::string ecma = Translate(pattern, c->flags, c->names, c->groups);
  auto opts = std::regex::ECMAScript;
  if (c->flags & kIgnoreCase) opts |= std::regex::icase;
  if (c->flags & kMultiline) opts |= std::regex::multiline;
  try {
    c->re = std::regex(ecma, opts);
  } catch (const std::regex_error& e) {
    ReError(pattern, std::string("cannot compile: ") + e.what());
  }
  return c;
}

struct PatternObj;

struct MatchObj : Object {
  std::string TypeName() const override { return "re.Match"; }
  std::string Repr() const override {
    return "<re.Match object; span=(" + std::to_string(Start(0)) + ", " + std::to_string(End(0)) +
           "), match=" + StrRepr(m.str(0)) + ">";
  }
  // m's iterators point into `subject`, so positions are taken from its start.
  int64_t Start(size_t g) const { return m[g].matched ? int64_t(m[g].first - subject.cbegin()) : -1; }
  int64_t End(size_t g) const { return m[g].matched ? int64_t(m[g].second - subject.cbegin()) : -1; }
  size_t Group(const Value& g) const {
    if (g.IsIntLike()) {
      if (g.i() < 0 || size_t(g.i()) > re->groups) IndexError("no such group");
      return size_t(g.i());
    }
    if (auto* s = g.As<StrObj>()) {
      auto it = re->names.find(s->s);
      if (it == re->names.end()) IndexError("no such group");
      return it->second;
    }
    IndexError("no such group");
  }
  Value GroupValue(size_t g, const Value& dflt = Value()) const { return m[g].matched ? MakeStr(m.str(g)) : dflt; }
  Value GetItem(Interpreter&, const Value& key) override { return GroupValue(Group(key)); }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::shared_ptr<Compiled> re;
  std::string subject;  // m refers into it
  std::smatch m;
};

enum class Mode { Search, Match, FullMatch };

// The match of `mode` at or after `pos`, as a Match object owning its subject; None if none.
Value Found(const std::shared_ptr<Compiled>& c, const std::string& s, size_t pos, Mode mode) {
  if (pos > s.size()) return Value();
  auto mo = std::make_shared<MatchObj>();
  mo->re = c;
  mo->subject = s;
  auto begin = mo->subject.cbegin() + ptrdiff_t(pos);
  auto flags = pos ? std::regex_constants::match_prev_avail : std::regex_constants::match_default;
  bool found = mode == Mode::FullMatch ? std::regex_match(begin, mo->subject.cend(), mo->m, c->re, flags)
               : mode == Mode::Match
                   ? std::regex_search(begin, mo->subject.cend(), mo->m, c->re, flags | std::regex_constants::match_continuous)
                   : std::regex_search(begin, mo->subject.cend(), mo->m, c->re, flags);
  return found ? Value(mo) : Value();
}

// Every non-overlapping match, empty ones included, as Python 3.7+ finds them.
std::vector<std::smatch> FindAll(const Compiled& c, const std::string& s, size_t count = 0) {
  std::vector<std::smatch> all;
  for (auto it = std::sregex_iterator(s.cbegin(), s.cend(), c.re), end = std::sregex_iterator(); it != end; ++it) {
    all.push_back(*it);
    if (count && all.size() == count) break;
  }
  return all;
}

// A position relative to the start of the subject (smatch positions are relative to the
// search's start, which is the subject's here).
int64_t Pos(const std::smatch& m, const std::string& s, size_t g) { return int64_t(m[g].first - s.cbegin()); }

std::string Expand(const Compiled& c, const std::string& repl, const std::smatch& m) {
  std::string out;
  auto group = [&](size_t g) {
    if (g > c.groups) ReError(repl, "invalid group reference " + std::to_string(g));
    if (m[g].matched) out += m.str(g);
  };
  for (size_t i = 0; i < repl.size(); ++i) {
    if (repl[i] != '\\' || i + 1 == repl.size()) {
      out += repl[i];
      continue;
    }
    const char n = repl[++i];
    if (std::isdigit(static_cast<unsigned char>(n))) {
      size_t g = size_t(n - '0');
      if (i + 1 < repl.size() && std::isdigit(static_cast<unsigned char>(repl[i + 1]))) g = g * 10 + size_t(repl[++i] - '0');
      group(g);
    } else if (n == 'g' && i + 1 < repl.size() && repl[i + 1] == '<') {
      size_t close = repl.find('>', i);
      if (close == std::string::npos) ReError(repl, "missing >, unterminated name");
      const std::string name = repl.substr(i + 2, close - i - 2);
      if (!name.empty() && std::all_of(name.begin(), name.end(), [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)); }))
        group(size_t(std::stoul(name)));
      else if (auto it = c.names.find(name); it != c.names.end()) group(it->second);
      else IndexError("unknown group name " + StrRepr(name));
      i = close;
    } else if (n == 'n') out += '\n';
    else if (n == 't') out += '\t';
    else if (n == 'r') out += '\r';
    else if (n == '\\') out += '\\';
    else if (std::isalpha(static_cast<unsigned char>(n))) ReError(repl, std::string("bad escape \\") + n);
    else out += std::string("\\") + n;
  }
  return out;
}

Value FindAllValue(const Compiled& c, const std::string& s) {
  std::vector<Value> out;
  for (const std::smatch& m : FindAll(c, s)) {
    if (c.groups == 0) out.push_back(MakeStr(m.str(0)));
    else if (c.groups == 1) out.push_back(MakeStr(m[1].matched ? m.str(1) : ""));
    else {
      std::vector<Value> t;
      for (size_t g = 1; g <= c.groups; ++g) t.push_back(MakeStr(m[g].matched ? m.str(g) : ""));
      out.push_back(MakeTuple(t));
    }
  }
  return MakeList(out);
}

std::pair<std::string, int64_t> Sub(Interpreter& in, const std::shared_ptr<Compiled>& c, const Value& repl,
                                    const std::string& s, int64_t count) {
  std::string out;
  int64_t n = 0;
  size_t last = 0;
  for (const std::smatch& m : FindAll(*c, s, size_t(std::max<int64_t>(count, 0)))) {
    const size_t at = size_t(Pos(m, s, 0));
    out += s.substr(last, at - last);
    if (repl.As<StrObj>()) {
      out += Expand(*c, repl.As<StrObj>()->s, m);
    } else {
      CallArgs args;
      args.pos = {Found(c, s, size_t(Pos(m, s, 0)), Mode::Match)};
      out += ToStr(in.CallValue(repl, args), "re.sub() replacement");
    }
    last = at + size_t(m.length(0));
    ++n;
  }
  out += s.substr(last);
  return {out, n};
}

Value Split(const Compiled& c, const std::string& s, int64_t maxsplit) {
  std::vector<Value> out;
  size_t last = 0;
  for (const std::smatch& m : FindAll(c, s, size_t(std::max<int64_t>(maxsplit, 0)))) {
    const size_t at = size_t(Pos(m, s, 0));
    out.push_back(MakeStr(s.substr(last, at - last)));
    for (size_t g = 1; g <= c.groups; ++g) out.push_back(m[g].matched ? MakeStr(m.str(g)) : Value());
    last = at + size_t(m.length(0));
  }
  out.push_back(MakeStr(s.substr(last)));
  return MakeList(out);
}

std::optional<Value> MatchObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<MatchObj>(shared_from_this());
  auto def = [&](auto body) { return Value(std::make_shared<BuiltinFn>(name, body)); };
  auto which = [self](CallArgs& a, const char* fname) {
    ArgBinder b(fname, a, {"group"}, 0);
    return b.Has(0) ? self->Group(b.Get(0)) : size_t(0);
  };
  if (name == "group")
    return def([self](Interpreter&, CallArgs& a) {
      if (!a.kw.empty()) TypeError("group() takes no keyword arguments");
      if (a.pos.empty()) return self->GroupValue(0);
      if (a.pos.size() == 1) return self->GroupValue(self->Group(a.pos[0]));
      std::vector<Value> t;
      for (const Value& g : a.pos) t.push_back(self->GroupValue(self->Group(g)));
      return MakeTuple(t);
    });
  if (name == "groups")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("groups", a, {"default"}, 0);
      std::vector<Value> t;
      for (size_t g = 1; g <= self->re->groups; ++g) t.push_back(self->GroupValue(g, b.Get(0, Value())));
      return MakeTuple(t);
    });
  if (name == "groupdict")
    return def([self](Interpreter&, CallArgs& a) {
      ArgBinder b("groupdict", a, {"default"}, 0);
      auto d = std::make_shared<DictObj>();
      std::vector<std::pair<size_t, std::string>> order;
      for (const auto& [n, g] : self->re->names) order.push_back({g, n});
      std::sort(order.begin(), order.end());
      for (const auto& [g, n] : order) d->Put(MakeStr(n), self->GroupValue(g, b.Get(0, Value())));
      return Value(d);
    });
  if (name == "start") return def([self, which](Interpreter&, CallArgs& a) { return Value::Int(self->Start(which(a, "start"))); });
  if (name == "end") return def([self, which](Interpreter&, CallArgs& a) { return Value::Int(self->End(which(a, "end"))); });
  if (name == "span")
    return def([self, which](Interpreter&, CallArgs& a) {
      size_t g = which(a, "span");
      return MakeTuple({Value::Int(self->Start(g)), Value::Int(self->End(g))});
    });
  if (name == "string") return MakeStr(subject);
  if (name == "lastindex") {
    for (size_t g = re->groups; g >= 1; --g)
      if (m[g].matched) return Value::Int(int64_t(g));
    return Value();
  }
  return std::nullopt;
}

// The functions shared by the module (pattern first) and compiled patterns (bound).
using ReFn = std::function<Value(Interpreter&, const std::shared_ptr<Compiled>&, ArgBinder&)>;

struct Method {
  const char* name;
  std::vector<std::string> params;  // after the pattern
  size_t required;
  ReFn fn;
};

const std::string& Subject(const ArgBinder& b, size_t i) { return ToStr(b.Get(i), "expected string"); }

const std::vector<Method>& Methods() {
  static const std::vector<Method> kMethods = {
      {"search", {"string", "pos"}, 1,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         return Found(c, Subject(b, 0), b.Has(1) ? size_t(ToInt(b.Get(1), "pos")) : 0, Mode::Search);
       }},
      {"match", {"string", "pos"}, 1,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         return Found(c, Subject(b, 0), b.Has(1) ? size_t(ToInt(b.Get(1), "pos")) : 0, Mode::Match);
       }},
      {"fullmatch", {"string", "pos"}, 1,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         return Found(c, Subject(b, 0), b.Has(1) ? size_t(ToInt(b.Get(1), "pos")) : 0, Mode::FullMatch);
       }},
      {"findall", {"string"}, 1,
       [](Interpreter&, const std::shared_ptr<Compiled>& c, ArgBinder& b) { return FindAllValue(*c, Subject(b, 0)); }},
      {"finditer", {"string"}, 1,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         const std::string& s = Subject(b, 0);
         std::vector<Value> out;
         for (const std::smatch& m : FindAll(*c, s)) out.push_back(Found(c, s, size_t(Pos(m, s, 0)), Mode::Match));
         return MakeIterator(std::move(out), "callable_iterator");
       }},
      {"sub", {"repl", "string", "count"}, 2,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         return MakeStr(Sub(in, c, b.Get(0), Subject(b, 1), b.Has(2) ? ToInt(b.Get(2), "count") : 0).first);
       }},
      {"subn", {"repl", "string", "count"}, 2,
       [](Interpreter& in, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         auto [s, n] = Sub(in, c, b.Get(0), Subject(b, 1), b.Has(2) ? ToInt(b.Get(2), "count") : 0);
         return MakeTuple({MakeStr(s), Value::Int(n)});
       }},
      {"split", {"string", "maxsplit"}, 1,
       [](Interpreter&, const std::shared_ptr<Compiled>& c, ArgBinder& b) {
         return Split(*c, Subject(b, 0), b.Has(1) ? ToInt(b.Get(1), "maxsplit") : 0);
       }},
  };
  return kMethods;
}

struct PatternObj : Object {
  explicit PatternObj(std::shared_ptr<Compiled> c) : c(std::move(c)) {}
  std::string TypeName() const override { return "re.Pattern"; }
  std::string Repr() const override { return "re.compile(" + StrRepr(c->pattern) + ")"; }
  std::optional<Value> CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) override {
    auto* o = other.As<PatternObj>();
    if (!o || (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq)) return std::nullopt;
    bool eq = o->c->pattern == c->pattern && o->c->flags == c->flags;
    return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "pattern") return MakeStr(c->pattern);
    if (name == "flags") return Value::Int(c->flags);
    if (name == "groups") return Value::Int(int64_t(c->groups));
    if (name == "groupindex") {
      auto d = std::make_shared<DictObj>();
      for (const auto& [n, g] : c->names) d->Put(MakeStr(n), Value::Int(int64_t(g)));
      return Value(d);
    }
    for (const Method& m : Methods())
      if (name == m.name) {
        auto compiled = c;
        const Method* method = &m;
        return Value(std::make_shared<BuiltinFn>(name, [compiled, method](Interpreter& in, CallArgs& a) {
          ArgBinder b(method->name, a, method->params, method->required);
          return method->fn(in, compiled, b);
        }));
      }
    return std::nullopt;
  }
  std::shared_ptr<Compiled> c;
};

std::shared_ptr<Compiled> PatternOf(const Value& v, int64_t flags) {
  if (auto* p = v.As<PatternObj>()) {
    if (flags) ValueError("cannot process flags argument with a compiled pattern");
    return p->c;
  }
  return Compile(ToStr(v, "first argument must be string or compiled pattern"), flags);
}

}  // namespace

std::regex PyRegex(const std::string& pattern, int64_t flags) { return Compile(pattern, flags)->re; }

Value MakeReModule() {
  auto m = std::make_shared<ModuleObj>("re");
  const std::pair<const char*, int64_t> flags[] = {
      {"I", kIgnoreCase}, {"IGNORECASE", kIgnoreCase}, {"M", kMultiline}, {"MULTILINE", kMultiline},
      {"S", kDotAll},     {"DOTALL", kDotAll},         {"X", kVerbose},   {"VERBOSE", kVerbose},
      {"A", kAscii},      {"ASCII", kAscii}};
  for (const auto& [n, v] : flags) m->attrs[n] = Value::Int(v);
  m->attrs["error"] = Value(std::const_pointer_cast<ExcTypeObj>(ExceptionType("re.error")));
  m->Def("compile", [](Interpreter&, CallArgs& a) {
    ArgBinder b("compile", a, {"pattern", "flags"}, 1);
    if (b.Get(0).As<PatternObj>()) return b.Get(0);
    return Value(std::make_shared<PatternObj>(PatternOf(b.Get(0), b.Has(1) ? ToInt(b.Get(1), "flags") : 0)));
  });
  m->Def("escape", [](Interpreter&, CallArgs& a) {
    ArgBinder b("escape", a, {"pattern"}, 1);
    std::string out;
    for (char ch : ToStr(b.Get(0), "escape() argument")) {
      if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '_' && static_cast<unsigned char>(ch) < 128) out += '\\';
      out += ch;
    }
    return MakeStr(out);
  });
  for (const Method& method : Methods()) {
    const Method* mp = &method;
    m->Def(method.name, [mp](Interpreter& in, CallArgs& a) {
      std::vector<std::string> params = {"pattern"};
      params.insert(params.end(), mp->params.begin(), mp->params.end());
      // The module functions take `flags` last, where the methods take positions.
      if (params.back() == "pos") params.back() = "flags";
      else params.push_back("flags");
      ArgBinder b(mp->name, a, params, mp->required + 1);
      const size_t flag_index = params.size() - 1;
      auto compiled = PatternOf(b.Get(0), b.Has(flag_index) ? ToInt(b.Get(flag_index), "flags") : 0);
      CallArgs rest;
      for (size_t k = 1; k < flag_index; ++k)
        if (b.Has(k)) rest.kw.push_back({params[k], b.Get(k)});
      ArgBinder inner(mp->name, rest, mp->params, mp->required);
      return mp->fn(in, compiled, inner);
    });
  }
  return Value(m);
}

}  // namespace tilec::host
