// The generic tile ops (tile_reduce, tile_scan, tile_broadcast, tile_reshape, tile_permute),
// built in Tile IR and run on the CPU, under host-SIMT emulation (TILEC_SIMT_EMULATION=B) and
// through ptxas (TILEC_EXEC_PTXAS). Expected values come from plain loops here: reductions and
// scans combine sequentially in row-major order, float16 in float32, min/max as fmin/fmax.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "codegen/codegen.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/simt.h"
#include "ir/builder.h"
#include "ir/verifier.h"
#include "support/half.h"
#include "tests/exec/built_jit.h"
#include "tests/exec/exec_util.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec {
namespace {

using ir::ReduceKind;
using ir::Type;
using testing::FoldInDocumentedOrder;
using testing::Launch;
using testing::View;
constexpr auto Jit = testing::JitBuilt;

// One tiled kernel `k` under construction.
struct Kernel {
  ir::Module m;
  ir::Builder b{m};
  ir::Function* f;
  Kernel() {
    f = m.AddFunction("k");
    f->tiled = true;
    b.SetInsertionPoint(f->body());
  }
  ir::Value* Array(ScalarType t, int ndim) {
    return f->AddParam("a" + std::to_string(f->body()->num_args()), Type::Array(ir::ElemType::Of(t), ndim));
  }
  ir::Value* I(int v) { return b.ConstInt(ScalarType::Int32, v); }
  std::vector<ir::Value*> Zeros(int n) { return std::vector<ir::Value*>(size_t(n), I(0)); }
  ir::Value* Load(ir::Value* a, std::vector<int64_t> shape, ir::Storage st = ir::Storage::Register) {
    return b.TileLoad(a, shape, Zeros(int(shape.size())), st);
  }
  void Store(ir::Value* a, ir::Value* t) { b.TileStore(a, t, Zeros(t->type().ndim)); }
  // A (1,) result into element `at` of a 1-D array.
  void StoreAt(ir::Value* a, ir::Value* t, int at) { b.TileStore(a, t, {I(at)}); }
  void* Build() {
    b.Return();
    jit = Jit(m);
    return jit ? jit->Lookup(codegen::EntrySymbol("k")) : nullptr;
  }
  std::unique_ptr<codegen::JitModule> jit;
};

bool SameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Sums and products in the documented order, with their padding; min and max pad with the
// first element.
template <class T, class F>
T Fold(const std::vector<T>& v, F f, T pad) {
  return FoldInDocumentedOrder(v, pad, f);
}
template <class T, class F>
T Fold(const std::vector<T>& v, F f) {
  return FoldInDocumentedOrder(v, v[0], f);
}

TEST(TileGenericOps, ReduceAllFloatWithNaN) {
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Float32, 2);
  ir::Value* xn = k.Array(ScalarType::Float32, 2);
  ir::Value* out = k.Array(ScalarType::Float32, 1);
  ir::Value* t = k.Load(x, {3, 5});
  ir::Value* tn = k.Load(xn, {3, 5}, ir::Storage::Shared);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Add, t), 0);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Mul, t), 1);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Min, tn), 2);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Max, tn), 3);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Min, t), 4);
  k.StoreAt(out, k.b.TileReduce(ReduceKind::Max, t, 1), 5);  // row maxima, shape (3,)
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<float> xs(15), xns(15), outs(8, -7.0f);
  for (int i = 0; i < 15; ++i) xs[i] = 0.1f * float(i) - 0.73f + (i % 3 ? 0.011f : 0.0f);
  xns = xs;
  xns[0] = std::nanf("");  // the first element missing too
  xns[7] = std::nanf("");
  tilec_array xa = View(xs.data(), {3, 5}), xna = View(xns.data(), {3, 5}), oa = View(outs.data(), {8});
  Launch(entry, {&xa, &xna, &oa}, {1});

  EXPECT_TRUE(SameBits(outs[0], Fold(xs, [](float a, float b) { return a + b; }, -0.0f))) << outs[0];
  EXPECT_TRUE(SameBits(outs[1], Fold(xs, [](float a, float b) { return a * b; }, 1.0f))) << outs[1];
  EXPECT_TRUE(SameBits(outs[2], Fold(xns, [](float a, float b) { return std::fmin(a, b); }))) << outs[2];
  EXPECT_TRUE(SameBits(outs[3], Fold(xns, [](float a, float b) { return std::fmax(a, b); }))) << outs[3];
  EXPECT_FALSE(std::isnan(outs[2]));
  EXPECT_EQ(outs[4], *std::min_element(xs.begin(), xs.end()));
  for (int r = 0; r < 3; ++r) EXPECT_EQ(outs[size_t(5 + r)], *std::max_element(xs.begin() + 5 * r, xs.begin() + 5 * r + 5));
}

