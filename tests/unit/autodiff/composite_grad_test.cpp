// Finite-difference checks (float64, central) of the vector-like types' operations: the
// component-wise builtins, matrix and quaternion products, component reads and writes with
// runtime indices, and the prelude's algorithms (quaternions, transforms, inverse, svd3, eig3,
// qr3, svd2, spatial algebra, closest_point_edge_edge), whose adjoints come from ir/autodiff
// through their component ops.
#include "compiler/pipeline.h"
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

// Rows of three float64 inputs, away from the kinks of abs/min/max and from singularities.
std::vector<double> Rows(int n, double start, double step) {
  std::vector<double> v = Seq(n * 3, start, step);
  for (double& x : v)
    if (std::abs(x) < 0.05) x += 0.21;
  return v;
}

void CheckRows(const std::string& kernel, const std::string& name, int n, int outs, double tol = 1e-6) {
  SourceKernel k = FromSource(kernel, name);
  GradCheck opt;
  opt.grid = {n};
  opt.tol = tol;
  CheckGradients(k.c,
                 {HostArray::Float({n, 3}, Rows(n, -1.3, 0.37)), HostArray::Float({n, 3}, Rows(n, 0.9, -0.29)),
                  HostArray::Float({n, outs}, Seq(n * outs, 0, 0))},
                 opt);
}

TEST(CompositeGrad, VectorBuiltins) {
  CheckRows(R"(
@wp.kernel
def vec(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    out[i, 0] = wp.dot(a, b)
    out[i, 1] = wp.length(wp.cross(a, b))
    n = wp.normalize(a)
    out[i, 2] = n.x + n[1] * wp.float64(2.0) - n.z
    out[i, 3] = wp.length_sq(a - b * wp.float64(0.5))
    m = wp.outer(a, b)
    out[i, 4] = m[1, 2] + wp.trace(m * wp.transpose(m))
    c = wp.cw_mul(a, b) + wp.cw_div(a, b) - wp.min(a, b) + wp.max(a, b) + wp.abs(a)
    out[i, 5] = c[0] + c[1] + c[2]
    d = (m * a) / wp.float64(3.0) + a * m - (-b)
    out[i, 6] = d.x * d.y + d.z
    g = wp.get_diag(wp.diag(a) * m)
    out[i, 7] = g[0] + g[1] * g[2]
)",
            "vec", 4, 8);
}

TEST(CompositeGrad, ComponentWritesWithRuntimeIndices) {
  CheckRows(R"(
@wp.kernel
def writes(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    v = wp.vec3d()
    m = wp.mat33d()
    for k in range(3):
        v[k] = x[i, k] * y[i, (k + 1) % 3]
        m[k, (k + i) % 3] = x[i, k]
        m[(k + 2) % 3] = m[(k + 2) % 3] + wp.vec3d(y[i, k])
    v.y = v.y * v.x
    for k in range(3):
        out[i, k] = v[k] + m[k, 0] * m[2 - k, k]
)",
            "writes", 3, 3);
}

TEST(CompositeGrad, QuaternionsAndTransforms) {
  CheckRows(R"(
@wp.kernel
def quats(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    q = wp.quat_from_axis_angle(wp.normalize(a), y[i, 0])
    r = wp.quat_rpy(x[i, 0], x[i, 1], y[i, 2])
    p = wp.quat_rotate(q * r, b) + wp.quat_rotate_inv(r, a)
    out[i, 0] = p.x + p.y * p.z
    s = wp.quat_slerp(q, r, wp.float64(0.3))
    out[i, 1] = s.x - s.w * s.y
    t = wp.transform_multiply(wp.transformd(a, q), wp.transform_inverse(wp.transformd(b, r)))
    u = wp.transform_point(t, b) + wp.transform_vector(t, a)
    out[i, 2] = u[0] + u[1] * u[2]
    mq = wp.quat_to_matrix(r)
    out[i, 3] = wp.determinant(mq * wp.outer(a, b) + wp.diag(b))
)",
            "quats", 3, 4);
}

TEST(CompositeGrad, Decompositions) {
  CheckRows(R"(
@wp.kernel
def decomp(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    m = wp.outer(a, b) + wp.diag(wp.vec3d(wp.float64(3.0), wp.float64(1.5), wp.float64(-2.0)))
    inv = wp.inverse(m)
    out[i, 0] = inv[0, 1] + inv[2, 2]
    U, sigma, V = wp.svd3(m)
    out[i, 1] = sigma[0] + sigma[1] * sigma[2]
    sym = m + wp.transpose(m)
    Q, d = wp.eig3(sym)
    out[i, 2] = d[0] * d[1] + d[2]
    Qr, R = wp.qr3(m)
    out[i, 3] = R[0, 0] * R[1, 1] + R[2, 2]
    sv = wp.spatial_vectord(a[0], a[1], a[2], b[0], b[1], b[2])
    w = wp.spatial_cross(sv, sv * wp.float64(0.5) + wp.spatial_vectord(b[1], a[2], b[0], a[0], b[2], a[1]))
    out[i, 4] = wp.spatial_dot(w, sv) + wp.spatial_top(w)[1]
)",
            "decomp", 2, 5, 2e-5);
}

