// Finite-difference checks (float64, central) of kernels written in Tile source: views and
// writes through them (subscripts, wp.tile_view, wp.tile_assign, element and slice
// assignment), t[idx, :] gathers with repeated and negative indices, and tile_sort of values
// and keys (an adjoint Warp does not have), on the CPU and under host-SIMT emulation.
#include "compiler/pipeline.h"
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

TEST(SourceViewGrad, WritesThroughViewsSlicesAndTileAssign) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def views(x: wp.array2d[wp.float64], s: wp.array2d[wp.float64], y: wp.array2d[wp.float64],
          z: wp.array1d[wp.float64]):
    t = wp.tile_load(x, shape=(4, 6))
    src = wp.tile_load(s, shape=(2, 3))
    rows = t[1:3]
    rows *= src[0, 1]
    wp.tile_assign(t, src * src, offset=(2, 2))
    t[0, ::2] = t[3, 1:6:2] * wp.float64(2.0)
    t[3, 5] = wp.sin(t[0, 0])
    wp.tile_store(y, t)
    wp.tile_store(z, wp.tile_view(t, offset=(1,)) * t[-1, ::-1])
)",
                              "views");
  CheckGradients(k.c, {HostArray::Float({4, 6}, Seq(24, -1.1, 0.13)), HostArray::Float({2, 3}, Seq(6, 0.4, 0.3)),
                       HostArray::Float({4, 6}, Seq(24, 0, 0)), HostArray::Float({6}, Seq(6, 0, 0))},
                 GradCheck{});
}

// A tile variable rebound to other shapes in straight-line code (Warp's rule): each binding
// is its own value, and the adjoint flows back through all of them.
TEST(SourceRebindGrad, TileVariableTakesNewShapes) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def rebind(x: wp.array2d[wp.float64], w: wp.array2d[wp.float64], y: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=(3, 5))
    t = wp.tile_transpose(t)
    t = wp.tile_map(wp.sin, t)
    t = wp.tile_matmul(t, wp.tile_load(w, shape=(3, 2)))
    t = wp.tile_broadcast(wp.tile_reshape(wp.tile_sum(t, axis=0), shape=(1, 2)), shape=(4, 2)) * t[0:4, :]
    wp.tile_store(y, t)
)",
                              "rebind");
  CheckGradients(k.c, {HostArray::Float({3, 5}, Seq(15, -1.1, 0.17)), HostArray::Float({3, 2}, Seq(6, 0.4, -0.3)),
                       HostArray::Float({4, 2}, Seq(8, 0, 0))},
                 GradCheck{});
}

TEST(SourceGatherGrad, RepeatedAndNegativeIndicesAccumulate) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def gather(x: wp.array2d[wp.float64], idx: wp.array1d[int], cols: wp.array1d[int], y: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=(4, 3))
    i = wp.tile_load(idx, shape=5)
    j = wp.tile_load(cols, shape=4)
    g = t[i, :]
    wp.tile_store(y, g[:, j] * g[:, j])
)",
                              "gather");
  CheckGradients(k.c, {HostArray::Float({4, 3}, Seq(12, -0.9, 0.17)), HostArray::Int({5}, {3, 0, -1, 3, 1}),
                       HostArray::Int({4}, {2, -3, 2, 1}), HostArray::Float({5, 4}, Seq(20, 0, 0))},
                 GradCheck{});
}

TEST(SourceSortGrad, ValuesAndKeysFollowThePermutation) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def sort(kx: wp.array1d[wp.float64], vx: wp.array1d[wp.float64], m: wp.array2d[wp.float64],
         y: wp.array1d[wp.float64], w: wp.array1d[wp.float64], my: wp.array2d[wp.float64]):
    a = wp.tile_load(kx, shape=9)
    b = wp.tile_load(vx, shape=9)
    wp.tile_sort(a, b)
    rank = wp.tile_arange(1, 10, dtype=wp.float64)
    wp.tile_store(y, a * rank)
    wp.tile_store(w, b * b * rank)
    p = wp.tile_load(m, shape=(3, 4))
    q = p * p
    wp.tile_sort(p, q)
    wp.tile_store(my, p * q)
)",
                              "sort");
  // Distinct keys: the permutation does not change under the finite-difference steps.
  std::vector<double> keys = {0.7, -1.3, 2.9, 0.1, -0.4, 1.8, -2.2, 0.95, 3.3};
  std::vector<double> mat = {1.5, -0.5, 0.25, 2.5, -1.75, 0.6, 3.1, -2.4, 0.05, 1.1, -0.8, 2.05};
  CheckGradients(k.c, {HostArray::Float({9}, keys), HostArray::Float({9}, Seq(9, -0.6, 0.21)),
                       HostArray::Float({3, 4}, mat), HostArray::Float({9}, Seq(9, 0, 0)),
                       HostArray::Float({9}, Seq(9, 0, 0)), HostArray::Float({3, 4}, Seq(12, 0, 0))},
                 GradCheck{});
}


