// Warp's tile API as a matrix: kernels generated per dtype x shape/rank x axis x storage, run on
// pseudo-random data against plain-loop references (float add/mul folds and scans within an error
// bound, as their order may change; all else exact); refused combinations must be diagnostics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using Shape = std::vector<int64_t>;

// ---------------------------------------------------------------- dtypes and host buffers

enum class DT { I32, F16, F32, F64 };
const DT kAllDTypes[] = {DT::I32, DT::F16, DT::F32, DT::F64};

const char* WpName(DT d) {
  switch (d) {
    case DT::I32: return "wp.int32";
    case DT::F16: return "wp.float16";
    case DT::F32: return "wp.float32";
    case DT::F64: return "wp.float64";
  }
  return "?";
}
const char* ShortName(DT d) {
  switch (d) {
    case DT::I32: return "I32";
    case DT::F16: return "F16";
    case DT::F32: return "F32";
    case DT::F64: return "F64";
  }
  return "?";
}
size_t SizeOf(DT d) { return d == DT::I32 ? 4 : d == DT::F16 ? 2 : d == DT::F32 ? 4 : 8; }
bool IsFloat(DT d) { return d != DT::I32; }
// Unit roundoff of each float type; 16-bit arithmetic rounds after every operation.
double Unit(DT d) { return d == DT::F16 ? 0x1p-11 : d == DT::F32 ? 0x1p-24 : d == DT::F64 ? 0x1p-53 : 0.0; }

// `v` as the dtype holds it (float to int truncates toward zero and saturates, as tile_astype).
double RoundTo(DT d, double v) {
  switch (d) {
    case DT::I32: {
      if (std::isnan(v)) return 0;
      double t = std::trunc(v);
      return std::clamp(t, -2147483648.0, 2147483647.0);
    }
    case DT::F16: return double(HalfToFloat(FloatToHalf(float(v))));
    case DT::F32: return double(float(v));
    case DT::F64: return v;
  }
  return v;
}

int64_t Numel(const Shape& s) {
  int64_t n = 1;
  for (int64_t e : s) n *= e;
  return n;
}
Shape Unflatten(int64_t i, const Shape& s) {
  Shape idx(s.size());
  for (int d = int(s.size()) - 1; d >= 0; --d) {
    idx[size_t(d)] = i % s[size_t(d)];
    i /= s[size_t(d)];
  }
  return idx;
}
int64_t Flatten(const Shape& idx, const Shape& s) {
  int64_t f = 0;
  for (size_t d = 0; d < s.size(); ++d) f = f * s[d] + idx[d];
  return f;
}
std::string ShapeText(const Shape& s) {
  std::string t = "(";
  for (size_t d = 0; d < s.size(); ++d) t += (d ? ", " : "") + std::to_string(s[d]);
  return t + (s.size() == 1 ? ",)" : ")");
}
std::string ShapeTag(const Shape& s) {
  std::string t;
  for (size_t d = 0; d < s.size(); ++d) t += (d ? "x" : "") + std::to_string(s[d]);
  return t;
}
std::string ArrayType(DT d, int rank) {
  return std::string("wp.array") + (rank == 1 ? "" : std::to_string(rank) + "d") + "[" + WpName(d) + "]";
}

// A host array of any dtype and shape, read and written as doubles.
struct Buf {
  std::string name;
  DT dt;
  Shape shape;
  std::vector<uint8_t> bytes;
  tilec_array arr{};
  bool output = false;

  Buf(std::string n, DT d, Shape s) : name(std::move(n)), dt(d), shape(std::move(s)) {
    bytes.assign(size_t(Numel(shape)) * SizeOf(dt), 0);
    switch (dt) {
      case DT::I32: arr = testing::View(reinterpret_cast<int32_t*>(bytes.data()), shape); break;
      case DT::F16: arr = testing::View(reinterpret_cast<uint16_t*>(bytes.data()), shape); break;
      case DT::F32: arr = testing::View(reinterpret_cast<float*>(bytes.data()), shape); break;
      case DT::F64: arr = testing::View(reinterpret_cast<double*>(bytes.data()), shape); break;
    }
  }
  int64_t n() const { return Numel(shape); }
  double Get(int64_t i) const {
    const uint8_t* p = bytes.data() + size_t(i) * SizeOf(dt);
    switch (dt) {
      case DT::I32: { int32_t v; std::memcpy(&v, p, 4); return v; }
      case DT::F16: { uint16_t v; std::memcpy(&v, p, 2); return HalfToFloat(v); }
      case DT::F32: { float v; std::memcpy(&v, p, 4); return v; }
      case DT::F64: { double v; std::memcpy(&v, p, 8); return v; }
    }
    return 0;
  }
  void Set(int64_t i, double x) {
    uint8_t* p = bytes.data() + size_t(i) * SizeOf(dt);
    switch (dt) {
      case DT::I32: { int32_t v = int32_t(RoundTo(dt, x)); std::memcpy(p, &v, 4); break; }
      case DT::F16: { uint16_t v = FloatToHalf(float(x)); std::memcpy(p, &v, 2); break; }
      case DT::F32: { float v = float(x); std::memcpy(p, &v, 4); break; }
      case DT::F64: { std::memcpy(p, &x, 8); break; }
    }
  }
  std::vector<double> Values() const {
    std::vector<double> v(static_cast<size_t>(n()));
    for (int64_t i = 0; i < n(); ++i) v[size_t(i)] = Get(i);
    return v;
  }
};

// Deterministic pseudo-random inputs (an LCG per array).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 6364136223846793005ull + 1442695040888963407ull) {}
  uint32_t Next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return uint32_t(s >> 33);
  }
  int Int(int lo, int hi) { return lo + int(Next() % uint32_t(hi - lo + 1)); }
};

// Values exact in every dtype: ints in [-1000, 1000], floats halves in [-4, 4] (16-bit sums of
// a few hundred stay exact, so the bounds below are never what makes a correct answer pass).
double Plain(DT d, Rng& r) { return d == DT::I32 ? r.Int(-1000, 1000) : r.Int(-8, 8) * 0.5; }
// Factors for products: +-1, with at most seven 2s and seven 0.5s, so that no partial product
// in any order leaves the exact range of a 16-bit float or wraps an int32 to zero.
double Factor(Rng& r, int64_t i) {
  double mag = i % 8 != 3 || i > 116 ? 1.0 : (i / 8) % 2 ? 0.5 : 2.0;
  return (r.Next() & 1 ? 1.0 : -1.0) * mag;
}

// ---------------------------------------------------------------- kernels from text

// One generated kernel `k`: its parameters (arrays, then int scalars), body and helper funcs.
struct Kernel {
  std::string funcs;
  std::vector<std::string> params;
  std::vector<void*> args;
  std::vector<std::unique_ptr<Buf>> bufs;
  std::vector<std::unique_ptr<int32_t>> ints;
  std::string body;

  Buf& In(const std::string& name, DT d, const Shape& s, const std::function<double(int64_t)>& gen) {
    Buf& b = Add(name, d, s);
    for (int64_t i = 0; i < b.n(); ++i) b.Set(i, gen(i));
    return b;
  }
  Buf& Out(const std::string& name, DT d, const Shape& s) {
    Buf& b = Add(name, d, s);
    b.output = true;
    return b;
  }
  int32_t& Int(const std::string& name, int32_t v) {
    ints.push_back(std::make_unique<int32_t>(v));
    params.push_back(name + ": int");
    args.push_back(ints.back().get());
    return *ints.back();
  }
  void Line(const std::string& l) { body += "    " + l + "\n"; }
  std::string Text() const {
    // Forward only: the adjoints are not what this file tests, and they triple compile time.
    std::string t = funcs + "\n@wp.kernel(enable_backward=False)\ndef k(";
    for (size_t i = 0; i < params.size(); ++i) t += (i ? ", " : "") + params[i];
    return t + "):\n" + body;
  }
  // Compiles (under the variant the environment asks for) and runs the grid `dim` with each
  // block_dim, outputs refilled with a sentinel before every launch; `check` runs after each.
  void Run(const std::function<void(int bd)>& check, std::vector<int64_t> dim = {1}) {
    std::string text = Text();
    testing::Compiled c = testing::CompileText(text);
    ASSERT_TRUE(c.module) << text;
    for (int bd : {1, 32}) {
      for (auto& b : bufs)
        if (b->output)
          for (int64_t i = 0; i < b->n(); ++i) b->Set(i, -77);
      testing::Launch(c.Entry("k"), args, dim, bd);
      check(bd);
      if (::testing::Test::HasFailure()) {
        ADD_FAILURE() << "kernel:\n" << text;
        return;
      }
    }
  }

