// CPython's set table (Objects/setobject.c): linear probes of 9 slots, then perturbed
// probing; grows to 4x the used count when 3/5 full; deleted slots become dummies.
#include "host/interp/set_value.h"

#include <cmath>

#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

namespace {

constexpr uint64_t kModulus = (uint64_t(1) << 61) - 1;  // _PyHASH_MODULUS
constexpr size_t kLinearProbes = 9;
constexpr int kPerturbShift = 5;

int64_t HashInt(int64_t v) {
  uint64_t m = v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  int64_t h = int64_t(m % kModulus);
  if (v < 0) h = -h;
  return h == -1 ? -2 : h;
}

// _Py_HashDouble: the value reduced modulo 2**61 - 1, so that equal ints and floats agree.
int64_t HashDouble(double v) {
  if (std::isinf(v)) return v > 0 ? 314159 : -314159;
  if (std::isnan(v)) return 0;
  int e;
  double m = std::frexp(v, &e);
  int sign = 1;
  if (m < 0) {
    sign = -1;
    m = -m;
  }
  uint64_t x = 0;
  while (m) {
    x = ((x << 28) & kModulus) | x >> (61 - 28);
    m *= 268435456.0;
    e -= 28;
    uint64_t y = uint64_t(m);
    m -= double(y);
    x += y;
    if (x >= kModulus) x -= kModulus;
  }
  e = e >= 0 ? e % 61 : 61 - 1 - ((-1 - e) % 61);
  x = ((x << e) & kModulus) | x >> (61 - e);
  int64_t h = int64_t(x) * sign;
  return h == -1 ? -2 : h;
}

int64_t HashString(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  int64_t r = int64_t(h >> 1);
  return r == -1 ? -2 : r;
}

}  // namespace

std::optional<int64_t> PyHash(const Value& v) {
  if (v.IsIntLike()) return HashInt(v.i());
  if (v.IsFloat()) {
    double d = v.f();
    if (d == std::trunc(d) && std::fabs(d) < 9.2e18) return HashInt(int64_t(d));
    return HashDouble(d);
  }
  if (v.IsNone()) return int64_t(0x5f3759df);  // CPython hashes None by address: any constant
  if (auto* s = v.As<StrObj>()) return HashString(s->s);
  if (auto* t = v.As<TupleObj>()) {
    // The xxHash-style combination of tuplehash().
    constexpr uint64_t kP1 = 11400714785074694791ull, kP2 = 14029467366897019727ull, kP5 = 2870177450012600261ull;
    uint64_t acc = kP5;
    for (const Value& x : t->items) {
      auto lane = PyHash(x);
      if (!lane) return std::nullopt;
      acc += uint64_t(*lane) * kP2;
      acc = (acc << 31) | (acc >> 33);
      acc *= kP1;
    }
    acc += uint64_t(t->items.size()) ^ (kP5 ^ 3527539ull);
    if (acc == UINT64_MAX) return int64_t(1546275796);
    return int64_t(acc);
  }
  if (v.IsObj()) {
    if (v.As<ListObj>() || v.As<DictObj>() || v.As<SetObj>()) return std::nullopt;
    if (auto s = v.obj()->AsScalar()) return PyHash(*s);
    return int64_t(reinterpret_cast<uintptr_t>(v.obj()) >> 4);
  }
  return std::nullopt;
}

void SetObj::InsertClean(const Value& v, int64_t hash) {
  size_t mask = table.size() - 1;
  uint64_t perturb = uint64_t(hash);
  size_t i = size_t(uint64_t(hash) & mask);
  for (;;) {
    if (!table[i].active) break;
    bool found = false;
    if (i + kLinearProbes <= mask) {
      for (size_t j = 1; j <= kLinearProbes; ++j)
        if (!table[i + j].active) {
          i += j;
          found = true;
          break;
        }
    }
    if (found) break;
    perturb >>= kPerturbShift;
    i = size_t((i * 5 + 1 + perturb) & mask);
  }
  table[i] = Entry{v, hash, true, false};
}

void SetObj::Resize(size_t minused) {
  size_t newsize = 8;
  while (newsize <= minused) newsize <<= 1;
  std::vector<Entry> old = std::move(table);
  table.assign(newsize, Entry());
  for (Entry& e : old)
    if (e.active) InsertClean(e.key, e.hash);
  fill = used;
}

void SetObj::Merge(const SetObj& other) {
  if (&other == this || other.used == 0) return;
  if ((fill + other.used) * 5 >= (table.size() - 1) * 3) Resize((used + other.used) * 2);
  if (fill == 0 && table.size() == other.table.size() && other.fill == other.used) {
    table = other.table;
    fill = other.fill;
    used = other.used;
    return;
  }
  if (fill == 0) {
    fill = used = other.used;
    for (const Entry& e : other.table)
      if (e.active) InsertClean(e.key, e.hash);
    return;
  }
  for (const Entry& e : other.table)
    if (e.active) AddHashed(e.key, e.hash);
}

