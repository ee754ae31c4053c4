// Transforms, spatial algebra, svd2, closest_point_edge_edge and intersect_tri_tri compiled from
// source and run in float32 and float64, each against a double-precision reference derived here
// from the mathematical definition (Rodrigues rotations, Featherstone's cross products, Blinn's
// closed-form 2x2 singular values, a box-constrained least-squares solve, separating axes).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
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

template <class R, int N>
struct Pk {
  R v[N];
};

// Per precision: the Warp type-name suffix and the accepted error, relative to 1 + the size of
// the quantities involved. float32 results go through several roundings of values up to ~10.
template <class R>
struct Prec;
template <>
struct Prec<float> {
  static constexpr const char* kSuffix = "";
  static constexpr const char* kScalar = "wp.float32";
  static constexpr double kTol = 1e-5;
};
template <>
struct Prec<double> {
  static constexpr const char* kSuffix = "d";
  static constexpr const char* kScalar = "wp.float64";
  static constexpr double kTol = 1e-12;
};

// `{vec3}` -> wp.vec3 / wp.vec3d and `{S}` -> the scalar, so one kernel text serves both dtypes.
template <class R>
std::string Typed(std::string text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    size_t close = text[i] == '{' ? text.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += text[i];
      continue;
    }
    std::string name = text.substr(i + 1, close - i - 1);
    out += name == "S" ? std::string(Prec<R>::kScalar) : "wp." + name + Prec<R>::kSuffix;
    i = close;
  }
  return out;
}

class Lcg {
 public:
  explicit Lcg(unsigned seed) : s_(seed) {}
  double Uniform(double lo, double hi) {
    s_ = s_ * 1664525u + 1013904223u;
    return lo + (hi - lo) * double(s_ >> 8) / 16777216.0;
  }

 private:
  unsigned s_;
};