TEST(TileGenericOps, ReduceAxes) {
  // A 3x4x5 float tile along each axis, and a 20x33 int tile (more elements than lanes) along 0.
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Float32, 3);
  ir::Value* o0 = k.Array(ScalarType::Float32, 2);
  ir::Value* o1 = k.Array(ScalarType::Float32, 2);
  ir::Value* o2 = k.Array(ScalarType::Float32, 2);
  ir::Value* xi = k.Array(ScalarType::Int32, 2);
  ir::Value* oi = k.Array(ScalarType::Int32, 1);
  ir::Value* t = k.Load(x, {3, 4, 5});
  k.Store(o0, k.b.TileReduce(ReduceKind::Max, t, 0));
  k.Store(o1, k.b.TileReduce(ReduceKind::Add, t, 1));
  k.Store(o2, k.b.TileReduce(ReduceKind::Min, t, 2));
  k.Store(oi, k.b.TileReduce(ReduceKind::Add, k.Load(xi, {20, 33}), 0));
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<float> xs(60), r0(20, -1), r1(15, -1), r2(12, -1);
  for (int i = 0; i < 60; ++i) xs[i] = std::sin(float(i) * 1.7f) * 10.0f;
  std::vector<int32_t> xis(20 * 33), ris(33, -1);
  for (int i = 0; i < 20 * 33; ++i) xis[i] = (i * 7919) % 1001 - 500;
  tilec_array xa = View(xs.data(), {3, 4, 5}), a0 = View(r0.data(), {4, 5}), a1 = View(r1.data(), {3, 5}),
              a2 = View(r2.data(), {3, 4}), xia = View(xis.data(), {20, 33}), oia = View(ris.data(), {33});
  Launch(entry, {&xa, &a0, &a1, &a2, &xia, &oia}, {1});

  auto at = [&](int i, int j, int l) { return xs[size_t((i * 4 + j) * 5 + l)]; };
  for (int j = 0; j < 4; ++j)
    for (int l = 0; l < 5; ++l) {
      float m = at(0, j, l);
      for (int i = 1; i < 3; ++i) m = std::fmax(m, at(i, j, l));
      EXPECT_EQ(r0[size_t(j * 5 + l)], m) << j << "," << l;
    }
  for (int i = 0; i < 3; ++i)
    for (int l = 0; l < 5; ++l) {
      std::vector<float> col;
      for (int j = 0; j < 4; ++j) col.push_back(at(i, j, l));
      const float s = FoldInDocumentedOrder(col, -0.0f, [](float a, float b) { return a + b; });
      EXPECT_TRUE(SameBits(r1[size_t(i * 5 + l)], s)) << i << "," << l;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 4; ++j) {
      float m = at(i, j, 0);
      for (int l = 1; l < 5; ++l) m = std::fmin(m, at(i, j, l));
      EXPECT_EQ(r2[size_t(i * 4 + j)], m) << i << "," << j;
    }
  for (int c = 0; c < 33; ++c) {
    int32_t s = 0;
    for (int r = 0; r < 20; ++r) s += xis[size_t(r * 33 + c)];
    EXPECT_EQ(ris[size_t(c)], s) << c;
  }
}

