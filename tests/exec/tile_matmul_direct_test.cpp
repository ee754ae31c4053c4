// tile_matmul's factors read where they lie in their arrays and its product written straight
// into the stored array (the CPU lowering's shortcuts for `tile_store(c, tile_matmul(a, b))`
// and for tiles only the product reads), and the fallbacks they must take: a store that
// overlaps a factor read in place, a write between the load and the product, strided and
// misaligned views, tiles partly outside their arrays, arrays large enough for non-temporal
// stores, and kernel calls over pieces of the grid (the next tile's prefetch is predicted from
// the previous block program). Every result bit for bit against the fma chain in increasing k
// (from zero, then added to the accumulated tile).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

template <typename T>
std::vector<T> Values(size_t n, uint64_t seed) {
  std::vector<T> v(n);
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (auto& x : v) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    x = T(double(int64_t(s >> 11) - (int64_t(1) << 52)) / double(int64_t(1) << 52));
  }
  return v;
}

// Element (r, c) of a row-major view with `ld` elements per row, zero outside rows x cols.
template <typename T>
T At(const std::vector<T>& v, int64_t base, int64_t ld, int64_t rows, int64_t cols, int64_t r, int64_t c) {
  if (r < 0 || r >= rows || c < 0 || c >= cols) return T(0);
  return v[size_t(base + r * ld + c)];
}

// The (M, N) product of a's tile at (ar, ac) and b's tile at (br, bc), each element the fma
// chain from zero in increasing k (elements outside the arrays read zero).
template <typename T>
std::vector<T> Product(const std::vector<T>& a, int64_t a_base, int64_t lda, int64_t a_rows, int64_t a_cols, int64_t ar,
                       int64_t ac, const std::vector<T>& b, int64_t b_base, int64_t ldb, int64_t b_rows, int64_t b_cols,
                       int64_t br, int64_t bc, int M, int K, int N) {
  std::vector<T> out(size_t(M) * size_t(N));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      T acc = T(0);
      for (int k = 0; k < K; ++k)
        acc = std::fma(At(a, a_base, lda, a_rows, a_cols, ar + i, ac + k),
                       At(b, b_base, ldb, b_rows, b_cols, br + k, bc + j), acc);
      out[size_t(i) * size_t(N) + size_t(j)] = acc;
    }
  return out;
}

// The kernel over `blocks` block programs in calls of `piece` programs (as the runtime's
// workers call it), or in one call.
void LaunchInPieces(void* entry, std::vector<void*> args, int64_t blocks, int64_t piece) {
  ASSERT_NE(entry, nullptr);
  tilec_launch l{};
  l.ndim = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) l.dim[d] = d == 0 ? blocks : 1;
  l.block_dim = 1;
  for (int64_t first = 0; first < blocks; first += piece)
    reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, first, std::min(blocks, first + piece));
}

bool Emulated() { return std::getenv("TILEC_SIMT_EMULATION") != nullptr; }

// The batched product of bench/kernels/matmul.tile: block program i multiplies rows i*T.. of a
// and b into the same rows of c. c is 16 MiB (non-temporal stores on the CPU) unless emulated.
template <typename T>
void Batched(int tile, const char* dtype, int64_t blocks, int64_t piece) {
  const std::string t = std::to_string(tile);
  auto c = CompileText(std::string(R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[)") + dtype + "], b: wp.array2d[" + dtype + "], c: wp.array2d[" + dtype + R"(]):
    i = wp.tid()
    ta = wp.tile_load(a, shape=()" + t + ", " + t + "), offset=(i * " + t + R"(, 0))
    tb = wp.tile_load(b, shape=()" + t + ", " + t + "), offset=(i * " + t + R"(, 0))
    wp.tile_store(c, wp.tile_matmul(ta, tb), offset=(i * )" + t + R"(, 0))
)");
  ASSERT_TRUE(c.module);
  const int64_t rows = blocks * tile, n = rows * tile;
  std::vector<T> a = Values<T>(size_t(n), 1), b = Values<T>(size_t(n), 2), out(size_t(n), T(-7));
  tilec_array aa = View(a.data(), {rows, tile}), ba = View(b.data(), {rows, tile}), ca = View(out.data(), {rows, tile});
  if (piece > 0) LaunchInPieces(c.Entry("mm"), {&aa, &ba, &ca}, blocks, piece);
  else Launch(c.Entry("mm"), {&aa, &ba, &ca}, {blocks}, 1);
  const int64_t tt = int64_t(tile) * tile;
  for (int64_t blk = 0; blk < blocks; ++blk) {
    std::vector<T> ref =
        Product(a, blk * tt, tile, tile, tile, 0, 0, b, blk * tt, tile, tile, tile, 0, 0, tile, tile, tile);
    for (int64_t e = 0; e < tt; ++e)
      ASSERT_EQ(out[size_t(blk * tt + e)], ref[size_t(e)]) << "T=" << tile << " block " << blk << " @" << e;
  }
}

