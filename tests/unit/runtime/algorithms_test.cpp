// Whole-array algorithms (tilec/algorithms.h) against references written here: std::stable_sort
// on the numeric keys, prefix sums and reductions in float64, run-length encoding by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

const Device kCpu = Device::Cpu();

TEST(ArrayScan, InclusiveAndExclusiveOfIntsAndFloats) {
  std::vector<int32_t> v = {3, -1, 4, 1, -5, 9, 2, 6};
  Array in = Array::FromVector(v, {8}, kCpu), out = Array::Zeros({8}, ScalarType::Int32, kCpu);
  ArrayScan(in, out, true);
  std::vector<int32_t> inc(8), exc(8);
  for (size_t i = 0, s = 0; i < 8; ++i) s += v[i], inc[i] = int32_t(s);
  for (size_t i = 1; i < 8; ++i) exc[i] = inc[i - 1];
  EXPECT_EQ(out.ToVector<int32_t>(), inc);
  ArrayScan(in, out, false);
  EXPECT_EQ(out.ToVector<int32_t>(), exc);

  std::vector<double> d(1000);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> u(-1, 1);
  for (double& x : d) x = u(rng);
  Array din = Array::FromVector(d, {10, 100}, kCpu), dout = Array::Zeros({10, 100}, ScalarType::Float64, kCpu);
  ArrayScan(din, dout, true);
  std::vector<double> got = dout.ToVector<double>();
  double s = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    s += d[i];
    EXPECT_NEAR(got[i], s, 1e-12) << i;
  }
}

TEST(ArrayScan, VectorsScanPerComponentAndStridedViews) {
  ArrayDType vec3 = ArrayDType::Struct(CompositeLayout(Composite::Vector(3, ScalarType::Float32)));
  std::vector<float> v = {1, 10, 100, 2, 20, 200, 3, 30, 300};
  Array in = Array::FromHost(v.data(), {3}, vec3, kCpu), out = Array::Zeros({3}, vec3, kCpu);
  ArrayScan(in, out, true);
  std::vector<float> got(9);
  out.CopyToHost(got.data());
  EXPECT_EQ(got, (std::vector<float>{1, 10, 100, 3, 30, 300, 6, 60, 600}));

  // Every other element of a 1-D array, written into every other element of another.
  Array src = Array::FromVector(std::vector<int64_t>{1, 100, 2, 100, 3, 100}, {6}, kCpu);
  Array dst = Array::Zeros({6}, ScalarType::Int64, kCpu);
  ArrayScan(src.Slice({SliceSpec::Range(0, 6, 2)}), dst.Slice({SliceSpec::Range(1, 6, 2)}), true);
  EXPECT_EQ(dst.ToVector<int64_t>(), (std::vector<int64_t>{0, 1, 0, 3, 0, 6}));
}

TEST(ArrayScan, RefusesMismatchedOrUnsupportedArrays) {
  Array a = Array::Zeros({4}, ScalarType::Int32, kCpu);
  EXPECT_THROW(ArrayScan(a, Array::Zeros({5}, ScalarType::Int32, kCpu), true), Error);
  EXPECT_THROW(ArrayScan(a, Array::Zeros({4}, ScalarType::Float32, kCpu), true), Error);
  Array h = Array::Zeros({4}, ScalarType::UInt8, kCpu);
  EXPECT_THROW(ArrayScan(h, h, true), Error);
}

template <class K>
void CheckSortMatchesStableSort(std::vector<K> keys) {
  const int64_t n = int64_t(keys.size());
  std::vector<int32_t> vals(keys.size());
  for (size_t i = 0; i < vals.size(); ++i) vals[i] = int32_t(i);
  std::vector<std::pair<K, int32_t>> ref;
  for (size_t i = 0; i < keys.size(); ++i) ref.emplace_back(keys[i], vals[i]);
  std::stable_sort(ref.begin(), ref.end(), [](auto& a, auto& b) { return a.first < b.first; });
  keys.resize(2 * n);  // the scratch half Warp's interface asks for
  vals.resize(2 * n);
  Array k = Array::FromVector(keys, {2 * n}, kCpu), v = Array::FromVector(vals, {2 * n}, kCpu);
  RadixSortPairs(k, v, n, 0, int(sizeof(K) * 8));
  std::vector<K> gk = k.ToVector<K>();
  std::vector<int32_t> gv = v.ToVector<int32_t>();
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(gk[i], ref[i].first) << i;
    EXPECT_EQ(gv[i], ref[i].second) << i;
  }
}

