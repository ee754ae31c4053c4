// Vector-like types compiled from source and run: the component-wise builtins and products
// against float32 references computed here in Warp's order (exact; matrix products fused), and the prelude's
// algorithms against their defining properties in double (rotations preserve length and
// match Rodrigues' formula, A = U diag(s) V^T, Q diag(d) Q^T, Q R, M M^-1 = I).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

struct V3 { float x, y, z; };
struct M3 { float m[3][3]; };
struct Q4 { float x, y, z, w; };

std::vector<V3> RandomV3(int n, unsigned seed) {
  std::vector<V3> v(static_cast<size_t>(n));
  unsigned s = seed;
  auto next = [&] {
    s = s * 1664525u + 1013904223u;
    return float(int(s >> 9) % 2001 - 1000) / 400.0f;
  };
  for (V3& x : v) x = {next(), next(), next()};
  return v;
}

TEST(CompositeExec, VectorBuiltinsMatchWarpsOrder) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[wp.vec3], b: wp.array[wp.vec3], s: wp.array2d[float], v: wp.array2d[wp.vec3], m: wp.array2d[wp.mat33]):
    i = wp.tid()
    x = a[i]
    y = b[i]
    s[i, 0] = wp.dot(x, y)
    s[i, 1] = wp.length(x)
    s[i, 2] = wp.length_sq(y)
    s[i, 3] = x[i % 3] - y.z
    v[i, 0] = wp.cross(x, y)
    v[i, 1] = wp.normalize(x)
    v[i, 2] = x * 2.0 - y / 4.0
    o = wp.outer(x, y)
    v[i, 3] = o * x
    v[i, 4] = x * o
    w = x
    w[(i + 1) % 3] = 7.0
    w.x += 1.0
    v[i, 5] = w
    m[i, 0] = o
    m[i, 1] = o * wp.transpose(o)
    m[i, 2] = wp.diag(x)
)");
  ASSERT_TRUE(c.module);
  const int n = 37;
  std::vector<V3> a = RandomV3(n, 1), b = RandomV3(n, 2);
  std::vector<float> s(size_t(n) * 4);
  std::vector<V3> v(size_t(n) * 6);
  std::vector<M3> m(size_t(n) * 3);
  tilec_array aa = View(a.data(), {n}), ba = View(b.data(), {n}), sa = View(s.data(), {n, 4}),
              va = View(v.data(), {n, 6}), ma = View(m.data(), {n, 3});
  Launch(c.Entry("k"), {&aa, &ba, &sa, &va, &ma}, {n});
  for (int i = 0; i < n; ++i) {
    float x[3] = {a[i].x, a[i].y, a[i].z}, y[3] = {b[i].x, b[i].y, b[i].z};
    float dot = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    float len = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    EXPECT_EQ(s[i * 4 + 0], dot);
    EXPECT_EQ(s[i * 4 + 1], len);
    EXPECT_EQ(s[i * 4 + 2], y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    EXPECT_EQ(s[i * 4 + 3], x[i % 3] - y[2]);
    V3 cr = v[i * 6 + 0];
    EXPECT_EQ(cr.x, x[1] * y[2] - x[2] * y[1]);
    EXPECT_EQ(cr.y, x[2] * y[0] - x[0] * y[2]);
    EXPECT_EQ(cr.z, x[0] * y[1] - x[1] * y[0]);
    V3 nz = v[i * 6 + 1];
    EXPECT_EQ(nz.x, x[0] / len);
    EXPECT_EQ(nz.z, x[2] / len);
    V3 lin = v[i * 6 + 2];
    EXPECT_EQ(lin.y, x[1] * 2.0f - y[1] / 4.0f);
    float o[3][3];
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) o[r][q] = x[r] * y[q];
    float ox[3], xo[3];
    for (int r = 0; r < 3; ++r) {
      ox[r] = o[r][0] * x[0] + o[r][1] * x[1] + o[r][2] * x[2];
      xo[r] = x[0] * o[0][r] + x[1] * o[1][r] + x[2] * o[2][r];
    }
    EXPECT_EQ(v[i * 6 + 3].x, ox[0]);
    EXPECT_EQ(v[i * 6 + 3].z, ox[2]);
    EXPECT_EQ(v[i * 6 + 4].y, xo[1]);
    float w[3] = {x[0], x[1], x[2]};
    w[(i + 1) % 3] = 7.0f;
    w[0] += 1.0f;
    EXPECT_EQ(v[i * 6 + 5].x, w[0]);
    EXPECT_EQ(v[i * 6 + 5].y, w[1]);
    EXPECT_EQ(v[i * 6 + 5].z, w[2]);
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) {
        EXPECT_EQ(m[i * 3 + 0].m[r][q], o[r][q]);
        // Warp's muladd: fused multiply-adds from zero.
        float ot = std::fmaf(o[r][2], o[q][2], std::fmaf(o[r][1], o[q][1], std::fmaf(o[r][0], o[q][0], 0.0f)));
        EXPECT_EQ(m[i * 3 + 1].m[r][q], ot) << i << " " << r << " " << q;
        EXPECT_EQ(m[i * 3 + 2].m[r][q], r == q ? x[r] : 0.0f);
      }
  }
}

