// tile_diag_add, tile_cholesky, tile_cholesky_solve, tile_lower_solve and tile_upper_solve from
// source, float32 and float64, sizes 1, 3, 7 and 16, both fill modes, 1-D and 2-D right-hand
// sides. References: plain loops in double (within a tolerance), and the same loops in the
// element type in the order docs/semantics.md gives (bit for bit, on every lowering).
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

std::string Replace(std::string s, const std::string& key, const std::string& v) {
  for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  return s;
}

// Row-major n x n helpers over any element type R.
template <typename R>
std::vector<R> CholeskyLower(const std::vector<R>& a, int n) {  // reads a's lower triangle
  std::vector<R> l(size_t(n * n), R(0));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j <= i; ++j) l[size_t(i * n + j)] = a[size_t(i * n + j)];
  for (int j = 0; j < n; ++j) {
    R s = l[size_t(j * n + j)];
    for (int k = 0; k < j; ++k) s = R(s - R(l[size_t(j * n + k)] * l[size_t(j * n + k)]));
    R djj = std::sqrt(s);
    l[size_t(j * n + j)] = djj;
    const R recip = R(1.0 / double(djj));  // Warp's `T invS = 1.0 / s`, divided in double
    for (int i = j + 1; i < n; ++i) {
      R t = l[size_t(i * n + j)];
      for (int k = 0; k < j; ++k) t = R(t - R(l[size_t(i * n + k)] * l[size_t(j * n + k)]));
      l[size_t(i * n + j)] = R(t * recip);
    }
  }
  return l;
}

template <typename R>
std::vector<R> Transposed(const std::vector<R>& a, int n) {
  std::vector<R> t(a.size());
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) t[size_t(j * n + i)] = a[size_t(i * n + j)];
  return t;
}

// z with m z = y, reading m's lower (or upper) triangle; y is n x cols.
template <typename R>
std::vector<R> TriSolve(const std::vector<R>& m, const std::vector<R>& y, int n, int cols, bool upper) {
  std::vector<R> z(y.size(), R(0));
  for (int c = 0; c < cols; ++c)
    for (int r = 0; r < n; ++r) {
      int i = upper ? n - 1 - r : r;
      R s = y[size_t(i * cols + c)];
      if (upper)
        for (int k = i + 1; k < n; ++k) s = R(s - R(m[size_t(i * n + k)] * z[size_t(k * cols + c)]));
      else
        for (int k = 0; k < i; ++k) s = R(s - R(m[size_t(i * n + k)] * z[size_t(k * cols + c)]));
      const R diag = m[size_t(i * n + i)];
      z[size_t(i * cols + c)] = diag != R(0) ? R(s / diag) : s;
    }
  return z;
}

template <typename R, typename T>
std::vector<R> As(const std::vector<T>& v) {
  return std::vector<R>(v.begin(), v.end());
}

struct Refs {
  std::vector<double> ad, l, xv, xm, zlv, zlm, zuv, zum;
};

// Every result of the kernel below, computed in R: the factor of the fill triangle, the
// Cholesky solves (lower: L then L^T; upper: U^T then U) and the triangular solves with m.
template <typename R, typename T>
Refs Reference(const std::vector<T>& a, const std::vector<T>& d, const std::vector<T>& m, const std::vector<T>& yv,
               const std::vector<T>& ym, int n, int cols, bool upper) {
  std::vector<R> ad = As<R>(a);
  for (int i = 0; i < n; ++i) ad[size_t(i * n + i)] = R(ad[size_t(i * n + i)] + R(d[size_t(i)]));
  std::vector<R> f = upper ? Transposed(CholeskyLower(Transposed(ad, n), n), n) : CholeskyLower(ad, n);
  std::vector<R> ft = Transposed(f, n);
  auto chol_solve = [&](const std::vector<R>& y, int k) {
    return upper ? TriSolve(f, TriSolve(ft, y, n, k, false), n, k, true)
                 : TriSolve(ft, TriSolve(f, y, n, k, false), n, k, true);
  };
  std::vector<R> mr = As<R>(m), yvr = As<R>(yv), ymr = As<R>(ym);
  Refs out;
  out.ad = As<double>(ad);
  out.l = As<double>(f);
  out.xv = As<double>(chol_solve(yvr, 1));
  out.xm = As<double>(chol_solve(ymr, cols));
  out.zlv = As<double>(TriSolve(mr, yvr, n, 1, false));
  out.zlm = As<double>(TriSolve(mr, ymr, n, cols, false));
  out.zuv = As<double>(TriSolve(mr, yvr, n, 1, true));
  out.zum = As<double>(TriSolve(mr, ymr, n, cols, true));
  return out;
}