TEST(TileGenericOps, ReduceIntKinds) {
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Int32, 1);
  ir::Value* u = k.Array(ScalarType::UInt32, 1);
  ir::Value* out = k.Array(ScalarType::Int32, 1);
  ir::Value* uout = k.Array(ScalarType::UInt32, 1);
  ir::Value* t = k.Load(x, {9});
  ir::Value* tu = k.Load(u, {6});
  const ReduceKind kinds[] = {ReduceKind::Add, ReduceKind::Mul, ReduceKind::Min, ReduceKind::Max,
                              ReduceKind::BitAnd, ReduceKind::BitOr, ReduceKind::BitXor};
  for (int i = 0; i < 7; ++i) k.StoreAt(out, k.b.TileReduce(kinds[i], t, 0), i);
  k.StoreAt(uout, k.b.TileReduce(ReduceKind::Min, tu), 0);
  k.StoreAt(uout, k.b.TileReduce(ReduceKind::Max, tu), 1);
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<int32_t> xs = {-3, 77, 12, -100, 5, 0x7ff0, -1, 40000, 9}, outs(7, 0);
  std::vector<uint32_t> us = {5, 0x80000000u, 17, 0xfffffff0u, 3, 900}, uouts(2, 0);
  tilec_array xa = View(xs.data(), {9}), ua = View(us.data(), {6}), oa = View(outs.data(), {7}),
              uoa = View(uouts.data(), {2});
  Launch(entry, {&xa, &ua, &oa, &uoa}, {1});

  EXPECT_EQ(outs[0], Fold(xs, [](int32_t a, int32_t b) { return int32_t(uint32_t(a) + uint32_t(b)); }, 0));
  EXPECT_EQ(outs[1], Fold(xs, [](int32_t a, int32_t b) { return int32_t(uint32_t(a) * uint32_t(b)); }, 1));
  EXPECT_EQ(outs[2], Fold(xs, [](int32_t a, int32_t b) { return std::min(a, b); }));
  EXPECT_EQ(outs[3], Fold(xs, [](int32_t a, int32_t b) { return std::max(a, b); }));
  EXPECT_EQ(outs[4], Fold(xs, [](int32_t a, int32_t b) { return a & b; }, -1));
  EXPECT_EQ(outs[5], Fold(xs, [](int32_t a, int32_t b) { return a | b; }, 0));
  EXPECT_EQ(outs[6], Fold(xs, [](int32_t a, int32_t b) { return a ^ b; }, 0));
  EXPECT_EQ(uouts[0], 3u);           // unsigned: 0x80000000 is large, not negative
  EXPECT_EQ(uouts[1], 0xfffffff0u);
}

TEST(TileGenericOps, Float16ReduceAndScanAccumulateInFloat32) {
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Float16, 1);
  ir::Value* sum = k.Array(ScalarType::Float16, 1);
  ir::Value* scan = k.Array(ScalarType::Float16, 1);
  ir::Value* t = k.Load(x, {40});
  k.StoreAt(sum, k.b.TileReduce(ReduceKind::Add, t), 0);
  k.StoreAt(sum, k.b.TileReduce(ReduceKind::Max, t), 1);
  k.Store(scan, k.b.TileScan(ReduceKind::Add, t, true));
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<uint16_t> xs(40), sums(2, 0), scans(40, 0);
  // 1 + 40 * 2^-11: each addend is below half an ulp of a float16 sum near 1, so a float16
  // accumulator would stay at 1; float32 keeps them.
  for (int i = 0; i < 40; ++i) xs[size_t(i)] = FloatToHalf(i == 0 ? 1.0f : 0.00048828125f * float(1 + i % 3));
  tilec_array xa = View(xs.data(), {40}), sa = View(sums.data(), {2}), ca = View(scans.data(), {40});
  Launch(entry, {&xa, &sa, &ca}, {1});

  float acc = HalfToFloat(xs[0]), mx = acc;
  EXPECT_EQ(scans[0], FloatToHalf(acc));
  for (int i = 1; i < 40; ++i) {
    acc += HalfToFloat(xs[size_t(i)]);
    mx = std::fmax(mx, HalfToFloat(xs[size_t(i)]));
    EXPECT_EQ(scans[size_t(i)], FloatToHalf(acc)) << i;
  }
  EXPECT_EQ(sums[0], FloatToHalf(acc));
  EXPECT_GT(HalfToFloat(sums[0]), 1.0f);
  EXPECT_EQ(sums[1], FloatToHalf(mx));
}

