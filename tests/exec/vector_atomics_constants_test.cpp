// Warp's atomics other than add on arrays of vectors and matrices (one scalar atomic per
// component, the previous value returned component by component), and module-level vector,
// matrix, quaternion and transform constants read in kernels and funcs. References are computed
// here: component-wise min/max/sub/and/or/xor of the inputs, and the constants' own numbers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

struct V3 { float c[3]; };
struct V3i { int32_t c[3]; };
struct V2d { double c[2]; };
struct M22 { float m[2][2]; };
struct Q4 { float c[4]; };
struct X7 { float c[7]; };

// Small integers as floats: every sum of them is exact, so the order threads land in does not
// change any result.
float Val(int k, int salt) { return float(((k * 7 + salt * 13) % 19) - 9); }

TEST(VectorAtomics, MinMaxSubPerComponentOnVec3) {
  auto c = CompileText(R"(
@wp.kernel
def k(v: wp.array[wp.vec3], lo: wp.array[wp.vec3], hi: wp.array[wp.vec3], acc: wp.array[wp.vec3]):
    i = wp.tid()
    j = i % 4
    wp.atomic_min(lo, j, v[i])
    wp.atomic_max(hi, j, v[i])
    wp.atomic_sub(acc, j, v[i])
)");
  ASSERT_TRUE(c.module);
  const int n = 37, m = 4;
  std::vector<V3> v(n), lo(m), hi(m), acc(m);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) v[i].c[d] = Val(i, d);
  for (int j = 0; j < m; ++j)
    for (int d = 0; d < 3; ++d) lo[j].c[d] = 5.0f, hi[j].c[d] = -5.0f, acc[j].c[d] = float(j);
  std::vector<V3> lo0 = lo, hi0 = hi, acc0 = acc;
  tilec_array va = View(v.data(), {n}), la = View(lo.data(), {m}), ha = View(hi.data(), {m}),
              aa = View(acc.data(), {m});
  Launch(c.Entry("k"), {&va, &la, &ha, &aa}, {n});
  for (int j = 0; j < m; ++j)
    for (int d = 0; d < 3; ++d) {
      float rlo = lo0[j].c[d], rhi = hi0[j].c[d], racc = acc0[j].c[d];
      for (int i = j; i < n; i += m) {
        rlo = std::min(rlo, v[i].c[d]);
        rhi = std::max(rhi, v[i].c[d]);
        racc -= v[i].c[d];
      }
      EXPECT_EQ(lo[j].c[d], rlo) << j << " " << d;
      EXPECT_EQ(hi[j].c[d], rhi) << j << " " << d;
      EXPECT_EQ(acc[j].c[d], racc) << j << " " << d;
    }
}

// One thread per element: the previous value each returns is the element's initial value.
TEST(VectorAtomics, ReturnThePreviousComponents) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[wp.vec3], b: wp.array[wp.vec3], v: wp.array[wp.vec3], old: wp.array2d[wp.vec3]):
    i = wp.tid()
    old[i, 0] = wp.atomic_max(a, i, v[i])
    old[i, 1] = wp.atomic_sub(b, i, v[i])
)");
  ASSERT_TRUE(c.module);
  const int n = 9;
  std::vector<V3> a(n), b(n), v(n), old(size_t(n) * 2);
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) a[i].c[d] = Val(i, d + 3), b[i].c[d] = Val(i, d + 5), v[i].c[d] = Val(i, d);
  std::vector<V3> a0 = a, b0 = b;
  tilec_array aa = View(a.data(), {n}), ba = View(b.data(), {n}), va = View(v.data(), {n}),
              oa = View(old.data(), {n, 2});
  Launch(c.Entry("k"), {&aa, &ba, &va, &oa}, {n});
  for (int i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(old[i * 2 + 0].c[d], a0[i].c[d]);
      EXPECT_EQ(old[i * 2 + 1].c[d], b0[i].c[d]);
      EXPECT_EQ(a[i].c[d], std::max(a0[i].c[d], v[i].c[d]));
      EXPECT_EQ(b[i].c[d], b0[i].c[d] - v[i].c[d]);
    }
}