// Warp's generic constructors: the type from `length`/`shape`/`dtype` or the first value.
// Integer vectors and matrices take &, |, ^, <<, >> and ~ (and wp.bit_and, ..., wp.invert)
// component by component, as Warp's; vec tiles take &, | and ^; and `t[i] op= v` on one element
// of a vector tile applies every lane's v (Warp's per-lane atomics), for + and - as for the
// bitwise ops.
TEST(CompositeExec, IntegerVectorBitwiseOpsAndPerLaneElementUpdates) {
  compiler::CompileOptions copts;
  copts.block_dim = 4;  // the bitwise element updates apply the block's lanes one after another
  auto c = CompileText(R"(
mat22i = wp.types.matrix(shape=(2, 2), dtype=wp.int32)

@wp.kernel
def ops(a: wp.array[wp.vec3ui], b: wp.array[wp.vec3ui], out: wp.array2d[wp.vec3ui], m: wp.array[mat22i]):
    i = wp.tid()
    x = a[i]
    y = b[i]
    shift = wp.vec3ui(wp.uint32(i), wp.uint32(i + 1), wp.uint32(i + 2))
    mask = wp.vec3ui(wp.uint32(1)) << shift
    out[i, 0] = ((x & y) | mask) ^ ~y
    out[i, 1] = wp.bit_or(wp.bit_xor(x, y), wp.rshift(x, wp.vec3ui(wp.uint32(1))))
    out[i, 2] = wp.lshift(wp.invert(x), shift) & wp.bit_and(y, y)
    mm = mat22i(1, -2, 3, -4)
    m[i] = (~mm) ^ (mm << mat22i(i, 1, 2, 3))

@wp.kernel
def lanes(a: wp.array[wp.vec3ui], tiles: wp.array[wp.vec3ui], acc: wp.array[wp.vec3]):
    _b, lane = wp.tid()
    t = wp.tile_load(a, shape=4)
    u = wp.tile_load(a, shape=4, offset=4)
    wp.tile_store(tiles, (t & u) | (t ^ u), offset=0)
    s = wp.tile_zeros(shape=3, dtype=wp.vec3ui)
    s[0] = wp.vec3ui(wp.uint32(0xFFFFFFFF))
    s[0] &= ~(wp.vec3ui(wp.uint32(1)) << wp.vec3ui(wp.uint32(lane)))
    s[1] |= wp.vec3ui(wp.uint32(1)) << wp.vec3ui(wp.uint32(lane + 3))
    s[2] ^= a[lane % 8]
    wp.tile_store(tiles, s, offset=4)
    f = wp.tile_zeros(shape=2, dtype=wp.vec3)
    f[0] += wp.vec3(1.0, 2.0, float(lane))
    f[1] -= wp.vec3(float(lane), 0.5, 0.0)
    wp.tile_store(acc, f)
)",
                       copts);
  ASSERT_TRUE(c.module);
  using V = std::array<uint32_t, 3>;
  const int n = 8;
  std::vector<V> a(n), b(n), out(size_t(3 * n)), tiles(7);
  for (int i = 0; i < n; ++i) {
    a[size_t(i)] = {uint32_t(0x1234567u * (i + 1)), uint32_t(0xF0F0F0F0u >> i), uint32_t(i * 37 + 5)};
    b[size_t(i)] = {uint32_t(0x0FF0FF0Fu ^ (i * 11)), uint32_t(0xFFFFu << i), uint32_t(0x80000001u + i)};
  }
  std::vector<std::array<int32_t, 4>> m(n);
  tilec_array aa = View(a.data(), {n}, {1}), ba = View(b.data(), {n}, {1}), oa = View(out.data(), {n, 3}, {3, 1}),
              ma = View(m.data(), {n}, {1});
  Launch(c.Entry("ops"), {&aa, &ba, &oa, &ma}, {n});
  for (int i = 0; i < n; ++i) {
    const V& x = a[size_t(i)];
    const V& y = b[size_t(i)];
    for (int k = 0; k < 3; ++k) {
      const uint32_t mask = uint32_t(1) << (i + k);
      EXPECT_EQ(out[size_t(3 * i)][size_t(k)], ((x[k] & y[k]) | mask) ^ ~y[k]) << i << " " << k;
      EXPECT_EQ(out[size_t(3 * i + 1)][size_t(k)], (x[k] ^ y[k]) | (x[k] >> 1)) << i << " " << k;
      EXPECT_EQ(out[size_t(3 * i + 2)][size_t(k)], (~x[k] << (i + k)) & y[k]) << i << " " << k;
    }
    const int32_t mm[4] = {1, -2, 3, -4}, sh[4] = {i, 1, 2, 3};
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(m[size_t(i)][size_t(k)], (~mm[k]) ^ int32_t(uint32_t(mm[k]) << sh[k])) << i << " " << k;
  }
  // The bitwise updates take the lanes of the block_dim the kernel was compiled for; under
  // emulation with more lanes than that, the += and -= ones take every emulated lane.
  const int B = std::min(testing::Lanes(4), 4), all_lanes = testing::Lanes(4);
  std::vector<std::array<float, 3>> acc(2);
  tilec_array ta = View(tiles.data(), {7}, {1}), fa = View(acc.data(), {2}, {1});
  Launch(c.Entry("lanes"), {&aa, &ta, &fa}, {1}, 4);
  for (int e = 0; e < 4; ++e)
    for (int k = 0; k < 3; ++k) {
      const uint32_t t = a[size_t(e)][size_t(k)], u = a[size_t(e + 4)][size_t(k)];
      EXPECT_EQ(tiles[size_t(e)][size_t(k)], (t & u) | (t ^ u)) << e << " " << k;
    }
  uint32_t and_all = 0xFFFFFFFFu, or_all = 0;
  V xor_all = {0, 0, 0};
  float f0[3] = {0, 0, 0}, f1[3] = {0, 0, 0};
  for (int l = 0; l < B; ++l) {
    and_all &= ~(uint32_t(1) << l);
    or_all |= uint32_t(1) << (l + 3);
    for (int k = 0; k < 3; ++k) xor_all[size_t(k)] ^= a[size_t(l)][size_t(k)];
  }
  for (int l = 0; l < all_lanes; ++l) {
    f0[0] += 1.0f, f0[1] += 2.0f, f0[2] += float(l);
    f1[0] -= float(l), f1[1] -= 0.5f;
  }
  for (int k = 0; k < 3; ++k) {
    EXPECT_EQ(tiles[4][size_t(k)], and_all) << k;
    EXPECT_EQ(tiles[5][size_t(k)], or_all) << k;
    EXPECT_EQ(tiles[6][size_t(k)], xor_all[size_t(k)]) << k;
    EXPECT_EQ(acc[0][size_t(k)], f0[k]) << k;
    EXPECT_EQ(acc[1][size_t(k)], f1[k]) << k;
  }
}

