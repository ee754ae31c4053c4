// Views, region writes, gathers and sort from source: subscript views and slices (negative
// steps and indices, runtime indices), wp.tile_view, element/slice/tile_assign writes through
// view variables (also inside a loop), `+=` and `*=` on subscript views, t[idx, :] gathers
// along each axis, and tile_sort of 1-D and 2-D keys with repeats and NaN. References are index loops written here; the sort's
// is std::stable_sort with NaN last.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Inputs;
using testing::Launch;
using testing::View;
using testing::WithDType;

template <typename T>
std::vector<T> Counting(int n, int start) {
  std::vector<T> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = T(start + i);
  return v;
}

template <typename T>
void Views(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array3d[{T}], a: wp.array2d[{T}], b: wp.array3d[{T}], c: wp.array3d[{T}], d: wp.array1d[{T}],
      e: wp.array3d[{T}], i: int):
    t = wp.tile_load(x, shape=(2, 3, 5))
    wp.tile_store(a, t[1])
    wp.tile_store(b, t[:, 1:3])
    wp.tile_store(c, t[:, ::-1, 4:0:-2])
    wp.tile_store(d, t[-1, i, 1:])
    wp.tile_store(e, wp.tile_view(t, offset=(0, 1, 2), shape=(2, 2, 3)))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Counting<T>(30, 1);
  auto X = [&](int p, int q, int r) { return x[size_t(p * 15 + q * 5 + r)]; };
  for (int bd : {1, 3, 32}) {
    for (int i : {2, -3, 0}) {
      std::vector<T> a(15, T(-9)), b(20, T(-9)), cc(12, T(-9)), d(4, T(-9)), e(12, T(-9));
      tilec_array xa = View(x.data(), {2, 3, 5}), aa = View(a.data(), {3, 5}), ba = View(b.data(), {2, 2, 5}),
                  ca = View(cc.data(), {2, 3, 2}), da = View(d.data(), {4}), ea = View(e.data(), {2, 2, 3});
      int32_t iv = i;
      Launch(c.Entry("k"), {&xa, &aa, &ba, &ca, &da, &ea, &iv}, {1}, bd);
      for (int q = 0; q < 3; ++q)
        for (int r = 0; r < 5; ++r) EXPECT_EQ(a[size_t(q * 5 + r)], X(1, q, r)) << dtype << " t[1]";
      for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 2; ++q)
          for (int r = 0; r < 5; ++r) EXPECT_EQ(b[size_t(p * 10 + q * 5 + r)], X(p, 1 + q, r)) << dtype << " t[:, 1:3]";
      for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 3; ++q)
          for (int k = 0; k < 2; ++k)
            EXPECT_EQ(cc[size_t(p * 6 + q * 2 + k)], X(p, 2 - q, 4 - 2 * k)) << dtype << " t[:, ::-1, 4:0:-2]";
      int iw = i < 0 ? i + 3 : i;
      for (int k = 0; k < 4; ++k) EXPECT_EQ(d[size_t(k)], X(1, iw, 1 + k)) << dtype << " t[-1, i, 1:] i=" << i;
      for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 2; ++q)
          for (int k = 0; k < 3; ++k)
            EXPECT_EQ(e[size_t(p * 6 + q * 3 + k)], X(p, 1 + q, 2 + k)) << dtype << " tile_view bd=" << bd;
    }
  }
}

TEST(TileViews, SlicesIndicesAndTileViewInt32) { Views<int32_t>("wp.int32"); }
TEST(TileViews, SlicesIndicesAndTileViewFloat32) { Views<float>("wp.float32"); }
TEST(TileViews, SlicesIndicesAndTileViewFloat64) { Views<double>("wp.float64"); }
// Views move elements, never round them: a 16-bit float is its bit pattern here.
TEST(TileViews, SlicesIndicesAndTileViewFloat16) { Views<uint16_t>("wp.float16"); }

