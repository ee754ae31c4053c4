// The bridges between lanes and tiles (LANGUAGE.md §4-5, Warp's hybrid kernels): wp.tile and
// wp.untile of scalars and vectors/matrices, tile_from_thread, tile_scatter_add and
// tile_scatter_masked, wp.block_dim, tile_randi/tile_randf against Warp's per-lane streams, and
// the block-shared stack (wp.tile_stack and its push, pop, count and clear).
// Every reference is computed here from Warp's documented semantics (rand_pcg written out).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "codegen/codegen.h"
#include "compiler/compiler.h"
#include "support/half.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/lanes_util.h"

namespace tilec {
namespace {

using testing::Launch;
using testing::View;

using testing::CompileForLanes;
using testing::EmulationLanes;
using testing::Lanes;
using Variant = testing::SourceModule;
Variant CompileLanes(const std::string& text, int block_dim) { return CompileForLanes(text, block_dim); }

template <class S, int N>
struct Elem {
  S c[N];
};
using V3 = Elem<float, 3>;
using M33 = Elem<float, 9>;

// ---------------------------------------------------------------- wp.tile / wp.untile

TEST(Lanes, TileAndUntileRoundTripPerLane) {
  const int B = Lanes(8), blocks = 3, n = B * blocks;
  Variant v = CompileLanes(R"(
@wp.kernel
def roundtrip(x: wp.array[float], y: wp.array[float], z: wp.array[float]):
    b, lane = wp.tid()
    v = x[b * {B} + lane] * 2.0 + 1.0
    t = wp.tile(v)
    wp.tile_store(y, t, offset=b * {B})
    u = wp.untile(t * 3.0)
    z[b * {B} + lane] = u + float(lane)
)",
                           B);
  std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n), -1.0f), z(static_cast<size_t>(n), -1.0f);
  for (int k = 0; k < n; ++k) x[size_t(k)] = float(k % 11) - 4.0f;
  tilec_array vx = View(x.data(), {n}), vy = View(y.data(), {n}), vz = View(z.data(), {n});
  Launch(v.Entry("roundtrip"), {&vx, &vy, &vz}, {blocks}, B);
  for (int k = 0; k < n; ++k) {
    float per_lane = x[size_t(k)] * 2.0f + 1.0f;
    EXPECT_EQ(y[size_t(k)], per_lane) << k;
    EXPECT_EQ(z[size_t(k)], per_lane * 3.0f + float(k % B)) << k;
  }
}

// The tile holds lane l's value at l for every lane count; only its length and the sum of
// the lane indices depend on B, by definition.
TEST(Lanes, TileOfLaneTimesTwoForEveryBlockDim) {
  std::set<int> counts;
  for (int b : {1, 7, 32, 64, 256}) counts.insert(Lanes(b));
  for (int B : counts) {
    Variant v = CompileLanes(R"(
@wp.kernel
def doubled(out: wp.array[int], sums: wp.array[int], dims: wp.array[int]):
    b, lane = wp.tid()
    t = wp.tile(lane * 2 + b * 1000)
    wp.tile_store(out, t, offset=b * {B})
    wp.tile_store(sums, wp.tile_sum(wp.tile(lane)), offset=b)
    dims[b] = wp.block_dim()
)",
                             B);
    const int blocks = 3;
    std::vector<int32_t> out(static_cast<size_t>(B * blocks), -1), sums(blocks, -1), dims(blocks, -1);
    tilec_array vo = View(out.data(), {B * blocks}), vs = View(sums.data(), {blocks}), vd = View(dims.data(), {blocks});
    Launch(v.Entry("doubled"), {&vo, &vs, &vd}, {blocks}, B);
    for (int b = 0; b < blocks; ++b) {
      for (int l = 0; l < B; ++l) EXPECT_EQ(out[size_t(b * B + l)], 2 * l + 1000 * b) << "B=" << B << " b=" << b;
      EXPECT_EQ(sums[size_t(b)], B * (B - 1) / 2) << "B=" << B;
      EXPECT_EQ(dims[size_t(b)], B) << "B=" << B;
    }
  }
}

