// The reduction, scan and shape builtins from source (tile_sum with axis, tile_reduce with each
// builtin combiner, the four tile_scan_* rows, tile_broadcast, tile_reshape, tile_squeeze), for
// int32 and float32 tiles, 1-D and 2-D, along each axis. References are plain loops here; the
// inputs are small integers so that float sums and products are exact in any order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::Inputs;
using testing::View;
using testing::WithDType;

constexpr int R = 3, C = 4;

template <typename T>
void ReduceAlongAxes(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], v: wp.array[{T}], s0: wp.array[{T}], s1: wp.array[{T}], mx0: wp.array[{T}],
      mn1: wp.array[{T}], p1: wp.array[{T}], a0: wp.array[{T}], mn0: wp.array[{T}], whole: wp.array[{T}],
      v0: wp.array[{T}]):
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(s0, wp.tile_sum(t, axis=0))
    wp.tile_store(s1, wp.tile_sum(t, axis=1))
    wp.tile_store(mx0, wp.tile_reduce(wp.max, t, axis=0))
    wp.tile_store(mn1, wp.tile_reduce(wp.min, t, axis=1))
    wp.tile_store(p1, wp.tile_reduce(wp.mul, t, axis=1))
    wp.tile_store(a0, wp.tile_reduce(wp.add, t, axis=0))
    wp.tile_store(mn0, wp.tile_reduce(wp.min, t, axis=0))
    prod = wp.tile_reduce(wp.mul, t)
    top = wp.tile_reduce(wp.max, t)
    whole[0] = prod[0]
    whole[1] = top[0]
    whole[2] = wp.tile_reduce(wp.add, t)[0]
    u = wp.tile_load(v, shape=5)
    wp.tile_store(v0, wp.tile_sum(u, axis=0))
    v0[1] = wp.tile_reduce(wp.mul, u, axis=0)[0]
    v0[2] = wp.tile_reduce(wp.min, u, axis=0)[0]
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Inputs<T>(R * C, 1), v = Inputs<T>(5, 3);
  std::vector<T> s0(C, -99), s1(R, -99), mx0(C, -99), mn1(R, -99), p1(R, -99), a0(C, -99), mn0(C, -99),
      whole(3, -99), v0(3, -99);
  tilec_array xa = View(x.data(), {R, C}), va = View(v.data(), {5}), s0a = View(s0.data(), {C}),
              s1a = View(s1.data(), {R}), mx0a = View(mx0.data(), {C}), mn1a = View(mn1.data(), {R}),
              p1a = View(p1.data(), {R}), a0a = View(a0.data(), {C}), mn0a = View(mn0.data(), {C}),
              wa = View(whole.data(), {3}), v0a = View(v0.data(), {3});
  for (int bd : {1, 4, 7}) {
    Launch(c.Entry("k"), {&xa, &va, &s0a, &s1a, &mx0a, &mn1a, &p1a, &a0a, &mn0a, &wa, &v0a}, {1}, bd);
    T prod = 1, top = x[0], sum = 0;
    for (int j = 0; j < C; ++j) {
      T cs = 0, cmax = x[j], cmin = x[j];
      for (int i = 0; i < R; ++i) {
        cs += x[i * C + j];
        cmax = std::max(cmax, x[i * C + j]);
        cmin = std::min(cmin, x[i * C + j]);
      }
      EXPECT_EQ(s0[j], cs) << dtype << " bd=" << bd << " col " << j;
      EXPECT_EQ(a0[j], cs) << dtype << " col " << j;
      EXPECT_EQ(mx0[j], cmax) << dtype << " col " << j;
      EXPECT_EQ(mn0[j], cmin) << dtype << " col " << j;
    }
    for (int i = 0; i < R; ++i) {
      T rs = 0, rmin = x[i * C], rp = 1;
      for (int j = 0; j < C; ++j) {
        rs += x[i * C + j];
        rmin = std::min(rmin, x[i * C + j]);
        rp *= x[i * C + j];
      }
      EXPECT_EQ(s1[i], rs) << dtype << " bd=" << bd << " row " << i;
      EXPECT_EQ(mn1[i], rmin) << dtype << " row " << i;
      EXPECT_EQ(p1[i], rp) << dtype << " row " << i;
    }
    for (T e : x) {
      prod *= e;
      top = std::max(top, e);
      sum += e;
    }
    EXPECT_EQ(whole[0], prod) << dtype;
    EXPECT_EQ(whole[1], top) << dtype;
    EXPECT_EQ(whole[2], sum) << dtype;
    T vs = 0, vp = 1, vmin = v[0];
    for (T e : v) {
      vs += e;
      vp *= e;
      vmin = std::min(vmin, e);
    }
    EXPECT_EQ(v0[0], vs) << dtype;
    EXPECT_EQ(v0[1], vp) << dtype;
    EXPECT_EQ(v0[2], vmin) << dtype;
  }
}