// The same adjoints on tiles of vectors (a vec3d array stands in as an (N, 3) float64 array):
// sorted values and gathered rows send each vector's adjoint back component by component.
TEST(SourceSortGrad, VectorValuesAndGatheredVectorRows) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def vsort(kx: wp.array1d[wp.float64], v: wp.array[wp.vec3d], idx: wp.array1d[int], y: wp.array[wp.vec3d],
          g: wp.array[wp.vec3d]):
    a = wp.tile_load(kx, shape=6)
    b = wp.tile_load(v, shape=6)
    c = b * wp.float64(1.0)
    wp.tile_sort(a, c)
    wp.tile_store(y, wp.tile_map(wp.cw_mul, c, c))
    i = wp.tile_load(idx, shape=5)
    r = b[i]
    wp.tile_store(g, wp.tile_map(wp.cross, r, wp.tile_map(wp.cw_mul, r, r)))
)",
                              "vsort");
  std::vector<double> keys = {0.7, -1.3, 2.9, 0.1, -0.4, 1.8};
  CheckGradients(k.c, {HostArray::Float({6}, keys), HostArray::Float({6, 3}, Seq(18, -0.85, 0.11)),
                       HostArray::Int({5}, {4, 0, -1, 4, 2}), HostArray::Float({6, 3}, Seq(18, 0, 0)),
                       HostArray::Float({5, 3}, Seq(15, 0, 0))},
                 GradCheck{});
}

// A broadcast vector row sends back its adjoint summed over the copies, component by
// component (the sum of a struct tile is taken field by field).
TEST(SourceSortGrad, BroadcastVectorRow) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def vb(v: wp.array2d[wp.vec3d], y: wp.array2d[wp.vec3d]):
    t = wp.tile_load(v, shape=(3, 4))
    b = wp.tile_broadcast(wp.tile_view(t, offset=(1, 0), shape=(1, 4)), shape=(3, 4))
    wp.tile_store(y, wp.tile_map(wp.cw_mul, t, b))
)",
                              "vb");
  CheckGradients(k.c, {HostArray::Float({3, 4, 3}, Seq(36, -0.95, 0.07)), HostArray::Float({3, 4, 3}, Seq(36, 0, 0))},
                 GradCheck{});
}

TEST(SourceArrayViewGrad, TileLoadsAndStoresThroughRowViews) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def rows(a: wp.array2d[wp.float64], b: wp.array2d[wp.float64], c: wp.array1d[wp.float64]):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=4)
    wp.tile_store(b[i], t * t)
    c[i] = wp.tile_sum(t * a[i][0])[0]
)",
                              "rows");
  GradCheck opt;
  opt.grid = {3};
  CheckGradients(k.c, {HostArray::Float({3, 4}, Seq(12, -0.7, 0.19)), HostArray::Float({3, 4}, Seq(12, 0, 0)),
                       HostArray::Float({3}, Seq(3, 0, 0))},
                 opt);
}