void SetObj::Add(const Value& v) {
  auto h = PyHash(v);
  if (!h) TypeError("unhashable type: '" + host::TypeName(v) + "'");
  AddHashed(v, *h);
}

// A new element goes where the probe sequence first meets a never-used slot, unless it
// passed deleted slots on the way: then CPython 3.11 reuses the last of those.
void SetObj::AddHashed(const Value& v, int64_t hash) {
  size_t mask = table.size() - 1;
  uint64_t perturb = uint64_t(hash);
  size_t i = size_t(uint64_t(hash) & mask);
  Entry* slot = nullptr;
  Entry* freeslot = nullptr;
  for (;;) {
    size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
    for (size_t j = 0; j <= probes; ++j) {
      Entry& e = table[i + j];
      if (!e.active && !e.dummy) {
        slot = &e;
        break;
      }
      if (e.active && e.hash == hash && ValueEquals(e.key, v)) return;
      if (e.dummy) freeslot = &e;
    }
    if (slot) break;
    perturb >>= kPerturbShift;
    i = size_t((i * 5 + 1 + perturb) & mask);
  }
  if (freeslot) {
    *freeslot = Entry{v, hash, true, false};
    ++used;
    return;
  }
  *slot = Entry{v, hash, true, false};
  ++fill;
  ++used;
  if (fill * 5 >= mask * 3) Resize(used > 50000 ? used * 2 : used * 4);
}

bool SetObj::Has(const Value& v) const {
  auto h = PyHash(v);
  if (!h) TypeError("unhashable type: '" + host::TypeName(v) + "'");
  size_t mask = table.size() - 1;
  uint64_t perturb = uint64_t(*h);
  size_t i = size_t(uint64_t(*h) & mask);
  for (;;) {
    size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
    for (size_t j = 0; j <= probes; ++j) {
      const Entry& e = table[i + j];
      if (!e.active && !e.dummy) return false;
      if (e.active && e.hash == *h && ValueEquals(e.key, v)) return true;
    }
    perturb >>= kPerturbShift;
    i = size_t((i * 5 + 1 + perturb) & mask);
  }
}

bool SetObj::Discard(const Value& v) {
  if (!Has(v)) return false;
  for (Entry& e : table)
    if (e.active && ValueEquals(e.key, v)) {
      e = Entry();
      e.dummy = true;
      --used;
      return true;
    }
  return false;
}

std::vector<Value> SetObj::Items() const {
  std::vector<Value> out;
  for (const Entry& e : table)
    if (e.active) out.push_back(e.key);
  return out;
}

std::string SetObj::Repr() const {
  if (used == 0) return "set()";
  std::string out = "{";
  bool first = true;
  for (const Value& v : Items()) {
    out += (first ? "" : ", ") + host::Repr(v);
    first = false;
  }
  return out + "}";
}

std::shared_ptr<SetObj> CopySet(const SetObj& s) {
  auto out = std::make_shared<SetObj>();
  out->Merge(s);
  return out;
}

std::shared_ptr<SetObj> MakeSet(Interpreter& in, const std::vector<Value>& items) {
  auto s = std::make_shared<SetObj>();
  for (const Value& v : items) s->Add(v);
  return s;
}

namespace {

// The binary set operations in CPython's element order (set_or, set_intersection,
// set_difference, set_symmetric_difference).
std::shared_ptr<SetObj> Combine(Interpreter& in, const SetObj& a, const SetObj& b, char op) {
  switch (op) {
    case '|': {
      auto out = CopySet(a);
      out->Merge(b);
      return out;
    }
    case '&': {
      auto out = std::make_shared<SetObj>();
      const SetObj* big = &a;
      const SetObj* small = &b;
      if (b.used > a.used) std::swap(big, small);
      for (const SetObj::Entry& e : small->table)
        if (e.active && big->Has(e.key)) out->Add(e.key);
      return out;
    }
    case '-': {
      if ((a.used >> 2) > b.used) {
        auto out = CopySet(a);
        for (const Value& v : b.Items()) out->Discard(v);
        return out;
      }
      auto out = std::make_shared<SetObj>();
      for (const Value& v : a.Items())
        if (!b.Has(v)) out->Add(v);
      return out;
    }
    default: {  // '^': a copy of b, updated with a
      auto out = CopySet(b);
      for (const Value& v : a.Items())
        if (!out->Discard(v)) out->Add(v);
      return out;
    }
  }
}

}  // namespace

std::optional<Value> SetObj::BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) {
  auto* o = other.As<SetObj>();
  if (!o) return std::nullopt;
  char c = op == ast::BinaryOp::BitOr ? '|' : op == ast::BinaryOp::BitAnd ? '&' : op == ast::BinaryOp::Sub ? '-'
           : op == ast::BinaryOp::BitXor ? '^' : 0;
  if (!c) return std::nullopt;
  const SetObj& lhs = reflected ? *o : *this;
  const SetObj& rhs = reflected ? *this : *o;
  return Value(Combine(in, lhs, rhs, c));
}