template <typename T>
void Linalg(const std::string& dtype, int n, bool upper) {
  const int cols = upper ? 3 : 1;
  std::string src = R"(
@wp.kernel
def k(a: wp.array2d[{T}], d: wp.array1d[{T}], m: wp.array2d[{T}], yv: wp.array1d[{T}], ym: wp.array2d[{T}],
      ad: wp.array2d[{T}], l: wp.array2d[{T}], xv: wp.array1d[{T}], xm: wp.array2d[{T}],
      zlv: wp.array1d[{T}], zlm: wp.array2d[{T}], zuv: wp.array1d[{T}], zum: wp.array2d[{T}]):
    at = wp.tile_load(a, shape=({N}, {N}))
    dt = wp.tile_load(d, shape={N})
    mt = wp.tile_load(m, shape=({N}, {N}))
    yvt = wp.tile_load(yv, shape={N})
    ymt = wp.tile_load(ym, shape=({N}, {C}))
    spd = wp.tile_diag_add(at, dt)
    wp.tile_store(ad, spd)
    f = wp.tile_cholesky(spd, fill_mode="{F}")
    wp.tile_store(l, f)
    wp.tile_store(xv, wp.tile_cholesky_solve(f, yvt, fill_mode="{F}"))
    wp.tile_store(xm, wp.tile_cholesky_solve(L=f, y=ymt, fill_mode="{F}"))
    wp.tile_store(zlv, wp.tile_lower_solve(mt, yvt))
    wp.tile_store(zlm, wp.tile_lower_solve(L=mt, y=ymt))
    wp.tile_store(zuv, wp.tile_upper_solve(mt, yvt))
    wp.tile_store(zum, wp.tile_upper_solve(U=mt, z=ymt))
)";
  src = Replace(Replace(Replace(Replace(src, "{T}", dtype), "{N}", std::to_string(n)), "{C}", std::to_string(cols)),
                "{F}", upper ? "upper" : "lower");
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  const size_t nn = size_t(n * n);
  // a: a symmetric matrix in the fill triangle and junk in the other (never read); d makes
  // a + diag(d) diagonally dominant, so positive definite. m: a well-conditioned triangle
  // each way, its diagonal away from zero.
  const size_t un = static_cast<size_t>(n), unc = static_cast<size_t>(n * cols);
  std::vector<T> a(nn), d(un), m(nn), yv(un), ym(unc);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double sym = double((i * 7 + j * 7 + i * j) % 9 - 4) * 0.25;
      bool fill = upper ? j >= i : j <= i;
      a[size_t(i * n + j)] = T(fill ? sym : 1000.0 + i - j);
      m[size_t(i * n + j)] = T(i == j ? 2.0 + 0.125 * i : double((i * 3 + j * 5) % 7 - 3) * 0.125);
    }
  for (int i = 0; i < n; ++i) d[size_t(i)] = T(double(n) + 1.0 + 0.5 * (i % 3));
  for (int i = 0; i < n; ++i) yv[size_t(i)] = T(double((i * 5) % 11 - 5) * 0.5);
  for (size_t i = 0; i < ym.size(); ++i) ym[i] = T(double(int(i * 3) % 13 - 6) * 0.25);
  const Refs ref = Reference<double>(a, d, m, yv, ym, n, cols, upper);
  const Refs same = Reference<T>(a, d, m, yv, ym, n, cols, upper);
  const double tol = sizeof(T) == 4 ? 2e-5 : 1e-12;
  for (int bd : {1, 3, 32}) {
    std::vector<T> ad(nn, T(-7)), l(nn, T(-7)), xv(un, T(-7)), xm(unc, T(-7)), zlv(un, T(-7)), zlm(unc, T(-7)),
        zuv(un, T(-7)), zum(unc, T(-7));
    std::vector<T> ac = a, dc = d, mc = m, yvc = yv, ymc = ym;
    tilec_array A = View(ac.data(), {n, n}), D = View(dc.data(), {n}), M = View(mc.data(), {n, n}),
                YV = View(yvc.data(), {n}), YM = View(ymc.data(), {n, cols}), AD = View(ad.data(), {n, n}),
                Lv = View(l.data(), {n, n}), XV = View(xv.data(), {n}), XM = View(xm.data(), {n, cols}),
                ZLV = View(zlv.data(), {n}), ZLM = View(zlm.data(), {n, cols}), ZUV = View(zuv.data(), {n}),
                ZUM = View(zum.data(), {n, cols});
    Launch(c.Entry("k"), {&A, &D, &M, &YV, &YM, &AD, &Lv, &XV, &XM, &ZLV, &ZLM, &ZUV, &ZUM}, {1}, bd);
    auto check = [&](const char* what, const std::vector<T>& got, const std::vector<double>& r,
                     const std::vector<double>& exact) {
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_NEAR(double(got[i]), r[i], tol * (1.0 + std::fabs(r[i])))
            << dtype << " n=" << n << (upper ? " upper " : " lower ") << what << " bd=" << bd << " @" << i;
        EXPECT_EQ(double(got[i]), exact[i])
            << dtype << " n=" << n << (upper ? " upper " : " lower ") << what << " (operation order) bd=" << bd << " @" << i;
      }
    };
    check("diag_add", ad, ref.ad, same.ad);
    check("cholesky", l, ref.l, same.l);
    check("cholesky_solve 1-D", xv, ref.xv, same.xv);
    check("cholesky_solve 2-D", xm, ref.xm, same.xm);
    check("lower_solve 1-D", zlv, ref.zlv, same.zlv);
    check("lower_solve 2-D", zlm, ref.zlm, same.zlm);
    check("upper_solve 1-D", zuv, ref.zuv, same.zuv);
    check("upper_solve 2-D", zum, ref.zum, same.zum);
    EXPECT_EQ(ac, a) << "inputs are not modified";
  }
}

