// The other operations of LANGUAGE.md §5 (construction, elementwise arithmetic, scalar
// multiply/divide, negation, tile_map with a builtin and a @wp.func, tile_sum, element reads,
// tile_load/store/atomic_add with bounds on both sides, tile_store_indexed) and scalar kernel
// code (loops with break/continue, while, early return, inlined funcs, math, casts, structs).
#include <gtest/gtest.h>

#include <cmath>

#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

TEST(TileOps, ConstructionArithmeticMapSum) {
  auto c = CompileText(R"(
@wp.func
def relu(v: float) -> float:
    if v > 0.0:
        return v
    return 0.0

@wp.kernel
def k(x: wp.array2d[float], out: wp.array2d[float], sums: wp.array[float]):
    t = wp.tile_load(x, shape=(3, 4))
    z = wp.tile_zeros(shape=(3, 4), dtype=float)
    o = wp.tile_ones(shape=(3, 4), dtype=float)
    f = wp.tile_full(shape=(3, 4), value=0.5, dtype=float)
    r = wp.tile_arange(12, dtype=float)
    a = (t + o) * f - z
    a = a / 2.0
    a = 3.0 * a
    a += -t
    m = wp.tile_map(relu, a)
    q = wp.tile_map(wp.abs, t)
    wp.tile_store(out, m)
    s = wp.tile_sum(q)
    sums[0] = s[0]
    sums[1] = t[2, 1]
    sums[2] = wp.tile_sum(r)[0]
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(12), out(12, -1), sums(3, -1);
  for (int i = 0; i < 12; ++i) x[i] = float(i) - 5.5f;
  tilec_array xa = View(x.data(), {3, 4}), oa = View(out.data(), {3, 4}), sa = View(sums.data(), {3});
  Launch(c.Entry("k"), {&xa, &oa, &sa}, {1}, 4);
  float abs_sum = 0;
  for (int i = 0; i < 12; ++i) {
    float a = 3.0f * (((x[i] + 1.0f) * 0.5f - 0.0f) / 2.0f) - x[i];
    EXPECT_FLOAT_EQ(out[i], a > 0 ? a : 0.0f) << i;
    abs_sum += std::fabs(x[i]);
  }
  EXPECT_FLOAT_EQ(sums[0], abs_sum);
  EXPECT_EQ(sums[1], x[2 * 4 + 1]);
  EXPECT_EQ(sums[2], 66.0f);
}

TEST(TileOps, LoadStoreAtomicBothBounds) {
  // A 4x4 tile at offset (-1, 2) of a 3x5 array: row -1 and columns 5, 6 fall outside.
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], y: wp.array2d[float], acc: wp.array2d[float], prev: wp.array2d[float], i0: int, j0: int):
    t = wp.tile_load(x, shape=(4, 4), offset=(i0, j0))
    wp.tile_store(y, t, offset=(i0, j0))
    p = wp.tile_atomic_add(acc, t, offset=(i0, j0))
    wp.tile_store(prev, p)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(15), y(15, -1), acc(15), prev(16, -9);
  for (int i = 0; i < 15; ++i) x[i] = float(i + 1), acc[i] = 100.0f + float(i);
  std::vector<float> acc0 = acc;
  int32_t i0 = -1, j0 = 2;
  tilec_array xa = View(x.data(), {3, 5}), ya = View(y.data(), {3, 5}), aa = View(acc.data(), {3, 5}),
              pa = View(prev.data(), {4, 4});
  Launch(c.Entry("k"), {&xa, &ya, &aa, &pa, &i0, &j0}, {1}, 4);
  for (int r = 0; r < 3; ++r)
    for (int col = 0; col < 5; ++col) {
      bool covered = col >= 2;
      EXPECT_EQ(y[r * 5 + col], covered ? x[r * 5 + col] : -1.0f);
      EXPECT_EQ(acc[r * 5 + col], covered ? acc0[r * 5 + col] + x[r * 5 + col] : acc0[r * 5 + col]);
    }
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      int gi = a - 1, gj = b + 2;
      bool inb = gi >= 0 && gi < 3 && gj < 5;
      EXPECT_EQ(prev[a * 4 + b], inb ? acc0[gi * 5 + gj] : 0.0f) << a << "," << b;
    }
}