TEST(RadixSortPairs, EveryKeyTypeSortsStablyAsNumbers) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> small(-50, 50);
  std::vector<int32_t> i32(500);
  std::vector<int64_t> i64(500);
  std::vector<uint32_t> u32(500);
  std::vector<uint64_t> u64(500);
  std::vector<float> f32(500);
  std::vector<double> f64(500);
  for (size_t i = 0; i < 500; ++i) {
    int x = small(rng);
    i32[i] = x;
    i64[i] = int64_t(x) * 4000000000ll;
    u32[i] = uint32_t(x + 50) * 40000000u;
    u64[i] = uint64_t(x + 50) << 40;
    f32[i] = float(x) * 0.25f;
    f64[i] = double(x) * 1e100;
  }
  CheckSortMatchesStableSort(i32);
  CheckSortMatchesStableSort(i64);
  CheckSortMatchesStableSort(u32);
  CheckSortMatchesStableSort(u64);
  CheckSortMatchesStableSort(f32);
  CheckSortMatchesStableSort(f64);
}

TEST(RadixSortPairs, BitRangeAndSignedZero) {
  // Bits [0, 2) of 5, 6, 7, 4 are 1, 2, 3, 0: only they order the keys.
  Array k = Array::FromVector(std::vector<int32_t>{5, 6, 7, 4, 0, 0, 0, 0}, {8}, kCpu);
  Array v = Array::FromVector(std::vector<int64_t>{50, 60, 70, 40, 0, 0, 0, 0}, {8}, kCpu);
  RadixSortPairs(k, v, 4, 0, 2);
  EXPECT_EQ(k.ToVector<int32_t>()[0], 4);
  std::vector<int64_t> moved = v.ToVector<int64_t>();
  EXPECT_EQ((std::vector<int64_t>(moved.begin(), moved.begin() + 4)), (std::vector<int64_t>{40, 50, 60, 70}));
  // -0.0 orders before 0.0, and negative floats before positive ones.
  Array f = Array::FromVector(std::vector<float>{0.0f, -0.0f, -1.5f, 2.0f, 0, 0, 0, 0}, {8}, kCpu);
  Array w = Array::FromVector(std::vector<int32_t>{0, 1, 2, 3, 0, 0, 0, 0}, {8}, kCpu);
  RadixSortPairs(f, w, 4, 0, 32);
  std::vector<int32_t> order = w.ToVector<int32_t>();
  EXPECT_EQ((std::vector<int32_t>(order.begin(), order.begin() + 4)), (std::vector<int32_t>{2, 1, 0, 3}));
  EXPECT_THROW(RadixSortPairs(f, w, 4, 0, 33), Error);
  EXPECT_THROW(RadixSortPairs(f, Array::Zeros({8}, ScalarType::Int16, kCpu), 4, 0, 32), Error);
}

TEST(SegmentedSortPairs, SortsEachSegmentAndChecksBounds) {
  Array k = Array::FromVector(std::vector<int32_t>{3, 1, 4, 2, 9, 0, 0, 0, 0, 0}, {10}, kCpu);
  Array v = Array::FromVector(std::vector<int32_t>{30, 10, 40, 20, 90, 0, 0, 0, 0, 0}, {10}, kCpu);
  SegmentedSortPairs(k, v, 5, {{0, 2}, {2, 4}});
  std::vector<int32_t> gk = k.ToVector<int32_t>(), gv = v.ToVector<int32_t>();
  EXPECT_EQ((std::vector<int32_t>(gk.begin(), gk.begin() + 5)), (std::vector<int32_t>{1, 3, 2, 4, 9}));
  EXPECT_EQ((std::vector<int32_t>(gv.begin(), gv.begin() + 5)), (std::vector<int32_t>{10, 30, 20, 40, 90}));
  EXPECT_THROW(SegmentedSortPairs(k, v, 5, {{0, 6}}), Error);
  EXPECT_THROW(SegmentedSortPairs(k, v, 5, {{3, 2}}), Error);
}

