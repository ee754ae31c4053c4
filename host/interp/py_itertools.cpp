// CPython's `itertools` for host programs: the finite combinators make their elements when
// called (in CPython's order), `count` and `repeat` without a bound are lazy iterators.
#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

namespace tilec::host {
namespace {

// An endless arithmetic progression or repetition, stepped by `for` and next().
struct EndlessObj : Object {
  EndlessObj(std::string type, Value first, Value step) : type(std::move(type)), at(std::move(first)), step(std::move(step)) {}
  std::string TypeName() const override { return "itertools." + type; }
  std::string Repr() const override {
    if (type == "repeat") return "repeat(" + host::Repr(at) + ")";
    return "count(" + host::Repr(at) + (step.IsInt() && step.i() == 1 ? "" : ", " + host::Repr(step)) + ")";
  }
  bool IsIterator() const override { return true; }
  std::optional<Value> Next(Interpreter& in) override {
    Value v = at;
    if (type == "count") at = BinaryOpValues(in, ast::BinaryOp::Add, at, step);
    return v;
  }
  std::string type;
  Value at, step;
};

std::vector<std::vector<Value>> Pools(Interpreter& in, const std::vector<Value>& its) {
  std::vector<std::vector<Value>> out;
  for (const Value& v : its) out.push_back(IterateValue(in, v));
  return out;
}

Value Tuples(std::vector<std::vector<Value>> rows, const std::string& type) {
  std::vector<Value> out;
  for (auto& r : rows) out.push_back(MakeTuple(std::move(r)));
  return MakeIterator(std::move(out), "itertools." + type);
}

int64_t CountArg(const Value& v, const std::string& ctx) {
  int64_t r = ToInt(v, ctx);
  if (r < 0) ValueError("r must be non-negative");
  return r;
}

// Index tuples of combinations (CPython's order): r of n, with or without replacement.
void Combine(int64_t n, int64_t r, bool replace, std::vector<int64_t>& cur, int64_t from,
             std::vector<std::vector<int64_t>>& out) {
  if (int64_t(cur.size()) == r) {
    out.push_back(cur);
    return;
  }
  for (int64_t i = from; i < n; ++i) {
    cur.push_back(i);
    Combine(n, r, replace, cur, replace ? i : i + 1, out);
    cur.pop_back();
  }
}

void Permute(int64_t n, int64_t r, std::vector<int64_t>& cur, std::vector<bool>& used,
             std::vector<std::vector<int64_t>>& out) {
  if (int64_t(cur.size()) == r) {
    out.push_back(cur);
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    if (used[size_t(i)]) continue;
    used[size_t(i)] = true;
    cur.push_back(i);
    Permute(n, r, cur, used, out);
    cur.pop_back();
    used[size_t(i)] = false;
  }
}

}  // namespace

Value MakeItertoolsModule() {
  auto m = std::make_shared<UnprovidedModule>("itertools", "CPython's `itertools` module");
  m->Def("product", [](Interpreter& in, CallArgs& a) {
    int64_t repeat = 1;
    for (const auto& [k, v] : a.kw) {
      if (k != "repeat") TypeError("product() got an unexpected keyword argument '" + k + "'");
      repeat = ToInt(v, "product() repeat");
    }
    std::vector<std::vector<Value>> pools, all = Pools(in, a.pos);
    for (int64_t k = 0; k < repeat; ++k) pools.insert(pools.end(), all.begin(), all.end());
    std::vector<std::vector<Value>> rows = {{}};
    for (const auto& pool : pools) {
      std::vector<std::vector<Value>> next;
      for (const auto& row : rows)
        for (const Value& x : pool) {
          next.push_back(row);
          next.back().push_back(x);
        }
      rows = std::move(next);
    }
    return Tuples(std::move(rows), "product");
  });
  for (bool replace : {false, true}) {
    const std::string name = replace ? "combinations_with_replacement" : "combinations";
    m->Def(name, [name, replace](Interpreter& in, CallArgs& a) {
      ArgBinder b(name, a, {"iterable", "r"}, 2);
      std::vector<Value> pool = IterateValue(in, b.Get(0));
      std::vector<std::vector<int64_t>> idx;
      std::vector<int64_t> cur;
      const int64_t r = CountArg(b.Get(1), name + "() r");
      if (replace ? (!pool.empty() || r == 0) : r <= int64_t(pool.size())) Combine(int64_t(pool.size()), r, replace, cur, 0, idx);
      std::vector<std::vector<Value>> rows;
      for (const auto& ix : idx) {
        rows.emplace_back();
        for (int64_t i : ix) rows.back().push_back(pool[size_t(i)]);
      }
      return Tuples(std::move(rows), name);
    });
  }
  m->Def("permutations", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("permutations", a, {"iterable", "r"}, 1);
    std::vector<Value> pool = IterateValue(in, b.Get(0));
    const int64_t n = int64_t(pool.size());
    const int64_t r = b.Has(1) && !b.Get(1).IsNone() ? CountArg(b.Get(1), "permutations() r") : n;
    std::vector<std::vector<int64_t>> idx;
    std::vector<int64_t> cur;
    std::vector<bool> used(size_t(n), false);
    if (r <= n) Permute(n, r, cur, used, idx);
    std::vector<std::vector<Value>> rows;
    for (const auto& ix : idx) {
      rows.emplace_back();
      for (int64_t i : ix) rows.back().push_back(pool[size_t(i)]);
    }
    return Tuples(std::move(rows), "permutations");
  });
  auto chain = [](Interpreter& in, const std::vector<Value>& its) {
    std::vector<Value> out;
    for (const Value& v : its)
      for (const Value& x : IterateValue(in, v)) out.push_back(x);
    return MakeIterator(std::move(out), "itertools.chain");
  };
  // chain(*iterables), and chain.from_iterable(iterable of iterables).
  auto chain_type = std::make_shared<PyTypeObj>("itertools.chain", [chain](Interpreter& in, CallArgs& a) {
    if (!a.kw.empty()) TypeError("chain() takes no keyword arguments");
    return chain(in, a.pos);
  });
  chain_type->class_attrs["from_iterable"] =
      Value(std::make_shared<BuiltinFn>("from_iterable", [chain](Interpreter& in, CallArgs& a) {
        ArgBinder b("from_iterable", a, {"iterable"}, 1);
        return chain(in, IterateValue(in, b.Get(0)));
      }));
  m->attrs["chain"] = Value(chain_type);
  m->Def("pairwise", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("pairwise", a, {"iterable"}, 1);
    std::vector<Value> items = IterateValue(in, b.Get(0)), out;
    for (size_t k = 1; k < items.size(); ++k) out.push_back(MakeTuple({items[k - 1], items[k]}));
    return MakeIterator(std::move(out), "itertools.pairwise");
  });
  m->Def("accumulate", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("accumulate", a, {"iterable", "func", "initial"}, 1);
    std::vector<Value> items = IterateValue(in, b.Get(0)), out;
    const Value func = b.Get(1, Value());
    std::optional<Value> acc;
    if (b.Has(2) && !b.Get(2).IsNone()) out.push_back(*(acc = b.Get(2)));
    for (const Value& x : items) {
      if (!acc) {
        acc = x;
      } else if (func.IsNone()) {
        acc = BinaryOpValues(in, ast::BinaryOp::Add, *acc, x);
      } else {
        CallArgs c;
        c.pos = {*acc, x};
        acc = in.CallValue(func, c);
      }
      out.push_back(*acc);
    }
    return MakeIterator(std::move(out), "itertools.accumulate");
  });
  m->Def("islice", [](Interpreter& in, CallArgs& a) {
    if (a.pos.size() < 2 || a.pos.size() > 4) TypeError("islice expected 2 to 4 arguments");
    auto opt = [&](size_t k, int64_t d) { return k < a.pos.size() && !a.pos[k].IsNone() ? ToInt(a.pos[k], "islice()") : d; };
    int64_t start = 0, stop, step = 1;
    const bool bounded = a.pos.size() == 2 ? !a.pos[1].IsNone() : !a.pos[2].IsNone();
    if (a.pos.size() == 2) {
      stop = opt(1, -1);
    } else {
      start = opt(1, 0);
      stop = opt(2, -1);
      step = opt(3, 1);
    }
    if (start < 0 || (bounded && stop < 0) || step < 1)
      ValueError("Indices for islice() must be None or an integer: 0 <= x <= sys.maxsize.");
    std::vector<Value> out;
    const Value& it = a.pos[0];
    if (it.IsObj() && it.obj()->IsIterator()) {
      // Step a lazy iterator only as far as the slice reaches.
      for (int64_t k = 0; !bounded || k < stop; ++k) {
        std::optional<Value> v = it.obj()->Next(in);
        if (!v) break;
        if (k >= start && (k - start) % step == 0) out.push_back(*v);
      }
    } else {
      std::vector<Value> items = IterateValue(in, it);
      for (int64_t k = start; k < int64_t(items.size()) && (!bounded || k < stop); k += step) out.push_back(items[size_t(k)]);
    }
    return MakeIterator(std::move(out), "itertools.islice");
  });
  m->Def("zip_longest", [](Interpreter& in, CallArgs& a) {
    Value fill;
    for (const auto& [k, v] : a.kw) {
      if (k != "fillvalue") TypeError("zip_longest() got an unexpected keyword argument '" + k + "'");
      fill = v;
    }
    std::vector<std::vector<Value>> pools = Pools(in, a.pos), rows;
    size_t n = 0;
    for (const auto& p : pools) n = std::max(n, p.size());
    for (size_t k = 0; k < n; ++k) {
      rows.emplace_back();
      for (const auto& p : pools) rows.back().push_back(k < p.size() ? p[k] : fill);
    }
    return Tuples(std::move(rows), "zip_longest");
  });
  m->Def("starmap", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("starmap", a, {"function", "iterable"}, 2);
    std::vector<Value> out;
    for (const Value& args : IterateValue(in, b.Get(1))) {
      CallArgs c;
      c.pos = IterateValue(in, args);
      out.push_back(in.CallValue(b.Get(0), c));
    }
    return MakeIterator(std::move(out), "itertools.starmap");
  });
  m->Def("repeat", [](Interpreter&, CallArgs& a) {
    ArgBinder b("repeat", a, {"object", "times"}, 1);
    if (!b.Has(1)) return Value(std::make_shared<EndlessObj>("repeat", b.Get(0), Value()));
    const int64_t times = std::max<int64_t>(0, ToInt(b.Get(1), "repeat() times"));
    return MakeIterator(std::vector<Value>(size_t(times), b.Get(0)), "itertools.repeat");
  });
  m->Def("count", [](Interpreter&, CallArgs& a) {
    ArgBinder b("count", a, {"start", "step"}, 0);
    const Value start = b.Get(0, Value::Int(0)), step = b.Get(1, Value::Int(1));
    if (!start.IsNumber() || !step.IsNumber()) TypeError("a number is required");
    return Value(std::make_shared<EndlessObj>("count", start, step));
  });
  return Value(m);
}

}  // namespace tilec::host