using D3 = std::array<double, 3>;
D3 Add(D3 a, D3 b) { return {a[0] + b[0], a[1] + b[1], a[2] + b[2]}; }
D3 Sub(D3 a, D3 b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
D3 Scale(D3 a, double s) { return {a[0] * s, a[1] * s, a[2] * s}; }
double Dot(D3 a, D3 b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double Norm(D3 a) { return std::sqrt(Dot(a, a)); }
D3 Cross(D3 a, D3 b) { return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}; }

// Rotation by `angle` about the unit `axis` (Rodrigues), right-handed.
D3 Rotate(D3 axis, double angle, D3 v) {
  double c = std::cos(angle), s = std::sin(angle);
  return Add(Add(Scale(v, c), Scale(Cross(axis, v), s)), Scale(axis, Dot(axis, v) * (1 - c)));
}

template <class R, int N>
D3 D3Of(const Pk<R, N>& p, int at = 0) {
  return {double(p.v[at]), double(p.v[at + 1]), double(p.v[at + 2])};
}

template <class R>
void ExpectNear3(const R* got, D3 want, double scale, const std::string& what) {
  for (int d = 0; d < 3; ++d)
    EXPECT_NEAR(double(got[d]), want[d], Prec<R>::kTol * (1 + scale)) << what << " [" << d << "]";
}

// ---------------------------------------------------------------------------------------------
// transforms

template <class R>
void CheckTransforms() {
  auto c = CompileText(Typed<R>(R"(
@wp.kernel
def k(xa: wp.array[{transform}], xb: wp.array[{transform}], pts: wp.array[{vec3}], m: wp.array[{mat44}],
      v: wp.array2d[{vec3}], x: wp.array2d[{transform}], q: wp.array[{quat}]):
    i = wp.tid()
    a = xa[i]
    b = xb[i]
    p = pts[i]
    v[i, 0] = wp.transform_point(a, p)
    v[i, 1] = wp.transform_vector(a, p)
    ab = wp.transform_multiply(a, b)
    x[i, 0] = ab
    x[i, 1] = a * b
    v[i, 2] = wp.transform_point(ab, p)
    inv = wp.transform_inverse(a)
    x[i, 2] = inv
    v[i, 3] = wp.transform_point(inv, p)
    v[i, 4] = wp.transform_get_translation(a)
    q[i] = wp.transform_get_rotation(a)
    c = a
    wp.transform_set_translation(c, p)
    x[i, 3] = c
    d = a
    wp.transform_set_rotation(d, wp.transform_get_rotation(b))
    x[i, 4] = d
    x[i, 5] = wp.transform_identity(dtype={S})
    x[i, 6] = wp.transformation(p, wp.transform_get_rotation(b))
    v[i, 5] = wp.transform_point(m[i], p)
    v[i, 6] = wp.transform_vector(m[i], p)
)"));
  ASSERT_TRUE(c.module);
  const int n = 64;
  using T7 = Pk<R, 7>;
  std::vector<T7> xa(n), xb(n);
  std::vector<Pk<R, 3>> pts(n);
  std::vector<Pk<R, 16>> m(n);
  std::vector<D3> axis_a(n), axis_b(n);
  std::vector<double> angle_a(n), angle_b(n);
  Lcg rng(11);
  auto random_axis = [&] {
    for (;;) {
      D3 k = {rng.Uniform(-1, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1)};
      if (Norm(k) > 0.2) return Scale(k, 1 / Norm(k));
    }
  };
  // (p, q) with q the unit quaternion of (axis, angle): (axis sin(angle/2), cos(angle/2)).
  auto make = [&](T7& t, D3& axis, double& angle) {
    for (int d = 0; d < 3; ++d) t.v[d] = R(rng.Uniform(-2.5, 2.5));
    axis = random_axis();
    angle = rng.Uniform(-3.1, 3.1);
    for (int d = 0; d < 3; ++d) t.v[3 + d] = R(axis[d] * std::sin(angle / 2));
    t.v[6] = R(std::cos(angle / 2));
  };
  for (int i = 0; i < n; ++i) {
    make(xa[i], axis_a[i], angle_a[i]);
    make(xb[i], axis_b[i], angle_b[i]);
    for (R& e : pts[i].v) e = R(rng.Uniform(-2.5, 2.5));
    for (R& e : m[i].v) e = R(rng.Uniform(-2, 2));
  }
  std::vector<Pk<R, 3>> v(size_t(n) * 7);
  std::vector<T7> x(size_t(n) * 7);
  std::vector<Pk<R, 4>> q(n);
  tilec_array a_a = View(xa.data(), {n}), b_a = View(xb.data(), {n}), p_a = View(pts.data(), {n}),
              m_a = View(m.data(), {n}), v_a = View(v.data(), {n, 7}), x_a = View(x.data(), {n, 7}),
              q_a = View(q.data(), {n});
  Launch(c.Entry("k"), {&a_a, &b_a, &p_a, &m_a, &v_a, &x_a, &q_a}, {n});

  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    const T7 &A = xa[i], &B = xb[i];
    D3 pa = D3Of(A), pb = D3Of(B), p = D3Of(pts[i]);
    auto rot_a = [&](D3 w) { return Rotate(axis_a[i], angle_a[i], w); };
    auto rot_b = [&](D3 w) { return Rotate(axis_b[i], angle_b[i], w); };
    auto inv_a = [&](D3 w) { return Rotate(axis_a[i], -angle_a[i], w); };
    const double scale = 10;

    // Rotation first, then translation.
    ExpectNear3(v[i * 7 + 0].v, Add(rot_a(p), pa), scale, "transform_point");
    ExpectNear3(v[i * 7 + 1].v, rot_a(p), scale, "transform_vector");

    // a * b applies b first: translation a.p + R_a b.p, rotation the Hamilton product a.q b.q.
    double ax = A.v[3], ay = A.v[4], az = A.v[5], aw = A.v[6];
    double bx = B.v[3], by = B.v[4], bz = B.v[5], bw = B.v[6];
    double qab[4] = {aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
                     aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz};
    for (int k = 0; k < 2; ++k) {
      const T7& ab = x[i * 7 + k];
      std::string what = k == 0 ? "transform_multiply" : "a * b";
      ExpectNear3(ab.v, Add(rot_a(pb), pa), scale, what + " p");
      for (int d = 0; d < 4; ++d) EXPECT_NEAR(double(ab.v[3 + d]), qab[d], Prec<R>::kTol * 2) << what << " q" << d;
    }
    ExpectNear3(v[i * 7 + 2].v, Add(rot_a(Add(rot_b(p), pb)), pa), scale, "transform_point(a * b)");

    // The inverse: conjugate rotation, translation -R_a^T a.p; it undoes transform_point.
    const T7& inv = x[i * 7 + 2];
    ExpectNear3(inv.v, Scale(inv_a(pa), -1), scale, "transform_inverse p");
    EXPECT_EQ(inv.v[3], -A.v[3]);
    EXPECT_EQ(inv.v[4], -A.v[4]);
    EXPECT_EQ(inv.v[5], -A.v[5]);
    EXPECT_EQ(inv.v[6], A.v[6]);
    ExpectNear3(v[i * 7 + 3].v, inv_a(Sub(p, pa)), scale, "transform_point(inverse)");

    // Component access and in-place updates move values unchanged.
    for (int d = 0; d < 3; ++d) EXPECT_EQ(v[i * 7 + 4].v[d], A.v[d]) << "get_translation";
    for (int d = 0; d < 4; ++d) EXPECT_EQ(q[i].v[d], A.v[3 + d]) << "get_rotation";
    for (int d = 0; d < 7; ++d) {
      EXPECT_EQ(x[i * 7 + 3].v[d], d < 3 ? pts[i].v[d] : A.v[d]) << "set_translation " << d;
      EXPECT_EQ(x[i * 7 + 4].v[d], d < 3 ? A.v[d] : B.v[d]) << "set_rotation " << d;
      EXPECT_EQ(x[i * 7 + 5].v[d], d == 6 ? R(1) : R(0)) << "transform_identity " << d;
      EXPECT_EQ(x[i * 7 + 6].v[d], d < 3 ? pts[i].v[d] : B.v[d]) << "transformation " << d;
    }

    // 4x4 matrices act on column vectors (x, y, z, 1) and (x, y, z, 0).
    D3 mp, mv;
    for (int r = 0; r < 3; ++r) {
      mv[r] = m[i].v[r * 4 + 0] * p[0] + m[i].v[r * 4 + 1] * p[1] + m[i].v[r * 4 + 2] * p[2];
      mp[r] = mv[r] + m[i].v[r * 4 + 3];
    }
    ExpectNear3(v[i * 7 + 5].v, mp, scale, "transform_point(mat44)");
    ExpectNear3(v[i * 7 + 6].v, mv, scale, "transform_vector(mat44)");
  }
}

TEST(CompositeGeometry, TransformsFloat32) { CheckTransforms<float>(); }
TEST(CompositeGeometry, TransformsFloat64) { CheckTransforms<double>(); }

// ---------------------------------------------------------------------------------------------
// spatial vectors (w, v): angular part on top, linear part at the bottom

using D6 = std::array<double, 6>;
using M6 = std::array<std::array<double, 6>, 6>;

// Featherstone's motion cross product matrix crm(a) = [[w~, 0], [v~, w~]] for a = (w, v),
// with x~ the matrix of x cross.
M6 Crm(const D6& a) {
  M6 m{};
  auto put = [&](int r0, int c0, double x, double y, double z) {
    m[r0 + 0][c0 + 1] = -z, m[r0 + 0][c0 + 2] = y;
    m[r0 + 1][c0 + 0] = z, m[r0 + 1][c0 + 2] = -x;
    m[r0 + 2][c0 + 0] = -y, m[r0 + 2][c0 + 1] = x;
  };
  put(0, 0, a[0], a[1], a[2]);
  put(3, 3, a[0], a[1], a[2]);
  put(3, 0, a[3], a[4], a[5]);
  return m;
}

D6 MulM6(const M6& m, const D6& b, bool transpose = false) {
  D6 r{};
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j) r[i] += (transpose ? m[j][i] : m[i][j]) * b[j];
  return r;
}