// Warp's explicit spelling of a slice view: `wp.tile_view(t, offset=(slice(a, b, c), i))` is
// `t[a:b:c, i]`, None bounds and negative steps included; a view variable made so writes
// through to its tile.
TEST(TileViews, SliceObjectsInTileViewOffsets) {
  auto c = CompileText(R"(
@wp.kernel
def k(x: wp.array2d[float], a: wp.array2d[float], b: wp.array1d[float], out: wp.array2d[float]):
    t = wp.tile_load(x, shape=(4, 6))
    wp.tile_store(a, wp.tile_view(t, offset=(slice(3, -5, -1), slice(None, None, 2))))
    wp.tile_store(b, wp.tile_view(t, (slice(4), 1)))
    v = wp.tile_view(t, offset=(slice(1, 3, 1),))
    v[0, 0] = -1.0
    wp.tile_store(out, t)
)");
  ASSERT_TRUE(c.module);
  std::vector<float> x = Counting<float>(24, 1);
  for (int bd : {1, 4, 32}) {
    std::vector<float> a(9, -9.0f), b(4, -9.0f), out(24, -9.0f);
    tilec_array xa = View(x.data(), {4, 6}), aa = View(a.data(), {3, 3}), ba = View(b.data(), {4}),
                oa = View(out.data(), {4, 6});
    Launch(c.Entry("k"), {&xa, &aa, &ba, &oa}, {1}, bd);
    // rows 3, 2, 1 (3:-5:-1 stops before row -1), columns 0, 2, 4
    for (int r = 0; r < 3; ++r)
      for (int q = 0; q < 3; ++q) EXPECT_EQ(a[size_t(r * 3 + q)], x[size_t((3 - r) * 6 + 2 * q)]) << bd;
    for (int r = 0; r < 4; ++r) EXPECT_EQ(b[size_t(r)], x[size_t(r * 6 + 1)]) << bd;
    for (int i = 0; i < 24; ++i) EXPECT_EQ(out[size_t(i)], i == 6 ? -1.0f : x[size_t(i)]) << bd << " " << i;
  }
}

template <typename T>
void Writes(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], s: wp.array2d[{T}], out: wp.array2d[{T}], v: {T}):
    t = wp.tile_load(x, shape=(4, 6))
    src = wp.tile_load(s, shape=(2, 3))
    t[0, 1] = v
    t[1, ::2] = v
    wp.tile_assign(t, src, offset=(2, 3))
    rows = t[2:4]
    for j in range(2):
        rows[j, 0] = rows[j, 4]
    col = wp.tile_view(t, offset=(0, 5), shape=(4, 1))
    col += col
    t[3] = t[0]
    t[1] += t[3]
    t[0:2, 4:6] *= src[0:2, 1:3]
    wp.tile_assign(rows, wp.tile_full(shape=(1, 2), value=v, dtype={T}), offset=(0, 1))
    wp.tile_store(out, t)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Counting<T>(24, 1), s = Counting<T>(6, 100);
  T v = T(-7);
  // The same steps on a plain array.
  std::vector<T> ref = x;
  auto R = [&](int i, int j) -> T& { return ref[size_t(i * 6 + j)]; };
  R(0, 1) = v;
  for (int j = 0; j < 6; j += 2) R(1, j) = v;
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) R(2 + i, 3 + j) = s[size_t(i * 3 + j)];
  for (int j = 0; j < 2; ++j) R(2 + j, 0) = R(2 + j, 4);
  for (int i = 0; i < 4; ++i) R(i, 5) = T(R(i, 5) + R(i, 5));
  for (int j = 0; j < 6; ++j) R(3, j) = R(0, j);
  for (int j = 0; j < 6; ++j) R(1, j) = T(R(1, j) + R(3, j));
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j) R(i, 4 + j) = T(R(i, 4 + j) * s[size_t(i * 3 + 1 + j)]);
  R(2, 1) = v;
  R(2, 2) = v;
  for (int bd : {1, 3, 32}) {
    std::vector<T> out(24, T(-99));
    tilec_array xa = View(x.data(), {4, 6}), sa = View(s.data(), {2, 3}), oa = View(out.data(), {4, 6});
    Launch(c.Entry("k"), {&xa, &sa, &oa, &v}, {1}, bd);
    for (int i = 0; i < 24; ++i) EXPECT_EQ(out[size_t(i)], ref[size_t(i)]) << dtype << " bd=" << bd << " @" << i;
  }
}