TEST(TileReduceBuiltins, AlongEachAxisInt32) { ReduceAlongAxes<int32_t>("int"); }
TEST(TileReduceBuiltins, AlongEachAxisFloat32) { ReduceAlongAxes<float>("float"); }

TEST(TileReduceBuiltins, BitwiseCombinersInt32) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[int], b0: wp.array[int], o1: wp.array[int], whole: wp.array[int]):
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(b0, wp.tile_reduce(wp.bit_and, t, axis=0))
    wp.tile_store(o1, wp.tile_reduce(wp.bit_or, t, axis=1))
    whole[0] = wp.tile_reduce(wp.bit_xor, t)[0]
    whole[1] = wp.tile_reduce(wp.bit_or, t)[0]
)");
  ASSERT_TRUE(c.module);
  std::vector<int32_t> x(R * C), b0(C, -1), o1(R, -1), whole(2, -1);
  for (int i = 0; i < R * C; ++i) x[i] = (i * 37 + 11) % 64;
  tilec_array xa = View(x.data(), {R, C}), b0a = View(b0.data(), {C}), o1a = View(o1.data(), {R}),
              wa = View(whole.data(), {2});
  Launch(c.Entry("k"), {&xa, &b0a, &o1a, &wa}, {1}, 4);
  for (int j = 0; j < C; ++j) {
    int32_t a = -1;
    for (int i = 0; i < R; ++i) a &= x[i * C + j];
    EXPECT_EQ(b0[j], a) << j;
  }
  int32_t xo = 0, orr = 0;
  for (int i = 0; i < R; ++i) {
    int32_t o = 0;
    for (int j = 0; j < C; ++j) o |= x[i * C + j];
    EXPECT_EQ(o1[i], o) << i;
  }
  for (int32_t e : x) {
    xo ^= e;
    orr |= e;
  }
  EXPECT_EQ(whole[0], xo);
  EXPECT_EQ(whole[1], orr);
}

template <typename T>
void Scans(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(v: wp.array[{T}], x: wp.array2d[{T}], inc: wp.array[{T}], exc: wp.array[{T}], hi: wp.array[{T}],
      lo: wp.array[{T}], inc2: wp.array2d[{T}], exc2: wp.array2d[{T}], hi2: wp.array2d[{T}], lo2: wp.array2d[{T}]):
    u = wp.tile_load(v, shape=7)
    wp.tile_store(inc, wp.tile_scan_inclusive(u))
    wp.tile_store(exc, wp.tile_scan_exclusive(u))
    wp.tile_store(hi, wp.tile_scan_max_inclusive(u))
    wp.tile_store(lo, wp.tile_scan_min_inclusive(u))
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(inc2, wp.tile_scan_inclusive(t))
    wp.tile_store(exc2, wp.tile_scan_exclusive(t))
    wp.tile_store(hi2, wp.tile_scan_max_inclusive(t))
    wp.tile_store(lo2, wp.tile_scan_min_inclusive(t))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> v = Inputs<T>(7, 2), x = Inputs<T>(R * C, 5);
  std::vector<std::vector<T>> out(8);
  for (int k = 0; k < 8; ++k) out[k].assign(k < 4 ? 7 : R * C, T(-99));
  tilec_array va = View(v.data(), {7}), xa = View(x.data(), {R, C});
  std::vector<tilec_array> oa;
  for (int k = 0; k < 8; ++k)
    oa.push_back(k < 4 ? View(out[k].data(), {7}) : View(out[k].data(), {R, C}));
  std::vector<void*> args = {&va, &xa};
  for (auto& a : oa) args.push_back(&a);
  for (int bd : {1, 3, 8}) {
    Launch(c.Entry("k"), args, {1}, bd);
    for (int which = 0; which < 2; ++which) {
      const std::vector<T>& in = which ? x : v;
      T run = 0, hi = in[0], lo = in[0];
      for (size_t i = 0; i < in.size(); ++i) {
        EXPECT_EQ(out[4 * which + 1][i], run) << dtype << " bd=" << bd << " exclusive " << which << " @" << i;
        run += in[i];
        hi = std::max(hi, in[i]);
        lo = std::min(lo, in[i]);
        EXPECT_EQ(out[4 * which + 0][i], run) << dtype << " bd=" << bd << " inclusive " << which << " @" << i;
        EXPECT_EQ(out[4 * which + 2][i], hi) << dtype << " max " << which << " @" << i;
        EXPECT_EQ(out[4 * which + 3][i], lo) << dtype << " min " << which << " @" << i;
      }
    }
  }
}