template <class R>
void CheckSpatial() {
  auto c = CompileText(Typed<R>(R"(
@wp.kernel
def k(a: wp.array[{spatial_vector}], b: wp.array[{spatial_vector}], r: wp.array[{mat33}], s: wp.array[{mat33}],
      rot: wp.array[{mat33}], p: wp.array[{vec3}],
      sv: wp.array2d[{spatial_vector}], dots: wp.array[{S}], tb: wp.array2d[{vec3}], adj: wp.array[{spatial_matrix}]):
    i = wp.tid()
    sv[i, 0] = wp.spatial_cross(a[i], b[i])
    sv[i, 1] = wp.spatial_cross_dual(a[i], b[i])
    dots[i] = wp.spatial_dot(a[i], b[i])
    tb[i, 0] = wp.spatial_top(a[i])
    tb[i, 1] = wp.spatial_bottom(a[i])
    sv[i, 2] = {spatial_vector}(wp.spatial_bottom(b[i]), wp.spatial_top(a[i]))
    adj[i] = wp.spatial_adjoint(r[i], s[i])
    sv[i, 3] = wp.spatial_adjoint(rot[i], wp.skew(p[i]) * rot[i]) * a[i]
)"));
  ASSERT_TRUE(c.module);
  const int n = 64;
  using S6 = Pk<R, 6>;
  using S9 = Pk<R, 9>;
  std::vector<S6> a(n), b(n);
  std::vector<S9> r(n), s(n), rot(n);
  std::vector<Pk<R, 3>> p(n);
  Lcg rng(23);
  for (int i = 0; i < n; ++i) {
    for (R& e : a[i].v) e = R(rng.Uniform(-2.5, 2.5));
    for (R& e : b[i].v) e = R(rng.Uniform(-2.5, 2.5));
    for (R& e : r[i].v) e = R(rng.Uniform(-2, 2));
    for (R& e : s[i].v) e = R(rng.Uniform(-2, 2));
    for (R& e : p[i].v) e = R(rng.Uniform(-2, 2));
    D3 axis = {rng.Uniform(0.2, 1), rng.Uniform(-1, 1), rng.Uniform(-1, 1)};
    axis = Scale(axis, 1 / Norm(axis));
    double angle = rng.Uniform(-3, 3);
    for (int col = 0; col < 3; ++col) {
      D3 e{};
      e[col] = 1;
      D3 rc = Rotate(axis, angle, e);
      for (int row = 0; row < 3; ++row) rot[i].v[row * 3 + col] = R(rc[row]);
    }
  }
  std::vector<S6> sv(size_t(n) * 4);
  std::vector<R> dots(n);
  std::vector<Pk<R, 3>> tb(size_t(n) * 2);
  std::vector<Pk<R, 36>> adj(n);
  tilec_array a_a = View(a.data(), {n}), b_a = View(b.data(), {n}), r_a = View(r.data(), {n}),
              s_a = View(s.data(), {n}), rot_a = View(rot.data(), {n}), p_a = View(p.data(), {n}),
              sv_a = View(sv.data(), {n, 4}), d_a = View(dots.data(), {n}), tb_a = View(tb.data(), {n, 2}),
              adj_a = View(adj.data(), {n});
  Launch(c.Entry("k"), {&a_a, &b_a, &r_a, &s_a, &rot_a, &p_a, &sv_a, &d_a, &tb_a, &adj_a}, {n});

  const double tol = Prec<R>::kTol * 20;  // |values| up to 2.5, products of two summed
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    D6 av, bv;
    for (int d = 0; d < 6; ++d) av[d] = a[i].v[d], bv[d] = b[i].v[d];
    M6 crm = Crm(av);
    // Motion vectors: crm(a) b. Force vectors (b a wrench): crf(a) b = -crm(a)^T b.
    D6 cross = MulM6(crm, bv), dual = MulM6(crm, bv, true);
    double dot = 0;
    for (int d = 0; d < 6; ++d) {
      EXPECT_NEAR(double(sv[i * 4 + 0].v[d]), cross[d], tol) << "spatial_cross " << d;
      EXPECT_NEAR(double(sv[i * 4 + 1].v[d]), -dual[d], tol) << "spatial_cross_dual " << d;
      dot += av[d] * bv[d];
    }
    EXPECT_NEAR(double(dots[i]), dot, tol) << "spatial_dot";
    for (int d = 0; d < 3; ++d) {
      EXPECT_EQ(tb[i * 2 + 0].v[d], a[i].v[d]) << "spatial_top";
      EXPECT_EQ(tb[i * 2 + 1].v[d], a[i].v[3 + d]) << "spatial_bottom";
      EXPECT_EQ(sv[i * 4 + 2].v[d], b[i].v[3 + d]) << "spatial_vector(w, v) w";
      EXPECT_EQ(sv[i * 4 + 2].v[3 + d], a[i].v[d]) << "spatial_vector(w, v) v";
    }
    // [[r, 0], [s, r]], row-major.
    for (int row = 0; row < 6; ++row)
      for (int col = 0; col < 6; ++col) {
        R want = row < 3 && col >= 3 ? R(0)
                 : row >= 3 && col < 3 ? s[i].v[(row - 3) * 3 + col]
                                       : r[i].v[(row % 3) * 3 + col % 3];
        EXPECT_EQ(adj[i].v[row * 6 + col], want) << "spatial_adjoint [" << row << "," << col << "]";
      }
    // With r = R, s = skew(p) R: the twist (w, v) maps to (R w, p x R w + R v).
    D3 w = D3Of(a[i]), lin = D3Of(a[i], 3), pp = D3Of(p[i]);
    auto mul_rot = [&](D3 x) {
      D3 y;
      for (int row = 0; row < 3; ++row)
        y[row] = rot[i].v[row * 3] * x[0] + rot[i].v[row * 3 + 1] * x[1] + rot[i].v[row * 3 + 2] * x[2];
      return y;
    };
    D3 rw = mul_rot(w), top = rw, bottom = Add(Cross(pp, rw), mul_rot(lin));
    ExpectNear3(sv[i * 4 + 3].v, top, 10, "adjoint twist, top");
    ExpectNear3(sv[i * 4 + 3].v + 3, bottom, 10, "adjoint twist, bottom");
  }
}

