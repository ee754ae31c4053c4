// tile_atomic_add_indexed for all eight atomic element types (16-bit floats checked against
// a reference that rounds to nearest even after every add), and struct elements: atomic
// fields added, the others untouched but reported in the returned tile.
#include <gtest/gtest.h>

#include <type_traits>

#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::SomeOrderExplains;
using testing::View;

const int32_t kIdx[6] = {1, 3, 1, -1, 1, 7};  // repeated 1, -1 and 7 (past the end of 4)

template <class T>
void RunAtomic(const std::string& dtype, std::vector<T> a, std::vector<T> s, T (*add)(T, T)) {
  auto c = CompileText("@wp.kernel\ndef k(a: wp.array[wp." + dtype + "], idx: wp.array[int], s: wp.array[wp." + dtype +
                       "], prev: wp.array[wp." + dtype + "]):\n"
                       "    ind = wp.tile_load(idx, shape=6)\n"
                       "    t = wp.tile_load(s, shape=6)\n"
                       "    p = wp.tile_atomic_add_indexed(a, indices=ind, t=t, axis=0)\n"
                       "    wp.tile_store(prev, p)\n");
  ASSERT_TRUE(c.module);
  const std::vector<T> initial = a;
  std::vector<T> prev(6, T(1));
  std::vector<int32_t> idx(kIdx, kIdx + 6);
  tilec_array aa = View(a.data(), {4}), ia = View(idx.data(), {6}), sa = View(s.data(), {6}), pa = View(prev.data(), {6});
  Launch(c.Entry("k"), {&aa, &ia, &sa, &pa}, {1}, 4);
  // Skipped elements (-1, out of range) report zero; each destination's updates must be
  // explained by some order of them (the order of concurrent atomics is unspecified).
  for (int d = 0; d < 4; ++d) {
    std::vector<std::pair<T, T>> contributions;
    for (int k = 0; k < 6; ++k)
      if (kIdx[k] == d) contributions.push_back({prev[k], s[k]});
    EXPECT_TRUE(SomeOrderExplains(initial[d], contributions, add, a[d])) << "destination " << d;
  }
  for (int k = 0; k < 6; ++k)
    if (kIdx[k] < 0 || kIdx[k] >= 4) EXPECT_EQ(prev[k], T(0)) << "skipped element " << k;
}

// Integer atomics wrap around (two's complement), so the reference adds in the unsigned type:
// signed overflow would be undefined behaviour in the reference itself.
template <class T>
T Plus(T x, T y) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return T(U(x) + U(y));
  } else {
    return T(x + y);
  }
}

uint16_t HalfAdd(uint16_t x, uint16_t y) { return FloatToHalf(HalfToFloat(x) + HalfToFloat(y)); }
uint16_t BHalfAdd(uint16_t x, uint16_t y) { return FloatToBFloat16(BFloat16ToFloat(x) + BFloat16ToFloat(y)); }

TEST(AtomicDTypes, Int32) { RunAtomic<int32_t>("int32", {1, -2, 3, 4}, {5, -7, 2147483000, 9, 1000, 3}, Plus<int32_t>); }
TEST(AtomicDTypes, UInt32) {
  RunAtomic<uint32_t>("uint32", {1, 2, 3, 4}, {5, 0xfffffff0u, 7, 9, 20, 3}, [](uint32_t x, uint32_t y) { return x + y; });
}
TEST(AtomicDTypes, Int64) {
  RunAtomic<int64_t>("int64", {1, -2, 3, 4}, {int64_t(1) << 40, -7, 5, 9, -(int64_t(1) << 41), 3}, Plus<int64_t>);
}
TEST(AtomicDTypes, UInt64) {
  RunAtomic<uint64_t>("uint64", {1, 2, 3, 4}, {~uint64_t(0), 7, 5, 9, uint64_t(1) << 63, 3},
                      [](uint64_t x, uint64_t y) { return x + y; });
}
TEST(AtomicDTypes, Float32) { RunAtomic<float>("float32", {1, 2.5f, 3, 4}, {0.1f, 1e7f, 0.7f, 9, 3.25f, 1}, Plus<float>); }
TEST(AtomicDTypes, Float64) { RunAtomic<double>("float64", {1, 2.5, 3, 4}, {0.1, 1e17, 0.7, 9, 3.25, 1}, Plus<double>); }