// Vector slices with constant bounds and steps, as Python's list slices (the expected
// components are CPython's for the same slices of [10, 11, 12, 13, 14]).
TEST(CompositeExec, VectorSlicesFollowPython) {
  auto c = CompileText(R"(
vec5 = wp.types.vector(length=5, dtype=float)

@wp.kernel
def k(out: wp.array[float]):
    v = vec5(10.0, 11.0, 12.0, 13.0, 14.0)
    s0 = v[1:3]
    for j in range(len(s0)):
        out[0 + j] = s0[j]
    s1 = v[::-1]
    for j in range(len(s1)):
        out[5 + j] = s1[j]
    s2 = v[-2:]
    for j in range(len(s2)):
        out[10 + j] = s2[j]
    s3 = v[4:0:-2]
    for j in range(len(s3)):
        out[15 + j] = s3[j]
    s4 = v[::2]
    for j in range(len(s4)):
        out[20 + j] = s4[j]
    s5 = v[-1:-6:-2]
    for j in range(len(s5)):
        out[25 + j] = s5[j]
    s6 = v[1:99:3]
    for j in range(len(s6)):
        out[30 + j] = s6[j]
    s7 = v[0:]
    for j in range(len(s7)):
        out[35 + j] = s7[j]
    s8 = v[3::-1]
    for j in range(len(s8)):
        out[40 + j] = s8[j]
    s9 = v[-9:2]
    for j in range(len(s9)):
        out[45 + j] = s9[j]
)");
  ASSERT_TRUE(c.module);
  const std::vector<std::vector<float>> want = {
      {11, 12},
      {14, 13, 12, 11, 10},
      {13, 14},
      {14, 12},
      {10, 12, 14},
      {14, 12, 10},
      {11, 14},
      {10, 11, 12, 13, 14},
      {13, 12, 11, 10},
      {10, 11}};
  std::vector<float> out(5 * want.size(), -1.0f);
  tilec_array oa = View(out.data(), {int64_t(out.size())});
  Launch(c.Entry("k"), {&oa}, {1});
  for (size_t k = 0; k < want.size(); ++k)
    for (size_t j = 0; j < 5; ++j)
      EXPECT_EQ(out[5 * k + j], j < want[k].size() ? want[k][j] : -1.0f) << "slice " << k << " component " << j;
}