TEST(TileOps, StoreIndexedAndLargeTile) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], y: wp.array2d[float], big: wp.array2d[float]):
    cols = wp.tile_arange(1, 7, 2, dtype=int)
    t = wp.tile_load(x, shape=(2, 3))
    wp.tile_store_indexed(y, indices=cols, t=t, axis=1)
    b = wp.tile_load(big, shape=(64, 96))
    wp.tile_store(big, b * 2.0)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x(6), y(12, 0), big(64 * 96);
  for (int i = 0; i < 6; ++i) x[i] = float(i + 1);
  for (size_t i = 0; i < big.size(); ++i) big[i] = float(i);
  tilec_array xa = View(x.data(), {2, 3}), ya = View(y.data(), {2, 6}), ba = View(big.data(), {64, 96});
  Launch(c.Entry("k"), {&xa, &ya, &ba}, {1}, 4);
  // Column 5 of a 6-wide array exists; index 5 = 2*2+1 stays in bounds.
  EXPECT_EQ(y, (std::vector<float>{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6}));
  for (size_t i = 0; i < big.size(); ++i) ASSERT_EQ(big[i], 2.0f * float(i)) << i;
}

// Rows stored into an array larger than the caches take non-temporal stores on the CPU;
// misaligned rows, partial rows and rows outside the array must still land exactly.
TEST(TileOps, StoreRowsIntoHugeArray) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], y: wp.array2d[float], r: int, col: int):
    i = wp.tid()
    t = wp.tile_load(x, shape=(4, 32), offset=(i * 4, 0))
    wp.tile_store(y, t, offset=(r + i * 4, col))
)");
  ASSERT_TRUE(c.module);
  const int64_t rows = 4100, cols = 1025;  // 16.8 MB; an odd width leaves most rows unaligned
  std::vector<float> x(8 * 32), y(size_t(rows * cols), -1.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) + 0.5f;
  tilec_array xa = View(x.data(), {8, 32}), ya = View(y.data(), {rows, cols});
  for (int32_t col : {0, 3, 1000}) {  // aligned, misaligned, cut by the last column
    int32_t r = int32_t(rows) - 6;    // the second block's last two rows fall outside
    Launch(c.Entry("k"), {&xa, &ya, &r, &col}, {2}, 1);
    for (int64_t i = 0; i < 8; ++i) {
      for (int64_t j = 0; j < 32; ++j) {
        const int64_t gr = r + i, gc = col + j;
        if (gr >= rows || gc >= cols) continue;
        ASSERT_EQ(y[size_t(gr * cols + gc)], x[size_t(i * 32 + j)]) << col << " " << i << " " << j;
      }
    }
    // Nothing around the written block changed.
    ASSERT_EQ(y[size_t((r - 1) * cols + col)], -1.0f);
    if (col + 32 < cols) ASSERT_EQ(y[size_t(r * cols + col + 32)], -1.0f);
    if (col == 1000) ASSERT_EQ(y[size_t(r * cols + col - 1)], -1.0f);
  }
}

// The launch sets the size from which stores stream (the runtime passes the last-level cache's
// size): gathered rows stored into the same 1 MiB array, streamed below its size and cached
// above it, land identically, aligned or not, and rows outside the array are dropped.
TEST(TileOps, StreamingThresholdComesFromTheLaunch) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], idx: wp.array[int], y: wp.array2d[float], col: int):
    i = wp.tid()
    rows = wp.tile_load(idx, shape=(8,), offset=(i * 8,))
    t = wp.tile_load_indexed(x, indices=rows, shape=(8, 64), axis=0)
    wp.tile_store(y, t, offset=(i * 8, col))
)");
  ASSERT_TRUE(c.module);
  const int64_t xrows = 300, rows = 1000, cols = 262;  // y: 1,048,000 bytes
  std::vector<float> x(size_t(xrows * 64));
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 0.25f;
  std::vector<int32_t> ids(static_cast<size_t>(rows));
  for (int64_t i = 0; i < rows; ++i) ids[size_t(i)] = int32_t((i * 37) % xrows);
  for (int32_t col : {0, 2, 200}) {  // 16-byte aligned rows, misaligned rows, cut by the last column
    for (int64_t threshold : {int64_t(1) << 16, int64_t(1) << 30}) {
      std::vector<float> y(size_t(rows * cols), -1.0f);
      tilec_array xa = View(x.data(), {xrows, 64}), ia = View(ids.data(), {rows}), ya = View(y.data(), {rows, cols});
      Launch(c.Entry("k"), {&xa, &ia, &ya, &col}, {rows / 8}, 1, threshold);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < cols; ++j) {
          const float want = j >= col && j < col + 64 ? x[size_t(ids[size_t(r)] * 64 + (j - col))] : -1.0f;
          ASSERT_EQ(y[size_t(r * cols + j)], want) << "col " << col << ", threshold " << threshold << ", y[" << r << ", " << j << "]";
        }
    }
  }
}