std::vector<uint16_t> ToHalf(std::vector<float> v, uint16_t (*conv)(float)) {
  std::vector<uint16_t> out;
  for (float f : v) out.push_back(conv(f));
  return out;
}

TEST(AtomicDTypes, Float16) {
  // 2048 + 1 is not representable in half: each add must round (ties to even).
  RunAtomic<uint16_t>("float16", ToHalf({1, 2048, 3, 4}, FloatToHalf), ToHalf({1, 0.1f, 1, 9, 0.3f, 1}, FloatToHalf),
                      HalfAdd);
}
TEST(AtomicDTypes, BFloat16) {
  RunAtomic<uint16_t>("bfloat16", ToHalf({1, 256, 3, 4}, FloatToBFloat16),
                      ToHalf({1, 0.7f, 1, 9, 1.3f, 1}, FloatToBFloat16), BHalfAdd);
}

// C layout of the struct below: f@0 i@4 b@8 c@9 h@10, size 12.
struct S {
  float f;
  int32_t i;
  uint8_t b;
  int8_t c;
  uint16_t h;
  bool operator==(const S& o) const { return f == o.f && i == o.i && b == o.b && c == o.c && h == o.h; }
};
static_assert(sizeof(S) == 12);

TEST(AtomicDTypes, StructFields) {
  auto c = CompileText(R"(
@wp.struct
class S:
    f: float
    i: int
    b: bool
    c: wp.int8
    h: wp.float16

@wp.kernel
def k(a: wp.array[S], idx: wp.array[int], s: wp.array[S], prev: wp.array[S]):
    ind = wp.tile_load(idx, shape=3)
    t = wp.tile_load(s, shape=3)
    p = wp.tile_atomic_add_indexed(a, indices=ind, t=t, axis=0)
    wp.tile_store(prev, p)
)");
  ASSERT_TRUE(c.module);
  std::vector<S> a = {{1.5f, 10, 1, -3, FloatToHalf(2)}, {2.5f, 20, 0, 7, FloatToHalf(3)}};
  std::vector<S> s = {{1, 1, 0, 100, FloatToHalf(0.5f)}, {2, 2, 1, 50, FloatToHalf(1)}, {4, 4, 1, 1, FloatToHalf(1)}};
  std::vector<int32_t> idx = {1, 1, 2};  // the third is out of bounds
  std::vector<S> prev(3, S{9, 9, 1, 9, 9});
  std::vector<S> a0 = a;
  tilec_array aa = View(a.data(), {2}), ia = View(idx.data(), {3}), sa = View(s.data(), {3}), pa = View(prev.data(), {3});
  Launch(c.Entry("k"), {&aa, &ia, &sa, &pa}, {1}, 4);
  EXPECT_EQ(a[0], a0[0]);
  // Only f, i and h of a[1] accumulate; b and c stay as they were.
  S expect1 = {2.5f + 1 + 2, 20 + 1 + 2, 0, 7, FloatToHalf(3 + 0.5f + 1)};
  EXPECT_EQ(a[1], expect1);
  // Previous values, non-atomic fields included. Each field is its own atomic, so each field's
  // two updates may land in either order, independently of the other fields.
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(prev[k].b, a0[1].b);
    EXPECT_EQ(prev[k].c, a0[1].c);
  }
  EXPECT_TRUE(SomeOrderExplains(a0[1].f, {{prev[0].f, s[0].f}, {prev[1].f, s[1].f}}, Plus<float>, a[1].f));
  EXPECT_TRUE(SomeOrderExplains(a0[1].i, {{prev[0].i, s[0].i}, {prev[1].i, s[1].i}}, Plus<int32_t>, a[1].i));
  EXPECT_TRUE(SomeOrderExplains(a0[1].h, {{prev[0].h, s[0].h}, {prev[1].h, s[1].h}}, HalfAdd, a[1].h));
  EXPECT_EQ(prev[2], (S{0, 0, 0, 0, 0}));  // skipped: zero in every field
}

}  // namespace
}  // namespace tilec