TEST(TileGenericOps, Scans) {
  // A 16x40 tile (more elements than any lane count) scanned in row-major order.
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Float32, 2);
  ir::Value* xn = k.Array(ScalarType::Float32, 1);
  ir::Value* xi = k.Array(ScalarType::Int32, 1);
  ir::Value* inc = k.Array(ScalarType::Float32, 2);
  ir::Value* exc = k.Array(ScalarType::Float32, 2);
  ir::Value* mx = k.Array(ScalarType::Float32, 1);
  ir::Value* mn = k.Array(ScalarType::Float32, 1);
  ir::Value* mul = k.Array(ScalarType::Int32, 1);
  ir::Value* ior = k.Array(ScalarType::Int32, 1);
  ir::Value* t = k.Load(x, {16, 40});
  ir::Value* tn = k.Load(xn, {7});
  ir::Value* ti = k.Load(xi, {7}, ir::Storage::Shared);
  k.Store(inc, k.b.TileScan(ReduceKind::Add, t, true));
  k.Store(exc, k.b.TileScan(ReduceKind::Add, t, false));
  k.Store(mx, k.b.TileScan(ReduceKind::Max, tn, true));
  k.Store(mn, k.b.TileScan(ReduceKind::Min, tn, false));
  k.Store(mul, k.b.TileScan(ReduceKind::Mul, ti, false));
  k.Store(ior, k.b.TileScan(ReduceKind::BitOr, ti, true));
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  const int n = 16 * 40;
  const float nan = std::nanf("");
  std::vector<float> xs(n), incs(n), excs(n), xns = {nan, 2.5f, -1.0f, nan, 4.0f, 3.0f, nan}, mxs(7), mns(7);
  for (int i = 0; i < n; ++i) xs[size_t(i)] = std::cos(float(i) * 0.37f) * 3.3f;
  std::vector<int32_t> xis = {3, -2, 5, 1 << 12, 7, -1, 9}, muls(7), iors(7);
  tilec_array xa = View(xs.data(), {16, 40}), xna = View(xns.data(), {7}), xia = View(xis.data(), {7}),
              ia = View(incs.data(), {16, 40}), ea = View(excs.data(), {16, 40}), mxa = View(mxs.data(), {7}),
              mna = View(mns.data(), {7}), mua = View(muls.data(), {7}), ora = View(iors.data(), {7});
  Launch(entry, {&xa, &xna, &xia, &ia, &ea, &mxa, &mna, &mua, &ora}, {1});

  float acc = 0;
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(SameBits(excs[size_t(i)], i == 0 ? 0.0f : acc)) << i;
    acc = i == 0 ? xs[0] : acc + xs[size_t(i)];
    ASSERT_TRUE(SameBits(incs[size_t(i)], acc)) << i << ": " << incs[size_t(i)] << " vs " << acc;
  }
  float m = 0;
  for (int i = 0; i < 7; ++i) {
    m = i == 0 ? xns[0] : std::fmax(m, xns[size_t(i)]);
    EXPECT_TRUE(SameBits(mxs[size_t(i)], m) || (std::isnan(mxs[size_t(i)]) && std::isnan(m))) << i;
  }
  EXPECT_TRUE(std::isnan(mxs[0]));  // nothing but a NaN so far
  EXPECT_EQ(mxs[1], 2.5f);
  EXPECT_EQ(mns[0], std::numeric_limits<float>::infinity());  // exclusive: the identity first
  for (int i = 1; i < 7; ++i) {
    float e = xns[0];
    for (int j = 1; j < i; ++j) e = std::fmin(e, xns[size_t(j)]);
    EXPECT_TRUE(SameBits(mns[size_t(i)], e) || (std::isnan(mns[size_t(i)]) && std::isnan(e))) << i;
  }
  int32_t p = 1, o = 0;
  for (int i = 0; i < 7; ++i) {
    EXPECT_EQ(muls[size_t(i)], p) << i;
    p = int32_t(uint32_t(p) * uint32_t(xis[size_t(i)]));
    o |= xis[size_t(i)];
    EXPECT_EQ(iors[size_t(i)], o) << i;
  }
}