// The adjoints Warp lacks: the four scans (the sum scans run backwards; min/max send d to the
// element the running value came from) over 1-D and flattened 2-D tiles, and min/max along an
// axis of a 2-D tile (to the first element equal to the result).
TEST(SourceScanGrad, AllFourScansOneAndTwoDimensions) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def scans(x: wp.array1d[wp.float64], m: wp.array2d[wp.float64], a: wp.array1d[wp.float64], b: wp.array1d[wp.float64],
          c: wp.array1d[wp.float64], d: wp.array1d[wp.float64], e: wp.array2d[wp.float64], f: wp.array2d[wp.float64]):
    t = wp.tile_load(x, shape=7)
    wp.tile_store(a, wp.tile_scan_inclusive(t * t))
    wp.tile_store(b, wp.tile_scan_exclusive(t))
    wp.tile_store(c, wp.tile_scan_max_inclusive(t))
    wp.tile_store(d, wp.tile_scan_min_inclusive(t) * t)
    u = wp.tile_load(m, shape=(2, 3))
    wp.tile_store(e, wp.tile_scan_inclusive(u))
    wp.tile_store(f, wp.tile_scan_max_inclusive(u))
)",
                              "scans");
  // Distinct values, so that no finite-difference step changes which element a running max is.
  std::vector<double> x = {0.3, -1.2, 0.9, 2.1, -0.4, 1.7, 2.6};
  std::vector<double> m = {0.5, 1.5, -0.25, 2.0, -1.0, 3.0};
  CheckGradients(k.c, {HostArray::Float({7}, x), HostArray::Float({2, 3}, m), HostArray::Float({7}, Seq(7, 0, 0)),
                       HostArray::Float({7}, Seq(7, 0, 0)), HostArray::Float({7}, Seq(7, 0, 0)),
                       HostArray::Float({7}, Seq(7, 0, 0)), HostArray::Float({2, 3}, Seq(6, 0, 0)),
                       HostArray::Float({2, 3}, Seq(6, 0, 0))},
                 GradCheck{});
}

TEST(SourceReduceGrad, MinMaxAlongEachAxisAndTileReduceBuiltins) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def red(x: wp.array2d[wp.float64], a: wp.array1d[wp.float64], b: wp.array1d[wp.float64], c: wp.array1d[wp.float64],
        d: wp.array1d[wp.float64]):
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(a, wp.tile_reduce(wp.max, t, axis=0))
    wp.tile_store(b, wp.tile_reduce(wp.min, t * t, axis=1))
    wp.tile_store(c, wp.tile_reduce(wp.add, t, axis=1))
    wp.tile_store(d, wp.tile_reduce(wp.max, t) * wp.tile_max(t))
)",
                              "red");
  std::vector<double> x = {0.3, -1.2, 0.9, 2.1, -0.4, 1.7, 2.6, -2.2, 1.1, 0.05, -0.7, 1.3};
  CheckGradients(k.c, {HostArray::Float({3, 4}, x), HostArray::Float({4}, Seq(4, 0, 0)), HostArray::Float({3}, Seq(3, 0, 0)),
                       HostArray::Float({3}, Seq(3, 0, 0)), HostArray::Float({1}, Seq(1, 0, 0))},
                 GradCheck{});
}


// tile_map with scalar arguments: each element's call reads the scalar, so its adjoint is
// the sum of the elements' contributions.
TEST(SourceMapGrad, ScalarArgumentsCollectEveryElementsAdjoint) {
  SourceKernel k = FromSource(R"(
@wp.func
def axpb(x: wp.float64, a: wp.float64, b: wp.float64) -> wp.float64:
    return a * x * x + b

@wp.kernel
def mapped(x: wp.array1d[wp.float64], p: wp.array1d[wp.float64], y: wp.array1d[wp.float64]):
    t = wp.tile_load(x, shape=5)
    a = p[0]
    wp.tile_store(y, wp.tile_map(axpb, t, a, p[1] * a))
)",
                              "mapped");
  CheckGradients(k.c, {HostArray::Float({5}, Seq(5, -0.8, 0.45)), HostArray::Float({2}, {1.3, -0.6}),
                       HostArray::Float({5}, Seq(5, 0, 0))},
                 GradCheck{});
}


