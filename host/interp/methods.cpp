// Methods of the built-in containers (list.append, dict.items, str.format, ...).
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/format.h"
#include "host/interp/interpreter.h"
#include "host/interp/value.h"

namespace tilec::host {

namespace {

template <class Self, class F>
Value Method(std::shared_ptr<Self> self, const std::string& name, F f) {
  return Value(std::make_shared<BuiltinFn>(
      name, [self, f](Interpreter& in, CallArgs& a) -> Value { return f(*self, in, a); }));
}

}  // namespace

std::optional<Value> ListObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<ListObj>(shared_from_this());
  if (name == "append")
    return Method(self, name, [](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b("append", a, {"object"}, 1);
      l.items.push_back(b.Get(0));
      return Value();
    });
  if (name == "extend")
    return Method(self, name, [](ListObj& l, Interpreter& in, CallArgs& a) {
      ArgBinder b("extend", a, {"iterable"}, 1);
      for (auto& v : IterateValue(in, b.Get(0))) l.items.push_back(v);
      return Value();
    });
  if (name == "insert")
    return Method(self, name, [](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b("insert", a, {"index", "object"}, 2);
      int64_t n = int64_t(l.items.size()), i = ToIndex(b.Get(0), "list");
      if (i < 0) i = std::max<int64_t>(0, i + n);
      i = std::min(i, n);
      l.items.insert(l.items.begin() + i, b.Get(1));
      return Value();
    });
  if (name == "pop")
    return Method(self, name, [](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b("pop", a, {"index"}, 0);
      if (l.items.empty()) IndexError("pop from empty list");
      int64_t i = NormalizeIndex(b.Has(0) ? ToIndex(b.Get(0), "list") : -1, int64_t(l.items.size()), "pop");
      Value v = l.items[i];
      l.items.erase(l.items.begin() + i);
      return v;
    });
  if (name == "index" || name == "count")
    return Method(self, name, [idx = name == "index"](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b(idx ? "index" : "count", a, {"value"}, 1);
      int64_t count = 0;
      for (size_t k = 0; k < l.items.size(); ++k)
        if (ValueEquals(l.items[k], b.Get(0))) {
          if (idx) return Value::Int(int64_t(k));
          ++count;
        }
      if (idx) ValueError(host::Repr(b.Get(0)) + " is not in list");
      return Value::Int(count);
    });
  if (name == "sort")
    return Method(self, name, [](ListObj& l, Interpreter& in, CallArgs& a) {
      if (!a.pos.empty()) TypeError("sort() takes no positional arguments");
      ArgBinder b("sort", a, {"key", "reverse"}, 0);
      l.items = SortValues(in, std::move(l.items), b.Has(0) ? &b.Get(0) : nullptr, b.Has(1) && host::Truth(b.Get(1)));
      return Value();
    });
  if (name == "reverse")
    return Method(self, name, [](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b("reverse", a, {}, 0);
      std::reverse(l.items.begin(), l.items.end());
      return Value();
    });
  if (name == "copy")
    return Method(self, name, [](ListObj& l, Interpreter&, CallArgs& a) {
      ArgBinder b("copy", a, {}, 0);
      return MakeList(l.items);
    });
  return std::nullopt;
}

std::optional<Value> TupleObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<TupleObj>(shared_from_this());
  if (name == "index" || name == "count")
    return Method(self, name, [idx = name == "index"](TupleObj& t, Interpreter&, CallArgs& a) {
      ArgBinder b(idx ? "index" : "count", a, {"value"}, 1);
      int64_t count = 0;
      for (size_t k = 0; k < t.items.size(); ++k)
        if (ValueEquals(t.items[k], b.Get(0))) {
          if (idx) return Value::Int(int64_t(k));
          ++count;
        }
      if (idx) ValueError("tuple.index(x): x not in tuple");
      return Value::Int(count);
    });
  return std::nullopt;
}

std::optional<Value> DictObj::GetAttr(Interpreter&, const std::string& name) {
  auto self = std::static_pointer_cast<DictObj>(shared_from_this());
  if (name == "keys" || name == "values" || name == "items")
    return Method(self, name, [name](DictObj& d, Interpreter&, CallArgs& a) {
      ArgBinder b(name, a, {}, 0);
      std::vector<Value> out;
      for (auto& [k, v] : d.items)
        out.push_back(name == "keys" ? k : name == "values" ? v : MakeTuple({k, v}));
      return MakeList(out);
    });
  if (name == "get")
    return Method(self, name, [](DictObj& d, Interpreter&, CallArgs& a) {
      ArgBinder b("get", a, {"key", "default"}, 1);
      const Value* v = d.Find(b.Get(0));
      return v ? *v : b.Get(1, Value());
    });
  if (name == "update")
    return Method(self, name, [](DictObj& d, Interpreter&, CallArgs& a) {
      ArgBinder b("update", a, {"other"}, 0, true);
      if (b.Has(0)) {
        auto* o = b.Get(0).As<DictObj>();
        if (!o) TypeError("update() expects a dict, got " + host::TypeName(b.Get(0)));
        for (auto& [k, v] : o->items) d.Put(k, v);
      }
      for (auto& [k, v] : b.extra()) d.Put(MakeStr(k), v);
      return Value();
    });
  if (name == "pop")
    return Method(self, name, [](DictObj& d, Interpreter&, CallArgs& a) {
      ArgBinder b("pop", a, {"key", "default"}, 1);
      for (size_t k = 0; k < d.items.size(); ++k)
        if (ValueEquals(d.items[k].first, b.Get(0))) {
          Value v = d.items[k].second;
          d.items.erase(d.items.begin() + k);
          return v;
        }
      if (b.Has(1)) return b.Get(1);
      KeyError(host::Repr(b.Get(0)));
    });
  return std::nullopt;
}

}  // namespace tilec::host
