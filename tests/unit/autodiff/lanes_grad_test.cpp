// Finite-difference checks (float64, central) of the bridges between lanes and tiles: wp.tile
// and wp.untile of scalars and vectors, tile_scatter_add with colliding lanes and
// tile_scatter_masked where the last lane's write survives, compiled for the lane count they
// run with (the kernels' tiles are (block_dim,) by definition).
#include "compiler/pipeline.h"
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

int Lanes() { return EmulationLanes() ? EmulationLanes() : 8; }

SourceKernel FromSourceLanes(std::string text, const std::string& name, int block_dim) {
  for (size_t p; (p = text.find("{B}")) != std::string::npos;) text.replace(p, 3, std::to_string(block_dim));
  return FromSource(text, name, block_dim);
}

// Per-lane inputs take Seq(B, start, step * 8 / B): the same values as at 8 lanes, and near
// [-1, 1] for any B (a central difference of h = 1e-6 loses digits on large values).
GradCheck Opts(int B) {
  GradCheck g;
  g.grid = {1};
  g.block_dim = B;
  return g;
}

TEST(LanesGrad, TileAndUntileOfScalars) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def tu(x: wp.array1d[wp.float64], y: wp.array1d[wp.float64], z: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    v = x[lane] * x[lane]
    t = wp.tile(v) * wp.tile_load(x, shape={B})
    wp.tile_store(y, t)
    z[lane] = wp.sin(wp.untile(t)) + v
)",
                                   "tu", B);
  CheckGradients(k.c, {HostArray::Float({B}, Seq(B, -0.9, 0.23 * 8.0 / B)), HostArray::Float({B}, Seq(B, 0, 0)),
                       HostArray::Float({B}, Seq(B, 0, 0))},
                 Opts(B));
}

TEST(LanesGrad, TileAndUntileOfVectorsBothForms) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def tv(x: wp.array1d[wp.float64], y: wp.array2d[wp.float64], z: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    v = wp.vec3d(x[lane], x[lane] * x[lane], wp.float64(2.0) * x[lane])
    t = wp.tile(v)
    wp.tile_store(y, t * t)
    kept = wp.tile(v, preserve_type=True)
    s = wp.tile_sum(kept)[0]
    w = wp.untile(t)
    z[lane] = wp.dot(w, s) + w[1]
)",
                                   "tv", B);
  CheckGradients(k.c, {HostArray::Float({B}, Seq(B, -0.7, 0.19 * 8.0 / B)), HostArray::Float({3, B}, Seq(3 * B, 0, 0)),
                       HostArray::Float({B}, Seq(B, 0, 0))},
                 Opts(B));
}

// Lanes collide on indices; a lane without a value and one with an index outside the tile
// pass nothing to their values and leave the tile's gradient alone.
TEST(LanesGrad, ScatterAddWithCollisions) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def sa(base: wp.array1d[wp.float64], x: wp.array1d[wp.float64], idx: wp.array1d[int], y: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    acc = wp.tile_load(base, shape=5)
    j = idx[lane]
    wp.tile_scatter_add(acc, j, x[lane] * x[lane] + wp.float64(1.0), j != 2)
    wp.tile_store(y, acc * acc)
)",
                                   "sa", B);
  std::vector<int32_t> idx;
  for (int l = 0; l < B; ++l) idx.push_back(l % 7 == 5 ? 9 : (l * 3) % 5);
  CheckGradients(k.c, {HostArray::Float({5}, Seq(5, 0.3, -0.4)), HostArray::Float({B}, Seq(B, -1.1, 0.27 * 8.0 / B)),
                       HostArray::Int({B}, idx), HostArray::Float({5}, Seq(5, 0, 0))},
                 Opts(B));
}

// Several lanes write one element: the highest lane's value survives and takes its gradient.
TEST(LanesGrad, ScatterMaskedLastWriterWins) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def sm(base: wp.array1d[wp.float64], x: wp.array1d[wp.float64], idx: wp.array1d[int], y: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    t = wp.tile_load(base, shape=4) * wp.float64(2.0)
    wp.tile_scatter_masked(t, idx[lane], wp.sin(x[lane]), lane % 3 != 1)
    wp.tile_store(y, t * t)
)",
                                   "sm", B);
  std::vector<int32_t> idx;
  for (int l = 0; l < B; ++l) idx.push_back(l % 2 == 0 ? 0 : (l / 2) % 4);
  CheckGradients(k.c, {HostArray::Float({4}, Seq(4, 0.6, -0.35)), HostArray::Float({B}, Seq(B, -0.8, 0.31 * 8.0 / B)),
                       HostArray::Int({B}, idx), HostArray::Float({4}, Seq(4, 0, 0))},
                 Opts(B));
}

// Each lane reads its own element, so the adjoint adds each lane's gradient at its lane.
TEST(LanesGrad, UntileOfALoadedTile) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def uo(x: wp.array1d[wp.float64], z: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    t = wp.tile_load(x, shape={B})
    z[lane] = wp.untile(t) * wp.float64(3.0)
)",
                                   "uo", B);
  CheckGradients(k.c, {HostArray::Float({B}, Seq(B, -0.9, 0.23 * 8.0 / B)), HostArray::Float({B}, Seq(B, 0, 0))}, Opts(B));
}

TEST(LanesGrad, TileOfPerLaneValues) {
  const int B = Lanes();
  SourceKernel k = FromSourceLanes(R"(
@wp.kernel
def to(x: wp.array1d[wp.float64], y: wp.array1d[wp.float64]):
    _b, lane = wp.tid()
    v = x[lane] * x[lane]
    wp.tile_store(y, wp.tile(v))
)",
                                   "to", B);
  CheckGradients(k.c, {HostArray::Float({B}, Seq(B, -0.9, 0.23 * 8.0 / B)), HostArray::Float({B}, Seq(B, 0, 0))}, Opts(B));
}

}  // namespace
}  // namespace tilec::adtest