TEST(Lanes, VectorAndMatrixTilesBothForms) {
  const int B = Lanes(4);
  Variant v = CompileLanes(R"(
@wp.kernel
def comp(x: wp.array[wp.vec3], flat: wp.array2d[float], kept: wp.array[wp.vec3], back: wp.array[wp.vec3],
         mflat: wp.array3d[float], mback: wp.array[wp.mat33]):
    b, lane = wp.tid()
    v = x[lane] * 2.0
    t = wp.tile(v)
    wp.tile_store(flat, t)
    k = wp.tile(v, preserve_type=True)
    wp.tile_store(kept, k)
    back[lane] = wp.untile(t) + wp.vec3(1.0, 2.0, 3.0)
    m = wp.outer(v, x[lane])
    tm = wp.tile(m)
    wp.tile_store(mflat, tm)
    mback[lane] = wp.untile(tm * 2.0)
)",
                           B);
  std::vector<V3> x(static_cast<size_t>(B)), kept(static_cast<size_t>(B)), back(static_cast<size_t>(B));
  for (int l = 0; l < B; ++l)
    for (int c = 0; c < 3; ++c) x[size_t(l)].c[c] = float(l * 3 + c) - 2.0f;
  std::vector<float> flat(static_cast<size_t>(3 * B), -1.0f), mflat(static_cast<size_t>(9 * B), -1.0f);
  std::vector<M33> mback(static_cast<size_t>(B));
  tilec_array vx = View(x.data(), {B}), vf = View(flat.data(), {3, B}), vk = View(kept.data(), {B}),
              vb = View(back.data(), {B}), vm = View(mflat.data(), {3, 3, B}), vmb = View(mback.data(), {B});
  Launch(v.Entry("comp"), {&vx, &vf, &vk, &vb, &vm, &vmb}, {1}, B);
  for (int l = 0; l < B; ++l) {
    for (int c = 0; c < 3; ++c) {
      float vc = x[size_t(l)].c[c] * 2.0f;
      EXPECT_EQ(flat[size_t(c * B + l)], vc) << "component " << c << " lane " << l;
      EXPECT_EQ(kept[size_t(l)].c[c], vc) << l;
      EXPECT_EQ(back[size_t(l)].c[c], vc + float(c + 1)) << l;
      for (int d = 0; d < 3; ++d) {
        float m = vc * x[size_t(l)].c[d];
        EXPECT_EQ(mflat[size_t((c * 3 + d) * B + l)], m) << c << d << " lane " << l;
        EXPECT_EQ(mback[size_t(l)].c[c * 3 + d], m * 2.0f) << c << d << " lane " << l;
      }
    }
  }
}

// ---------------------------------------------------------------- tile_from_thread

TEST(Lanes, TileFromThreadBroadcastsOneLane) {
  const int B = Lanes(8), blocks = 3;
  Variant v = CompileLanes(R"(
@wp.kernel
def bcast(src: wp.array[float], out: wp.array2d[float], vout: wp.array[wp.vec3]):
    b, lane = wp.tid()
    s = src[b * {B} + lane]
    t = wp.tile_from_thread(shape=(2, 3), value=s, thread_idx=(b + 1) % {B})
    wp.tile_store(out, t, offset=(2 * b, 0))
    w = wp.tile_from_thread(2, wp.vec3(s, float(lane), 1.0), {B} - 1, storage="shared")
    wp.tile_store(vout, w, offset=2 * b)
)",
                           B);
  std::vector<float> src(static_cast<size_t>(B * blocks)), out(static_cast<size_t>(6 * blocks), -1.0f);
  for (int k = 0; k < B * blocks; ++k) src[size_t(k)] = 0.5f * float(k) + 1.0f;
  std::vector<V3> vout(static_cast<size_t>(2 * blocks));
  tilec_array vs = View(src.data(), {B * blocks}), vo = View(out.data(), {2 * blocks, 3}),
              vv = View(vout.data(), {2 * blocks});
  Launch(v.Entry("bcast"), {&vs, &vo, &vv}, {blocks}, B);
  for (int b = 0; b < blocks; ++b) {
    for (int e = 0; e < 6; ++e) EXPECT_EQ(out[size_t(b * 6 + e)], src[size_t(b * B + (b + 1) % B)]) << b << " " << e;
    for (int e = 0; e < 2; ++e) {
      const V3& w = vout[size_t(2 * b + e)];
      EXPECT_EQ(w.c[0], src[size_t(b * B + B - 1)]);
      EXPECT_EQ(w.c[1], float(B - 1));
      EXPECT_EQ(w.c[2], 1.0f);
    }
  }
}

// ---------------------------------------------------------------- scatters