 private:
  Buf& Add(const std::string& name, DT d, const Shape& s) {
    bufs.push_back(std::make_unique<Buf>(name, d, s));
    params.push_back(name + ": " + ArrayType(d, int(s.size())));
    args.push_back(&bufs.back()->arr);
    return *bufs.back();
  }
};

// Exact comparison of every element (the reference rounded to the output's dtype).
void ExpectExact(const Buf& got, const std::vector<double>& want, const std::string& what) {
  ASSERT_EQ(size_t(got.n()), want.size()) << what;
  int reported = 0;
  for (int64_t i = 0; i < got.n() && reported < 5; ++i) {
    double w = RoundTo(got.dt, want[size_t(i)]);
    if (!(got.Get(i) == w)) {
      ++reported;
      ADD_FAILURE() << what << " [" << got.name << "] @" << i << ": got " << got.Get(i) << ", want " << w;
    }
  }
}
// Within `bound[i]` of the reference.
void ExpectNear(const Buf& got, const std::vector<double>& want, const std::vector<double>& bound,
                const std::string& what) {
  ASSERT_EQ(size_t(got.n()), want.size()) << what;
  int reported = 0;
  for (int64_t i = 0; i < got.n() && reported < 5; ++i) {
    double g = got.Get(i), w = want[size_t(i)];
    if (!(std::fabs(g - w) <= bound[size_t(i)])) {
      ++reported;
      ADD_FAILURE() << what << " [" << got.name << "] @" << i << ": got " << g << ", want " << w << " +- "
                    << bound[size_t(i)];
    }
  }
}

// The error bound of a float sum or product of `n` terms in any order, computed in dtype `d`:
// n * u * (sum of |terms|, or |product| for products), plus rounding of the result.
double FoldBound(DT d, int64_t n, double magnitude) {
  return IsFloat(d) ? double(n + 1) * Unit(d) * magnitude * 1.0001 : 0.0;
}

std::string StorageArg(bool shared) { return shared ? "storage=\"shared\"" : "storage=\"register\""; }

// Each case puts shared and register tiles into one kernel: compile time dominates the run.
struct ShapeCase {
  DT dt;
  Shape shape;
};
std::string ShapeCaseName(const ::testing::TestParamInfo<ShapeCase>& p) {
  return std::string(ShortName(p.param.dt)) + (p.param.shape.empty() ? "" : "_" + ShapeTag(p.param.shape));
}
std::vector<ShapeCase> ShapeCases(const std::vector<Shape>& shapes) {
  std::vector<ShapeCase> out;
  for (DT d : kAllDTypes)
    for (const Shape& s : shapes) out.push_back({d, s});
  return out;
}

// ---------------------------------------------------------------- reductions

// Folds of `x` along `axis` (-1: all of it): for every output element, the input elements it
// combines, in row-major order.
std::vector<std::vector<int64_t>> Groups(const Shape& s, int axis) {
  if (axis < 0) {
    std::vector<int64_t> all(size_t(Numel(s)));
    std::iota(all.begin(), all.end(), 0);
    return {all};
  }
  Shape out = s;
  out.erase(out.begin() + axis);
  if (out.empty()) out = {1};
  std::vector<std::vector<int64_t>> g(size_t(Numel(out)));
  for (int64_t i = 0; i < Numel(s); ++i) {
    Shape idx = Unflatten(i, s);
    Shape o = idx;
    o.erase(o.begin() + axis);
    g[size_t(s.size() == 1 ? 0 : Flatten(o, out))].push_back(i);
  }
  return g;
}