TEST(ScalarCode, LoopsFuncsMathCasts) {
  auto c = CompileText(R"(
@wp.struct
class P:
    x: float
    n: int

@wp.func
def collatz_steps(v: int) -> int:
    steps = int(0)
    while v != 1:
        if v % 2 == 0:
            v = v // 2
        else:
            v = 3 * v + 1
        steps += 1
        if steps > 1000:
            return -1
    return steps

@wp.kernel
def k(out: wp.array2d[float]):
    i = wp.tid()
    s = int(0)
    for k in range(20):
        if k % 3 == 0:
            continue
        if k > i + 5:
            break
        s += k
    out[i, 0] = float(s)
    out[i, 1] = float(collatz_steps(i + 1))
    p = P()
    p.x = wp.sqrt(float(i)) + wp.exp(0.0) + wp.floor(2.7) + wp.ceil(-1.5)
    p.n = wp.min(i, 3) + wp.max(-i, -2) + wp.clamp(i, 1, 4)
    out[i, 2] = p.x * float(p.n)
    out[i, 3] = float((-7 - i) // 2) + float((-7 - i) % 3) + float(wp.int8(130 + i))
    j = 0
    while j < 100:
        j = j + 7
    out[i, 4] = wp.pow(2.0, float(i)) - float(j)
)");
  ASSERT_TRUE(c.module);
  const int n = 6;
  std::vector<float> out(n * 5, -1);
  tilec_array oa = View(out.data(), {n, 5});
  Launch(c.Entry("k"), {&oa}, {n});
  for (int i = 0; i < n; ++i) {
    int s = 0;
    for (int k = 0; k < 20; ++k) {
      if (k % 3 == 0) continue;
      if (k > i + 5) break;
      s += k;
    }
    EXPECT_EQ(out[i * 5 + 0], float(s)) << i;
    int v = i + 1, steps = 0;
    while (v != 1) v = v % 2 == 0 ? v / 2 : 3 * v + 1, ++steps;
    EXPECT_EQ(out[i * 5 + 1], float(steps)) << i;
    float px = std::sqrt(float(i)) + 1.0f + 2.0f - 1.0f;
    int pn = std::min(i, 3) + std::max(-i, -2) + std::clamp(i, 1, 4);
    EXPECT_FLOAT_EQ(out[i * 5 + 2], px * float(pn)) << i;
    int a = -7 - i;
    // `//` floors; `%` truncates (C semantics, as Warp); int8 wraps.
    int floordiv = a / 2 - ((a % 2 != 0) && (a < 0) ? 1 : 0);
    EXPECT_EQ(out[i * 5 + 3], float(floordiv) + float(a % 3) + float(int8_t(130 + i))) << i;
    EXPECT_EQ(out[i * 5 + 4], std::pow(2.0f, float(i)) - 105.0f) << i;
  }
}

// Tiles of a @wp.struct add, subtract, negate and sum field by field, as Warp's generated struct
// operators: 32-bit int, float and vector fields (and a nested struct's) combine; bool and
// int8 fields keep the first operand's value (the first element's for a sum). `t[i] += s` and
// `-=` on one element apply every lane's value.
struct StructQ {
  bool flag;
  int8_t small;
  int32_t n;
  float value;
};
struct StructN {
  StructQ q;
  float w[3];
};

TEST(StructTiles, FieldwiseArithmeticSumsAndElementUpdates) {
  compiler::CompileOptions copts;
  copts.block_dim = 8;  // `acc[i] += x[lane]` applies the block's lanes, one after another
  auto c = CompileText(R"(
@wp.struct
class Q:
    flag: wp.bool
    small: wp.int8
    n: int
    value: float

@wp.struct
class N:
    q: Q
    w: wp.vec3

@wp.kernel
def ops(x: wp.array(dtype=N), twice: wp.array(dtype=N), back: wp.array(dtype=N), neg: wp.array(dtype=N),
        total: wp.array(dtype=N), lanes: wp.array(dtype=N), scattered: wp.array(dtype=N)):
    _t, lane = wp.tid()
    t = wp.tile_load(x, shape=8)
    wp.tile_store(twice, t + t)
    u = t + t
    u -= t
    wp.tile_store(back, u)
    wp.tile_store(neg, -t)
    wp.tile_store(total, wp.tile_sum(t))
    acc = wp.tile_zeros(shape=2, dtype=N, storage="shared")
    acc[1] += x[lane]
    acc[0] -= x[lane]
    wp.tile_store(lanes, acc)
    sc = wp.tile_zeros(shape=2, dtype=N, storage="shared")
    wp.tile_scatter_add(sc, lane % 2, x[lane], lane != 3)
    wp.tile_store(scattered, sc)
)",
                       copts);
  ASSERT_TRUE(c.module);
  static_assert(sizeof(StructN) == 24);
  const int n = 8;
  std::vector<StructN> x(n), twice(n), back(n), neg(n), total(1), lanes(2), scattered(2);
  for (int i = 0; i < n; ++i) x[size_t(i)] = {{i % 2 == 1, int8_t(i - 3), 10 * i + 1, 0.5f * float(i) - 1.0f}, {float(i), float(-i), 2.0f * float(i)}};
  tilec_array xa = View(x.data(), {n}), ta = View(twice.data(), {n}), ba = View(back.data(), {n}),
              na = View(neg.data(), {n}), sa = View(total.data(), {1}), la = View(lanes.data(), {2}),
              ca = View(scattered.data(), {2});
  Launch(c.Entry("ops"), {&xa, &ta, &ba, &na, &sa, &la, &ca}, {1}, n);
  StructN sum{{false, 0, 0, 0.0f}, {0, 0, 0}};
  for (int i = 0; i < n; ++i) {
    const StructN& e = x[size_t(i)];
    sum.q.n += e.q.n;
    sum.q.value += e.q.value;
    for (int k = 0; k < 3; ++k) sum.w[k] += e.w[k];
    for (const auto& [got, f] : {std::pair{twice[size_t(i)], 2.0f}, std::pair{back[size_t(i)], 1.0f}, std::pair{neg[size_t(i)], -1.0f}}) {
      EXPECT_EQ(got.q.flag, e.q.flag) << i;
      EXPECT_EQ(got.q.small, e.q.small) << i;
      EXPECT_EQ(got.q.n, int32_t(f) * e.q.n) << i;
      EXPECT_EQ(got.q.value, f * e.q.value) << i;
      for (int k = 0; k < 3; ++k) EXPECT_EQ(got.w[k], f * e.w[k]) << i << " " << k;
    }
  }
  EXPECT_EQ(total[0].q.flag, x[0].q.flag);
  EXPECT_EQ(total[0].q.small, x[0].q.small);
  EXPECT_EQ(total[0].q.n, sum.q.n);
  EXPECT_FLOAT_EQ(total[0].q.value, sum.q.value);
  for (int k = 0; k < 3; ++k) EXPECT_FLOAT_EQ(total[0].w[k], sum.w[k]) << k;
  // The element updates take the block's lanes (one under 1-lane emulation).
  StructN lane_sum{{false, 0, 0, 0.0f}, {0, 0, 0}};
  for (int i = 0; i < std::min(testing::Lanes(n), n); ++i) {
    lane_sum.q.n += x[size_t(i)].q.n;
    lane_sum.q.value += x[size_t(i)].q.value;
    for (int k = 0; k < 3; ++k) lane_sum.w[k] += x[size_t(i)].w[k];
  }
  for (int e = 0; e < 2; ++e) {
    const float f = e == 1 ? 1.0f : -1.0f;
    EXPECT_FALSE(lanes[size_t(e)].q.flag);
    EXPECT_EQ(lanes[size_t(e)].q.small, 0);
    EXPECT_EQ(lanes[size_t(e)].q.n, int32_t(f) * lane_sum.q.n) << e;
    EXPECT_FLOAT_EQ(lanes[size_t(e)].q.value, f * lane_sum.q.value) << e;
    for (int k = 0; k < 3; ++k) EXPECT_FLOAT_EQ(lanes[size_t(e)].w[k], f * lane_sum.w[k]) << e << " " << k;
  }
  // tile_scatter_add: lane l adds into element l % 2, except lane 3.
  StructN want[2] = {};
  for (int i = 0; i < std::min(testing::Lanes(n), n); ++i) {
    if (i == 3) continue;
    StructN& w = want[i % 2];
    w.q.n += x[size_t(i)].q.n;
    w.q.value += x[size_t(i)].q.value;
    for (int k = 0; k < 3; ++k) w.w[k] += x[size_t(i)].w[k];
  }
  for (int e = 0; e < 2; ++e) {
    EXPECT_FALSE(scattered[size_t(e)].q.flag);
    EXPECT_EQ(scattered[size_t(e)].q.small, 0);
    EXPECT_EQ(scattered[size_t(e)].q.n, want[e].q.n) << e;
    EXPECT_FLOAT_EQ(scattered[size_t(e)].q.value, want[e].q.value) << e;
    for (int k = 0; k < 3; ++k) EXPECT_FLOAT_EQ(scattered[size_t(e)].w[k], want[e].w[k]) << e << " " << k;
  }
}