TEST(VectorAtomics, MatricesDoublesAndIntegerBitwise) {
  auto c = CompileText(R"(
@wp.kernel
def k(m: wp.array[wp.mat22], mv: wp.array[wp.mat22], d: wp.array2d[wp.vec2d], dv: wp.array[wp.vec2d],
      bits: wp.array[wp.vec3i], bv: wp.array[wp.vec3i], old: wp.array[wp.vec3i]):
    i = wp.tid()
    wp.atomic_min(m, 0, mv[i])
    wp.atomic_max(m, 1, mv[i])
    wp.atomic_max(d, i % 2, 1, dv[i])
    wp.atomic_and(bits, 0, bv[i])
    wp.atomic_or(bits, 1, bv[i])
    wp.atomic_xor(bits, 2, bv[i])
    if i == 0:
        old[0] = wp.atomic_or(bits, 3, bv[i])
)");
  ASSERT_TRUE(c.module);
  const int n = 11;
  std::vector<M22> m(2), mv(n);
  std::vector<V2d> d(4), dv(n);
  std::vector<V3i> bits(4), bv(n), old(1);
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < 4; ++r) mv[i].m[r / 2][r % 2] = Val(i, r);
    for (int r = 0; r < 2; ++r) dv[i].c[r] = double(Val(i, r + 7)) / 4.0;
    for (int r = 0; r < 3; ++r) bv[i].c[r] = int32_t((i * 2654435761u + unsigned(r) * 40503u) >> 7);
  }
  for (int r = 0; r < 4; ++r) m[0].m[r / 2][r % 2] = 100.0f, m[1].m[r / 2][r % 2] = -100.0f;
  for (V2d& x : d) x.c[0] = x.c[1] = -50.0;
  for (int j = 0; j < 4; ++j)
    for (int r = 0; r < 3; ++r) bits[j].c[r] = j == 0 ? -1 : int32_t(0x5a5a5a5a + r);
  std::vector<V3i> bits0 = bits;
  tilec_array ma = View(m.data(), {2}), mva = View(mv.data(), {n}), da = View(d.data(), {2, 2}),
              dva = View(dv.data(), {n}), ba = View(bits.data(), {4}), bva = View(bv.data(), {n}),
              oa = View(old.data(), {1});
  Launch(c.Entry("k"), {&ma, &mva, &da, &dva, &ba, &bva, &oa}, {n});
  for (int r = 0; r < 4; ++r) {
    float lo = 100.0f, hi = -100.0f;
    for (int i = 0; i < n; ++i) lo = std::min(lo, mv[i].m[r / 2][r % 2]), hi = std::max(hi, mv[i].m[r / 2][r % 2]);
    EXPECT_EQ(m[0].m[r / 2][r % 2], lo);
    EXPECT_EQ(m[1].m[r / 2][r % 2], hi);
  }
  for (int row = 0; row < 2; ++row)
    for (int r = 0; r < 2; ++r) {
      double hi = -50.0;
      for (int i = row; i < n; i += 2) hi = std::max(hi, dv[i].c[r]);
      EXPECT_EQ(d[row * 2 + 1].c[r], hi);
      EXPECT_EQ(d[row * 2 + 0].c[r], -50.0);  // column 0 untouched
    }
  for (int r = 0; r < 3; ++r) {
    int32_t a = bits0[0].c[r], o = bits0[1].c[r], x = bits0[2].c[r], o3 = bits0[3].c[r];
    for (int i = 0; i < n; ++i) a &= bv[i].c[r], o |= bv[i].c[r], x ^= bv[i].c[r];
    o3 |= bv[0].c[r];
    EXPECT_EQ(bits[0].c[r], a);
    EXPECT_EQ(bits[1].c[r], o);
    EXPECT_EQ(bits[2].c[r], x);
    EXPECT_EQ(bits[3].c[r], o3);
    EXPECT_EQ(old[0].c[r], bits0[3].c[r]);
  }
}

// Subtraction also takes quaternions and transforms, as Warp subtracts by adding the negation.
TEST(VectorAtomics, SubOfQuaternionsAndTransforms) {
  auto c = CompileText(R"(
@wp.kernel
def k(q: wp.array[wp.quat], qv: wp.array[wp.quat], t: wp.array[wp.transform], tv: wp.array[wp.transform]):
    i = wp.tid()
    wp.atomic_sub(q, 0, qv[i])
    wp.atomic_sub(t, 0, tv[i])
)");
  ASSERT_TRUE(c.module);
  const int n = 6;
  std::vector<Q4> q(1), qv(n);
  std::vector<X7> t(1), tv(n);
  for (int i = 0; i < n; ++i) {
    for (int r = 0; r < 4; ++r) qv[i].c[r] = Val(i, r);
    for (int r = 0; r < 7; ++r) tv[i].c[r] = Val(i, r + 4);
  }
  for (int r = 0; r < 4; ++r) q[0].c[r] = 1.0f;
  for (int r = 0; r < 7; ++r) t[0].c[r] = 2.0f;
  tilec_array qa = View(q.data(), {1}), qva = View(qv.data(), {n}), ta = View(t.data(), {1}),
              tva = View(tv.data(), {n});
  Launch(c.Entry("k"), {&qa, &qva, &ta, &tva}, {n});
  for (int r = 0; r < 4; ++r) {
    float e = 1.0f;
    for (int i = 0; i < n; ++i) e -= qv[i].c[r];
    EXPECT_EQ(q[0].c[r], e);
  }
  for (int r = 0; r < 7; ++r) {
    float e = 2.0f;
    for (int i = 0; i < n; ++i) e -= tv[i].c[r];
    EXPECT_EQ(t[0].c[r], e);
  }
}