TEST(TileLinalg, Float32Lower) {
  for (int n : {1, 3, 7, 16}) Linalg<float>("wp.float32", n, false);
}
TEST(TileLinalg, Float32Upper) {
  for (int n : {1, 3, 7, 16}) Linalg<float>("wp.float32", n, true);
}
TEST(TileLinalg, Float64Lower) {
  for (int n : {1, 3, 7, 16}) Linalg<double>("wp.float64", n, false);
}
TEST(TileLinalg, Float64Upper) {
  for (int n : {1, 3, 7, 16}) Linalg<double>("wp.float64", n, true);
}

// The _inplace forms overwrite the tile they are given (A with its factor, y or z with the
// solution) with exactly the values the returning forms give, which the tests above check.
TEST(TileLinalg, InplaceFormsOverwriteTheirTile) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array2d[wp.float64], y: wp.array2d[wp.float64], want: wp.array3d[wp.float64], got: wp.array3d[wp.float64]):
    ta = wp.tile_load(a, shape=(4, 4))
    ty = wp.tile_load(y, shape=(4, 2))
    lo = wp.tile_cholesky(ta)
    up = wp.tile_cholesky(ta, fill_mode="upper")
    f = wp.tile_load(a, shape=(4, 4))
    wp.tile_cholesky_inplace(f)
    g = wp.tile_load(a, shape=(4, 4))
    wp.tile_cholesky_inplace(A=g, fill_mode="upper")
    wp.tile_store(want, wp.tile_reshape(lo, shape=(1, 4, 4)), offset=(0, 0, 0))
    wp.tile_store(got, wp.tile_reshape(f, shape=(1, 4, 4)), offset=(0, 0, 0))
    wp.tile_store(want, wp.tile_reshape(up, shape=(1, 4, 4)), offset=(1, 0, 0))
    wp.tile_store(got, wp.tile_reshape(g, shape=(1, 4, 4)), offset=(1, 0, 0))
    s = wp.tile_load(y, shape=(4, 2))
    wp.tile_cholesky_solve_inplace(up, s, fill_mode="upper")
    wp.tile_store(want, wp.tile_reshape(wp.tile_cholesky_solve(up, ty, fill_mode="upper"), shape=(1, 4, 2)), offset=(2, 0, 0))
    wp.tile_store(got, wp.tile_reshape(s, shape=(1, 4, 2)), offset=(2, 0, 0))
    v = wp.tile_load(y, shape=(4, 2))
    wp.tile_lower_solve_inplace(lo, v)
    wp.tile_store(want, wp.tile_reshape(wp.tile_lower_solve(lo, ty), shape=(1, 4, 2)), offset=(3, 0, 0))
    wp.tile_store(got, wp.tile_reshape(v, shape=(1, 4, 2)), offset=(3, 0, 0))
    w = wp.tile_load(y, shape=(4, 2))
    wp.tile_upper_solve_inplace(U=up, z=w)
    wp.tile_store(want, wp.tile_reshape(wp.tile_upper_solve(up, ty), shape=(1, 4, 2)), offset=(4, 0, 0))
    wp.tile_store(got, wp.tile_reshape(w, shape=(1, 4, 2)), offset=(4, 0, 0))
)");
  ASSERT_TRUE(c.module);
  std::vector<double> a(16), y(8);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) a[size_t(i * 4 + j)] = i == j ? 5.0 + i : 0.25 * double((i + j) % 3) - 0.3;
  for (int i = 0; i < 8; ++i) y[size_t(i)] = 0.5 * double(i % 5) - 1.0;
  for (int bd : {1, 3, 32}) {
    std::vector<double> want(5 * 16, -7.0), got(5 * 16, -9.0);
    tilec_array A = View(a.data(), {4, 4}), Y = View(y.data(), {4, 2}), W = View(want.data(), {5, 4, 4}),
                G = View(got.data(), {5, 4, 4});
    Launch(c.Entry("k"), {&A, &Y, &W, &G}, {1}, bd);
    const char* what[] = {"tile_cholesky_inplace", "tile_cholesky_inplace upper", "tile_cholesky_solve_inplace",
                          "tile_lower_solve_inplace", "tile_upper_solve_inplace"};
    for (int s = 0; s < 5; ++s)
      for (int e = 0; e < (s < 2 ? 16 : 8); ++e)
        EXPECT_EQ(got[size_t(s * 16 + (s < 2 ? e : (e / 2) * 4 + e % 2))], want[size_t(s * 16 + (s < 2 ? e : (e / 2) * 4 + e % 2))])
            << what[s] << " bd=" << bd << " @" << e;
    EXPECT_NE(want[0], -7.0);
  }
}