// Lanes collide on bins; a lane without a value, and one whose index is outside the tile,
// add nothing. Lanes add in increasing lane order, so the float sums are those of that order.
TEST(Lanes, ScatterAddHistogramWithCollisions) {
  const int B = Lanes(16), blocks = 2, nbins = 5;
  Variant v = CompileLanes(R"(
@wp.kernel
def hist(data: wp.array[int], sums: wp.array[float], counts: wp.array2d[int]):
    b, lane = wp.tid()
    bins = wp.tile_zeros(shape=5, dtype=float, storage="shared")
    c = wp.tile_zeros(shape=(2, 5), dtype=int)
    d = data[b * {B} + lane]
    wp.tile_scatter_add(bins, d, float(lane) * 0.25 + 0.5, d >= 0)
    wp.tile_scatter_add(c, lane % 2, d, 1, d >= 0, atomic=False)
    wp.tile_store(sums, bins, offset=b * 5)
    wp.tile_store(counts, c, offset=(b * 2, 0))
)",
                           B);
  std::vector<int32_t> data(static_cast<size_t>(B * blocks));
  for (int k = 0; k < B * blocks; ++k) data[size_t(k)] = (k % 9 == 4) ? -1 : (k % 13 == 6) ? 7 : (k * 7 + 3) % nbins;
  std::vector<float> sums(static_cast<size_t>(nbins * blocks), -1.0f);
  std::vector<int32_t> counts(static_cast<size_t>(2 * nbins * blocks), -1);
  tilec_array vd = View(data.data(), {B * blocks}), vs = View(sums.data(), {nbins * blocks}),
              vc = View(counts.data(), {2 * blocks, nbins});
  Launch(v.Entry("hist"), {&vd, &vs, &vc}, {blocks}, B);
  for (int b = 0; b < blocks; ++b) {
    std::vector<float> want(static_cast<size_t>(nbins), 0.0f);
    std::vector<int32_t> wantc(static_cast<size_t>(2 * nbins), 0);
    for (int l = 0; l < B; ++l) {
      int d = data[size_t(b * B + l)];
      if (d < 0 || d >= nbins) continue;
      want[size_t(d)] += float(l) * 0.25f + 0.5f;
      wantc[size_t((l % 2) * nbins + d)] += 1;
    }
    for (int k = 0; k < nbins; ++k) EXPECT_EQ(sums[size_t(b * nbins + k)], want[size_t(k)]) << b << " bin " << k;
    for (int k = 0; k < 2 * nbins; ++k) EXPECT_EQ(counts[size_t(b * 2 * nbins + k)], wantc[size_t(k)]) << b << " " << k;
  }
}

// `t[i] op= v` on one element: every lane applies it (Warp's per-lane atomic), at a
// lane-varying element or the same one, with a uniform or a per-lane value: sums add every
// lane's value, the bitwise ops combine every lane's (`^=` of one value by an even number of
// lanes cancels).
TEST(Lanes, ElementUpdatesApplyPerLane) {
  const int B = Lanes(16), blocks = 2;
  Variant v = CompileLanes(R"(
@wp.kernel
def upd(x: wp.array[float], out: wp.array[float], bits: wp.array[wp.uint32]):
    b, lane = wp.tid()
    s = wp.tile_zeros(shape=4, dtype=float)
    s[0] += x[b * {B} + lane]
    s[1] -= 1.0
    s[2 + lane % 2] += 0.5
    u = wp.tile_full(shape=4, value=wp.uint32(255))
    u[0] &= wp.uint32(15 + b * 16)
    u[1] ^= wp.uint32(3)
    u[2] &= ~(wp.uint32(1) << wp.uint32(lane % 8))
    u[3] = wp.uint32(0)
    u[3] |= wp.uint32(1) << wp.uint32(lane % 32)
    wp.tile_store(out, s, offset=b * 4)
    wp.tile_store(bits, u, offset=b * 4)
)",
                           B);
  std::vector<float> x(static_cast<size_t>(B * blocks)), out(static_cast<size_t>(4 * blocks), -9.0f);
  for (int k = 0; k < B * blocks; ++k) x[size_t(k)] = float(k % 7) - 2.0f;
  std::vector<uint32_t> bits(static_cast<size_t>(4 * blocks), 0);
  tilec_array vx = View(x.data(), {B * blocks}), vo = View(out.data(), {4 * blocks}), vb = View(bits.data(), {4 * blocks});
  Launch(v.Entry("upd"), {&vx, &vo, &vb}, {blocks}, B);
  for (int b = 0; b < blocks; ++b) {
    float sum = 0;
    for (int l = 0; l < B; ++l) sum += x[size_t(b * B + l)];
    EXPECT_EQ(out[size_t(b * 4)], sum) << b;
    EXPECT_EQ(out[size_t(b * 4 + 1)], -float(B)) << b;
    EXPECT_EQ(out[size_t(b * 4 + 2)], 0.5f * float((B + 1) / 2)) << b;
    EXPECT_EQ(out[size_t(b * 4 + 3)], 0.5f * float(B / 2)) << b;
    uint32_t cleared = 255u, set = 0u;
    for (int l = 0; l < B; ++l) {
      cleared &= ~(1u << (l % 8));
      set |= 1u << (l % 32);
    }
    EXPECT_EQ(bits[size_t(b * 4)], 255u & uint32_t(15 + b * 16)) << b;
    EXPECT_EQ(bits[size_t(b * 4 + 1)], B % 2 ? 255u ^ 3u : 255u) << b;
    EXPECT_EQ(bits[size_t(b * 4 + 2)], cleared) << b;
    EXPECT_EQ(bits[size_t(b * 4 + 3)], set) << b;
  }
}