TEST(TileMatmulDirect, BatchedStreamingStores) {
  // 4096 blocks of 32x32 float32: a, b and c of 16 MiB each.
  Batched<float>(32, "float", Emulated() ? 64 : 4096, 16);
}
TEST(TileMatmulDirect, BatchedOneCallAndOddPieces) {
  Batched<float>(64, "float", 37, 0);
  Batched<float>(64, "float", 37, 5);
  Batched<float>(24, "float", 21, 4);  // 24 = one and a half vectors of AVX-512: masked pieces
  Batched<double>(16, "wp.float64", 19, 3);
}

// The product stored over a factor it reads in place: a (2T, T), block 0 multiplies a's rows
// 0..T-1 and stores the product at rows `shift`.., overlapping the factor unless shift >= T.
TEST(TileMatmulDirect, StoreOverlappingAFactor) {
  const int T = 32;
  for (int shift : {0, 1, T / 2, T - 1, T}) {
    auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[float], b: wp.array2d[float], shift: int):
    ta = wp.tile_load(a, shape=(32, 32))
    tb = wp.tile_load(b, shape=(32, 32))
    wp.tile_store(a, wp.tile_matmul(ta, tb), offset=(shift, 0))
)");
    ASSERT_TRUE(c.module);
    std::vector<float> a = Values<float>(size_t(2 * T * T), 3), b = Values<float>(size_t(T * T), 4);
    std::vector<float> expect = a;
    std::vector<float> prod = Product(a, 0, T, 2 * T, T, 0, 0, b, 0, T, T, T, 0, 0, T, T, T);
    for (int i = 0; i < T * T; ++i) expect[size_t(shift * T + i)] = prod[size_t(i)];
    tilec_array aa = View(a.data(), {2 * T, T}), ba = View(b.data(), {T, T});
    int32_t s = shift;
    Launch(c.Entry("mm"), {&aa, &ba, &s}, {1}, 1);
    for (size_t e = 0; e < a.size(); ++e) ASSERT_EQ(a[e], expect[e]) << "shift " << shift << " @" << e;
  }
}

// b as the product's destination too (the second factor), and the same tile as both factors.
TEST(TileMatmulDirect, StoreOverSecondFactorAndSquare) {
  const int T = 16;
  auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def over_b(a: wp.array2d[float], b: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(16, 16))
    tb = wp.tile_load(b, shape=(16, 16))
    wp.tile_store(b, wp.tile_matmul(ta, tb))

@wp.kernel(enable_backward=False)
def square(a: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(16, 16))
    wp.tile_store(a, wp.tile_matmul(ta, ta))
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a = Values<float>(size_t(T * T), 5), b = Values<float>(size_t(T * T), 6);
  std::vector<float> ab = Product(a, 0, T, T, T, 0, 0, b, 0, T, T, T, 0, 0, T, T, T);
  std::vector<float> aa_ref = Product(a, 0, T, T, T, 0, 0, a, 0, T, T, T, 0, 0, T, T, T);
  tilec_array av = View(a.data(), {T, T}), bv = View(b.data(), {T, T});
  Launch(c.Entry("over_b"), {&av, &bv}, {1}, 1);
  for (size_t e = 0; e < b.size(); ++e) ASSERT_EQ(b[e], ab[e]) << "over_b @" << e;
  Launch(c.Entry("square"), {&av}, {1}, 1);
  for (size_t e = 0; e < a.size(); ++e) ASSERT_EQ(a[e], aa_ref[e]) << "square @" << e;
}

// A store into the factor's array between its load and the product: the product must see the
// values loaded before it. And a factor the kernel reads again after the product.
TEST(TileMatmulDirect, WriteBetweenLoadAndProduct) {
  const int T = 32;
  auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float], d: wp.array2d[float]):
    ta = wp.tile_load(a, shape=(32, 32))
    tb = wp.tile_load(b, shape=(32, 32))
    wp.tile_store(a, wp.tile_zeros(shape=(32, 32), dtype=float))
    wp.tile_store(c, wp.tile_matmul(ta, tb))
    wp.tile_store(d, tb)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a = Values<float>(size_t(T * T), 7), b = Values<float>(size_t(T * T), 8);
  std::vector<float> out(size_t(T * T), -1.0f), d(size_t(T * T), -1.0f);
  std::vector<float> ref = Product(a, 0, T, T, T, 0, 0, b, 0, T, T, T, 0, 0, T, T, T);
  tilec_array av = View(a.data(), {T, T}), bv = View(b.data(), {T, T}), cv = View(out.data(), {T, T}),
              dv = View(d.data(), {T, T});
  Launch(c.Entry("mm"), {&av, &bv, &cv, &dv}, {1}, 1);
  for (size_t e = 0; e < out.size(); ++e) {
    ASSERT_EQ(out[e], ref[e]) << "@" << e;
    ASSERT_EQ(a[e], 0.0f) << "@" << e;
    ASSERT_EQ(d[e], b[e]) << "@" << e;
  }
}