// tile_diag_add on integers and float16 adds as the elementwise `+` does.
TEST(TileLinalg, DiagAddInt32AndFloat16Rounding) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array2d[wp.int32], d: wp.array1d[wp.int32], out: wp.array2d[wp.int32],
      h: wp.array2d[wp.float16], hd: wp.array1d[wp.float16], hout: wp.array2d[wp.float16]):
    wp.tile_store(out, wp.tile_diag_add(wp.tile_load(a, shape=(2, 2)), wp.tile_load(d, shape=2)))
    wp.tile_store(hout, wp.tile_diag_add(a=wp.tile_load(h, shape=(2, 2)), d=wp.tile_load(hd, shape=2)))
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 3, 32}) {
    std::vector<int32_t> a = {1, 2, 3, 4}, d = {10, -20}, out(4, -1);
    // 2048 + 1 is not a float16: the sum rounds to nearest even (2048); 1 + 0.5 is exact.
    std::vector<uint16_t> h = {0x6800 /*2048*/, 0, 0, 0x3C00 /*1*/}, hd = {0x3C00 /*1*/, 0x3800 /*0.5*/}, hout(4, 0xFFFF);
    tilec_array A = View(a.data(), {2, 2}), D = View(d.data(), {2}), O = View(out.data(), {2, 2});
    tilec_array H = View(h.data(), {2, 2}), HD = View(hd.data(), {2}),
                HO = View(hout.data(), {2, 2});
    Launch(c.Entry("k"), {&A, &D, &O, &H, &HD, &HO}, {1}, bd);
    EXPECT_EQ(out, (std::vector<int32_t>{11, 2, 3, -16})) << "bd=" << bd;
    EXPECT_EQ(hout, (std::vector<uint16_t>{0x6800, 0, 0, 0x3E00 /*1.5*/})) << "bd=" << bd;
  }
}