// Operands that are the same in every lane still come from every lane: a kernel with nothing
// lane-varying adds once per lane, on the CPU as on the GPU.
TEST(Lanes, UniformElementUpdatesApplyPerLane) {
  const int B = Lanes(16), blocks = 2;
  Variant v = CompileLanes(R"(
@wp.kernel
def upd(out: wp.array[float]):
    b = wp.tid()
    s = wp.tile_zeros(shape=4, dtype=float, storage="shared")
    s[0] += 1.0
    s[1] -= 2.0
    wp.tile_scatter_add(s, 2, 0.5, True)
    wp.tile_scatter_add(s, 3, 9.0, False)
    wp.tile_store(out, s, offset=b * 4)
)",
                           B);
  std::vector<float> out(static_cast<size_t>(4 * blocks), -9.0f);
  tilec_array vo = View(out.data(), {4 * blocks});
  Launch(v.Entry("upd"), {&vo}, {blocks}, B);
  for (int b = 0; b < blocks; ++b) {
    EXPECT_EQ(out[size_t(b * 4)], float(B)) << b;
    EXPECT_EQ(out[size_t(b * 4 + 1)], -2.0f * float(B)) << b;
    EXPECT_EQ(out[size_t(b * 4 + 2)], 0.5f * float(B)) << b;
    EXPECT_EQ(out[size_t(b * 4 + 3)], 0.0f) << b;
  }
}

// A permutation (every element written once), a masked write that keeps the other elements,
// and a 2-D target; the last read after the scatters sees them.
TEST(Lanes, ScatterMaskedPermutation) {
  const int B = Lanes(8);
  Variant v = CompileLanes(R"(
@wp.kernel
def perm(src: wp.array[int], dst: wp.array[int], part: wp.array2d[int], seen: wp.array[int]):
    _block, i = wp.tid()
    t = wp.tile_zeros(shape={B}, dtype=int, storage="shared")
    wp.tile_scatter_masked(t, {B} - 1 - i, src[i], True)
    wp.tile_store(dst, t)
    p = wp.tile_full(shape=(2, {B}), value=-1, dtype=int)
    wp.tile_scatter_masked(p, i % 2, i, i * 10, i % 3 != 0)
    wp.tile_store(part, p)
    seen[i] = wp.untile(t)
)",
                           B);
  std::vector<int32_t> src(static_cast<size_t>(B)), dst(static_cast<size_t>(B), -5), part(static_cast<size_t>(2 * B), -5), seen(static_cast<size_t>(B), -5);
  for (int l = 0; l < B; ++l) src[size_t(l)] = l + 1;
  tilec_array vs = View(src.data(), {B}), vd = View(dst.data(), {B}), vp = View(part.data(), {2, B}),
              vn = View(seen.data(), {B});
  Launch(v.Entry("perm"), {&vs, &vd, &vp, &vn}, {1}, B);
  for (int l = 0; l < B; ++l) {
    EXPECT_EQ(dst[size_t(l)], B - l) << l;
    EXPECT_EQ(seen[size_t(l)], B - l) << l;
  }
  for (int r = 0; r < 2; ++r)
    for (int c = 0; c < B; ++c) {
      bool written = c % 2 == r && c % 3 != 0;
      EXPECT_EQ(part[size_t(r * B + c)], written ? c * 10 : -1) << r << " " << c;
    }
}

// ---------------------------------------------------------------- tile_randi / tile_randf

uint32_t Pcg(uint32_t s) {
  uint32_t b = s * 747796405u + 2891336453u;
  uint32_t c = ((b >> ((b >> 28u) + 4u)) ^ b) * 277803737u;
  return (c >> 22u) ^ c;
}
uint32_t RandInit(int seed, int offset) { return Pcg(uint32_t(seed) + Pcg(uint32_t(offset))); }
// Warp's GPU register layout: element L is draw L / B + 1 of lane L % B, whose state starts
// at rand_pcg(lane + rng).
uint32_t DrawState(uint32_t rng, int linear, int B) {
  uint32_t s = Pcg(uint32_t(linear % B) + rng);
  for (int d = 0; d <= linear / B; ++d) s = Pcg(s);
  return s;
}
float RandfOf(uint32_t s) { return float(s >> 8) * (1.0f / 16777216.0f); }