TEST(ModuleVectorConstants, ReadFoldedAndIndexedInKernelsAndFuncs) {
  auto c = CompileText(R"(
C = wp.constant(wp.vec3(1.5, -2.0, 3.25))
M = wp.constant(wp.mat22(1.0, 2.0, 3.0, 4.0))
V = wp.vec3(0.5, 0.25, 8.0)
IV = wp.constant(wp.vec3i(4, 5, 6))
Q = wp.constant(wp.quat(0.0, 0.0, 0.6, 0.8))
T = wp.constant(wp.transform(wp.vec3(7.0, 8.0, 9.0), wp.quat(0.0, 0.0, 0.0, 1.0)))
F = wp.constant(wp.vec2(2.5))
R = M[1]

@wp.func
def pick(i: int) -> float:
    return C[i] + M[1, 0]

@wp.kernel
def k(n: int, out: wp.array[float], vout: wp.array[wp.vec3], mout: wp.array[wp.mat22]):
    out[0] = C[1]
    out[1] = M[0, 1]
    out[2] = pick(2)
    out[3] = C.z + V.x
    out[4] = wp.dot(C, V)
    r = M[1]
    out[5] = r[0] + r[1] * 10.0
    out[6] = float(IV[2] * n)
    out[7] = Q.w + T.p[1] + T.q[3]
    out[8] = C[n % 3]
    out[9] = F.y + R[0]
    s = 0
    for j in range(IV[0]):
        s += j
    out[10] = float(s)
    w = C
    w[0] = 100.0
    out[11] = w[0] + C[0]
    vout[0] = C + V
    vout[1] = C
    mout[0] = M * 2.0
)");
  ASSERT_TRUE(c.module);
  int n = 4;
  std::vector<float> out(12, -1.0f);
  std::vector<V3> vout(2);
  std::vector<M22> mout(1);
  tilec_array oa = View(out.data(), {12}), va = View(vout.data(), {2}), ma = View(mout.data(), {1});
  Launch(c.Entry("k"), {&n, &oa, &va, &ma}, {1});
  EXPECT_EQ(out[0], -2.0f);
  EXPECT_EQ(out[1], 2.0f);
  EXPECT_EQ(out[2], 3.25f + 3.0f);
  EXPECT_EQ(out[3], 3.25f + 0.5f);
  EXPECT_EQ(out[4], 1.5f * 0.5f + -2.0f * 0.25f + 3.25f * 8.0f);
  EXPECT_EQ(out[5], 3.0f + 40.0f);
  EXPECT_EQ(out[6], 24.0f);
  EXPECT_EQ(out[7], 0.8f + 8.0f + 1.0f);
  EXPECT_EQ(out[8], -2.0f);
  EXPECT_EQ(out[9], 2.5f + 3.0f);
  EXPECT_EQ(out[10], 6.0f);
  EXPECT_EQ(out[11], 101.5f);
  const float sum[3] = {2.0f, -1.75f, 11.25f}, cc[3] = {1.5f, -2.0f, 3.25f};
  for (int d = 0; d < 3; ++d) {
    EXPECT_EQ(vout[0].c[d], sum[d]);
    EXPECT_EQ(vout[1].c[d], cc[d]);
  }
  EXPECT_EQ(mout[0].m[0][0], 2.0f);
  EXPECT_EQ(mout[0].m[0][1], 4.0f);
  EXPECT_EQ(mout[0].m[1][0], 6.0f);
  EXPECT_EQ(mout[0].m[1][1], 8.0f);
}

// Module constants computed by element-wise vector arithmetic (`D = C * 3.0`) fold in the
// checker, each component rounded once to float32 as Warp's host arithmetic gives it; a matrix
// product stays host code (E0110, tested in the goldens).
TEST(ModuleVectorConstants, ElementwiseArithmeticFoldsAtFloat32) {
  auto c = CompileText(R"(
C = wp.vec3(0.1, 0.2, 0.3)
D = C * 3.0
E = C / 3.0
F = -C + D
G = 1.0 / C
H = wp.constant(2.0 * (D - E))
M = wp.mat22(0.1, 0.2, 0.3, 0.7) * 3.0

@wp.kernel
def k(vout: wp.array[wp.vec3], mout: wp.array[wp.mat22]):
    vout[0] = D
    vout[1] = E
    vout[2] = F
    vout[3] = G
    vout[4] = H
    mout[0] = M
)");
  ASSERT_TRUE(c.module);
  std::vector<V3> v(5);
  std::vector<M22> m(1);
  tilec_array va = View(v.data(), {5}), ma = View(m.data(), {1});
  Launch(c.Entry("k"), {&va, &ma}, {1});
  const float cc[3] = {0.1f, 0.2f, 0.3f};
  for (int d = 0; d < 3; ++d) {
    const float dd = cc[d] * 3.0f, ee = cc[d] / 3.0f;
    EXPECT_EQ(v[0].c[d], dd) << d;
    EXPECT_EQ(v[1].c[d], ee) << d;
    EXPECT_EQ(v[2].c[d], -cc[d] + dd) << d;
    EXPECT_EQ(v[3].c[d], 1.0f / cc[d]) << d;
    EXPECT_EQ(v[4].c[d], 2.0f * (dd - ee)) << d;
  }
  EXPECT_EQ(m[0].m[0][0], 0.1f * 3.0f);
  EXPECT_EQ(m[0].m[1][1], 0.7f * 3.0f);
}

}  // namespace
}  // namespace tilec