TEST(RunlengthEncode, RunsAndLengths) {
  std::vector<int32_t> v = {1, 1, 1, 2, 2, 3, 1, 1};
  Array in = Array::FromVector(v, {8}, kCpu);
  Array runs = Array::Zeros({8}, ScalarType::Int32, kCpu), lens = Array::Zeros({8}, ScalarType::Int32, kCpu);
  EXPECT_EQ(RunlengthEncode(in, runs, lens, 8), 4);
  EXPECT_EQ(runs.ToVector<int32_t>(), (std::vector<int32_t>{1, 2, 3, 1, 0, 0, 0, 0}));
  EXPECT_EQ(lens.ToVector<int32_t>(), (std::vector<int32_t>{3, 2, 1, 2, 0, 0, 0, 0}));
  EXPECT_EQ(RunlengthEncode(in, runs, lens, 3), 1);
  EXPECT_EQ(RunlengthEncode(in, runs, lens, 0), 0);
}

TEST(ArraySumAndInner, WholeArrayAndAlongAnAxis) {
  std::vector<double> a(24), b(24);
  for (int i = 0; i < 24; ++i) a[i] = i * 0.5, b[i] = 24 - i;
  Array x = Array::FromVector(a, {2, 3, 4}, kCpu), y = Array::FromVector(b, {2, 3, 4}, kCpu);
  Array one = Array::Zeros({1}, ScalarType::Float64, kCpu);
  ArraySum(x, one, 24, std::nullopt);
  double total = 0, dot = 0;
  for (int i = 0; i < 24; ++i) total += a[i], dot += a[i] * b[i];
  EXPECT_EQ(one.ToVector<double>()[0], total);
  ArrayInner(x, y, one, 24, std::nullopt);
  EXPECT_EQ(one.ToVector<double>()[0], dot);
  ArraySum(x, one, 5, std::nullopt);
  EXPECT_EQ(one.ToVector<double>()[0], 0 + 0.5 + 1 + 1.5 + 2);

  // Along axis 1: out[i, 0, k] = sum over j of x[i, j, k].
  Array out = Array::Zeros({2, 1, 4}, ScalarType::Float64, kCpu);
  ArraySum(x, out, 3, 1);
  std::vector<double> got = out.ToVector<double>();
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double s = 0;
      for (int j = 0; j < 3; ++j) s += a[(i * 3 + j) * 4 + k];
      EXPECT_EQ(got[i * 4 + k], s);
    }
  ArrayInner(x, y, out, 2, 1);
  got = out.ToVector<double>();
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      double s = 0;
      for (int j = 0; j < 2; ++j) s += a[(i * 3 + j) * 4 + k] * b[(i * 3 + j) * 4 + k];
      EXPECT_EQ(got[i * 4 + k], s);
    }
  EXPECT_THROW(ArraySum(x, out, 4, 1), Error);                 // past the axis
  EXPECT_THROW(ArraySum(x, one, 3, 1), Error);                 // wrong out shape
  Array ints = Array::Zeros({4}, ScalarType::Int32, kCpu);
  EXPECT_THROW(ArraySum(ints, Array::Zeros({1}, ScalarType::Int32, kCpu), 4, std::nullopt), Error);
}

TEST(ArraySumAndInner, VectorElements) {
  ArrayDType vec2 = ArrayDType::Struct(CompositeLayout(Composite::Vector(2, ScalarType::Float32)));
  std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 0, 1, 2, 2};
  Array x = Array::FromHost(a.data(), {3}, vec2, kCpu), y = Array::FromHost(b.data(), {3}, vec2, kCpu);
  Array s = Array::Zeros({1}, vec2, kCpu);
  ArraySum(x, s, 3, std::nullopt);
  std::vector<float> got(2);
  s.CopyToHost(got.data());
  EXPECT_EQ(got, (std::vector<float>{9, 12}));
  Array d = Array::Zeros({1}, ScalarType::Float32, kCpu);
  ArrayInner(x, y, d, 3, std::nullopt);
  EXPECT_EQ(d.ToVector<float>()[0], 1.0f + 4.0f + 10.0f + 12.0f);
}

}  // namespace
}  // namespace tilec::rt