TEST(Lanes, TileRandMatchesWarpsStreams) {
  std::set<int> counts;
  for (int b : {4, 8}) counts.insert(Lanes(b));
  for (int B : counts) {
    Variant v = CompileLanes(R"(
@wp.kernel
def rnd(seed: int, i0: wp.array2d[int], i1: wp.array[int], f0: wp.array2d[float], f1: wp.array[float]):
    b = wp.tid()
    rng = wp.rand_init(seed, b)
    wp.tile_store(i0, wp.tile_randi(shape=(3, 5), rng=rng), offset=(3 * b, 0))
    wp.tile_store(i1, wp.tile_randi(7, rng, min=-20, max=30), offset=7 * b)
    wp.tile_store(f0, wp.tile_randf((3, 5), rng, storage="shared"), offset=(3 * b, 0))
    wp.tile_store(f1, wp.tile_randf(shape=7, rng=rng, min=-2.5, max=4.0), offset=7 * b)
)",
                             B);
    const int blocks = 2;
    int32_t seed = 42;
    std::vector<int32_t> i0(static_cast<size_t>(15 * blocks)), i1(static_cast<size_t>(7 * blocks));
    std::vector<float> f0(static_cast<size_t>(15 * blocks)), f1(static_cast<size_t>(7 * blocks));
    tilec_array vi0 = View(i0.data(), {3 * blocks, 5}), vi1 = View(i1.data(), {7 * blocks}),
                vf0 = View(f0.data(), {3 * blocks, 5}), vf1 = View(f1.data(), {7 * blocks});
    Launch(v.Entry("rnd"), {&seed, &vi0, &vi1, &vf0, &vf1}, {blocks}, B);
    for (int b = 0; b < blocks; ++b) {
      uint32_t rng = RandInit(seed, b);
      for (int L = 0; L < 15; ++L) {
        uint32_t s = DrawState(rng, L, B);
        EXPECT_EQ(i0[size_t(15 * b + L)], int32_t(s)) << "B=" << B << " b=" << b << " L=" << L;
        EXPECT_EQ(f0[size_t(15 * b + L)], RandfOf(s)) << "B=" << B << " b=" << b << " L=" << L;
      }
      for (int L = 0; L < 7; ++L) {
        uint32_t s = DrawState(rng, L, B);
        EXPECT_EQ(i1[size_t(7 * b + L)], int32_t(s % uint32_t(30 - -20) + uint32_t(-20))) << "B=" << B << " L=" << L;
        // (max - min) * u + min, fused as Warp's GPU build fuses it
        EXPECT_EQ(f1[size_t(7 * b + L)], std::fma(4.0f - -2.5f, RandfOf(s), -2.5f)) << "B=" << B << " L=" << L;
      }
    }
  }
}

// The values Warp 1.19 prints for its tile_randi/tile_randf examples on a GPU (block_dim 8).
TEST(Lanes, TileRandReproducesWarpsGpuExample) {
  if (EmulationLanes() && EmulationLanes() != 8) GTEST_SKIP() << "the example is for 8 lanes";
  Variant v = CompileLanes(R"(
@wp.kernel
def gen(seed: int, x: wp.array2d[int], y: wp.array2d[float]):
    i, j = wp.tid()
    rng = wp.rand_init(seed, i * 2 + j)
    wp.tile_store(x, wp.tile_randi(shape=(2, 2), rng=rng), offset=(i * 2, j * 2))
    wp.tile_store(y, wp.tile_randf(shape=(2, 2), rng=rng), offset=(i * 2, j * 2))
)",
                           8);
  int32_t seed = 42;
  std::vector<int32_t> x(16);
  std::vector<float> y(16);
  tilec_array vx = View(x.data(), {4, 4}), vy = View(y.data(), {4, 4});
  Launch(v.Entry("gen"), {&seed, &vx, &vy}, {2, 2}, 8);
  EXPECT_EQ(x, (std::vector<int32_t>{798497746, 1803297529, -955788638, 17806966, 1788185933, 1320194893, 2073257406,
                                     -2009156320, -257534450, -1138585923, 1145322783, -321794125, -2096177388,
                                     -1835610841, 1159339128, -652221052}));
  const float want[16] = {0.1859147f,  0.41986287f, 0.7774631f,  0.00414598f, 0.41634446f, 0.3073818f,
                          0.4827178f,  0.53220683f, 0.9400381f,  0.73490226f, 0.26666623f, 0.9250764f,
                          0.51194566f, 0.57261354f, 0.26992965f, 0.8481429f};
  for (int k = 0; k < 16; ++k) EXPECT_FLOAT_EQ(y[size_t(k)], want[k]) << k;
}