TEST(CompositeGeometry, SpatialAlgebraFloat32) { CheckSpatial<float>(); }
TEST(CompositeGeometry, SpatialAlgebraFloat64) { CheckSpatial<double>(); }

// ---------------------------------------------------------------------------------------------
// svd2

// Singular values of [[a, b], [c, d]] without an eigen-solve: with E = (a + d) / 2,
// F = (a - d) / 2, G = (c + b) / 2, H = (c - b) / 2, they are sqrt(E^2 + H^2) +- sqrt(F^2 + G^2).
std::array<double, 2> SingularValues2(double a, double b, double c, double d) {
  double q = std::hypot((a + d) / 2, (c - b) / 2), r = std::hypot((a - d) / 2, (c + b) / 2);
  return {q + r, std::abs(q - r)};
}

template <class R>
void CheckSvd2() {
  auto c = CompileText(Typed<R>(R"(
@wp.kernel
def k(a: wp.array[{mat22}], u: wp.array[{mat22}], s: wp.array[{vec2}], v: wp.array[{mat22}]):
    i = wp.tid()
    U, sigma, V = wp.svd2(a[i])
    u[i] = U
    s[i] = sigma
    v[i] = V
)"));
  ASSERT_TRUE(c.module);
  using M2 = Pk<R, 4>;
  std::vector<M2> a;
  // Exact special cases: a multiple of the identity (repeated singular value) and rank one.
  a.push_back({{R(3), R(0), R(0), R(3)}});
  a.push_back({{R(1), R(2), R(2), R(4)}});
  a.push_back({{R(0), R(0), R(0), R(0)}});
  Lcg rng(37);
  // The rest random, both determinant signs, singular values apart and away from zero so that
  // the singular vectors are well conditioned.
  while (a.size() < 64) {
    M2 m;
    for (R& e : m.v) e = R(rng.Uniform(-2.5, 2.5));
    auto sv = SingularValues2(m.v[0], m.v[1], m.v[2], m.v[3]);
    if (sv[1] < 0.1 * sv[0] || sv[1] > 0.8 * sv[0]) continue;
    a.push_back(m);
  }
  const int n = int(a.size());
  std::vector<M2> u(n), v(n);
  std::vector<Pk<R, 2>> s(n);
  tilec_array a_a = View(a.data(), {n}), u_a = View(u.data(), {n}), s_a = View(s.data(), {n}),
              v_a = View(v.data(), {n});
  Launch(c.Entry("k"), {&a_a, &u_a, &s_a, &v_a}, {n});
  int negative_det = 0;
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    const R* A = a[i].v;
    auto want = SingularValues2(A[0], A[1], A[2], A[3]);
    double s0 = s[i].v[0], s1 = s[i].v[1];
    double tol = Prec<R>::kTol * (1 + want[0]);
    EXPECT_NEAR(s0, want[0], tol) << "sigma[0]";
    EXPECT_NEAR(s1, want[1], tol) << "sigma[1]";
    EXPECT_GE(s0, s1);
    EXPECT_GE(s1, 0.0);
    double U[2][2] = {{u[i].v[0], u[i].v[1]}, {u[i].v[2], u[i].v[3]}};
    double V[2][2] = {{v[i].v[0], v[i].v[1]}, {v[i].v[2], v[i].v[3]}};
    for (int r = 0; r < 2; ++r)
      for (int col = 0; col < 2; ++col) {
        double rebuilt = U[r][0] * s0 * V[col][0] + U[r][1] * s1 * V[col][1];
        EXPECT_NEAR(rebuilt, double(A[r * 2 + col]), tol) << "U diag(s) V^T [" << r << "," << col << "]";
        double utu = U[0][r] * U[0][col] + U[1][r] * U[1][col];
        double vtv = V[0][r] * V[0][col] + V[1][r] * V[1][col];
        EXPECT_NEAR(utu, r == col ? 1.0 : 0.0, Prec<R>::kTol) << "U^T U";
        EXPECT_NEAR(vtv, r == col ? 1.0 : 0.0, Prec<R>::kTol) << "V^T V";
      }
    // Warp's convention (svd.h): V is a rotation and U carries the sign of det(A).
    double det_a = double(A[0]) * A[3] - double(A[1]) * A[2];
    negative_det += det_a < 0;
    EXPECT_NEAR(V[0][0] * V[1][1] - V[0][1] * V[1][0], 1.0, Prec<R>::kTol) << "det V";
    EXPECT_NEAR(U[0][0] * U[1][1] - U[0][1] * U[1][0], det_a < 0 ? -1.0 : 1.0, Prec<R>::kTol) << "det U";
  }
  EXPECT_GE(negative_det, 16);
}