TEST(CompositeExec, GenericVectorMatrixQuaternionConstructors) {
  auto c = CompileText(R"(
@wp.kernel
def k(v: wp.array[wp.vec3], d: wp.array[wp.vec2d], i: wp.array[wp.vec3i], m: wp.array[wp.mat22], q: wp.array[wp.quat],
      x: int):
    v[0] = wp.vector(1.5, 2.0, -3.0)
    v[1] = wp.vector(length=3, dtype=float)
    v[2] = wp.vector(float(x), length=3)
    d[0] = wp.vector(wp.float64(0.25), wp.float64(8.0))
    d[1] = wp.vector(1.0, 2.0, dtype=wp.float64)
    i[0] = wp.vector(x, 2, 3)
    m[0] = wp.matrix(1.0, 2.0, 3.0, float(x), shape=(2, 2))
    m[1] = wp.matrix(0.5, shape=(2, 2))
    q[0] = wp.quaternion(1.0, 2.0, 3.0, 4.0)
    q[1] = wp.quaternion(wp.vec3(5.0, 6.0, 7.0), 8.0)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> v(9, -1.0f), m(8, -1.0f), q(8, -1.0f);
  std::vector<double> d(4, -1.0);
  std::vector<int32_t> iv(3, -1);
  int32_t x = 7;
  tilec_array va = View(v.data(), {3}, {3}), da = View(d.data(), {2}, {2}), ia = View(iv.data(), {1}, {3}),
              ma = View(m.data(), {2}, {4}), qa = View(q.data(), {2}, {4});
  Launch(c.Entry("k"), {&va, &da, &ia, &ma, &qa, &x}, {1});
  EXPECT_EQ(v, (std::vector<float>{1.5f, 2.0f, -3.0f, 0.0f, 0.0f, 0.0f, 7.0f, 7.0f, 7.0f}));
  EXPECT_EQ(d, (std::vector<double>{0.25, 8.0, 1.0, 2.0}));
  EXPECT_EQ(iv, (std::vector<int32_t>{7, 2, 3}));
  EXPECT_EQ(m, (std::vector<float>{1.0f, 2.0f, 3.0f, 7.0f, 0.5f, 0.5f, 0.5f, 0.5f}));
  EXPECT_EQ(q, (std::vector<float>{1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f}));
}

// print of vectors, matrices, quaternions and transforms in Warp's format (its builtin.h
// print overloads: components as float with %g; the text below is what Warp 1.19 printed).
TEST(CompositeExec, PrintInWarpsFormat) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array[wp.vec3d]):
    a = wp.vec3(1.5, -2.0, 3.25)
    print(a)
    print(wp.vec2i(3, -4))
    print(wp.mat22(1.0, 2.0, 3.5, 4.0))
    print(wp.quat(0.0, 0.5, 0.0, 1.0))
    print(wp.transform(a, wp.quat_identity()))
    print(wp.spatial_vector(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
    print(x[0])
    print(wp.vec3h(wp.float16(1.5), wp.float16(2.0), wp.float16(0.1)))
    print(wp.vec3(1.0e-5, 123456789.0, 0.1))
)");
  ASSERT_TRUE(c.module);
  std::vector<double> x = {0.0, 1.0 / 3.0, 2.0 / 3.0};
  tilec_array vx = View(x.data(), {1}, {3});
  ::testing::internal::CaptureStdout();
  Launch(c.Entry("k"), {&vx}, {1});
  std::fflush(stdout);
  EXPECT_EQ(::testing::internal::GetCapturedStdout(),
            "1.5 -2 3.25 \n3 -4 \n1 2 \n3.5 4 \n0 0.5 0 1\n(1.5 -2 3.25) (0 0 0 1)\n1 2 3 4 5 6 \n"
            "0 0.333333 0.666667 \n1.5 2 0.0999756 \n1e-05 1.23457e+08 0.1 \n");
}