// ---------------------------------------------------------------- the block-shared stack

// The documented deterministic stack (docs/semantics.md, Lanes), written out on its own.
struct StackModel {
  std::vector<int32_t> slots;
  int count = 0;
  explicit StackModel(int capacity) : slots(size_t(capacity), 0) {}
  // Lanes offering a value take the next slots in lane order; those past the capacity get -1.
  std::vector<int32_t> Push(const std::vector<int32_t>& values, const std::vector<bool>& has) {
    std::vector<int32_t> out(values.size(), -1);
    int next = count;
    for (size_t l = 0; l < values.size(); ++l) {
      if (!has[l]) continue;
      if (next < int(slots.size())) {
        slots[size_t(next)] = values[l];
        out[l] = next;
      }
      ++next;
    }
    count = std::min(next, int(slots.size()));
    return out;
  }
  // Lane l takes the element l below the top, or (0, -1).
  void Pop(int lanes, std::vector<int32_t>& values, std::vector<int32_t>& where) {
    values.assign(size_t(lanes), 0);
    where.assign(size_t(lanes), -1);
    for (int l = 0; l < lanes; ++l) {
      int slot = count - 1 - l;
      if (slot < 0) continue;
      values[size_t(l)] = slots[size_t(slot)];
      where[size_t(l)] = slot;
    }
    count = std::max(count - lanes, 0);
  }
};

// Pushes with some lanes off and past the capacity, pops past the bottom, the count read by
// one lane after each step, and a clear followed by a push that starts again at slot 0.
TEST(Lanes, TileStackPushPopCountClearMatchTheModel) {
  std::set<int> counts;
  for (int b : {1, 4, 32}) counts.insert(Lanes(b));
  for (int B : counts) {
    const int capacity = 2 * B + 1, rounds = 4, pops = 3, blocks = 2;
    std::string text = R"(
@wp.kernel
def stack_ops(offer: wp.array2d[int], slots: wp.array2d[int], counts: wp.array2d[int],
              popped: wp.array2d[int], from_slot: wp.array2d[int], again: wp.array2d[int]):
    b, lane = wp.tid()
    s = wp.tile_stack(capacity=CAP, dtype=int)
    for r in range({R}):
        k = r * {B} + lane
        slots[b, k] = wp.tile_stack_push(s, 1000 * b + 100 * r + lane, offer[b, k] != 0)
        if lane == 0:
            counts[b, r] = wp.tile_stack_count(s)
    for r in range({P}):
        value, slot = wp.tile_stack_pop(s)
        popped[b, r * {B} + lane] = value
        from_slot[b, r * {B} + lane] = slot
        if lane == 0:
            counts[b, {R} + r] = wp.tile_stack_count(s)
    wp.tile_stack_clear(s)
    counts[b, {R} + {P}] = wp.tile_stack_count(s)
    again[b, lane] = wp.tile_stack_push(s, lane, lane % 2 == 1)
    counts[b, {R} + {P} + 1] = wp.tile_stack_count(s)
)";
    for (auto [key, val] : {std::pair<std::string, int>{"{R}", rounds}, {"{P}", pops}, {"CAP", capacity}})
      for (size_t p; (p = text.find(key)) != std::string::npos;) text.replace(p, key.size(), std::to_string(val));
    Variant v = CompileLanes(text, B);
    const int width = rounds * B, pwidth = pops * B, ncounts = rounds + pops + 2;
    std::vector<int32_t> offer(size_t(blocks * width)), slots(size_t(blocks * width), -7),
        cnt(size_t(blocks * ncounts), -7), popped(size_t(blocks * pwidth), -7), from(size_t(blocks * pwidth), -7),
        again(size_t(blocks * B), -7);
    for (int b = 0; b < blocks; ++b)
      for (int k = 0; k < width; ++k) offer[size_t(b * width + k)] = (k * 7 + b * 3) % 5 != 0;
    tilec_array vo = View(offer.data(), {blocks, width}), vs = View(slots.data(), {blocks, width}),
                vc = View(cnt.data(), {blocks, ncounts}), vp = View(popped.data(), {blocks, pwidth}),
                vf = View(from.data(), {blocks, pwidth}), va = View(again.data(), {blocks, B});
    Launch(v.Entry("stack_ops"), {&vo, &vs, &vc, &vp, &vf, &va}, {blocks}, B);
    for (int b = 0; b < blocks; ++b) {
      StackModel m(capacity);
      std::string at = "B=" + std::to_string(B) + " b=" + std::to_string(b);
      for (int r = 0; r < rounds; ++r) {
        std::vector<int32_t> values(static_cast<size_t>(B));
        std::vector<bool> has(static_cast<size_t>(B));
        for (int l = 0; l < B; ++l) {
          values[size_t(l)] = 1000 * b + 100 * r + l;
          has[size_t(l)] = offer[size_t(b * width + r * B + l)] != 0;
        }
        std::vector<int32_t> want = m.Push(values, has);
        for (int l = 0; l < B; ++l) EXPECT_EQ(slots[size_t(b * width + r * B + l)], want[size_t(l)]) << at << " r=" << r << " l=" << l;
        EXPECT_EQ(cnt[size_t(b * ncounts + r)], m.count) << at << " r=" << r;
      }
      EXPECT_EQ(m.count, capacity) << "the offers are meant to overflow the stack";
      for (int r = 0; r < pops; ++r) {
        std::vector<int32_t> values, where;
        m.Pop(B, values, where);
        for (int l = 0; l < B; ++l) {
          EXPECT_EQ(popped[size_t(b * pwidth + r * B + l)], values[size_t(l)]) << at << " pop " << r << " l=" << l;
          EXPECT_EQ(from[size_t(b * pwidth + r * B + l)], where[size_t(l)]) << at << " pop " << r << " l=" << l;
        }
        EXPECT_EQ(cnt[size_t(b * ncounts + rounds + r)], m.count) << at << " pop " << r;
      }
      EXPECT_EQ(cnt[size_t(b * ncounts + rounds + pops)], 0) << at;
      for (int l = 0; l < B; ++l) EXPECT_EQ(again[size_t(b * B + l)], l % 2 == 1 ? l / 2 : -1) << at << " l=" << l;
      EXPECT_EQ(cnt[size_t(b * ncounts + rounds + pops + 1)], B / 2) << at;
    }
  }
}