TEST(TileWrites, ElementsSlicesAssignAndViewVariablesInt32) { Writes<int32_t>("wp.int32"); }
TEST(TileWrites, ElementsSlicesAssignAndViewVariablesFloat32) { Writes<float>("wp.float32"); }
TEST(TileWrites, ElementsSlicesAssignAndViewVariablesFloat64) { Writes<double>("wp.float64"); }

template <typename T>
void Gathers(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array2d[{T}], ir: wp.array[int], ic: wp.array[int], g0: wp.array2d[{T}], g1: wp.array2d[{T}]):
    t = wp.tile_load(x, shape=(5, 4))
    r = wp.tile_load(ir, shape=6)
    c = wp.tile_load(ic, shape=3)
    wp.tile_store(g0, t[r, :])
    wp.tile_store(g1, t[:, c])
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Counting<T>(20, 1);
  std::vector<int32_t> ir = {4, 0, -1, 2, 2, -5}, ic = {3, -4, 1};
  for (int bd : {1, 3, 32}) {
    std::vector<T> g0(24, T(-9)), g1(15, T(-9));
    tilec_array xa = View(x.data(), {5, 4}), ra = View(ir.data(), {6}), ca = View(ic.data(), {3}),
                g0a = View(g0.data(), {6, 4}), g1a = View(g1.data(), {5, 3});
    Launch(c.Entry("k"), {&xa, &ra, &ca, &g0a, &g1a}, {1}, bd);
    for (int k = 0; k < 6; ++k) {
      int row = ir[size_t(k)] < 0 ? ir[size_t(k)] + 5 : ir[size_t(k)];
      for (int j = 0; j < 4; ++j) EXPECT_EQ(g0[size_t(k * 4 + j)], x[size_t(row * 4 + j)]) << dtype << " bd=" << bd;
    }
    for (int i = 0; i < 5; ++i)
      for (int k = 0; k < 3; ++k) {
        int col = ic[size_t(k)] < 0 ? ic[size_t(k)] + 4 : ic[size_t(k)];
        EXPECT_EQ(g1[size_t(i * 3 + k)], x[size_t(i * 4 + col)]) << dtype << " bd=" << bd;
      }
  }
}

TEST(TileGathers, AlongEachAxisWithNegativeAndRepeatedIndicesInt32) { Gathers<int32_t>("wp.int32"); }
TEST(TileGathers, AlongEachAxisWithNegativeAndRepeatedIndicesFloat64) { Gathers<double>("wp.float64"); }

// The order tile_sort documents: ascending, NaN last, equal keys in their original order.
template <typename K>
std::vector<int> StableOrder(const std::vector<K>& keys, double (*key_value)(K)) {
  std::vector<int> idx(keys.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
    double x = key_value(keys[size_t(a)]), y = key_value(keys[size_t(b)]);
    if (std::isnan(x)) return false;
    return std::isnan(y) || x < y;
  });
  return idx;
}