TEST(CompositeExec, QuaternionProductAndRotation) {
  auto c = CompileText(R"(
@wp.kernel
def k(p: wp.array[wp.vec3], axis: wp.array[wp.vec3], out: wp.array2d[wp.vec3], qq: wp.array[wp.quat]):
    i = wp.tid()
    q = wp.quat_from_axis_angle(wp.normalize(axis[i]), float(i) * 0.37)
    r = wp.quat_rpy(0.3, float(i) * 0.1, -0.2)
    out[i, 0] = wp.quat_rotate(q, p[i])
    out[i, 1] = wp.quat_rotate_inv(q, wp.quat_rotate(q, p[i]))
    out[i, 2] = wp.quat_rotate(q * r, p[i]) - wp.quat_rotate(q, wp.quat_rotate(r, p[i]))
    qq[i] = q * r
)");
  ASSERT_TRUE(c.module);
  const int n = 16;
  std::vector<V3> p = RandomV3(n, 3), axis = RandomV3(n, 4);
  std::vector<V3> out(size_t(n) * 3);
  std::vector<Q4> qq(static_cast<size_t>(n));
  tilec_array pa = View(p.data(), {n}), xa = View(axis.data(), {n}), oa = View(out.data(), {n, 3}),
              qa = View(qq.data(), {n});
  Launch(c.Entry("k"), {&pa, &xa, &oa, &qa}, {n});
  for (int i = 0; i < n; ++i) {
    // Rodrigues: v cos t + (k x v) sin t + k (k . v)(1 - cos t), in double.
    double k[3] = {axis[i].x, axis[i].y, axis[i].z}, v[3] = {p[i].x, p[i].y, p[i].z};
    double kl = std::sqrt(k[0] * k[0] + k[1] * k[1] + k[2] * k[2]);
    for (double& e : k) e /= kl;
    double t = double(float(i) * 0.37f), ct = std::cos(t), st = std::sin(t);
    double kv = k[0] * v[0] + k[1] * v[1] + k[2] * v[2];
    double kx[3] = {k[1] * v[2] - k[2] * v[1], k[2] * v[0] - k[0] * v[2], k[0] * v[1] - k[1] * v[0]};
    double want[3];
    for (int d = 0; d < 3; ++d) want[d] = v[d] * ct + kx[d] * st + k[d] * kv * (1 - ct);
    const float* got = &out[i * 3].x;
    const float* back = &out[i * 3 + 1].x;
    const float* diff = &out[i * 3 + 2].x;
    for (int d = 0; d < 3; ++d) {
      EXPECT_NEAR(got[d], want[d], 2e-5 * (1 + std::abs(want[d]))) << i << " " << d;
      EXPECT_NEAR(back[d], v[d], 2e-5 * (1 + std::abs(v[d])));
      EXPECT_NEAR(diff[d], 0.0, 4e-5 * (1 + std::abs(v[d])));
    }
    double qn = double(qq[i].x) * qq[i].x + double(qq[i].y) * qq[i].y + double(qq[i].z) * qq[i].z +
                double(qq[i].w) * qq[i].w;
    EXPECT_NEAR(qn, 1.0, 1e-5);
  }
}