// Stacks of element types that cannot hold their own count: float16 and int8 (kept widened),
// vectors and structs (the count in a field of the last slot). Each kept lane's value comes
// back from the pop, the lanes past the bottom get zero.
struct StackS {
  bool flag;
  float v[3];
  int32_t n;
};

TEST(Lanes, TileStackOfNarrowVectorAndStructElements) {
  std::set<int> counts;
  for (int b : {1, 8}) counts.insert(Lanes(b));
  for (int B : counts) {
    Variant v = CompileLanes(R"(
@wp.struct
class S:
    flag: wp.bool
    v: wp.vec3
    n: int

@wp.kernel
def k(h_out: wp.array[wp.float16], i_out: wp.array[wp.int8], v_out: wp.array[wp.vec3], s_out: wp.array[S],
      counts: wp.array[int]):
    _b, lane = wp.tid()
    keep = lane % 3 != 1
    sh = wp.tile_stack(capacity={B}, dtype=wp.float16)
    si = wp.tile_stack(capacity={B}, dtype=wp.int8)
    sv = wp.tile_stack(capacity={B}, dtype=wp.vec3)
    ss = wp.tile_stack(capacity={B}, dtype=S)
    wp.tile_stack_push(sh, wp.float16(float(lane) + 0.5), keep)
    wp.tile_stack_push(si, wp.int8(-lane), keep)
    wp.tile_stack_push(sv, wp.vec3(float(lane), 2.0 * float(lane), -1.0), keep)
    s = S()
    s.flag = lane % 2 == 0
    s.v = wp.vec3(float(lane), 0.0, 1.0)
    s.n = 10 * lane
    wp.tile_stack_push(ss, s, keep)
    if lane == 0:
        counts[0] = wp.tile_stack_count(sh)
        counts[1] = wp.tile_stack_count(si)
        counts[2] = wp.tile_stack_count(sv)
        counts[3] = wp.tile_stack_count(ss)
    h, _slot = wp.tile_stack_pop(sh)
    h_out[lane] = h
    i, _slot = wp.tile_stack_pop(si)
    i_out[lane] = i
    x, _slot = wp.tile_stack_pop(sv)
    v_out[lane] = x
    y, _slot = wp.tile_stack_pop(ss)
    s_out[lane] = y
)",
                             B);
    std::vector<uint16_t> h(size_t(B), 0xFFFF);
    std::vector<int8_t> i8(size_t(B), 99);
    std::vector<float> v3(size_t(3 * B), -9.0f);
    std::vector<StackS> st(size_t(B), StackS{true, {-9, -9, -9}, -9});
    std::vector<int32_t> cnt(4, -1);
    tilec_array vh = View(h.data(), {B}), vi = View(i8.data(), {B}), vv = View(v3.data(), {B}, {3}),
                vs = View(st.data(), {B}), vc = View(cnt.data(), {4});
    Launch(v.Entry("k"), {&vh, &vi, &vv, &vs, &vc}, {1}, B);
    std::vector<int> kept;
    for (int l = 0; l < B; ++l)
      if (l % 3 != 1) kept.push_back(l);
    const int n = int(kept.size());
    for (int c = 0; c < 4; ++c) EXPECT_EQ(cnt[size_t(c)], n) << "B=" << B << " stack " << c;
    for (int l = 0; l < B; ++l) {
      const int slot = n - 1 - l;
      const bool got = slot >= 0;
      const int src = got ? kept[size_t(slot)] : 0;
      std::string at = "B=" + std::to_string(B) + " lane " + std::to_string(l);
      EXPECT_EQ(HalfToFloat(h[size_t(l)]), got ? float(src) + 0.5f : 0.0f) << at;
      EXPECT_EQ(i8[size_t(l)], got ? int8_t(-src) : 0) << at;
      EXPECT_EQ(v3[size_t(3 * l)], got ? float(src) : 0.0f) << at;
      EXPECT_EQ(v3[size_t(3 * l + 1)], got ? 2.0f * float(src) : 0.0f) << at;
      EXPECT_EQ(v3[size_t(3 * l + 2)], got ? -1.0f : 0.0f) << at;
      EXPECT_EQ(st[size_t(l)].flag, got && src % 2 == 0) << at;
      EXPECT_EQ(st[size_t(l)].v[0], got ? float(src) : 0.0f) << at;
      EXPECT_EQ(st[size_t(l)].v[2], got ? 1.0f : 0.0f) << at;
      EXPECT_EQ(st[size_t(l)].n, got ? 10 * src : 0) << at;
    }
  }
}