// Struct constructors with field values, as Warp's: in order, by name, and mixed; the fields
// not given are zero. A struct made per thread from its index, and a tile_reduce over them.
TEST(ScalarCode, StructConstructorsWithFieldValues) {
  auto c = CompileText(R"(
@wp.struct
class KV:
    key: int
    value: float
    weight: wp.float64

@wp.func
def larger(a: KV, b: KV) -> KV:
    if b.value > a.value:
        return b
    return a

@wp.kernel
def k(x: wp.array[float], out: wp.array2d[float], best: wp.array[float]):
    i = wp.tid()
    a = KV(i, x[i])
    b = KV(value=x[i] * 2.0, key=-i)
    d = KV(7, weight=wp.float64(0.5))
    out[i, 0] = float(a.key) + a.value + float(a.weight)
    out[i, 1] = float(b.key) + b.value + float(b.weight)
    out[i, 2] = float(d.key) + d.value + float(d.weight)

@wp.func
def pair(k: int, v: float) -> KV:
    return KV(k, v)

@wp.kernel
def top(x: wp.array[float], best: wp.array[float]):
    t = wp.tile_map(pair, wp.tile_arange(8, dtype=int), wp.tile_load(x, shape=8))
    m = wp.tile_reduce(larger, t)
    best[0] = float(m[0].key)
    best[1] = m[0].value
)");
  ASSERT_TRUE(c.module);
  const int n = 8;
  std::vector<float> x = {0.5f, -2.0f, 3.25f, 1.0f, 9.5f, -7.0f, 2.0f, 4.0f}, out(n * 3, -1), best(2, -1);
  tilec_array xa = View(x.data(), {n}), oa = View(out.data(), {n, 3}), ba = View(best.data(), {2});
  Launch(c.Entry("k"), {&xa, &oa, &ba}, {n});
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(out[size_t(i * 3 + 0)], float(i) + x[size_t(i)]) << i;
    EXPECT_EQ(out[size_t(i * 3 + 1)], float(-i) + x[size_t(i)] * 2.0f) << i;
    EXPECT_EQ(out[size_t(i * 3 + 2)], 7.5f) << i;
  }
  Launch(c.Entry("top"), {&xa, &ba}, {1}, n);
  EXPECT_EQ(best[0], 4.0f);
  EXPECT_EQ(best[1], 9.5f);
}

TEST(ScalarCode, EarlyReturnAndTid2D) {
  auto c = CompileText(R"(
@wp.kernel(enable_backward=False)
def k(a: wp.array2d[float]):
    i, j = wp.tid()
    if a[i, j] < 0.0:
        return
    a[i, j] = float(i * 10 + j)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> a(12);
  for (int i = 0; i < 12; ++i) a[i] = (i % 5 == 0) ? -1.0f : 0.0f;
  tilec_array aa = View(a.data(), {3, 4});
  Launch(c.Entry("k"), {&aa}, {3, 4});
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      int l = i * 4 + j;
      EXPECT_EQ(a[l], l % 5 == 0 ? -1.0f : float(i * 10 + j));
    }
}

}  // namespace
}  // namespace tilec