// Every combiner over the whole tile and along the axis of 1-D tiles; at ranks 2-4 tile_sum along
// every axis and three (rank 2) or two further combiners per axis, rotated by axis and dtype, so
// that each (combiner, axis) pair runs in some dtype (compile time forbids all of them in all).
// Shared and register operands alternate between the calls.
class MatrixReduce : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(MatrixReduce, AlongEveryAxisAndWhole) {
  const ShapeCase& p = GetParam();
  const DT d = p.dt;
  const std::string T = WpName(d);
  const int rank = int(p.shape.size());
  const bool is_int = d == DT::I32;
  Kernel k;
  // An associative, commutative combiner written with a comparison, so any order is right.
  k.funcs = testing::WithDType("@wp.func\ndef bigger(a: {T}, b: {T}) -> {T}:\n    r = b\n    if a > b:\n"
                               "        r = a\n    return r\n",
                               T);
  Rng rng(uint64_t(rank * 1000 + p.shape[0] * 10 + int(d)));
  Buf& x = k.In("x", d, p.shape, [&](int64_t) { return Plain(d, rng); });
  Buf& m = k.In("m", d, p.shape, [&](int64_t i) { return Factor(rng, i); });
  Buf& y = k.In("y", d, p.shape, [&](int64_t) { return Plain(d, rng); });
  for (bool shared : {true, false}) {
    std::string load = ", shape=" + ShapeText(p.shape) + ", " + StorageArg(shared) + ")";
    std::string sfx = shared ? "s" : "r";
    k.Line("t" + sfx + " = wp.tile_load(x" + load);
    k.Line("p" + sfx + " = wp.tile_load(m" + load);
    k.Line("u" + sfx + " = wp.tile_load(y" + load);
  }
  std::vector<std::string> ops = {"sum", "add", "mul", "min", "max", "func"};
  if (is_int) ops.insert(ops.end(), {"bit_and", "bit_or", "bit_xor"});
  struct Result { Buf* out; std::string op; int axis; };
  std::vector<Result> results;
  for (int axis = -1; axis < rank; ++axis) {
    Shape os = p.shape;
    if (axis >= 0) os.erase(os.begin() + axis);
    if (os.empty() || axis < 0) os = {1};
    std::string ax = axis < 0 ? "" : ", axis=" + std::to_string(axis);
    for (size_t j = 0; j < ops.size(); ++j) {
      const std::string& op = ops[j];
      size_t n_rot = ops.size() - 1, a = size_t(axis + 1) * 2 + size_t(d), width = rank == 2 ? 3 : 2;
      bool rotated_in = j == 0 || (j - 1 + n_rot - a % n_rot) % n_rot < width;
      if (rank > 1 && axis >= 0 && !rotated_in) continue;
      Buf& o = k.Out("o_" + op + (axis < 0 ? std::string("_all") : "_" + std::to_string(axis)), d, os);
      std::string src = std::string(op == "mul" ? "p" : "t") + ((j + size_t(axis + 1)) % 2 ? "s" : "r");
      std::string call = op == "sum"    ? "wp.tile_sum(" + src + ax + ")"
                         : op == "func" ? "wp.tile_reduce(bigger, " + src + ax + ")"
                                        : "wp.tile_reduce(wp." + op + ", " + src + ax + ")";
      k.Line("wp.tile_store(" + o.name + ", " + call + ")");
      results.push_back({&o, op, axis});
    }
  }
  Buf& whole = k.Out("whole", d, {3});
  Buf& idx = k.Out("idx", DT::I32, {2});
  k.Line("wp.tile_store(whole, wp.tile_min(ts), offset=0)");
  k.Line("wp.tile_store(whole, wp.tile_max(tr), offset=1)");
  k.Line("wp.tile_store(whole, wp.tile_dot(ts, ur), offset=2)");
  k.Line("idx[0] = wp.tile_argmin(tr)[0]");
  k.Line("idx[1] = wp.tile_argmax(us)[0]");
  const std::vector<double> xv = x.Values(), mv = m.Values(), yv = y.Values();
  k.Run([&](int bd) {
    const std::string at = std::string(ShortName(d)) + " " + ShapeTag(p.shape) + " bd=" + std::to_string(bd);
    for (const Result& r : results) {
      std::vector<std::vector<int64_t>> groups = Groups(p.shape, r.axis);
      std::vector<double> want, bound;
      for (const auto& g : groups) {
        const std::vector<double>& v = r.op == "mul" ? mv : xv;
        double acc = v[size_t(g[0])], mag = std::fabs(acc);
        int32_t bits = int32_t(acc);
        for (size_t j = 1; j < g.size(); ++j) {
          double e = v[size_t(g[j])];
          if (r.op == "sum" || r.op == "add") acc += e, mag += std::fabs(e);
          else if (r.op == "mul") acc *= e, mag *= std::fabs(e);
          else if (r.op == "min") acc = std::min(acc, e);
          else if (r.op == "max" || r.op == "func") acc = std::max(acc, e);
          else if (r.op == "bit_and") bits &= int32_t(e);
          else if (r.op == "bit_or") bits |= int32_t(e);
          else if (r.op == "bit_xor") bits ^= int32_t(e);
        }
        if (r.op.rfind("bit_", 0) == 0) acc = bits;
        want.push_back(acc);
        bound.push_back(r.op == "sum" || r.op == "add" || r.op == "mul" ? FoldBound(d, int64_t(g.size()), mag) : 0);
      }
      std::string what = at + " " + r.op + " axis=" + std::to_string(r.axis);
      if (IsFloat(d) && (r.op == "sum" || r.op == "add" || r.op == "mul")) ExpectNear(*r.out, want, bound, what);
      else ExpectExact(*r.out, want, what);
    }
    double mn = xv[0], mx = yv[0], dot = 0, dmag = 0;
    int64_t amin = 0, amax = 0;
    for (size_t i = 0; i < xv.size(); ++i) {
      // Ties: the first in row-major order (docs/tile_argmin.rst).
      if (xv[i] < mn) mn = xv[i], amin = int64_t(i);
      if (yv[i] > mx) mx = yv[i], amax = int64_t(i);
      dot += xv[i] * yv[i];
      dmag += std::fabs(xv[i] * yv[i]);
    }
    double mnx = *std::min_element(xv.begin(), xv.end()), mxx = *std::max_element(xv.begin(), xv.end());
    EXPECT_EQ(whole.Get(0), mnx) << at << " tile_min";
    EXPECT_EQ(whole.Get(1), mxx) << at << " tile_max";
    EXPECT_LE(std::fabs(whole.Get(2) - RoundTo(d, dot)), FoldBound(d, x.n() * 2, dmag)) << at << " tile_dot";
    EXPECT_EQ(idx.Get(0), double(amin)) << at << " tile_argmin";
    EXPECT_EQ(idx.Get(1), double(amax)) << at << " tile_argmax";
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixReduce,
                         ::testing::ValuesIn(ShapeCases({{1}, {257}, {3, 5}, {2, 3, 5}, {3, 2, 1, 5}})),
                         ShapeCaseName);


// ---------------------------------------------------------------- scans

// Scans run over the flattened row-major sequence at every rank (tilec accepts every numeric
// dtype; Warp documents float32/int32/uint32).
class MatrixScan : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(MatrixScan, AllFourOverTheFlattenedTile) {
  const ShapeCase& p = GetParam();
  const bool odd = p.shape.size() % 2 == 1;
  const DT d = p.dt;
  Kernel k;
  Rng rng(uint64_t(p.shape.size() * 7919 + p.shape[0] * 31 + int(d)));
  Buf& x = k.In("x", d, p.shape, [&](int64_t) { return Plain(d, rng); });
  Buf& inc = k.Out("inc", d, p.shape);
  Buf& exc = k.Out("exc", d, p.shape);
  Buf& hi = k.Out("hi", d, p.shape);
  Buf& lo = k.Out("lo", d, p.shape);
  // Each scan reads a shared tile at odd ranks and a register tile at even ones, or the reverse.
  k.Line("a = wp.tile_load(x, shape=" + ShapeText(p.shape) + ", " + StorageArg(odd) + ")");
  k.Line("b = wp.tile_load(x, shape=" + ShapeText(p.shape) + ", " + StorageArg(!odd) + ")");
  k.Line("wp.tile_store(inc, wp.tile_scan_inclusive(a))");
  k.Line("wp.tile_store(exc, wp.tile_scan_exclusive(b))");
  k.Line("wp.tile_store(hi, wp.tile_scan_max_inclusive(b))");
  k.Line("wp.tile_store(lo, wp.tile_scan_min_inclusive(a))");
  const std::vector<double> xv = x.Values();
  std::vector<double> w_inc, w_exc, b_inc, b_exc, w_hi, w_lo;
  double run = 0, mag = 0, h = xv[0], l = xv[0];
  for (size_t i = 0; i < xv.size(); ++i) {
    w_exc.push_back(run);
    b_exc.push_back(FoldBound(d, int64_t(i), mag));
    run += xv[i];
    mag += std::fabs(xv[i]);
    h = std::max(h, xv[i]);
    l = std::min(l, xv[i]);
    w_inc.push_back(run);
    b_inc.push_back(FoldBound(d, int64_t(i + 1), mag));
    w_hi.push_back(h);
    w_lo.push_back(l);
  }
  k.Run([&](int bd) {
    const std::string at = std::string(ShortName(d)) + " " + ShapeTag(p.shape) + " bd=" + std::to_string(bd);
    if (IsFloat(d)) {
      ExpectNear(inc, w_inc, b_inc, at + " inclusive");
      ExpectNear(exc, w_exc, b_exc, at + " exclusive");
    } else {
      ExpectExact(inc, w_inc, at + " inclusive");
      ExpectExact(exc, w_exc, at + " exclusive");
    }
    ExpectExact(hi, w_hi, at + " max_inclusive");
    ExpectExact(lo, w_lo, at + " min_inclusive");
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixScan,
                         ::testing::ValuesIn(ShapeCases({{1}, {257}, {3, 7}, {2, 3, 5}, {2, 1, 3, 5}})),
                         ShapeCaseName);

// ---------------------------------------------------------------- sort

// Keys of each dtype with repeats, a payload of another dtype; the order is ascending and
// stable (docs/semantics.md), over the flattened tile at every rank tilec accepts.
class MatrixSort : public ::testing::TestWithParam<ShapeCase> {};

TEST_P(MatrixSort, KeysAndPayloadStable) {
  const ShapeCase& p = GetParam();
  const bool odd = p.shape.size() % 2 == 1;
  const DT d = p.dt;
  const DT vd = d == DT::I32 ? DT::F32 : DT::I32;
  Kernel k;
  Rng rng(uint64_t(p.shape.size() * 131 + p.shape[0] * 17 + int(d)));
  const int64_t n = Numel(p.shape);
  // Few distinct keys so that ties (and so stability) are visible.
  Buf& keys = k.In("keys", d, p.shape, [&](int64_t) { return d == DT::I32 ? rng.Int(-9, 9) * 100 : rng.Int(-9, 9) * 0.5; });
  Buf& vals = k.In("vals", vd, p.shape, [&](int64_t i) { return double(i % 2000) - 1000; });
  Buf& ko = k.Out("ko", d, p.shape);
  Buf& vo = k.Out("vo", vd, p.shape);
  // Keys loaded shared and values register at odd ranks, the reverse at even ones.
  k.Line("a = wp.tile_load(keys, shape=" + ShapeText(p.shape) + ", " + StorageArg(odd) + ")");
  k.Line("b = wp.tile_load(vals, shape=" + ShapeText(p.shape) + ", " + StorageArg(!odd) + ")");
  k.Line("wp.tile_sort(a, b)");
  k.Line("wp.tile_store(ko, a)");
  k.Line("wp.tile_store(vo, b)");
  const std::vector<double> kv = keys.Values(), vv = vals.Values();
  std::vector<int64_t> order(static_cast<size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return kv[size_t(a)] < kv[size_t(b)]; });
  std::vector<double> wk, wv;
  for (int64_t i : order) wk.push_back(kv[size_t(i)]), wv.push_back(vv[size_t(i)]);
  k.Run([&](int bd) {
    const std::string at = std::string(ShortName(d)) + " " + ShapeTag(p.shape) + " bd=" + std::to_string(bd);
    ExpectExact(ko, wk, at + " keys");
    ExpectExact(vo, wv, at + " values");
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixSort,
                         ::testing::ValuesIn(ShapeCases({{1}, {257}, {3, 7}, {2, 2, 5}, {2, 1, 3, 4}})),
                         ShapeCaseName);


// ---------------------------------------------------------------- shape builtins

// out[i] = in[src(out index)], for the index maps of views and shape operations.
std::vector<double> Gather(const Buf& in, const Shape& out_shape, const std::function<int64_t(const Shape&)>& src) {
  std::vector<double> v;
  for (int64_t i = 0; i < Numel(out_shape); ++i) v.push_back(in.Get(src(Unflatten(i, out_shape))));
  return v;
}
std::vector<double> Same(const Buf& in) { return in.Values(); }

class MatrixShape : public ::testing::TestWithParam<ShapeCase> {};

// tile_transpose (2-D), tile_broadcast (new leading dims, extents of one, a 1-D int shape),
// scalar broadcasting in `*` and `/`, tile_reshape with -1 at ranks 1-4, tile_squeeze (all,
// one axis, a tuple, a negative axis).
TEST_P(MatrixShape, TransposeBroadcastReshapeSqueeze) {
  const ShapeCase& p = GetParam();
  const DT d = p.dt;
  const std::string T = WpName(d);
  Kernel k;
  Rng rng(uint64_t(int(d) * 3));
  auto gen = [&](int64_t) { return Plain(d, rng); };
  Buf& m35 = k.In("m35", d, {3, 5}, gen);
  Buf& m332 = k.In("m332", d, {33, 2}, gen);
  Buf& r15 = k.In("r15", d, {1, 5}, gen);
  Buf& c31 = k.In("c31", d, {3, 1}, gen);
  Buf& v5 = k.In("v5", d, {5}, gen);
  Buf& one = k.In("one", d, {1}, gen);
  Buf& q213 = k.In("q213", d, {2, 1, 3}, gen);
  Buf& n235 = k.In("n235", d, {2, 3, 5}, gen);
  Buf& n2315 = k.In("n2315", d, {2, 3, 1, 5}, gen);
  Buf& s314 = k.In("s314", d, {3, 1, 4}, gen);
  Buf& s2131 = k.In("s2131", d, {2, 1, 3, 1}, gen);
  struct Check { Buf* out; std::vector<double> want; std::string what; };
  std::vector<Check> checks;
  auto out = [&](const std::string& name, const Shape& shape, const std::string& expr, std::vector<double> want) {
    Buf& o = k.Out(name, d, shape);
    k.Line("wp.tile_store(" + name + ", " + expr + ")");
    checks.push_back({&o, std::move(want), name + " = " + expr});
  };
  // Loads alternate between shared and register storage, starting with the dtype's parity.
  bool shared = int(d) % 2 == 0;
  auto load = [&](const std::string& var, const Buf& b) {
    k.Line(var + " = wp.tile_load(" + b.name + ", shape=" + ShapeText(b.shape) + ", " + StorageArg(shared) + ")");
    shared = !shared;
  };
  load("a", m35);
  load("b", m332);
  out("tr35", {5, 3}, "wp.tile_transpose(a)", Gather(m35, {5, 3}, [](const Shape& i) { return i[1] * 5 + i[0]; }));
  out("tr332", {2, 33}, "wp.tile_transpose(b)", Gather(m332, {2, 33}, [](const Shape& i) { return i[1] * 2 + i[0]; }));
  load("r", r15);
  load("c", c31);
  load("v", v5);
  load("o", one);
  load("q", q213);
  out("br", {3, 5}, "wp.tile_broadcast(r, shape=(3, 5))", Gather(r15, {3, 5}, [](const Shape& i) { return i[1]; }));
  out("bc", {3, 4}, "wp.tile_broadcast(c, shape=(3, 4))", Gather(c31, {3, 4}, [](const Shape& i) { return i[0]; }));
  out("bv", {2, 3, 5}, "wp.tile_broadcast(v, shape=(2, 3, 5))",
      Gather(v5, {2, 3, 5}, [](const Shape& i) { return i[2]; }));
  out("bo", {7}, "wp.tile_broadcast(o, shape=7)", Gather(one, {7}, [](const Shape&) { return 0; }));
  out("bq", {4, 2, 5, 3}, "wp.tile_broadcast(q, shape=(4, 2, 5, 3))",
      Gather(q213, {4, 2, 5, 3}, [](const Shape& i) { return i[1] * 3 + i[3]; }));
  // A scalar meets every element (Warp's tile-scalar `*` and `/`); `/` by 2 is exact here.
  std::vector<double> scaled, halved;
  for (double e : m35.Values()) scaled.push_back(e * 6), halved.push_back(d == DT::I32 ? std::trunc(e / 2) : e / 2);
  out("scal", {3, 5}, T + "(2) * a * " + T + "(3)", scaled);
  out("half", {3, 5}, "a / " + T + "(2)", halved);
  load("n3", n235);
  load("n4", n2315);
  out("rs53", {5, 3}, "wp.tile_reshape(a, shape=(5, -1))", Same(m35));
  out("rs15", {15}, "wp.tile_reshape(a, shape=-1)", Same(m35));
  out("rs65", {6, 5}, "wp.tile_reshape(n3, shape=(-1, 5))", Same(n235));
  out("rs352", {3, 5, 2}, "wp.tile_reshape(n4, shape=(3, -1, 2))", Same(n2315));
  out("rs2x", {2, 3, 5, 1}, "wp.tile_reshape(wp.tile_reshape(n3, shape=30), shape=(2, 3, 5, -1))", Same(n235));
  load("s3", s314);
  load("s4", s2131);
  out("sq_all", {3, 4}, "wp.tile_squeeze(s3)", Same(s314));
  out("sq_1", {3, 4}, "wp.tile_squeeze(s3, axis=1)", Same(s314));
  out("sq_tup", {2, 3}, "wp.tile_squeeze(s4, axis=(1, 3))", Same(s2131));
  out("sq_neg", {2, 1, 3}, "wp.tile_squeeze(s4, axis=-1)", Same(s2131));
  out("sq_row", {5}, "wp.tile_squeeze(r, axis=0)", Same(r15));
  k.Run([&](int bd) {
    for (const Check& c : checks)
      ExpectExact(*c.out, c.want, std::string(ShortName(d)) + " bd=" + std::to_string(bd) + " " + c.what);
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixShape, ::testing::ValuesIn(ShapeCases({{}})), ShapeCaseName);

// ---------------------------------------------------------------- views, slices, gathers, writes

// Python's slice.indices: the positions a slice selects from an extent.
struct Slice {
  std::string text;
  int64_t start, stop, step;  // INT64_MIN: omitted
};
constexpr int64_t kNone = INT64_MIN;
std::vector<int64_t> Positions(const Slice& s, int64_t n) {
  int64_t step = s.step == kNone ? 1 : s.step;
  auto norm = [&](int64_t v, int64_t dflt, int64_t lo, int64_t hi) {
    if (v == kNone) return dflt;
    if (v < 0) v += n;
    return std::clamp(v, lo, hi);
  };
  int64_t start = step > 0 ? norm(s.start, 0, 0, n) : norm(s.start, n - 1, -1, n - 1);
  int64_t stop = step > 0 ? norm(s.stop, n, 0, n) : norm(s.stop, -1, -1, n - 1);
  std::vector<int64_t> out;
  for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) out.push_back(i);
  return out;
}

class MatrixView : public ::testing::TestWithParam<ShapeCase> {};

// At each rank: t[i] (runtime, negative) and t[1], slices with steps (also negative), tile_view
// with and without shape, tile_extract, gathers t[idx, :] along every axis, element writes
// t[i, j] = v, slice writes and tile_assign, tile_empty filled by tile_assign.
TEST_P(MatrixView, IndexSliceViewGatherAndWrites) {
  const ShapeCase& p = GetParam();
  const DT d = p.dt;
  const Shape& S = p.shape;
  const int r = int(S.size());
  // One storage per (dtype, rank): each rank sees both across the dtypes.
  const bool shared = (r + int(d)) % 2 == 0;
  Kernel k;
  Rng rng(uint64_t(r * 77 + int(d)));
  Buf& x = k.In("x", d, S, [&](int64_t) { return Plain(d, rng); });
  Shape s2(size_t(r), 2);
  Buf& src = k.In("src", d, s2, [&](int64_t i) { return double(100 + i); });
  const std::vector<int32_t> idxv = {1, -1, 0};
  k.In("idx", DT::I32, {3}, [&](int64_t i) { return idxv[size_t(i)]; });
  struct Check { Buf* out; std::vector<double> want; std::string what; };
  std::vector<Check> checks;
  auto out = [&](const std::string& name, const Shape& shape, const std::string& expr, std::vector<double> want) {
    Buf& o = k.Out(name, d, shape);
    k.Line("wp.tile_store(" + name + ", " + expr + ")");
    checks.push_back({&o, std::move(want), name + " = " + expr});
  };
  auto X = [&](const Shape& i) { return Flatten(i, S); };
  k.Int("i", -1);
  k.Line("t = wp.tile_load(x, shape=" + ShapeText(S) + ", " + StorageArg(shared) + ")");
  k.Line("ix = wp.tile_load(idx, shape=3)");
  Shape rest(S.begin() + 1, S.end());
  if (r == 1) {
    Buf& e = k.Out("e", d, {3});
    k.Line("e[0] = t[i]");
    k.Line("e[1] = t[1]");
    k.Line("e[2] = wp.tile_extract(t, " + std::to_string(S[0] - 2) + ")");
    checks.push_back({&e, {x.Get(S[0] - 1), x.Get(1), x.Get(S[0] - 2)}, "t[i], t[1], tile_extract"});
  } else {
    out("row_i", rest, "t[i]", Gather(x, rest, [&](const Shape& j) { Shape f = {S[0] - 1}; f.insert(f.end(), j.begin(), j.end()); return X(f); }));
    out("row_1", rest, "t[1]", Gather(x, rest, [&](const Shape& j) { Shape f = {1}; f.insert(f.end(), j.begin(), j.end()); return X(f); }));
    out("view_row", rest, "wp.tile_view(t, offset=(1,))",
        Gather(x, rest, [&](const Shape& j) { Shape f = {1}; f.insert(f.end(), j.begin(), j.end()); return X(f); }));
    Buf& e = k.Out("e", d, {1});
    std::string args;
    Shape last;
    for (int a = 0; a < r; ++a) args += ", " + std::to_string(S[size_t(a)] - 1 - a % 2), last.push_back(S[size_t(a)] - 1 - a % 2);
    k.Line("e[0] = wp.tile_extract(t" + args + ")");
    checks.push_back({&e, {x.Get(X(last))}, "tile_extract"});
  }
  // Two slice patterns per rank, with steps 2 and -1 and a start and stop.
  const std::vector<Slice> pats = {{"1:", 1, kNone, kNone}, {"::2", kNone, kNone, 2}, {"::-1", kNone, kNone, -1},
                                   {"1:4:2", 1, 4, 2}, {"-2::-2", -2, kNone, -2}};
  for (int rot = 0; rot < 2; ++rot) {
    std::string text;
    std::vector<std::vector<int64_t>> pos;
    Shape os;
    for (int a = 0; a < r; ++a) {
      const Slice& sl = pats[size_t((a + rot * 2 + (r == 1 ? rot * 2 : 0)) % 5)];
      text += (a ? ", " : "") + sl.text;
      pos.push_back(Positions(sl, S[size_t(a)]));
      os.push_back(int64_t(pos.back().size()));
    }
    out("slice" + std::to_string(rot), os, "t[" + text + "]", Gather(x, os, [&](const Shape& j) {
          Shape f;
          for (int a = 0; a < r; ++a) f.push_back(pos[size_t(a)][size_t(j[size_t(a)])]);
          return X(f);
        }));
  }
  {
    std::string off, shp;
    Shape vs;
    for (int a = 0; a < r; ++a) off += (a ? ", " : "") + std::string("1"), vs.push_back(S[size_t(a)] - 1),
                                shp += (a ? ", " : "") + std::to_string(S[size_t(a)] - 1);
    if (r == 1) off += ",", shp += ",";
    out("view", vs, "wp.tile_view(t, offset=(" + off + "), shape=(" + shp + "))", Gather(x, vs, [&](const Shape& j) {
          Shape f = j;
          for (int64_t& e : f) ++e;
          return X(f);
        }));
  }
  // t[idx, :] / t[:, idx] / ...: NumPy indexing, -1 is the last.
  for (int a = 0; a < r; ++a) {
    std::string sub;
    for (int b = 0; b < r; ++b) sub += (b ? ", " : "") + std::string(b == a ? "ix" : ":");
    Shape os = S;
    os[size_t(a)] = 3;
    out("gather" + std::to_string(a), os, "t[" + sub + "]", Gather(x, os, [&](const Shape& j) {
          Shape f = j;
          int64_t v = idxv[size_t(j[size_t(a)])];
          f[size_t(a)] = v < 0 ? v + S[size_t(a)] : v;
          return X(f);
        }));
  }
  // Writes, replayed on a plain copy: an element, a strided slice, a 2^r block by tile_assign.
  {
    std::vector<double> ref = x.Values();
    Shape el;
    std::string el_text;
    for (int a = 0; a < r; ++a) el.push_back(a % 2 ? S[size_t(a)] - 1 : 1), el_text += (a ? ", " : "") + std::to_string(el.back());
    k.Line("w = wp.tile_load(x, shape=" + ShapeText(S) + ", " + StorageArg(!shared) + ")");
    k.Line("w[" + el_text + "] = " + std::string(WpName(d)) + "(-5)");
    ref[size_t(X(el))] = -5;
    // w[0, ::2] = -7 (w[::2] at rank 1)
    std::string sl_text = r == 1 ? "::2" : "0, ::2";
    k.Line("w[" + sl_text + "] = " + std::string(WpName(d)) + "(-7)");
    for (int64_t i = 0; i < Numel(S); ++i) {
      Shape j = Unflatten(i, S);
      if (r == 1 ? j[0] % 2 == 0 : (j[0] == 0 && j[1] % 2 == 0)) ref[size_t(i)] = -7;
    }
    std::string off;
    Shape o;
    for (int a = 0; a < r; ++a) o.push_back(S[size_t(a)] - 2), off += (a ? ", " : "") + std::to_string(o.back());
    if (r == 1) off += ",";
    k.Line("s = wp.tile_load(src, shape=" + ShapeText(s2) + ")");
    k.Line("wp.tile_assign(w, s, offset=(" + off + "))");
    for (int64_t i = 0; i < Numel(s2); ++i) {
      Shape j = Unflatten(i, s2);
      for (int a = 0; a < r; ++a) j[size_t(a)] += o[size_t(a)];
      ref[size_t(X(j))] = src.Get(i);
    }
    out("writes", S, "w", ref);
    k.Line("z = wp.tile_empty(shape=" + ShapeText(S) + ", dtype=" + WpName(d) + ")");
    k.Line("wp.tile_assign(z, t)");
    out("empty_assigned", S, "z", x.Values());
  }
  k.Run([&](int bd) {
    for (const Check& c : checks)
      ExpectExact(*c.out, c.want,
                  std::string(ShortName(d)) + " " + ShapeTag(S) + " bd=" + std::to_string(bd) + " " + c.what);
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixView, ::testing::ValuesIn(ShapeCases({{7}, {5, 6}, {3, 4, 3}, {2, 3, 2, 3}})),
                         ShapeCaseName);


// ---------------------------------------------------------------- element-wise

class MatrixElementwise : public ::testing::TestWithParam<ShapeCase> {};

// tile_astype to every dtype, tile_axpy, tile_map over 1-3 tiles with builtins and @wp.func
// (scalar arguments, comparisons, another result dtype), operators and in-place operators.
TEST_P(MatrixElementwise, AstypeAxpyMapOperators) {
  const ShapeCase& p = GetParam();
  const DT d = p.dt;
  const std::string T = WpName(d);
  const Shape& S = p.shape;
  const bool shared = (S.size() + size_t(d)) % 2 == 1;
  const bool is_int = d == DT::I32;
  Kernel k;
  k.funcs = testing::WithDType(R"(
@wp.func
def fma3(a: {T}, b: {T}, c: {T}, s: {T}) -> {T}:
    return a * s + b - c

@wp.func
def order_code(a: {T}, b: {T}) -> wp.int32:
    r = 0
    if a < b:
        r = r + 1
    if a <= b:
        r = r + 2
    if a == b:
        r = r + 4
    if a != b:
        r = r + 8
    if a > b:
        r = r + 16
    if a >= b:
        r = r + 32
    return r
)",
                               T);
  Rng rng(uint64_t(S.size() * 41 + int(d)));
  Buf& x = k.In("x", d, S, [&](int64_t) { return Plain(d, rng); });
  // Nonzero divisors; a few equal to x so that == shows.
  Buf& y = k.In("y", d, S, [&](int64_t i) {
    double v = i % 5 == 2 ? x.Get(i) : Plain(d, rng);
    return v == 0 ? (is_int ? 7 : 1.5) : v;
  });
  Buf& z = k.In("z", d, S, [&](int64_t) { return Plain(d, rng); });
  const std::vector<double> xv = x.Values(), yv = y.Values(), zv = z.Values();
  const int64_t n = Numel(S);
  struct Check { Buf* out; std::vector<double> want; std::string what; };
  std::vector<Check> checks;
  auto out = [&](const std::string& name, DT od, const std::string& expr, const std::function<double(int64_t)>& f) {
    Buf& o = k.Out(name, od, S);
    k.Line("wp.tile_store(" + name + ", " + expr + ")");
    std::vector<double> want;
    for (int64_t i = 0; i < n; ++i) want.push_back(f(i));
    checks.push_back({&o, std::move(want), name + " = " + expr});
  };
  std::string shp = ShapeText(S);
  k.Line("a = wp.tile_load(x, shape=" + shp + ", " + StorageArg(shared) + ")");
  k.Line("b = wp.tile_load(y, shape=" + shp + ", " + StorageArg(!shared) + ")");
  k.Line("c = wp.tile_load(z, shape=" + shp + ", " + StorageArg(shared) + ")");
  for (DT to : kAllDTypes)
    out(std::string("as_") + ShortName(to), to, std::string("wp.tile_astype(a, dtype=") + WpName(to) + ")",
        [&](int64_t i) { return xv[size_t(i)]; });
  k.Line("acc = wp.tile_load(z, shape=" + shp + ", " + StorageArg(!shared) + ")");
  k.Line("wp.tile_axpy(" + T + "(3), a, acc)");
  k.Line("wp.tile_axpy(alpha=" + T + "(-1), src=b, dest=acc)");
  out("axpy", d, "acc", [&](int64_t i) { return zv[size_t(i)] + 3 * xv[size_t(i)] - yv[size_t(i)]; });
  out("map_abs", d, "wp.tile_map(wp.abs, a)", [&](int64_t i) { return std::fabs(xv[size_t(i)]); });
  out("map_max", d, "wp.tile_map(wp.max, a, b)", [&](int64_t i) { return std::max(xv[size_t(i)], yv[size_t(i)]); });
  out("map_mul", d, "wp.tile_map(wp.mul, a, b)", [&](int64_t i) { return xv[size_t(i)] * yv[size_t(i)]; });
  out("map_f3", d, "wp.tile_map(fma3, a, b, c, " + T + "(2))",
      [&](int64_t i) { return xv[size_t(i)] * 2 + yv[size_t(i)] - zv[size_t(i)]; });
  out("map_cmp", DT::I32, "wp.tile_map(order_code, a, b)", [&](int64_t i) {
    double l = xv[size_t(i)], r = yv[size_t(i)];
    return double((l < r) * 1 + (l <= r) * 2 + (l == r) * 4 + (l != r) * 8 + (l > r) * 16 + (l >= r) * 32);
  });
  out("ops", d, "(a + b) - (-c)", [&](int64_t i) { return xv[size_t(i)] + yv[size_t(i)] + zv[size_t(i)]; });
  // In-place forms; each step's value is stored so that a step doing nothing shows.
  k.Line("m = a");
  k.Line("m *= b");
  out("imul", d, "m", [&](int64_t i) { return xv[size_t(i)] * yv[size_t(i)]; });
  k.Line("m *= " + T + "(2)");
  k.Line("m += c");
  out("imul2", d, "m", [&](int64_t i) { return xv[size_t(i)] * yv[size_t(i)] * 2 + zv[size_t(i)]; });
  k.Line("m -= c");
  k.Line("m /= b");
  out("idiv", d, "m", [&](int64_t i) { return xv[size_t(i)] * 2; });
  k.Line("m /= " + T + "(2)");
  k.Line("m -= a");
  out("idiv2", d, "m", [&](int64_t) { return 0.0; });
  if (is_int) {
    auto bits = [&](int64_t i, int which) {
      int32_t l = int32_t(xv[size_t(i)]), r = int32_t(yv[size_t(i)]), c = int32_t(zv[size_t(i)]);
      return which == 0 ? double(l & r) : which == 1 ? double((l & r) | c) : double(((l & r) | c) ^ r);
    };
    k.Line("q = a");
    k.Line("q &= b");
    out("iand", d, "q", [&](int64_t i) { return bits(i, 0); });
    k.Line("q |= c");
    out("ior", d, "q", [&](int64_t i) { return bits(i, 1); });
    k.Line("q ^= b");
    out("ixor", d, "q", [&](int64_t i) { return bits(i, 2); });
    out("bitops", d, "(a & b) | (a ^ c)", [&](int64_t i) {
      int32_t l = int32_t(xv[size_t(i)]), r = int32_t(yv[size_t(i)]), c = int32_t(zv[size_t(i)]);
      return double((l & r) | (l ^ c));
    });
    // Integer `/` truncates toward zero (docs/semantics.md).
    out("idiv_t", d, "a / b", [&](int64_t i) { return std::trunc(xv[size_t(i)] / yv[size_t(i)]); });
  }
  k.Run([&](int bd) {
    for (const Check& c : checks)
      ExpectExact(*c.out, c.want,
                  std::string(ShortName(d)) + " " + ShapeTag(S) + " bd=" + std::to_string(bd) + " " + c.what);
  });
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixElementwise,
                         ::testing::ValuesIn(ShapeCases({{5}, {3, 7}, {3, 1, 5}, {1, 3, 1, 5}})), ShapeCaseName);

// ---------------------------------------------------------------- array views a[i]

class MatrixArrayView : public ::testing::TestWithParam<ShapeCase> {};

// wp.tile_load(a[i], ...) on the row of a 2-, 3- or 4-D array per block (Warp's tile guide), a
// view of a view a[i][1], and tile_store / tile_sum through a[i]; one block more than `x` has
// rows, whose view is empty (its loads read zero, its store into o[i] is skipped).
TEST_P(MatrixArrayView, RowsPerBlock) {
  const ShapeCase& p = GetParam();
  const DT d = p.dt;
  const int rank = int(p.shape.size());  // of the array
  const bool shared = (rank + int(d)) % 2 == 0;
  const Shape& A = p.shape;
  Shape row(A.begin() + 1, A.end());
  Shape row2(A.begin() + 2, A.end());
  Kernel k;
  Rng rng(uint64_t(rank * 5 + int(d)));
  Buf& x = k.In("x", d, A, [&](int64_t) { return Plain(d, rng); });
  Buf& o = k.Out("o", d, A);
  Buf& s = k.Out("s", d, {A[0] + 1, 1});
  Buf& v = k.Out("v", d, {A[0] + 1});
  k.Line("i = wp.tid()");
  k.Line("t = wp.tile_load(x[i], shape=" + ShapeText(row) + ", " + StorageArg(shared) + ")");
  k.Line("wp.tile_store(o[i], t)");
  k.Line("wp.tile_store(s[i], wp.tile_sum(t))");
  if (rank == 2) {
    k.Line("v[i] = wp.tile_load(x[i], shape=1, offset=1)[0]");
  } else {
    k.Line("u = wp.tile_load(x[i][1], shape=" + ShapeText(row2) + ", " + StorageArg(!shared) + ")");
    k.Line("v[i] = wp.tile_max(u)[0]");
  }
  const std::vector<double> xv = x.Values();
  const int64_t rn = Numel(row);
  k.Run(
      [&](int bd) {
        const std::string at = std::string(ShortName(d)) + " " + ShapeTag(A) + " bd=" + std::to_string(bd);
        ExpectExact(o, xv, at + " rows through o[i]");
        for (int64_t i = 0; i <= A[0]; ++i) {
          double sum = 0, mag = 0, mx = -1e300;
          for (int64_t j = 0; i < A[0] && j < rn; ++j) sum += xv[size_t(i * rn + j)], mag += std::fabs(xv[size_t(i * rn + j)]);
          if (i < A[0]) {
            EXPECT_LE(std::fabs(s.Get(i) - sum), FoldBound(d, rn, mag)) << at << " sum of row " << i;
            if (rank == 2) {
              EXPECT_EQ(v.Get(i), xv[size_t(i * rn + 1)]) << at << " row " << i;
            } else {
              int64_t r2 = Numel(row2);
              for (int64_t j = 0; j < r2; ++j) mx = std::max(mx, xv[size_t(i * rn + r2 + j)]);
              EXPECT_EQ(v.Get(i), mx) << at << " max of x[i][1], i=" << i;
            }
          } else {
            EXPECT_EQ(s.Get(i), 0) << at << " a load through an empty view reads zero";
            EXPECT_EQ(v.Get(i), 0) << at << " a load through an empty view reads zero";
          }
        }
      },
      {A[0] + 1});
}

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixArrayView, ::testing::ValuesIn(ShapeCases({{3, 7}, {3, 2, 5}, {2, 2, 3, 3}})),
                         ShapeCaseName);

// ---------------------------------------------------------------- Warp's keyword names

// Every builtin above called with Warp 1.19's keyword names, so that a renamed parameter is
// caught; the values are checked too. (tile_load's bounds_check= and aligned= are not accepted
// yet: adding them changes every typed-AST golden file.)
TEST(MatrixKeywords, WarpParameterNames) {
  Kernel k;
  k.funcs = "@wp.func\ndef twice(v: float) -> float:\n    return v * 2.0\n";
  Rng rng(99);
  Buf& x = k.In("x", DT::F32, {3, 5}, [&](int64_t) { return Plain(DT::F32, rng); });
  Buf& v = k.In("v", DT::F32, {5}, [&](int64_t) { return Plain(DT::F32, rng); });
  Buf& o35 = k.Out("o35", DT::F32, {3, 5});
  Buf& o53 = k.Out("o53", DT::F32, {5, 3});
  Buf& o5 = k.Out("o5", DT::F32, {5});
  Buf& o3 = k.Out("o3", DT::F32, {3});
  Buf& sc = k.Out("sc", DT::F32, {20});
  Buf& one = k.Out("one", DT::F32, {5});
  Buf& ix = k.Out("ix", DT::I32, {2});
  Buf& o64 = k.Out("o64", DT::F64, {3, 5});
  Buf& e23 = k.Out("e23", DT::F32, {2, 3});
  Buf& srt = k.Out("srt", DT::F32, {10});
  k.Line("t = wp.tile_load(a=x, shape=(3, 5), offset=(0, 0), storage=\"shared\", bounds_check=False, aligned=True)");
  k.Line("u = wp.tile_load(v, shape=5, offset=0, storage=\"register\")");
  k.Line("wp.tile_store(a=o5, t=wp.tile_sum(a=t, axis=0), offset=0, bounds_check=True, aligned=False)");
  k.Line("wp.tile_store(o3, wp.tile_reduce(op=wp.max, a=t, axis=1))");
  k.Line("one[0] = wp.tile_min(a=t)[0]");
  k.Line("one[1] = wp.tile_max(a=t)[0]");
  k.Line("one[2] = wp.tile_dot(a=u, b=u)[0]");
  k.Line("one[3] = wp.tile_extract(a=t, i=2, j=4)");
  k.Line("one[4] = wp.tile_sum(a=t)[0]");
  k.Line("ix[0] = wp.tile_argmin(a=t)[0]");
  k.Line("ix[1] = wp.tile_argmax(a=t)[0]");
  k.Line("wp.tile_store(sc, wp.tile_scan_inclusive(a=u), offset=0)");
  k.Line("wp.tile_store(sc, wp.tile_scan_exclusive(a=u), offset=5)");
  k.Line("wp.tile_store(sc, wp.tile_scan_max_inclusive(a=u), offset=10)");
  k.Line("wp.tile_store(sc, wp.tile_scan_min_inclusive(a=u), offset=15)");
  k.Line("wp.tile_store(o53, wp.tile_transpose(a=t))");
  k.Line("b = wp.tile_broadcast(a=u, shape=(3, 5))");
  k.Line("wp.tile_store(o35, wp.tile_map(op=twice, a=b) - wp.tile_reshape(t=wp.tile_reshape(t=t, shape=(5, -1)), shape=(3, 5)))");
  k.Line("w = wp.tile_astype(t=t, dtype=wp.float64)");
  k.Line("wp.tile_store(o64, w)");
  k.Line("e = wp.tile_empty(shape=(2, 3), dtype=float, storage=\"shared\")");
  k.Line("wp.tile_assign(dst=e, src=wp.tile_view(t=t, offset=(1, 1), shape=(2, 3)), offset=(0, 0))");
  k.Line("wp.tile_store(e23, e)");
  k.Line("keys = wp.tile_squeeze(t=wp.tile_load(x, shape=(1, 5)), axis=0)");
  k.Line("vals = wp.tile_load(v, shape=5)");
  k.Line("wp.tile_sort(keys=keys, values=vals)");
  k.Line("wp.tile_axpy(alpha=2.0, src=keys, dest=vals)");
  k.Line("wp.tile_store(srt, keys, offset=0)");
  k.Line("wp.tile_store(srt, vals, offset=5)");
  const std::vector<double> xv = x.Values(), vv = v.Values();
  k.Run([&](int) {
    std::vector<double> w5, w3, w53, w35, wsc(20), w23, wsrt(10);
    for (int j = 0; j < 5; ++j) w5.push_back(xv[size_t(j)] + xv[size_t(5 + j)] + xv[size_t(10 + j)]);
    for (int i = 0; i < 3; ++i) w3.push_back(*std::max_element(xv.begin() + 5 * i, xv.begin() + 5 * i + 5));
    for (int j = 0; j < 5; ++j)
      for (int i = 0; i < 3; ++i) w53.push_back(xv[size_t(i * 5 + j)]);
    for (int i = 0; i < 15; ++i) w35.push_back(2 * vv[size_t(i % 5)] - xv[size_t(i)]);
    double run = 0, hi = vv[0], lo = vv[0];
    for (int j = 0; j < 5; ++j) {
      wsc[size_t(5 + j)] = run;
      run += vv[size_t(j)], hi = std::max(hi, vv[size_t(j)]), lo = std::min(lo, vv[size_t(j)]);
      wsc[size_t(j)] = run, wsc[size_t(10 + j)] = hi, wsc[size_t(15 + j)] = lo;
    }
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j) w23.push_back(xv[size_t((1 + i) * 5 + 1 + j)]);
    std::vector<int> order = {0, 1, 2, 3, 4};
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return xv[size_t(a)] < xv[size_t(b)]; });
    for (int j = 0; j < 5; ++j)
      wsrt[size_t(j)] = xv[size_t(order[size_t(j)])], wsrt[size_t(5 + j)] = vv[size_t(order[size_t(j)])] + 2 * wsrt[size_t(j)];
    double dot = 0, sum = 0;
    for (double e : vv) dot += e * e;
    for (double e : xv) sum += e;
    int64_t amin = std::min_element(xv.begin(), xv.end()) - xv.begin(), amax = std::max_element(xv.begin(), xv.end()) - xv.begin();
    // Halves in [-4, 4]: these sums are exact in any order.
    ExpectExact(o5, w5, "tile_sum(a=, axis=)");
    ExpectExact(o3, w3, "tile_reduce(op=, a=, axis=)");
    ExpectExact(one, {*std::min_element(xv.begin(), xv.end()), *std::max_element(xv.begin(), xv.end()), dot, xv[14], sum},
                "tile_min / tile_max / tile_dot / tile_extract / tile_sum");
    ExpectExact(ix, {double(amin), double(amax)}, "tile_argmin / tile_argmax");
    ExpectExact(sc, wsc, "scans (a=)");
    ExpectExact(o53, w53, "tile_transpose(a=)");
    ExpectExact(o35, w35, "tile_map(op=, a=), tile_broadcast, tile_reshape(t=, shape=)");
    ExpectExact(o64, xv, "tile_astype(t=, dtype=)");
    ExpectExact(e23, w23, "tile_empty, tile_assign(dst=, src=, offset=), tile_view(t=, offset=, shape=)");
    ExpectExact(srt, wsrt, "tile_squeeze(t=, axis=), tile_sort(keys=, values=), tile_axpy(alpha=, src=, dest=)");
  });
}

// ---------------------------------------------------------------- rejections

// Combinations Warp (or tilec) refuses: a diagnostic with its code, never an internal error.
struct Rejected {
  const char* name;
  const char* body;  // kernel body over `t` (3, 5) float, `v` (5,) float, `n` (3, 5) int
  diag::Code code;
};

class MatrixRejected : public ::testing::TestWithParam<Rejected> {};

TEST_P(MatrixRejected, CleanDiagnostic) {
  const Rejected& r = GetParam();
  std::string text = std::string("import warp as wp\n\n@wp.kernel\ndef k(x: wp.array2d[float], y: wp.array[float], "
                                 "z: wp.array2d[int], w: wp.array3d[float]):\n") +
                     "    t = wp.tile_load(x, shape=(3, 5))\n    v = wp.tile_load(y, shape=5)\n"
                     "    n = wp.tile_load(z, shape=(3, 5))\n    c = wp.tile_load(w, shape=(2, 3, 4))\n" +
                     r.body + "\n";
  SourceFile file("rejected.tile", text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto module = compiler::CompileSource(file, diags, {}, ice);
  std::ostringstream os;
  diags.Render(os);
  EXPECT_FALSE(module.has_value()) << text;
  EXPECT_FALSE(ice.is_set()) << ice.message << "\n" << text;
  bool found = false;
  for (const diag::Diagnostic& e : diags.diagnostics()) found |= e.code == r.code;
  EXPECT_TRUE(found) << "expected " << diag::Info(r.code).id << " " << diag::Info(r.code).name << ", got:\n" << os.str() << text;
}

const Rejected kRejected[] = {
    {"Transpose1D", "    wp.tile_store(y, wp.tile_transpose(v))", diag::Code::TransposeNeeds2DTile},
    {"Transpose3D", "    wp.tile_store(w, wp.tile_transpose(c))", diag::Code::TransposeNeeds2DTile},
    {"SumAxisOutOfRange", "    wp.tile_store(y, wp.tile_sum(t, axis=2))", diag::Code::AxisOutOfRange},
    {"ReduceAxisOutOfRange", "    wp.tile_store(y, wp.tile_reduce(wp.max, v, axis=1))", diag::Code::AxisOutOfRange},
    {"BitwiseCombinerOnFloats", "    wp.tile_store(y, wp.tile_reduce(wp.bit_and, v))", diag::Code::BadReduceCombiner},
    {"SubIsNoCombiner", "    wp.tile_store(y, wp.tile_reduce(wp.sub, v))", diag::Code::BadReduceCombiner},
    {"SortValuesOfAnotherShape", "    wp.tile_sort(t, v)", diag::Code::BadTileSort},
    {"BroadcastMismatch", "    wp.tile_store(x, wp.tile_broadcast(v, shape=(3, 4)))", diag::Code::BroadcastShapeMismatch},
    {"BroadcastToFewerDims", "    wp.tile_store(y, wp.tile_broadcast(t, shape=5))", diag::Code::BroadcastShapeMismatch},
    {"ReshapeCountMismatch", "    wp.tile_store(x, wp.tile_reshape(t, shape=(4, -1)))", diag::Code::BadReshape},
    {"AddShapesDiffer", "    wp.tile_store(x, t + wp.tile_load(x, shape=(3, 1)))", diag::Code::TileShapeMismatch},
    {"DotShapesDiffer", "    wp.tile_store(y, wp.tile_dot(t, c))", diag::Code::TileShapeMismatch},
    {"BitwiseOnFloatTiles", "    wp.tile_store(x, t & t)", diag::Code::TileOperatorUnsupported},
    {"AxpyDTypeMismatch", "    wp.tile_axpy(2.0, t, n)", diag::Code::TileDTypeMismatch},
    // Warp's scans and arg-reductions have no axis; sort and scans need numbers.
    {"ScanHasNoAxis", "    wp.tile_store(y, wp.tile_scan_inclusive(v, axis=0))", diag::Code::UnknownKeyword},
    {"ArgminHasNoAxis", "    wp.tile_store(y, wp.tile_argmin(t, axis=0))", diag::Code::UnknownKeyword},
    {"SortBoolKeys", "    b = wp.tile_zeros(shape=5, dtype=bool)\n    wp.tile_sort(b, v)", diag::Code::BadTileSort},
    {"ScanBool", "    b = wp.tile_zeros(shape=5, dtype=bool)\n    wp.tile_store(y, wp.tile_scan_max_inclusive(b))",
     diag::Code::ScanUnsupportedDType},
    {"SqueezeNonUnitAxis", "    wp.tile_store(y, wp.tile_squeeze(t, axis=0))", diag::Code::SqueezeNonUnitAxis},
    {"ViewPastTheEnd", "    wp.tile_store(x, wp.tile_view(t, offset=(2, 0), shape=(3, 5)))", diag::Code::BadTileRegion},
    {"IndexPastTheEnd", "    wp.tile_store(y, t[5])", diag::Code::BadTileRegion},
    {"ReshapeTwoInferred", "    wp.tile_store(x, wp.tile_reshape(t, shape=(-1, -1)))", diag::Code::BadReshape},
    {"SliceStepZero", "    wp.tile_store(x, t[0:3:0])", diag::Code::BadTileSlice},
    {"MapShapesDiffer", "    wp.tile_store(x, wp.tile_map(wp.add, t, wp.tile_load(x, shape=(3, 4))))",
     diag::Code::TileShapeMismatch},
};

INSTANTIATE_TEST_SUITE_P(Tiles, MatrixRejected, ::testing::ValuesIn(kRejected),
                         [](const ::testing::TestParamInfo<Rejected>& p) { return std::string(p.param.name); });

}  // namespace
}  // namespace tilec