template <typename K>
void Sorts(const std::string& dtype, double (*key_value)(K), std::vector<K> (*make)(int)) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(k1: wp.array[{T}], v1: wp.array[int], k2: wp.array2d[{T}], v2: wp.array2d[float], k3: wp.array[{T}],
      v3: wp.array[int]):
    a = wp.tile_load(k1, shape=37)
    b = wp.tile_load(v1, shape=37)
    wp.tile_sort(a, b)
    wp.tile_store(k1, a)
    wp.tile_store(v1, b)
    p = wp.tile_load(k2, shape=(4, 9))
    q = wp.tile_load(v2, shape=(4, 9))
    wp.tile_sort(p, q)
    wp.tile_store(k2, p)
    wp.tile_store(v2, q)
    m = wp.tile_load(k3, shape=300)
    n = wp.tile_load(v3, shape=300)
    wp.tile_sort(m, n)
    wp.tile_store(k3, m)
    wp.tile_store(v3, n)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  for (int bd : {1, 3, 32, 64}) {
    std::vector<K> k1 = make(37), k2 = make(36), k3 = make(300);
    std::vector<int32_t> v1(37), v3(300);
    std::vector<float> v2(36);
    for (size_t i = 0; i < v1.size(); ++i) v1[i] = int32_t(i);
    for (size_t i = 0; i < v2.size(); ++i) v2[i] = float(i) + 0.5f;
    for (size_t i = 0; i < v3.size(); ++i) v3[i] = int32_t(1000 + i);
    const std::vector<K> in1 = k1, in2 = k2, in3 = k3;
    const std::vector<int32_t> iv1 = v1, iv3 = v3;
    const std::vector<float> iv2 = v2;
    tilec_array k1a = View(k1.data(), {37}), v1a = View(v1.data(), {37}), k2a = View(k2.data(), {4, 9}),
                v2a = View(v2.data(), {4, 9}), k3a = View(k3.data(), {300}), v3a = View(v3.data(), {300});
    Launch(c.Entry("k"), {&k1a, &v1a, &k2a, &v2a, &k3a, &v3a}, {1}, bd);
    auto check = [&](const std::vector<K>& in, const std::vector<K>& out, auto& vin, auto& vout, const char* what) {
      std::vector<int> order = StableOrder(in, key_value);
      for (size_t r = 0; r < order.size(); ++r) {
        double want = key_value(in[size_t(order[r])]), got = key_value(out[r]);
        if (std::isnan(want)) EXPECT_TRUE(std::isnan(got)) << dtype << " " << what << " bd=" << bd << " @" << r;
        else EXPECT_EQ(got, want) << dtype << " " << what << " bd=" << bd << " @" << r;
        EXPECT_EQ(vout[r], vin[size_t(order[r])]) << dtype << " " << what << " values bd=" << bd << " @" << r;
      }
    };
    check(in1, k1, iv1, v1, "37");
    check(in2, k2, iv2, v2, "4x9");
    check(in3, k3, iv3, v3, "300");
  }
}

// Keys with many repeats (stability is visible), negatives, and for floats NaN and -0.0.
template <typename K>
std::vector<K> IntKeys(int n) {
  std::vector<K> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = K((i * 37 + 11) % 13 - 6);
  return v;
}
template <typename K>
std::vector<K> FloatKeys(int n) {
  std::vector<K> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = K(((i * 29 + 7) % 17 - 8) * 0.25);
  v[3] = K(NAN);
  v[size_t(n - 2)] = K(NAN);
  v[5] = K(-0.0);
  return v;
}
std::vector<uint16_t> HalfKeys(int n) {
  std::vector<float> f = FloatKeys<float>(n);
  std::vector<uint16_t> v;
  for (float x : f) v.push_back(FloatToHalf(x));
  return v;
}
double IntValue(int32_t k) { return double(k); }
double UIntValue(uint32_t k) { return double(k); }
double FloatValue(float k) { return double(k); }
double DoubleValue(double k) { return k; }
double HalfValue(uint16_t k) { return double(HalfToFloat(k)); }
std::vector<uint32_t> UIntKeys(int n) {
  std::vector<uint32_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[size_t(i)] = uint32_t((i * 37 + 11) % 13) * 0x30000000u;
  return v;
}