TEST(TileGenericOps, BroadcastReshape) {
  Kernel k;
  ir::Value* col = k.Array(ScalarType::Float32, 2);
  ir::Value* row = k.Array(ScalarType::Int32, 1);
  ir::Value* x = k.Array(ScalarType::Float32, 2);
  ir::Value* o3 = k.Array(ScalarType::Float32, 3);
  ir::Value* o2 = k.Array(ScalarType::Int32, 2);
  ir::Value* o1 = k.Array(ScalarType::Float32, 1);
  ir::Value* os = k.Array(ScalarType::Float32, 2);
  k.Store(o3, k.b.TileBroadcast(k.Load(col, {3, 1}), {2, 3, 4}));     // (3,1) -> (2,3,4)
  k.Store(o2, k.b.TileBroadcast(k.Load(row, {4}), {3, 4}));           // (4,) -> (3,4)
  ir::Value* t = k.Load(x, {2, 6});
  ir::Value* r = k.b.TileReshape(k.b.TileReshape(t, {3, 4}), {12});   // back to row-major (12,)
  k.Store(o1, r);
  ir::Value* ts = k.Load(x, {2, 6}, ir::Storage::Shared);
  k.Store(os, k.b.Binary(ir::OpCode::Add, k.b.TileReshape(ts, {4, 3}), k.b.TileReshape(t, {4, 3})));
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<float> cols = {1.5f, -2.0f, 7.0f}, xs(12), out3(24, -1), out1(12, -1), outs(12, -1);
  std::vector<int32_t> rows = {10, 20, 30, 40}, out2(12, -1);
  for (int i = 0; i < 12; ++i) xs[size_t(i)] = float(i * i) - 3.0f;
  tilec_array ca = View(cols.data(), {3, 1}), ra = View(rows.data(), {4}), xa = View(xs.data(), {2, 6}),
              a3 = View(out3.data(), {2, 3, 4}), a2 = View(out2.data(), {3, 4}), a1 = View(out1.data(), {12}),
              as = View(outs.data(), {4, 3});
  Launch(entry, {&ca, &ra, &xa, &a3, &a2, &a1, &as}, {1});

  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int l = 0; l < 4; ++l) EXPECT_EQ(out3[size_t((i * 3 + j) * 4 + l)], cols[size_t(j)]) << i << j << l;
  for (int j = 0; j < 3; ++j)
    for (int l = 0; l < 4; ++l) EXPECT_EQ(out2[size_t(j * 4 + l)], rows[size_t(l)]);
  EXPECT_EQ(out1, xs);
  for (int i = 0; i < 12; ++i) EXPECT_EQ(outs[size_t(i)], 2.0f * xs[size_t(i)]) << i;
}