using Mat = std::array<std::array<double, 3>, 3>;
Mat Mul(const Mat& a, const Mat& b) {
  Mat r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 3; ++k) r[i][j] += a[i][k] * b[k][j];
  return r;
}
Mat T(const Mat& a) {
  Mat r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = a[j][i];
  return r;
}
Mat Of(const M3& m) {
  Mat r{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r[i][j] = m.m[i][j];
  return r;
}
void ExpectMatNear(const Mat& a, const Mat& b, double tol, const std::string& what) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) EXPECT_NEAR(a[i][j], b[i][j], tol) << what << " [" << i << "," << j << "]";
}

TEST(CompositeExec, DecompositionsReconstructTheirMatrix) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[wp.mat33], out: wp.array2d[wp.mat33], vals: wp.array2d[wp.vec3], det: wp.array[float]):
    i = wp.tid()
    m = a[i]
    U, s, V = wp.svd3(m)
    out[i, 0] = U
    out[i, 1] = V
    vals[i, 0] = s
    Q, d = wp.eig3(m + wp.transpose(m))
    out[i, 2] = Q
    vals[i, 1] = d
    Qr, R = wp.qr3(m)
    out[i, 3] = Qr
    out[i, 4] = R
    out[i, 5] = wp.inverse(m)
    det[i] = wp.determinant(m)
)");
  ASSERT_TRUE(c.module);
  const int n = 12;
  std::vector<M3> a(static_cast<size_t>(n));
  std::vector<V3> r = RandomV3(3 * n, 5);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 3; ++j) {
      a[i].m[j][0] = r[i * 3 + j].x + (j == 0 ? 3.0f : 0.0f);
      a[i].m[j][1] = r[i * 3 + j].y + (j == 1 ? 2.0f : 0.0f);
      a[i].m[j][2] = r[i * 3 + j].z - (j == 2 ? 2.5f : 0.0f);
    }
  std::vector<M3> out(size_t(n) * 6);
  std::vector<V3> vals(size_t(n) * 2);
  std::vector<float> det(static_cast<size_t>(n));
  tilec_array aa = View(a.data(), {n}), oa = View(out.data(), {n, 6}), va = View(vals.data(), {n, 2}),
              da = View(det.data(), {n});
  Launch(c.Entry("k"), {&aa, &oa, &va, &da}, {n});
  Mat I{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
  for (int i = 0; i < n; ++i) {
    Mat A = Of(a[i]), U = Of(out[i * 6]), V = Of(out[i * 6 + 1]), Q = Of(out[i * 6 + 2]);
    Mat S{}, D{};
    for (int d = 0; d < 3; ++d) {
      S[d][d] = (&vals[i * 2].x)[d];
      D[d][d] = (&vals[i * 2 + 1].x)[d];
    }
    ExpectMatNear(Mul(Mul(U, S), T(V)), A, 1e-4, "U S V^T");
    ExpectMatNear(Mul(U, T(U)), I, 1e-5, "U U^T");
    Mat Sym{};
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) Sym[x][y] = A[x][y] + A[y][x];
    ExpectMatNear(Mul(Mul(Q, D), T(Q)), Sym, 2e-4, "Q D Q^T");
    Mat Qr = Of(out[i * 6 + 3]), R = Of(out[i * 6 + 4]);
    ExpectMatNear(Mul(Qr, R), A, 1e-4, "Q R");
    EXPECT_NEAR(R[1][0], 0.0, 1e-6);
    EXPECT_NEAR(R[2][0], 0.0, 1e-6);
    EXPECT_NEAR(R[2][1], 0.0, 1e-6);
    ExpectMatNear(Mul(A, Of(out[i * 6 + 5])), I, 1e-4, "A A^-1");
    double dref = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                  A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    EXPECT_NEAR(det[i], dref, 1e-4 * (1 + std::abs(dref)));
  }
}

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