TEST(TileScanBuiltins, AllFourInt32) { Scans<int32_t>("int"); }
TEST(TileScanBuiltins, AllFourFloat32) { Scans<float>("float"); }

template <typename T>
void ShapeBuiltins(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(row: wp.array2d[{T}], col: wp.array2d[{T}], vec: wp.array[{T}], one: wp.array[{T}],
      x: wp.array2d[{T}], y: wp.array3d[{T}],
      b_rows: wp.array2d[{T}], b_cols: wp.array2d[{T}], b_lead: wp.array2d[{T}], b_one: wp.array[{T}],
      r26: wp.array2d[{T}], r12: wp.array[{T}], r322: wp.array3d[{T}],
      q_all: wp.array2d[{T}], q_mid: wp.array2d[{T}], q_first: wp.array[{T}], q_last: wp.array[{T}]):
    wp.tile_store(b_rows, wp.tile_broadcast(wp.tile_load(row, shape=(1, 4)), shape=(3, 4)))
    wp.tile_store(b_cols, wp.tile_broadcast(wp.tile_load(col, shape=(3, 1)), shape=(3, 4)))
    wp.tile_store(b_lead, wp.tile_broadcast(wp.tile_load(vec, shape=4), shape=(3, 4)))
    wp.tile_store(b_one, wp.tile_broadcast(wp.tile_load(one, shape=1), shape=5))
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(r26, wp.tile_reshape(t, shape=(2, -1)))
    f = wp.tile_reshape(t, shape=12)
    wp.tile_store(r12, f)
    wp.tile_store(r322, wp.tile_reshape(f, shape=(-1, 2, 2)))
    s = wp.tile_load(y, shape=(3, 1, 4))
    wp.tile_store(q_all, wp.tile_squeeze(s))
    wp.tile_store(q_mid, wp.tile_squeeze(s, axis=1))
    wp.tile_store(q_first, wp.tile_squeeze(wp.tile_load(row, shape=(1, 4)), axis=0))
    wp.tile_store(q_last, wp.tile_squeeze(wp.tile_load(col, shape=(3, 1)), axis=(-1,)))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> row = Inputs<T>(4, 1), col = Inputs<T>(3, 2), vec = Inputs<T>(4, 4), one = {T(3)};
  std::vector<T> x(R * C), y(R * C);
  for (int i = 0; i < R * C; ++i) {
    x[i] = T(i + 1);
    y[i] = T(2 * i - 7);
  }
  std::vector<T> b_rows(12, -99), b_cols(12, -99), b_lead(12, -99), b_one(5, -99), r26(12, -99), r12(12, -99),
      r322(12, -99), q_all(12, -99), q_mid(12, -99), q_first(4, -99), q_last(3, -99);
  tilec_array a_row = View(row.data(), {1, 4}), a_col = View(col.data(), {3, 1}), a_vec = View(vec.data(), {4}),
              a_one = View(one.data(), {1}), a_x = View(x.data(), {R, C}), a_y = View(y.data(), {3, 1, 4}),
              o1 = View(b_rows.data(), {3, 4}), o2 = View(b_cols.data(), {3, 4}), o3 = View(b_lead.data(), {3, 4}),
              o4 = View(b_one.data(), {5}), o5 = View(r26.data(), {2, 6}), o6 = View(r12.data(), {12}),
              o7 = View(r322.data(), {3, 2, 2}), o8 = View(q_all.data(), {3, 4}), o9 = View(q_mid.data(), {3, 4}),
              o10 = View(q_first.data(), {4}), o11 = View(q_last.data(), {3});
  for (int bd : {1, 4, 5}) {
    Launch(c.Entry("k"), {&a_row, &a_col, &a_vec, &a_one, &a_x, &a_y, &o1, &o2, &o3, &o4, &o5, &o6, &o7, &o8, &o9,
                          &o10, &o11},
           {1}, bd);
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < C; ++j) {
        EXPECT_EQ(b_rows[i * C + j], row[j]) << dtype << " bd=" << bd << " rows " << i << "," << j;
        EXPECT_EQ(b_cols[i * C + j], col[i]) << dtype << " cols " << i << "," << j;
        EXPECT_EQ(b_lead[i * C + j], vec[j]) << dtype << " lead " << i << "," << j;
      }
    for (int i = 0; i < 5; ++i) EXPECT_EQ(b_one[i], one[0]) << dtype << " one " << i;
    for (int i = 0; i < R * C; ++i) {
      // Row-major order is kept by every reshape and squeeze.
      EXPECT_EQ(r26[i], x[i]) << dtype << " r26 " << i;
      EXPECT_EQ(r12[i], x[i]) << dtype << " r12 " << i;
      EXPECT_EQ(r322[i], x[i]) << dtype << " r322 " << i;
      EXPECT_EQ(q_all[i], y[i]) << dtype << " q_all " << i;
      EXPECT_EQ(q_mid[i], y[i]) << dtype << " q_mid " << i;
    }
    for (int j = 0; j < 4; ++j) EXPECT_EQ(q_first[j], row[j]) << dtype << " q_first " << j;
    for (int i = 0; i < 3; ++i) EXPECT_EQ(q_last[i], col[i]) << dtype << " q_last " << i;
  }
}