// Strided views (rows longer than the tile, a row stride that is not the row's width), a
// misaligned start, and tiles partly outside the arrays (zeros read, elements outside skipped).
TEST(TileMatmulDirect, StridedMisalignedAndPartialTiles) {
  auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def mm(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float], r0: int, c0: int):
    i = wp.tid()
    ta = wp.tile_load(a, shape=(24, 20), offset=(r0 + i * 24, c0))
    tb = wp.tile_load(b, shape=(20, 40), offset=(i * 20, c0))
    wp.tile_store(c, wp.tile_matmul(ta, tb), offset=(r0 + i * 24, c0))
)");
  ASSERT_TRUE(c.module);
  const int64_t blocks = 3;
  struct Case {
    int64_t rows, cols, ld, skew, r0, c0;
  };
  // (array rows and columns, elements per row in memory, elements before the view, offsets)
  const Case cases[] = {{72, 40, 40, 0, 0, 0},    {72, 40, 48, 0, 0, 0},  {72, 40, 40, 1, 0, 0},
                        {72, 40, 43, 3, 0, 0},    {80, 64, 64, 0, 4, 8},  {70, 40, 40, 0, 0, 0},
                        {72, 45, 45, 0, -5, 10},  {60, 50, 56, 2, 3, 17}};
  for (const Case& k : cases) {
    const size_t len = size_t(k.skew + k.rows * k.ld);
    std::vector<float> a = Values<float>(len, 9), b = Values<float>(len, 10), out(len, -3.0f);
    std::vector<float> expect = out;
    for (int64_t blk = 0; blk < blocks; ++blk) {
      const int64_t ar = k.r0 + blk * 24, br = blk * 20;
      std::vector<float> p =
          Product(a, k.skew, k.ld, k.rows, k.cols, ar, k.c0, b, k.skew, k.ld, k.rows, k.cols, br, k.c0, 24, 20, 40);
      for (int i = 0; i < 24; ++i)
        for (int j = 0; j < 40; ++j) {
          const int64_t r = ar + i, col = k.c0 + j;
          if (r >= 0 && r < k.rows && col >= 0 && col < k.cols)
            expect[size_t(k.skew + r * k.ld + col)] = p[size_t(i * 40 + j)];
        }
    }
    tilec_array av = View(a.data() + k.skew, {k.rows, k.cols}, {k.ld, 1}),
                bv = View(b.data() + k.skew, {k.rows, k.cols}, {k.ld, 1}),
                cv = View(out.data() + k.skew, {k.rows, k.cols}, {k.ld, 1});
    int32_t r0 = int32_t(k.r0), c0 = int32_t(k.c0);
    Launch(c.Entry("mm"), {&av, &bv, &cv, &r0, &c0}, {blocks}, 1);
    for (size_t e = 0; e < len; ++e)
      ASSERT_EQ(out[e], expect[e]) << "rows " << k.rows << " cols " << k.cols << " ld " << k.ld << " skew " << k.skew
                                   << " offset (" << k.r0 << ", " << k.c0 << ") @" << e;
  }
}

// Factors loaded in a loop (the prefetch predicts the next iteration's tile) and products
// accumulated into a tile that is stored once: the general GEMM shape.
TEST(TileMatmulDirect, LoopedLoadsIntoStoredProduct) {
  const int M = 32, N = 48, KT = 16, steps = 6, K = KT * steps;
  auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def gemm(a: wp.array2d[float], b: wp.array2d[float], c: wp.array2d[float]):
    i = wp.tid()
    acc = wp.tile_zeros(shape=(32, 48), dtype=float)
    for s in range(6):
        ta = wp.tile_load(a, shape=(32, 16), offset=(i * 32, s * 16))
        tb = wp.tile_load(b, shape=(16, 48), offset=(s * 16, 0))
        wp.tile_matmul(ta, tb, acc)
    wp.tile_store(c, acc, offset=(i * 32, 0))
)");
  ASSERT_TRUE(c.module);
  const int blocks = 3;
  std::vector<float> a = Values<float>(size_t(blocks * M * K), 11), b = Values<float>(size_t(K * N), 12);
  std::vector<float> out(size_t(blocks * M * N), -1.0f);
  tilec_array av = View(a.data(), {blocks * M, K}), bv = View(b.data(), {K, N}), cv = View(out.data(), {blocks * M, N});
  Launch(c.Entry("gemm"), {&av, &bv, &cv}, {blocks}, 1);
  // Each step's product (an fma chain from zero over its 16 k) is added to the running tile.
  std::vector<float> ref(out.size(), 0.0f);
  for (int s = 0; s < steps; ++s) {
    std::vector<float> p = Product(a, 0, K, blocks * M, K, 0, s * KT, b, 0, N, K, N, s * KT, 0, blocks * M, KT, N);
    for (size_t e = 0; e < ref.size(); ++e) ref[e] = p[e] + ref[e];
  }
  for (size_t e = 0; e < out.size(); ++e) ASSERT_EQ(out[e], ref[e]) << "@" << e;
}

}  // namespace
}  // namespace tilec