TEST(CompositeGeometry, Svd2Float32) { CheckSvd2<float>(); }
TEST(CompositeGeometry, Svd2Float64) { CheckSvd2<double>(); }

// ---------------------------------------------------------------------------------------------
// closest_point_edge_edge

struct EdgeEdge {
  double s, t, dist;
};

double EdgeDistance(D3 p1, D3 q1, D3 p2, D3 q2, double s, double t) {
  return Norm(Sub(Add(p1, Scale(Sub(q1, p1), s)), Add(p2, Scale(Sub(q2, p2), t))));
}

// The minimum of |p1 + s d1 - p2 - t d2| over [0, 1]^2 for edges of nonzero length: the
// objective is convex, so the minimiser is the unconstrained one when that lies in the square,
// else the best of the four sides, each a clamped one-dimensional projection.
EdgeEdge ClosestEdgeEdge(D3 p1, D3 q1, D3 p2, D3 q2) {
  D3 d1 = Sub(q1, p1), d2 = Sub(q2, p2), r = Sub(p1, p2);
  double a = Dot(d1, d1), b = Dot(d1, d2), e = Dot(d2, d2), c = Dot(d1, r), f = Dot(d2, r);
  auto clamp01 = [](double x) { return std::min(1.0, std::max(0.0, x)); };
  std::vector<std::array<double, 2>> cands = {{0, clamp01(f / e)},
                                              {1, clamp01((f + b) / e)},
                                              {clamp01(-c / a), 0},
                                              {clamp01((b - c) / a), 1}};
  // Stationary point: a s - b t = -c, b s - e t = -f.
  double det = b * b - a * e;
  if (std::abs(det) > 1e-12 * a * e) {
    double s = (c * e - b * f) / det, t = (a * f - b * c) / -det;
    if (s >= 0 && s <= 1 && t >= 0 && t <= 1) cands.push_back({s, t});
  }
  EdgeEdge best{0, 0, INFINITY};
  for (auto [s, t] : cands) {
    double dist = EdgeDistance(p1, q1, p2, q2, s, t);
    if (dist < best.dist) best = {s, t, dist};
  }
  return best;
}