// transform_inverse, transform_multiply (and `*`), transform_point / transform_vector of
// transforms and of 4x4 matrices, every output component on its own so that no term cancels.
TEST(CompositeGrad, TransformInverseMultiplyAndVector) {
  CheckRows(R"(
@wp.kernel
def xforms(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    q = wp.quat_from_axis_angle(wp.normalize(b), x[i, 1])
    r = wp.quat_rpy(y[i, 0], x[i, 2], y[i, 1])
    ta = wp.transformd(a, q)
    tb = wp.transformd(b * wp.float64(0.5), r)
    inv = wp.transform_inverse(ta)
    ip = wp.transform_get_translation(inv)
    iq = wp.transform_get_rotation(inv)
    m = wp.transform_multiply(ta, tb)
    mp = wp.transform_get_translation(m)
    mq = wp.transform_get_rotation(m)
    v = wp.transform_vector(ta, b)
    for k in range(3):
        out[i, k] = ip[k]
        out[i, 4 + k] = mp[k]
        out[i, 8 + k] = v[k]
    out[i, 3] = iq[0] + iq[1] * wp.float64(2.0) - iq[2] + iq[3] * wp.float64(0.5)
    out[i, 7] = mq[0] - mq[1] + mq[2] * mq[3]
    op = wp.transform_point(tb * inv, a)
    out[i, 11] = op[0] + op[1] * op[2]
    h = wp.outer(wp.vec4d(a[0], a[1], a[2], b[0]), wp.vec4d(b[1], b[2], a[0], a[1])) + wp.identity(n=4, dtype=wp.float64)
    hp = wp.transform_point(h, b)
    hv = wp.transform_vector(h, a)
    out[i, 12] = hp[0] - hp[1] * hp[2]
    out[i, 13] = hv[0] * hv[1] + hv[2]
)",
            "xforms", 3, 14);
}

// spatial_cross, spatial_cross_dual (each component), spatial_dot, spatial_adjoint applied to a
// spatial vector, spatial_top / spatial_bottom.
TEST(CompositeGrad, SpatialCrossDualDotAndAdjoint) {
  CheckRows(R"(
@wp.kernel
def spatial(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    sa = wp.spatial_vectord(a[0], a[1], a[2], b[0], b[1], b[2])
    sb = wp.spatial_vectord(b[2], a[0] * a[1], b[1], a[2], b[0] * b[0], a[1])
    c = wp.spatial_cross(sa, sb)
    d = wp.spatial_cross_dual(sa, sb)
    rot = wp.quat_to_matrix(wp.quat_rpy(x[i, 0], y[i, 1], x[i, 2]))
    w = wp.spatial_adjoint(rot, wp.skew(b) * rot) * sb
    z = wp.spatial_adjoint(wp.outer(a, b), wp.diag(a) * wp.skew(b)) * sa
    for k in range(6):
        out[i, k] = c[k]
        out[i, 6 + k] = d[k]
        out[i, 12 + k] = w[k]
        out[i, 18 + k] = z[k]
    out[i, 24] = wp.spatial_dot(sa, sb)
    out[i, 25] = wp.spatial_top(c)[0] * wp.spatial_bottom(d)[1] - wp.spatial_bottom(c)[2]
)",
            "spatial", 3, 26);
}

// svd2's singular values where they are distinct and nonzero (rows with both signs of the
// determinant); the rebuilt U diag(sigma) V^T also ties the singular vectors' adjoints to A's.
TEST(CompositeGrad, Svd2SingularValues) {
  CheckRows(R"(
@wp.kernel
def svd(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    m = wp.mat22d(x[i, 0], x[i, 1], y[i, 0], y[i, 2]) + wp.mat22d(wp.float64(2.5), wp.float64(0.0), wp.float64(0.0), wp.float64(-0.8))
    U, sigma, V = wp.svd2(m)
    out[i, 0] = sigma[0]
    out[i, 1] = sigma[1]
    r = U * wp.diag(sigma) * wp.transpose(V)
    out[i, 2] = r[0, 0] + r[0, 1] * wp.float64(2.0)
    out[i, 3] = r[1, 0] - r[1, 1]
)",
            "svd", 3, 4);
}