TEST(TileSort, StableWithRepeatsInt32) { Sorts<int32_t>("wp.int32", IntValue, IntKeys<int32_t>); }
TEST(TileSort, StableWithRepeatsUInt32) { Sorts<uint32_t>("wp.uint32", UIntValue, UIntKeys); }
TEST(TileSort, NaNLastFloat32) { Sorts<float>("wp.float32", FloatValue, FloatKeys<float>); }
TEST(TileSort, NaNLastFloat64) { Sorts<double>("wp.float64", DoubleValue, FloatKeys<double>); }
TEST(TileSort, NaNLastFloat16) { Sorts<uint16_t>("wp.float16", HalfValue, HalfKeys); }


// a[i] of an n-D array is an (n-1)-D view (Warp's user guide: wp.tile_load(a[i], n)); a view
// of a view, scalar reads and stores through views, and a block index past the array: its view
// is empty, so tile stores through it are skipped and tile loads read zero.
TEST(ArrayViews, RowsOfArraysForTilesAndScalars) {
  auto c = CompileText(R"(
@wp.kernel
def rows(a: wp.array2d[float], b: wp.array2d[float], c: wp.array3d[float], d: wp.array1d[float]):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=8)
    wp.tile_store(b[i], wp.tile_sum(t))
    wp.tile_store(c[1, i], wp.tile_view(t, offset=(2,), shape=(3,)))
    if i < 5:
        v = c[0, i]
        v[2] = a[i][5]
    d[i] = wp.tile_load(c[1][i], shape=3)[1]
)");
  ASSERT_TRUE(c.module);
  const int N = 6, M = 5;  // one more block than c has rows: c[1, 5] is empty
  std::vector<float> a(N * 8), b(N, -1.0f), cc(2 * M * 3, -9.0f), d(N, -1.0f);
  for (int k = 0; k < N * 8; ++k) a[size_t(k)] = float(k % 11) * 0.5f;
  for (int bd : {1, 3, 32}) {
    std::fill(cc.begin(), cc.end(), -9.0f);
    tilec_array aa = View(a.data(), {N, 8}), ba = View(b.data(), {N, 1}), ca = View(cc.data(), {2, M, 3}),
                da = View(d.data(), {N});
    Launch(c.Entry("rows"), {&aa, &ba, &ca, &da}, {N}, bd);
    for (int i = 0; i < N; ++i) {
      float s = 0;
      for (int k = 0; k < 8; ++k) s += a[size_t(i * 8 + k)];
      EXPECT_EQ(b[size_t(i)], s) << "bd=" << bd << " row " << i;
      if (i < M) {
        for (int k = 0; k < 3; ++k)
          EXPECT_EQ(cc[size_t(15 + i * 3 + k)], a[size_t(i * 8 + 2 + k)]) << "c[1, i], i=" << i << " k=" << k;
        EXPECT_EQ(cc[size_t(i * 3 + 2)], a[size_t(i * 8 + 5)]) << "v[2], i=" << i;
        EXPECT_EQ(d[size_t(i)], a[size_t(i * 8 + 3)]) << "d[i], i=" << i;
      } else {
        EXPECT_EQ(d[size_t(i)], 0.0f) << "a tile load through an empty view reads zero";
      }
    }
    for (int k = 0; k < 15; ++k)
      if (k % 3 != 2) EXPECT_EQ(cc[size_t(k)], -9.0f) << "bd=" << bd << " untouched element " << k;
  }
}