// A @wp.func combiner is a left fold built from tile_view, tile_map and a loop: its gradient
// is that of the fold, checked here with a non-associative combiner along each axis and over
// every element.
TEST(SourceReduceGrad, FuncCombinerIsAFoldWithItsOwnGradient) {
  SourceKernel k = FromSource(R"(
@wp.func
def mix(a: wp.float64, b: wp.float64) -> wp.float64:
    return a * wp.float64(0.5) + b * b

@wp.kernel
def fold(x: wp.array2d[wp.float64], a: wp.array1d[wp.float64], b: wp.array1d[wp.float64], c: wp.array1d[wp.float64]):
    t = wp.tile_load(x, shape=(3, 4))
    wp.tile_store(a, wp.tile_reduce(mix, t, axis=0))
    wp.tile_store(b, wp.tile_reduce(mix, t, axis=1))
    wp.tile_store(c, wp.tile_reduce(mix, t))
)",
                              "fold");
  CheckGradients(k.c, {HostArray::Float({3, 4}, Seq(12, -0.9, 0.17)), HostArray::Float({4}, Seq(4, 0, 0)),
                       HostArray::Float({3}, Seq(3, 0, 0)), HostArray::Float({1}, Seq(1, 0, 0))},
                 GradCheck{});
}


TEST(SourceMatmulGrad, ProductAccumulationAndScales) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def mm(a: wp.array2d[wp.float64], b: wp.array2d[wp.float64], c: wp.array2d[wp.float64], y: wp.array2d[wp.float64],
       z: wp.array2d[wp.float64]):
    ta = wp.tile_load(a, shape=(3, 2))
    tb = wp.tile_load(b, shape=(2, 4))
    acc = wp.tile_load(c, shape=(3, 4))
    wp.tile_matmul(ta, tb, acc)
    wp.tile_store(y, acc)
    p = wp.tile_matmul(ta * ta, tb)
    wp.tile_matmul(ta, tb, p, alpha=wp.float64(0.5), beta=wp.float64(-2.0))
    wp.tile_store(z, p)
)",
                              "mm");
  CheckGradients(k.c, {HostArray::Float({3, 2}, Seq(6, -0.7, 0.3)), HostArray::Float({2, 4}, Seq(8, 0.2, -0.15)),
                       HostArray::Float({3, 4}, Seq(12, 0.1, 0.05)), HostArray::Float({3, 4}, Seq(12, 0, 0)),
                       HostArray::Float({3, 4}, Seq(12, 0, 0))},
                 GradCheck{});
}

// The dense solvers: tile_diag_add (a and d), tile_cholesky in both fill modes (the gradient of
// the triangle it reads; the other receives zero, as finite differences see), the triangular
// solves (into the matrix's triangle and y) and tile_cholesky_solve, 1-D and 2-D right-hand sides.
TEST(SourceLinalgGrad, DiagAddCholeskyAndSolves) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def solve(a: wp.array2d[wp.float64], d: wp.array1d[wp.float64], y: wp.array2d[wp.float64], v: wp.array1d[wp.float64],
          sa: wp.array2d[wp.float64], l: wp.array2d[wp.float64], u: wp.array2d[wp.float64], x: wp.array2d[wp.float64],
          xu: wp.array1d[wp.float64], zl: wp.array1d[wp.float64], zu: wp.array2d[wp.float64]):
    spd = wp.tile_diag_add(wp.tile_load(a, shape=(4, 4)), wp.tile_load(d, shape=4))
    wp.tile_store(sa, spd * spd)
    ty = wp.tile_load(y, shape=(4, 2))
    tv = wp.tile_load(v, shape=4)
    tl = wp.tile_cholesky(spd)
    tu = wp.tile_cholesky(spd, fill_mode="upper")
    wp.tile_store(l, tl)
    wp.tile_store(u, tu)
    wp.tile_store(x, wp.tile_cholesky_solve(tl, ty))
    wp.tile_store(xu, wp.tile_cholesky_solve(tu, tv, fill_mode="upper"))
    wp.tile_store(zl, wp.tile_lower_solve(tl, tv))
    wp.tile_store(zu, wp.tile_upper_solve(tu, ty * ty))
)",
                              "solve");
  CheckGradients(k.c, {HostArray::Float({4, 4}, Seq(16, -0.3, 0.05)), HostArray::Float({4}, Seq(4, 3.0, 0.25)),
                       HostArray::Float({4, 2}, Seq(8, -0.6, 0.2)), HostArray::Float({4}, Seq(4, 0.7, -0.3)),
                       HostArray::Float({4, 4}, Seq(16, 0, 0)), HostArray::Float({4, 4}, Seq(16, 0, 0)),
                       HostArray::Float({4, 4}, Seq(16, 0, 0)), HostArray::Float({4, 2}, Seq(8, 0, 0)),
                       HostArray::Float({4}, Seq(4, 0, 0)), HostArray::Float({4}, Seq(4, 0, 0)),
                       HostArray::Float({4, 2}, Seq(8, 0, 0))},
                 GradCheck{});
}