std::optional<Value> SetObj::CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) {
  auto* o = other.As<SetObj>();
  if (!o) {
    if (op == ast::CmpOp::Eq) return Value::Bool(false);
    if (op == ast::CmpOp::NotEq) return Value::Bool(true);
    return std::nullopt;
  }
  const SetObj& a = reflected ? *o : *this;
  const SetObj& b = reflected ? *this : *o;
  auto subset = [](const SetObj& x, const SetObj& y) {
    for (const Value& v : x.Items())
      if (!y.Has(v)) return false;
    return true;
  };
  switch (op) {
    case ast::CmpOp::Eq: return Value::Bool(a.used == b.used && subset(a, b));
    case ast::CmpOp::NotEq: return Value::Bool(!(a.used == b.used && subset(a, b)));
    case ast::CmpOp::LtE: return Value::Bool(subset(a, b));
    case ast::CmpOp::Lt: return Value::Bool(a.used < b.used && subset(a, b));
    case ast::CmpOp::GtE: return Value::Bool(subset(b, a));
    case ast::CmpOp::Gt: return Value::Bool(b.used < a.used && subset(b, a));
    default: return std::nullopt;
  }
}

std::optional<Value> SetObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<SetObj>(shared_from_this());
  auto method = [&](auto fn) {
    return Value(std::make_shared<BuiltinFn>(name, [self, fn](Interpreter& i, CallArgs& a) { return fn(*self, i, a); }));
  };
  if (name == "add")
    return method([](SetObj& s, Interpreter&, CallArgs& a) {
      ArgBinder b("add", a, {"elem"}, 1);
      s.Add(b.Get(0));
      return Value();
    });
  if (name == "discard" || name == "remove") {
    bool strict = name == "remove";
    return method([strict](SetObj& s, Interpreter&, CallArgs& a) {
      ArgBinder b(strict ? "remove" : "discard", a, {"elem"}, 1);
      if (!s.Discard(b.Get(0)) && strict) Raise("KeyError", host::Repr(b.Get(0)));
      return Value();
    });
  }
  if (name == "update")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) {
      for (const Value& it : a.pos) {
        if (auto* o = it.As<SetObj>()) s.Merge(*o);
        else
          for (const Value& v : IterateValue(in, it)) s.Add(v);
      }
      return Value();
    });
  if (name == "copy")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) { return Value(CopySet(s)); });
  if (name == "clear")
    return method([](SetObj& s, Interpreter&, CallArgs& a) {
      s.table.assign(8, Entry());
      s.fill = s.used = 0;
      return Value();
    });
  // The methods take any iterables; CPython adds or drops their elements one by one
  // (sets are merged), which decides the order of the result.
  if (name == "union")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) {
      auto acc = CopySet(s);
      for (const Value& it : a.pos) {
        if (auto* o = it.As<SetObj>()) acc->Merge(*o);
        else
          for (const Value& v : IterateValue(in, it)) acc->Add(v);
      }
      return Value(acc);
    });
  if (name == "intersection")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) {
      auto acc = CopySet(s);
      for (const Value& it : a.pos) {
        if (auto* o = it.As<SetObj>()) {
          acc = Combine(in, *acc, *o, '&');
        } else {
          auto next = std::make_shared<SetObj>();
          for (const Value& v : IterateValue(in, it))
            if (acc->Has(v)) next->Add(v);
          acc = next;
        }
      }
      return Value(acc);
    });
  if (name == "difference")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) {
      auto acc = CopySet(s);
      for (const Value& it : a.pos)
        for (const Value& v : IterateValue(in, it)) acc->Discard(v);
      return Value(acc);
    });
  if (name == "symmetric_difference")
    return method([](SetObj& s, Interpreter& in, CallArgs& a) {
      ArgBinder b("symmetric_difference", a, {"other"}, 1);
      auto other = b.Get(0).As<SetObj>() ? CopySet(*b.Get(0).As<SetObj>()) : MakeSet(in, IterateValue(in, b.Get(0)));
      return Value(Combine(in, s, *other, '^'));
    });
  if (name == "issubset" || name == "issuperset") {
    bool sub = name == "issubset";
    return method([sub](SetObj& s, Interpreter& in, CallArgs& a) {
      ArgBinder b(sub ? "issubset" : "issuperset", a, {"other"}, 1);
      auto o = MakeSet(in, IterateValue(in, b.Get(0)));
      const SetObj& x = sub ? s : *o;
      const SetObj& y = sub ? *o : s;
      for (const Value& v : x.Items())
        if (!y.Has(v)) return Value::Bool(false);
      return Value::Bool(true);
    });
  }
  return std::nullopt;
}

}  // namespace tilec::host