// closest_point_edge_edge's distance and weights: one row with the closest points inside both
// edges, two clamped to the end of the second edge, all away from the switches between cases.
TEST(CompositeGrad, ClosestPointEdgeEdgeDistance) {
  CheckRows(R"(
@wp.kernel
def edges(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array2d[wp.float64]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    half = wp.float64(0.5)
    q1 = a + wp.vec3d(wp.float64(2.0), wp.float64(0.3), wp.float64(-0.4)) + b * half
    p2 = b + wp.vec3d(wp.float64(0.5), wp.float64(-1.0), wp.float64(0.9))
    q2 = wp.vec3d(a[2], b[0], a[1]) * wp.float64(0.6)
    r = wp.closest_point_edge_edge(a, q1, p2, q2, wp.float64(1.0e-6))
    out[i, 0] = r[2]
    out[i, 1] = r[0]
    out[i, 2] = r[1]
)",
            "edges", 3, 3);
}

// `atomic(out, i % 2, value)` over four threads, `value` made from rows of x and y as vec3d
// `a` and `b`. A vec3d array has the layout of a (N, 3) float64 array: the harness's arrays
// stand in for it.
void CheckVectorAtomic(const std::string& atomic, const std::string& value) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def acc(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], out: wp.array[wp.vec3d]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2])
    b = wp.vec3d(y[i, 0], y[i, 1], y[i, 2])
    wp.)" + atomic + "(out, i % 2, " + value + ")\n",
                              "acc");
  GradCheck opt;
  opt.grid = {4};
  CheckGradients(k.c,
                 {HostArray::Float({4, 3}, Rows(4, -1.3, 0.37)), HostArray::Float({4, 3}, Rows(4, 0.9, -0.29)),
                  HostArray::Float({2, 3}, Seq(6, 0, 0))},
                 opt);
}

TEST(CompositeGrad, AtomicAddOfVectors) { CheckVectorAtomic("atomic_add", "wp.cross(a, b) * x[i, 0]"); }

// atomic_sub of vectors: each component's value gets minus the element's gradient.
TEST(CompositeGrad, AtomicSubOfVectors) { CheckVectorAtomic("atomic_sub", "wp.cw_mul(a, b) * x[i, 1]"); }

// atomic_min/max of vectors and matrices, component by component (Warp's adj_atomic_minmax):
// each component's gradient goes to the values equal to that component's final value. The
// element's own gradient stays in place, so only the values' gradients are compared.
TEST(CompositeGrad, AtomicMinMaxOfVectorsPerComponent) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def ext(x: wp.array2d[wp.float64], lo: wp.array[wp.vec3d], hi: wp.array[wp.mat22d]):
    i = wp.tid()
    a = wp.vec3d(x[i, 0], x[i, 1], x[i, 2]) * wp.float64(2.0)
    wp.atomic_min(lo, 0, a)
    wp.atomic_max(hi, 0, wp.mat22d(a[0] * a[1], a[1], a[2], -a[0]))
)",
                              "ext");
  ASSERT_TRUE(k.c.fwd && k.c.adj);
  const int n = 5;
  std::vector<double> xs = {0.3, -1.1, 0.9, 0.45, -0.2, 0.7, -0.65, 0.15, 1.2, 0.8, 0.35, -0.9, -0.4, 1.05, 0.05};
  std::vector<HostArray> init = {HostArray::Float({n, 3}, xs), HostArray::Float({1, 3}, {100.0, 100.0, 100.0}),
                                 HostArray::Float({1, 4}, {-100.0, -100.0, -100.0, -100.0})};
  const double wl[3] = {1.3, -0.7, 0.4}, wh[4] = {0.6, -1.2, 0.9, 0.25};
  std::vector<HostArray> out = init;
  RunEntry(k.c.fwd, out, {}, {n}, 8);
  for (int64_t e = 0; e < n * 3; ++e) out[0].grad(e) = 0;
  for (int d = 0; d < 3; ++d) out[1].grad(d) = wl[d];
  for (int d = 0; d < 4; ++d) out[2].grad(d) = wh[d];
  RunEntry(k.c.adj, out, {}, {n}, 8);
  int nonzero = 0;
  for (int64_t e = 0; e < n * 3; ++e) {
    auto loss = [&](double dx) {
      std::vector<HostArray> p = init;
      p[0].at(e) += dx;
      RunEntry(k.c.fwd, p, {}, {n}, 8);
      double l = 0;
      for (int d = 0; d < 3; ++d) l += wl[d] * p[1].at(d);
      for (int d = 0; d < 4; ++d) l += wh[d] * p[2].at(d);
      return l;
    };
    double h = 1e-6, fd = (loss(h) - loss(-h)) / (2 * h);
    EXPECT_NEAR(out[0].grad(e), fd, 1e-6 * (1 + std::abs(fd))) << "x[" << e << "]";
    nonzero += out[0].grad(e) != 0;
  }
  // Different rows win different components, so several inputs get a gradient.
  EXPECT_GE(nonzero, 4);
}

}  // namespace
}  // namespace tilec::adtest