// What Warp 1.19's rand.h defines the stream as: a PCG hash of the state per draw.
uint32_t Pcg(uint32_t state) {
  uint32_t b = state * 747796405u + 2891336453u;
  uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
  return (c >> 22u) ^ c;
}

TEST(CompositeExec, RandomStreamsAdvanceTheirState) {
  auto c = CompileText(R"(
@wp.kernel
def k(seed: int, ints: wp.array2d[int], floats: wp.array2d[float]):
    i = wp.tid()
    state = wp.rand_init(seed, i)
    for j in range(4):
        ints[i, j] = wp.randi(state)
        floats[i, j] = wp.randf(state, -1.0, 3.0)
)");
  ASSERT_TRUE(c.module);
  const int n = 9;
  int32_t seed = 1234;
  std::vector<int32_t> ints(size_t(n) * 4);
  std::vector<float> floats(size_t(n) * 4);
  tilec_array ia = View(ints.data(), {n, 4}), fa = View(floats.data(), {n, 4});
  Launch(c.Entry("k"), {&seed, &ia, &fa}, {n});
  for (int i = 0; i < n; ++i) {
    uint32_t state = Pcg(uint32_t(seed) + Pcg(uint32_t(i)));
    for (int j = 0; j < 4; ++j) {
      state = Pcg(state);
      EXPECT_EQ(ints[size_t(i * 4 + j)], int32_t(state)) << i << " " << j;
      state = Pcg(state);
      float u = float(state >> 8) * (1.0f / 16777216.0f);
      EXPECT_EQ(floats[size_t(i * 4 + j)], 4.0f * u + -1.0f) << i << " " << j;
    }
  }
}