// A mapped lambda differentiates like the @wp.func it stands for, including through a
// captured kernel value (the sum of its contributions over the elements); wp.where passes the
// gradient to the value it chose.
TEST(SourceMapGrad, LambdasAndWhere) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def lam(x: wp.array1d[wp.float64], y: wp.array1d[wp.float64], s: wp.array1d[wp.float64], c: wp.array1d[int],
        out: wp.array1d[wp.float64], w: wp.array1d[wp.float64]):
    a = wp.tile_load(x, shape=6)
    b = wp.tile_load(y, shape=6)
    m = wp.tile_load(c, shape=6)
    k = s[0]
    wp.tile_store(out, wp.tile_map(lambda p, q: wp.sin(p) * q + k * p * p, a, b))
    wp.tile_store(w, wp.tile_map(lambda f, p, q: wp.where(f, p * q, q * q * k), m, a, b))
)",
                              "lam");
  CheckGradients(k.c, {HostArray::Float({6}, Seq(6, -0.9, 0.31)), HostArray::Float({6}, Seq(6, 0.4, -0.17)),
                       HostArray::Float({1}, {0.75}), HostArray::Int({6}, {0, 1, 0, 2, 1, 0}),
                       HostArray::Float({6}, Seq(6, 0, 0)), HostArray::Float({6}, Seq(6, 0, 0))},
                 GradCheck{});
}

// The _inplace solvers keep the adjoints of the forms they update with (Warp's have none).
TEST(SourceLinalgGrad, InplaceFormsKeepTheirGradients) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def solve(a: wp.array2d[wp.float64], d: wp.array1d[wp.float64], y: wp.array2d[wp.float64],
          l: wp.array2d[wp.float64], x: wp.array2d[wp.float64], z: wp.array2d[wp.float64]):
    f = wp.tile_diag_add(wp.tile_load(a, shape=(3, 3)), wp.tile_load(d, shape=3))
    wp.tile_cholesky_inplace(f)
    wp.tile_store(l, f)
    v = wp.tile_load(y, shape=(3, 2))
    wp.tile_cholesky_solve_inplace(f, v)
    wp.tile_store(x, v * v)
    w = wp.tile_load(y, shape=(3, 2))
    wp.tile_upper_solve_inplace(wp.tile_transpose(f), w)
    wp.tile_lower_solve_inplace(f, w)
    wp.tile_store(z, w)
)",
                              "solve");
  CheckGradients(k.c, {HostArray::Float({3, 3}, Seq(9, -0.3, 0.07)), HostArray::Float({3}, Seq(3, 3.0, 0.25)),
                       HostArray::Float({3, 2}, Seq(6, -0.6, 0.2)), HostArray::Float({3, 3}, Seq(9, 0, 0)),
                       HostArray::Float({3, 2}, Seq(6, 0, 0)), HostArray::Float({3, 2}, Seq(6, 0, 0))},
                 GradCheck{});
}

// tile_fft and tile_ifft: the adjoint of each is the other's unnormalized transform of the
// adjoint (Warp's rule), checked through nonlinear uses of both parts, for a power-of-two
// size (radix 2) and another (the direct sum).
TEST(SourceFftGrad, EachTransformsTheAdjointBack) {
  for (int n : {8, 6}) {
    std::string src = R"(
@wp.func
def cplx(a: wp.float64, b: wp.float64):
    return wp.vec2d(a, b)

@wp.func
def re(v: wp.vec2d):
    return v[0]

@wp.func
def im(v: wp.vec2d):
    return v[1]

@wp.kernel
def spectra(xr: wp.array2d[wp.float64], xi: wp.array2d[wp.float64], w: wp.array2d[wp.float64],
            yr: wp.array2d[wp.float64], yi: wp.array2d[wp.float64]):
    t = wp.tile_map(cplx, wp.tile_load(xr, shape=(2, N)), wp.tile_load(xi, shape=(2, N)))
    wp.tile_fft(t)
    wt = wp.tile_load(w, shape=(2, N))
    a = wp.tile_map(re, t)
    b = wp.tile_map(im, t)
    wp.tile_store(yr, a * a * wt)
    u = wp.tile_map(cplx, a * b, b)
    wp.tile_ifft(u)
    wp.tile_store(yi, wp.tile_map(re, u) + wp.tile_map(im, u) * wt)
)";
    for (size_t p; (p = src.find(", N)")) != std::string::npos;) src.replace(p, 4, ", " + std::to_string(n) + ")");
    SourceKernel k = FromSource(src, "spectra");
    const int m = 2 * n;
    CheckGradients(k.c, {HostArray::Float({2, n}, Seq(m, -0.7, 0.11)), HostArray::Float({2, n}, Seq(m, 0.5, -0.07)),
                         HostArray::Float({2, n}, Seq(m, 0.3, 0.05), false), HostArray::Float({2, n}, Seq(m, 0, 0)),
                         HostArray::Float({2, n}, Seq(m, 0, 0))},
                   GradCheck{});
  }
}