// A matrix that is not positive definite: the failing pivot's sqrt is NaN, which spreads to
// the entries after it; nothing traps.
TEST(TileLinalg, NotPositiveDefiniteGivesNaN) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array2d[float], l: wp.array2d[float]):
    wp.tile_store(l, wp.tile_cholesky(wp.tile_load(a, shape=(2, 2))))
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 3, 32}) {
    std::vector<float> a = {1, 2, 2, 1}, l(4, -7.0f);
    tilec_array A = View(a.data(), {2, 2}), Lv = View(l.data(), {2, 2});
    Launch(c.Entry("k"), {&A, &Lv}, {1}, bd);
    EXPECT_EQ(l[0], 1.0f);
    EXPECT_EQ(l[1], 0.0f);
    EXPECT_EQ(l[2], 2.0f);
    EXPECT_TRUE(std::isnan(l[3])) << "bd=" << bd;
  }
}

// A zero on a triangle's diagonal leaves that row's difference undivided, as Warp's solvers
// do (tile_solve.h: `diag != 0 ? s / diag : s`), rather than giving inf or NaN.
TEST(TileLinalg, ZeroDiagonalLeavesTheRowUndivided) {
  auto c = CompileText(R"(
@wp.kernel
def k(m: wp.array2d[float], y: wp.array[float], zl: wp.array[float], zu: wp.array[float]):
    M = wp.tile_load(m, shape=(2, 2))
    Y = wp.tile_load(y, shape=2)
    wp.tile_store(zl, wp.tile_lower_solve(M, Y))
    wp.tile_store(zu, wp.tile_upper_solve(wp.tile_transpose(M), Y))
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 32}) {
    // lower: z0 = 4 / 2, z1 = 3 - 1 * z0 over a zero pivot; upper (the transpose [[2, 1], [0, 0]]):
    // z1 = 3 over a zero pivot, z0 = (4 - 1 * z1) / 2.
    std::vector<float> m = {2, 0, 1, 0}, y = {4, 3}, zl(2, -7.0f), zu(2, -7.0f);
    tilec_array Mv = View(m.data(), {2, 2}), Yv = View(y.data(), {2}), L = View(zl.data(), {2}), U = View(zu.data(), {2});
    Launch(c.Entry("k"), {&Mv, &Yv, &L, &U}, {1}, bd);
    EXPECT_EQ(zl, (std::vector<float>{2.0f, 1.0f})) << "bd=" << bd;
    EXPECT_EQ(zu, (std::vector<float>{0.5f, 3.0f})) << "bd=" << bd;
  }
}

}  // namespace
}  // namespace tilec