TEST(CompositeExec, ComponentExtremaScalarDivideIdentityAndQuatNormalize) {
  auto c = CompileText(R"(
@wp.kernel
def k(a: wp.array[wp.vec3], s: wp.array2d[float], v: wp.array[wp.vec3], q: wp.array[wp.quat], m: wp.array[wp.mat33]):
    i = wp.tid()
    x = a[i]
    s[i, 0] = wp.min(x)
    s[i, 1] = wp.max(x)
    v[i] = 2.0 / x
    q[i] = wp.normalize(wp.quat(x[0], x[1], x[2], 0.5) * float(i % 2))
    m[i] = wp.identity(n=3, dtype=float) * x[0]
)");
  ASSERT_TRUE(c.module);
  const int n = 6;
  std::vector<V3> a = RandomV3(n, 9);
  std::vector<float> s(size_t(n) * 2);
  std::vector<V3> v(static_cast<size_t>(n));
  std::vector<Q4> q(static_cast<size_t>(n));
  std::vector<M3> m(static_cast<size_t>(n));
  tilec_array aa = View(a.data(), {n}), sa = View(s.data(), {n, 2}), va = View(v.data(), {n}), qa = View(q.data(), {n}),
              ma = View(m.data(), {n});
  Launch(c.Entry("k"), {&aa, &sa, &va, &qa, &ma}, {n});
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(s[size_t(i * 2)], std::min({a[i].x, a[i].y, a[i].z}));
    EXPECT_EQ(s[size_t(i * 2 + 1)], std::max({a[i].x, a[i].y, a[i].z}));
    EXPECT_EQ(v[i].y, 2.0f / a[i].y);
    if (i % 2 == 0) {
      // Warp: a zero quaternion normalizes to the identity.
      EXPECT_EQ(q[i].x, 0.0f);
      EXPECT_EQ(q[i].w, 1.0f);
    } else {
      float l = std::sqrt(a[i].x * a[i].x + a[i].y * a[i].y + a[i].z * a[i].z + 0.25f);
      EXPECT_EQ(q[i].x, a[i].x * (1.0f / l));
      EXPECT_EQ(q[i].w, 0.5f * (1.0f / l));
    }
    for (int r = 0; r < 3; ++r)
      for (int col = 0; col < 3; ++col) EXPECT_EQ(m[i].m[r][col], r == col ? a[i].x : 0.0f);
  }
}

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

TEST(CompositeExec, AtomicAddOfVectorsIsPerComponent) {
  auto c = CompileText(R"(
@wp.kernel
def k(acc: wp.array[wp.vec3], m: wp.array[wp.mat22], v: wp.array[wp.vec3], old: wp.array[wp.vec3]):
    i = wp.tid()
    old[i] = wp.atomic_add(acc, i % 2, v[i])
    wp.atomic_add(m, 0, wp.mat22(v[i].x, 0.0, 0.0, 1.0))
)");
  ASSERT_TRUE(c.module);
  const int n = 64;
  std::vector<V3> v(static_cast<size_t>(n)), old(static_cast<size_t>(n)), acc(2, V3{0, 0, 0});
  for (int i = 0; i < n; ++i) v[size_t(i)] = {float(i), 1.0f, -0.5f * float(i % 3)};
  std::vector<float> m(4, 0.0f);
  struct M2 { float e[4]; };
  tilec_array aa = View(acc.data(), {2}), ma = View(reinterpret_cast<M2*>(m.data()), {1}), va = View(v.data(), {n}),
              oa = View(old.data(), {n});
  Launch(c.Entry("k"), {&aa, &ma, &va, &oa}, {n});
  // Integral values: every order of the adds gives the same sums.
  for (int slot = 0; slot < 2; ++slot) {
    float x = 0, y = 0, z = 0;
    std::vector<float> olds;
    for (int i = slot; i < n; i += 2) {
      x += v[size_t(i)].x;
      y += v[size_t(i)].y;
      z += v[size_t(i)].z;
      olds.push_back(old[size_t(i)].y);
    }
    EXPECT_EQ(acc[size_t(slot)].x, x);
    EXPECT_EQ(acc[size_t(slot)].y, y);
    EXPECT_EQ(acc[size_t(slot)].z, z);
    // The previous .y values are 0, 1, ..., count-1 in some order: each add saw the others'.
    std::sort(olds.begin(), olds.end());
    for (size_t k = 0; k < olds.size(); ++k) EXPECT_EQ(olds[k], float(k));
  }
  EXPECT_EQ(m[0], float(n * (n - 1) / 2));
  EXPECT_EQ(m[1], 0.0f);
  EXPECT_EQ(m[3], float(n));
}

}  // namespace
}  // namespace tilec