// An unrolled loop: each trip reduces along its own axis (shapes (4,) then (3,)), reads an
// element at a constant position and carries the tile to the next trip.
TEST(SourceUnrolledGrad, PerTripAxesElementsAndCarriedTiles) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def unrolled(x: wp.array2d[wp.float64], y: wp.array2d[wp.float64], z: wp.array1d[wp.float64]):
    t = wp.tile_load(x, shape=(3, 4))
    for i in range(2):
        s = wp.tile_sum(t * t, axis=i)
        wp.tile_store(z, s * wp.float64(i + 1), offset=wp.static(i * 4))
        t = t * t[i, wp.static(i + 1)]
    wp.tile_store(y, t)
)",
                              "unrolled");
  CheckGradients(k.c, {HostArray::Float({3, 4}, Seq(12, -0.9, 0.15)), HostArray::Float({3, 4}, Seq(12, 0, 0)),
                       HostArray::Float({7}, Seq(7, 0, 0))},
                 GradCheck{});
}

// tile_store_indexed with repeated indices: the element last in row-major order lands, so it
// alone takes the gradient; the overwritten ones take none (1-D, and 2-D/3-D on every axis).
TEST(SourceStoreIndexedGrad, RepeatedIndicesOnlyTheLastWriterTakesTheGradient) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def repeats(x: wp.array1d[wp.float64], m: wp.array2d[wp.float64], c: wp.array3d[wp.float64],
            i4: wp.array1d[int], i3: wp.array1d[int], i5: wp.array1d[int],
            y: wp.array1d[wp.float64], r: wp.array2d[wp.float64], s: wp.array2d[wp.float64],
            u: wp.array3d[wp.float64]):
    t = wp.tile_load(x, shape=4)
    a = wp.tile_load(i4, shape=4)
    wp.tile_store_indexed(y, a, t * t * wp.float64(10.0), axis=0)
    p = wp.tile_load(m, shape=(3, 5))
    b = wp.tile_load(i3, shape=3)
    e = wp.tile_load(i5, shape=5)
    wp.tile_store_indexed(r, b, wp.tile_map(wp.sin, p), axis=0)
    wp.tile_store_indexed(s, e, p * p, axis=1)
    q = wp.tile_load(c, shape=(2, 3, 4))
    wp.tile_store_indexed(u, a, q * q, axis=2)
)",
                              "repeats");
  CheckGradients(k.c,
                 {HostArray::Float({4}, {1, 2, 3, 4}), HostArray::Float({3, 5}, Seq(15, -0.8, 0.11)),
                  HostArray::Float({2, 3, 4}, Seq(24, 0.9, -0.07)), HostArray::Int({4}, {2, 0, 2, 2}),
                  HostArray::Int({3}, {1, 1, -1}), HostArray::Int({5}, {4, 0, 4, 1, 0}),
                  HostArray::Float({4}, Seq(4, 0, 0)), HostArray::Float({3, 5}, Seq(15, 0, 0)),
                  HostArray::Float({3, 5}, Seq(15, 0, 0)), HostArray::Float({2, 3, 4}, Seq(24, 0, 0))},
                 GradCheck{});
}

}  // namespace
}  // namespace tilec::adtest