// Warp's compaction pattern with a float stack: pushes in a loop over the items, the count
// read by one lane, and pops under `while count > 0` until the stack is empty; every kept
// item comes back exactly once, at the slot it was pushed to.
TEST(Lanes, TileStackDrainsInAWhileLoop) {
  std::set<int> counts;
  for (int b : {1, 4, 32}) counts.insert(Lanes(b));
  for (int B : counts) {
    Variant v = CompileLanes(R"(
@wp.kernel
def compact(data: wp.array[float], out: wp.array[float], num: wp.array[int], trips: wp.array[int]):
    _b, lane = wp.tid()
    s = wp.tile_stack(capacity=64, dtype=float)
    for base in range(0, data.shape[0], wp.block_dim()):
        i = base + lane
        x = float(0.0)
        if i < data.shape[0]:
            x = data[i]
        wp.tile_stack_push(s, x, x > 0.5)
    if lane == 0:
        num[0] = wp.tile_stack_count(s)
    n = int(0)
    while wp.tile_stack_count(s) > 0:
        value, slot = wp.tile_stack_pop(s)
        if slot >= 0:
            out[slot] = value
        n += 1
    trips[lane] = n
)",
                             B);
    const int n = 50;
    std::vector<float> data(static_cast<size_t>(n)), out(64, -1.0f);
    for (int k = 0; k < n; ++k) data[size_t(k)] = float((k * 37) % 17) / 8.0f;
    std::vector<int32_t> num(1, -1), trips(static_cast<size_t>(B), -1);
    tilec_array vd = View(data.data(), {n}), vo = View(out.data(), {64}), vn = View(num.data(), {1}),
                vt = View(trips.data(), {B});
    Launch(v.Entry("compact"), {&vd, &vo, &vn, &vt}, {1}, B);
    std::vector<float> kept;
    for (float x : data)
      if (x > 0.5f) kept.push_back(x);
    const int want = std::min(int(kept.size()), 64);
    ASSERT_EQ(num[0], want) << "B=" << B;
    // The lanes offer the items in order, so the slots hold them in order.
    for (int k = 0; k < want; ++k) EXPECT_EQ(out[size_t(k)], kept[size_t(k)]) << "B=" << B << " k=" << k;
    for (int k = want; k < 64; ++k) EXPECT_EQ(out[size_t(k)], -1.0f) << "B=" << B << " k=" << k;
    for (int l = 0; l < B; ++l) EXPECT_EQ(trips[size_t(l)], (want + B - 1) / B) << "B=" << B;
  }
}

}  // namespace
}  // namespace tilec