TEST(TileShapeBuiltins, BroadcastReshapeSqueezeInt32) { ShapeBuiltins<int32_t>("int"); }
TEST(TileShapeBuiltins, BroadcastReshapeSqueezeFloat32) { ShapeBuiltins<float>("float"); }

// The gradient of a product reduction, whole and along each axis, with rows holding no zero,
// one zero and two zeros: each element receives the upstream gradient times the product of the
// others (central differences of the same products).
TEST(TileReduceBuiltins, ProductGradientWithZeros) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[wp.float64], whole: wp.array[wp.float64], rows: wp.array[wp.float64], cols: wp.array[wp.float64]):
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(whole, wp.tile_reduce(wp.mul, t))
    wp.tile_store(rows, wp.tile_reduce(wp.mul, t, axis=1))
    wp.tile_store(cols, wp.tile_reduce(wp.mul, t, axis=0))
)");
  ASSERT_TRUE(c.module);
  void* adj = c.Entry(autodiff::AdjointName("k"));
  ASSERT_NE(adj, nullptr);
  for (int zeros_case = 0; zeros_case < 2; ++zeros_case) {
    // Row 0 has no zero, row 1 one, row 2 two; the second case has no zero anywhere.
    std::vector<double> x = {1.5, -0.5, 2.0, 0.75, 0.0, 1.25, -2.0, 0.5, 0.0, 3.0, 0.0, -1.0};
    if (zeros_case == 1)
      for (double& v : x)
        if (v == 0.0) v = 0.3;
    std::vector<double> whole(1), rows(3), cols(4), gx(12, 0.0);
    std::vector<double> gw = {0.7}, gr = {1.0, -2.0, 0.5}, gc = {0.25, 1.5, -1.0, 2.0};
    tilec_array vx = View(x.data(), {3, 4}), vw = View(whole.data(), {1}), vr = View(rows.data(), {3}),
                vc = View(cols.data(), {4});
    vx.grad = gx.data();
    vw.grad = gw.data();
    vr.grad = gr.data();
    vc.grad = gc.data();
    const std::vector<double> w0 = gw, r0 = gr, c0 = gc;
    Launch(adj, {&vx, &vw, &vr, &vc, nullptr, nullptr, nullptr, nullptr}, {1}, 8);
    auto loss = [&](const std::vector<double>& v) {
      double all = 1, l = 0;
      for (double e : v) all *= e;
      l += w0[0] * all;
      for (int i = 0; i < 3; ++i) {
        double p = 1;
        for (int j = 0; j < 4; ++j) p *= v[size_t(i * 4 + j)];
        l += r0[size_t(i)] * p;
      }
      for (int j = 0; j < 4; ++j) {
        double p = 1;
        for (int i = 0; i < 3; ++i) p *= v[size_t(i * 4 + j)];
        l += c0[size_t(j)] * p;
      }
      return l;
    };
    for (size_t e = 0; e < x.size(); ++e) {
      const double h = 1e-6;
      std::vector<double> up = x, down = x;
      up[e] += h;
      down[e] -= h;
      const double fd = (loss(up) - loss(down)) / (2 * h);
      EXPECT_NEAR(gx[e], fd, 1e-6 * (1 + std::abs(fd))) << "element " << e << " case " << zeros_case;
    }
  }
}

}  // namespace
}  // namespace tilec