template <class R>
void CheckClosestEdgeEdge() {
  auto c = CompileText(Typed<R>(R"(
@wp.kernel
def k(pts: wp.array2d[{vec3}], out: wp.array[{vec3}]):
    i = wp.tid()
    out[i] = wp.closest_point_edge_edge(pts[i, 0], pts[i, 1], pts[i, 2], pts[i, 3], {S}(1.0e-6))
)"));
  ASSERT_TRUE(c.module);
  using P3 = Pk<R, 3>;
  std::vector<std::array<P3, 4>> e;
  auto P = [](double x, double y, double z) { return P3{{R(x), R(y), R(z)}}; };
  // Fixed cases: the edges cross at mid-length one unit apart (the doc example), parallel
  // overlapping edges, collinear disjoint edges, and edges that are points (squared length
  // <= epsilon: weight 0).
  e.push_back({P(0, 0, 0), P(1, 0, 0), P(0.5, 1, 1), P(0.5, 1, -1)});
  e.push_back({P(0, 0, 0), P(1, 0, 0), P(0.5, 1, 0), P(2.5, 1, 0)});
  e.push_back({P(0, 0, 0), P(1, 0, 0), P(3, 0, 0), P(4, 0, 0)});
  e.push_back({P(0.5, 0.5, 0.5), P(0.5, 0.5, 0.5), P(-1, 0, 0), P(1, 0, 0)});
  e.push_back({P(-1, 2, 0), P(1, 2, 0), P(0.25, 0, 1), P(0.25, 0, 1)});
  e.push_back({P(1, 1, 1), P(1, 1, 1), P(0, 0, 1), P(0, 0, 1)});
  const int fixed = int(e.size());
  Lcg rng(41);
  while (e.size() < 64) {
    std::array<P3, 4> q;
    for (P3& x : q)
      for (R& v : x.v) v = R(rng.Uniform(-2.5, 2.5));
    D3 d1 = Sub(D3Of(q[1]), D3Of(q[0])), d2 = Sub(D3Of(q[3]), D3Of(q[2]));
    // Non-parallel edges of reasonable length: a unique, well-conditioned minimiser.
    if (Norm(d1) < 0.5 || Norm(d2) < 0.5 || Norm(Cross(d1, d2)) < 0.3 * Norm(d1) * Norm(d2)) continue;
    e.push_back(q);
  }
  const int n = int(e.size());
  std::vector<P3> out(n);
  tilec_array e_a = View(reinterpret_cast<P3*>(e.data()), {n, 4}), o_a = View(out.data(), {n});
  Launch(c.Entry("k"), {&e_a, &o_a}, {n});
  const double tol = Prec<R>::kTol * 10;
  int interior = 0;
  for (int i = 0; i < n; ++i) {
    SCOPED_TRACE("element " + std::to_string(i));
    D3 p1 = D3Of(e[i][0]), q1 = D3Of(e[i][1]), p2 = D3Of(e[i][2]), q2 = D3Of(e[i][3]);
    double s = out[i].v[0], t = out[i].v[1], d = out[i].v[2];
    EXPECT_GE(s, 0.0);
    EXPECT_LE(s, 1.0);
    EXPECT_GE(t, 0.0);
    EXPECT_LE(t, 1.0);
    // The returned distance is that of the returned points.
    EXPECT_NEAR(d, EdgeDistance(p1, q1, p2, q2, s, t), tol) << "d against (s, t)";
    bool point1 = Dot(Sub(q1, p1), Sub(q1, p1)) <= 1e-6, point2 = Dot(Sub(q2, p2), Sub(q2, p2)) <= 1e-6;
    if (point1 || point2) {
      if (point1) {
        EXPECT_EQ(s, 0.0);
      }
      if (point2) {
        EXPECT_EQ(t, 0.0);
      }
      // The other edge's weight is the clamped projection of the point onto it.
      double want_s = 0, want_t = 0;
      if (point1 && !point2)
        want_t = std::clamp(Dot(Sub(p1, p2), Sub(q2, p2)) / Dot(Sub(q2, p2), Sub(q2, p2)), 0.0, 1.0);
      if (point2 && !point1)
        want_s = std::clamp(Dot(Sub(p2, p1), Sub(q1, p1)) / Dot(Sub(q1, p1), Sub(q1, p1)), 0.0, 1.0);
      EXPECT_NEAR(s, want_s, tol);
      EXPECT_NEAR(t, want_t, tol);
      EXPECT_NEAR(d, EdgeDistance(p1, q1, p2, q2, want_s, want_t), tol);
      continue;
    }
    EdgeEdge want = ClosestEdgeEdge(p1, q1, p2, q2);
    EXPECT_NEAR(d, want.dist, tol * (1 + want.dist)) << "distance";
    // Parallel edges have many minimisers; otherwise the minimiser is unique.
    if (i >= fixed || i == 0) {
      EXPECT_NEAR(s, want.s, tol * 10) << "s";
      EXPECT_NEAR(t, want.t, tol * 10) << "t";
      interior += want.s > 0 && want.s < 1 && want.t > 0 && want.t < 1;
    }
  }
  // Both the unconstrained solution and the clamped sides are exercised.
  EXPECT_GE(interior, 8);
  EXPECT_LE(interior, n - 16);
}

TEST(CompositeGeometry, ClosestPointEdgeEdgeFloat32) { CheckClosestEdgeEdge<float>(); }
TEST(CompositeGeometry, ClosestPointEdgeEdgeFloat64) { CheckClosestEdgeEdge<double>(); }

// ---------------------------------------------------------------------------------------------
// intersect_tri_tri

// Separating-axis test for two triangles: the largest gap between their projections over the
// candidate axes (normalised). Positive: separated by at least that much. Negative: every axis
// overlaps by at least its magnitude, so (the candidate set being complete) they intersect by
// that margin. Non-coplanar triangles need both normals and the nine edge-edge cross products;
// coplanar ones the six in-plane edge normals (the others project both onto one point).
double SatGap(const std::array<D3, 3>& t, const std::array<D3, 3>& u, bool coplanar) {
  std::vector<D3> axes;
  D3 nt = Cross(Sub(t[1], t[0]), Sub(t[2], t[0])), nu = Cross(Sub(u[1], u[0]), Sub(u[2], u[0]));
  for (int i = 0; i < 3; ++i) {
    D3 et = Sub(t[(i + 1) % 3], t[i]), eu = Sub(u[(i + 1) % 3], u[i]);
    if (coplanar) {
      axes.push_back(Cross(nt, et));
      axes.push_back(Cross(nt, eu));
    } else {
      for (int j = 0; j < 3; ++j) axes.push_back(Cross(et, Sub(u[(j + 1) % 3], u[j])));
    }
  }
  if (!coplanar) {
    axes.push_back(nt);
    axes.push_back(nu);
  }
  double gap = -INFINITY;
  for (D3 ax : axes) {
    double len = Norm(ax);
    if (len < 1e-12) continue;
    ax = Scale(ax, 1 / len);
    double tmin = INFINITY, tmax = -INFINITY, umin = INFINITY, umax = -INFINITY;
    for (int k = 0; k < 3; ++k) {
      tmin = std::min(tmin, Dot(ax, t[k]));
      tmax = std::max(tmax, Dot(ax, t[k]));
      umin = std::min(umin, Dot(ax, u[k]));
      umax = std::max(umax, Dot(ax, u[k]));
    }
    gap = std::max(gap, std::max(umin - tmax, tmin - umax));
  }
  return gap;
}

template <class R>
void CheckIntersectTriTri() {
  auto c = CompileText(Typed<R>(R"(
@wp.kernel
def k(tri: wp.array2d[{vec3}], out: wp.array2d[int]):
    i = wp.tid()
    out[i, 0] = wp.intersect_tri_tri(tri[i, 0], tri[i, 1], tri[i, 2], tri[i, 3], tri[i, 4], tri[i, 5])
    out[i, 1] = wp.intersect_tri_tri(tri[i, 3], tri[i, 4], tri[i, 5], tri[i, 0], tri[i, 1], tri[i, 2])
)"));
  ASSERT_TRUE(c.module);
  using P3 = Pk<R, 3>;
  using Pair = std::array<P3, 6>;
  std::vector<Pair> cases;
  std::vector<int> want;
  const double margin = 0.05;
  auto tris = [](const Pair& p) {
    std::array<D3, 3> t, u;
    for (int k = 0; k < 3; ++k) t[k] = D3Of(p[k]), u[k] = D3Of(p[3 + k]);
    return std::make_pair(t, u);
  };
  Lcg rng(53);
  // General position: random triangles, the second shifted by a random offset, kept only when
  // clearly intersecting or clearly apart and when the planes are not nearly parallel.
  int hits = 0, misses = 0;
  for (int tries = 0; (hits < 32 || misses < 32) && tries < 100000; ++tries) {
    Pair p;
    D3 shift = {rng.Uniform(-1.2, 1.2), rng.Uniform(-1.2, 1.2), rng.Uniform(-1.2, 1.2)};
    for (int k = 0; k < 6; ++k)
      for (int d = 0; d < 3; ++d) p[k].v[d] = R(rng.Uniform(-1, 1) + (k >= 3 ? shift[d] : 0));
    auto [t, u] = tris(p);
    D3 nt = Cross(Sub(t[1], t[0]), Sub(t[2], t[0])), nu = Cross(Sub(u[1], u[0]), Sub(u[2], u[0]));
    if (Norm(nt) < 0.2 || Norm(nu) < 0.2 || Norm(Cross(nt, nu)) < 0.2 * Norm(nt) * Norm(nu)) continue;
    double gap = SatGap(t, u, false);
    if (std::abs(gap) < margin) continue;
    int hit = gap < 0;
    if ((hit ? hits : misses) >= 32) continue;
    (hit ? hits : misses)++;
    cases.push_back(p);
    want.push_back(hit);
  }
  ASSERT_EQ(hits, 32);
  ASSERT_EQ(misses, 32);
  // Coplanar: both triangles in one axis-aligned plane, plus one triangle strictly inside the
  // other (no edges cross, so only the containment test can find it).
  auto in_plane = [](int axis, double h, double x, double y) {
    P3 q;
    q.v[axis] = R(h);
    q.v[(axis + 1) % 3] = R(x);
    q.v[(axis + 2) % 3] = R(y);
    return q;
  };
  for (int flip = 0; flip < 2; ++flip) {
    Pair p;
    std::array<std::array<double, 2>, 3> big = {{{-1, -1}, {2, -1}, {-1, 2}}}, small = {{{0, 0}, {0.3, 0}, {0, 0.3}}};
    for (int k = 0; k < 3; ++k) {
      p[k] = in_plane(2, 0.75, (flip ? small : big)[k][0], (flip ? small : big)[k][1]);
      p[3 + k] = in_plane(2, 0.75, (flip ? big : small)[k][0], (flip ? big : small)[k][1]);
    }
    cases.push_back(p);
    want.push_back(1);
  }
  for (int made = 0, tries = 0; made < 24 && tries < 100000; ++tries) {
    int axis = made % 3;
    double h = rng.Uniform(-1, 1);
    Pair p;
    double sx = rng.Uniform(-1.5, 1.5), sy = rng.Uniform(-1.5, 1.5);
    for (int k = 0; k < 6; ++k)
      p[k] = in_plane(axis, h, rng.Uniform(-1, 1) + (k >= 3 ? sx : 0), rng.Uniform(-1, 1) + (k >= 3 ? sy : 0));
    auto [t, u] = tris(p);
    if (Norm(Cross(Sub(t[1], t[0]), Sub(t[2], t[0]))) < 0.2 || Norm(Cross(Sub(u[1], u[0]), Sub(u[2], u[0]))) < 0.2)
      continue;
    double gap = SatGap(t, u, true);
    if (std::abs(gap) < margin) continue;
    cases.push_back(p);
    want.push_back(gap < 0);
    ++made;
  }
  const int n = int(cases.size());
  std::vector<int32_t> out(size_t(n) * 2, -1);
  tilec_array t_a = View(reinterpret_cast<P3*>(cases.data()), {n, 6}), o_a = View(out.data(), {n, 2});
  Launch(c.Entry("k"), {&t_a, &o_a}, {n});
  int coplanar_hits = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(out[i * 2], want[i]) << "element " << i << (i >= 64 ? " (coplanar)" : "");
    EXPECT_EQ(out[i * 2 + 1], want[i]) << "element " << i << ", triangles swapped";
    if (i >= 64) coplanar_hits += want[i];
  }
  // The coplanar cases hold both answers too.
  EXPECT_GE(coplanar_hits, 6);
  EXPECT_LE(coplanar_hits, n - 64 - 6);
}

TEST(CompositeGeometry, IntersectTriTriFloat32) { CheckIntersectTriTri<float>(); }
TEST(CompositeGeometry, IntersectTriTriFloat64) { CheckIntersectTriTri<double>(); }

}  // namespace
}  // namespace tilec