// tile_reduce with a @wp.func combiner: a left fold from the first element (slice), on a
// non-associative combiner so that the order is visible, along each axis and over all.
template <typename T>
void FuncFold(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.func
def mix(a: {T}, b: {T}) -> {T}:
    return a * {T}(2) - b

@wp.kernel
def k(x: wp.array2d[{T}], a: wp.array[{T}], b: wp.array[{T}], all: wp.array[{T}]):
    t = wp.tile_load(x, shape=(3, 5))
    wp.tile_store(a, wp.tile_reduce(mix, t, axis=0))
    wp.tile_store(b, wp.tile_reduce(mix, t, axis=1))
    wp.tile_store(all, wp.tile_reduce(mix, t))
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x = Inputs<T>(15, 4);
  auto mix = [](T p, T q) { return T(p * T(2) - q); };
  for (int bd : {1, 3, 32}) {
    std::vector<T> a(5, T(-99)), b(3, T(-99)), all(1, T(-99));
    tilec_array xa = View(x.data(), {3, 5}), aa = View(a.data(), {5}), ba = View(b.data(), {3}),
                la = View(all.data(), {1});
    Launch(c.Entry("k"), {&xa, &aa, &ba, &la}, {1}, bd);
    for (int j = 0; j < 5; ++j) {
      T r = x[size_t(j)];
      for (int i = 1; i < 3; ++i) r = mix(r, x[size_t(i * 5 + j)]);
      EXPECT_EQ(a[size_t(j)], r) << dtype << " bd=" << bd << " column " << j;
    }
    for (int i = 0; i < 3; ++i) {
      T r = x[size_t(i * 5)];
      for (int j = 1; j < 5; ++j) r = mix(r, x[size_t(i * 5 + j)]);
      EXPECT_EQ(b[size_t(i)], r) << dtype << " bd=" << bd << " row " << i;
    }
    T r = x[0];
    for (int k = 1; k < 15; ++k) r = mix(r, x[size_t(k)]);
    EXPECT_EQ(all[0], r) << dtype << " bd=" << bd;
  }
}

TEST(TileReduceFunc, LeftFoldAlongEachAxisInt32) { FuncFold<int32_t>("wp.int32"); }
TEST(TileReduceFunc, LeftFoldAlongEachAxisFloat32) { FuncFold<float>("wp.float32"); }
TEST(TileReduceFunc, LeftFoldAlongEachAxisFloat64) { FuncFold<double>("wp.float64"); }


// tile_matmul accumulating over a loop of K slices (Warp's page), with shapes that are not a
// multiple of the block, in float32 and float64 and with a float64 accumulator for float32
// factors; the reference fuses the K products (fma) in order of k in the accumulator's type.
template <typename TA, typename TC>
void Matmul(const std::string& ta, const std::string& tc) {
  std::string src = R"(
@wp.kernel
def gemm(a: wp.array2d[{A}], b: wp.array2d[{A}], c: wp.array2d[{C}]):
    acc = wp.tile_load(c, shape=(5, 7))
    for k in range(2):
        x = wp.tile_load(a, shape=(5, 3), offset=(0, k * 3))
        y = wp.tile_load(b, shape=(3, 7), offset=(k * 3, 0))
        wp.tile_matmul(x, y, acc)
    wp.tile_store(c, acc)
)";
  for (size_t p; (p = src.find("{A}")) != std::string::npos;) src.replace(p, 3, ta);
  for (size_t p; (p = src.find("{C}")) != std::string::npos;) src.replace(p, 3, tc);
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  std::vector<TA> a(5 * 6), b(6 * 7);
  for (size_t i = 0; i < a.size(); ++i) a[i] = TA(double(int(i * 7 % 11) - 5) * 0.375);
  for (size_t i = 0; i < b.size(); ++i) b[i] = TA(double(int(i * 5 % 13) - 6) * 0.625);
  for (int bd : {1, 3, 32}) {
    std::vector<TC> out(35), ref(35);
    for (size_t i = 0; i < out.size(); ++i) out[i] = ref[i] = TC(double(i) * 0.5);
    for (int i = 0; i < 5; ++i)
      for (int j = 0; j < 7; ++j) {
        TC acc = ref[size_t(i * 7 + j)];
        for (int kk = 0; kk < 6; ++kk) acc = std::fma(TC(a[size_t(i * 6 + kk)]), TC(b[size_t(kk * 7 + j)]), acc);
        ref[size_t(i * 7 + j)] = acc;
      }
    tilec_array aa = View(a.data(), {5, 6}), ba = View(b.data(), {6, 7}), ca = View(out.data(), {5, 7});
    Launch(c.Entry("gemm"), {&aa, &ba, &ca}, {1}, bd);
    for (size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], ref[i]) << ta << "/" << tc << " bd=" << bd << " @" << i;
  }
}