TEST(TileGenericOps, Permute) {
  Kernel k;
  ir::Value* x = k.Array(ScalarType::Float32, 3);
  ir::Value* m = k.Array(ScalarType::Int32, 2);
  ir::Value* o3 = k.Array(ScalarType::Float32, 3);
  ir::Value* ot = k.Array(ScalarType::Int32, 2);
  ir::Value* ob = k.Array(ScalarType::Int32, 2);
  k.Store(o3, k.b.TilePermute(k.Load(x, {2, 3, 4}), {2, 0, 1}));  // -> (4, 2, 3)
  ir::Value* t = k.Load(m, {5, 7});
  ir::Value* tt = k.b.TilePermute(t, {1, 0});                      // -> (7, 5)
  k.Store(ot, tt);
  k.Store(ob, k.b.TilePermute(tt, {1, 0}));                        // transposed back
  void* entry = k.Build();
  ASSERT_TRUE(entry);

  std::vector<float> xs(24), out3(24, -1);
  for (int i = 0; i < 24; ++i) xs[size_t(i)] = float(i) + 0.25f;
  std::vector<int32_t> ms(35), outt(35, -1), outb(35, -1);
  for (int i = 0; i < 35; ++i) ms[size_t(i)] = 100 * (i / 7) + i % 7;
  tilec_array xa = View(xs.data(), {2, 3, 4}), ma = View(ms.data(), {5, 7}), a3 = View(out3.data(), {4, 2, 3}),
              ta = View(outt.data(), {7, 5}), ba = View(outb.data(), {5, 7});
  Launch(entry, {&xa, &ma, &a3, &ta, &ba}, {1});

  // Result (d0, d1, d2) = input (i, j, l) with d0 = l, d1 = i, d2 = j.
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        EXPECT_EQ(out3[size_t((l * 2 + i) * 3 + j)], xs[size_t((i * 3 + j) * 4 + l)]) << l << i << j;
  for (int c = 0; c < 7; ++c)
    for (int r = 0; r < 5; ++r) EXPECT_EQ(outt[size_t(c * 5 + r)], ms[size_t(r * 7 + c)]);
  EXPECT_EQ(outb, ms);
}

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

// `lane_id` and `block_dim` through every lowering: every lane runs a tiled kernel's scalar
// code (docs/semantics.md), so each lane stores its own value, next to a uniform value at the
// end of its block's row. The kernel has no lanes of its own on the CPU (block_dim 0: one);
// under host-SIMT emulation it has that many.
TEST(LaneId, LowersOnEveryDeviceAndEachLaneStores) {
  Kernel k;
  ir::Value* out = k.Array(ScalarType::Int32, 1);
  ir::Value* block = k.b.Tid(1)[0];
  ir::Value* lanes = k.b.BlockDim();
  ir::Value* lane_plus_one = k.b.Binary(ir::OpCode::Add, k.b.LaneId(), k.I(1));
  ir::Value* row = k.b.Binary(ir::OpCode::Mul, block, k.b.Binary(ir::OpCode::Add, lanes, k.I(1)));
  k.b.ArrayStore(out, {k.b.Binary(ir::OpCode::Add, row, k.b.LaneId())}, lane_plus_one);
  k.b.ArrayStore(out, {k.b.Binary(ir::OpCode::Add, row, lanes)}, k.b.Binary(ir::OpCode::Add, block, k.I(10)));
  void* entry = k.Build();
  ASSERT_TRUE(entry);
  const char* env = std::getenv("TILEC_SIMT_EMULATION");
  int B = env && std::atoi(env) >= 1 ? std::atoi(env) : 1;
  std::vector<int32_t> outs(size_t(3 * (B + 1)), -1), want;
  for (int g = 0; g < 3; ++g) {
    for (int l = 0; l < B; ++l) want.push_back(l + 1);
    want.push_back(g + 10);
  }
  tilec_array oa = View(outs.data(), {int64_t(outs.size())});
  Launch(entry, {&oa}, {3});
  EXPECT_EQ(outs, want);
}

}  // namespace
}  // namespace tilec