TEST(TileMatmul, AccumulatesOverSlicesFloat32) { Matmul<float, float>("wp.float32", "wp.float32"); }
TEST(TileMatmul, AccumulatesOverSlicesFloat64) { Matmul<double, double>("wp.float64", "wp.float64"); }
TEST(TileMatmul, Float32FactorsIntoFloat64) { Matmul<float, double>("wp.float32", "wp.float64"); }

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

// Rank 4: a view with a dropped dimension and a negative step, a region write through a view
// variable, a gather along the last axis and a sort of the flattened tile, for int32 and for
// float16 bit patterns (moved, never rounded), against index loops.
template <typename T>
void RankFour(const std::string& dtype) {
  auto c = CompileText(WithDType(R"(
@wp.kernel
def k(x: wp.array4d[{T}], idx: wp.array[int], v: wp.array3d[{T}], g: wp.array4d[{T}], w: wp.array4d[{T}]):
    t = wp.tile_load(x, shape=(2, 2, 3, 4))
    wp.tile_store(v, t[1, :, ::-1])
    i = wp.tile_load(idx, shape=3)
    wp.tile_store(g, t[:, :, :, i])
    part = t[0, 1]
    part[1:, 2:] = t[1, 0, :2, :2]
    wp.tile_store(w, t)
)",
                                 dtype));
  ASSERT_TRUE(c.module);
  std::vector<T> x(48);
  for (int k = 0; k < 48; ++k) x[size_t(k)] = T(k * 3 + 1);
  std::vector<int32_t> idx = {3, -4, 1};
  auto X = [&](int a, int b, int cc, int d) { return x[size_t(((a * 2 + b) * 3 + cc) * 4 + d)]; };
  for (int bd : {1, 3, 32}) {
    std::vector<T> v(24), g(36), w(48);
    tilec_array xa = View(x.data(), {2, 2, 3, 4}), ia = View(idx.data(), {3}), va = View(v.data(), {2, 3, 4}),
                ga = View(g.data(), {2, 2, 3, 3}), wa = View(w.data(), {2, 2, 3, 4});
    Launch(c.Entry("k"), {&xa, &ia, &va, &ga, &wa}, {1}, bd);
    for (int b = 0; b < 2; ++b)
      for (int cc = 0; cc < 3; ++cc)
        for (int d = 0; d < 4; ++d)
          EXPECT_EQ(v[size_t((b * 3 + cc) * 4 + d)], X(1, b, 2 - cc, d)) << dtype << " bd=" << bd;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int cc = 0; cc < 3; ++cc)
          for (int k = 0; k < 3; ++k) {
            int col = idx[size_t(k)] < 0 ? idx[size_t(k)] + 4 : idx[size_t(k)];
            EXPECT_EQ(g[size_t(((a * 2 + b) * 3 + cc) * 3 + k)], X(a, b, cc, col)) << dtype << " bd=" << bd;
          }
    std::vector<T> ref = x;
    for (int cc = 1; cc < 3; ++cc)
      for (int d = 2; d < 4; ++d) ref[size_t(((0 * 2 + 1) * 3 + cc) * 4 + d)] = X(1, 0, cc - 1, d - 2);
    for (int k = 0; k < 48; ++k) EXPECT_EQ(w[size_t(k)], ref[size_t(k)]) << dtype << " bd=" << bd << " @" << k;
  }
}

TEST(TileViews, RankFourInt32) { RankFour<int32_t>("wp.int32"); }
TEST(TileViews, RankFourFloat16) { RankFour<uint16_t>("wp.float16"); }

}  // namespace
}  // namespace tilec
