// The SIMT lowering executed under host-SIMT emulation (B lanes as OS threads, a real
// barrier) with block_dim 1, 3, 32, 64 and 256: results equal an independent reference written
// here and, bit for bit, the CPU device (block-serial lowering) on the same inputs.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <random>

#include "codegen/simt/plan.h"
#include "codegen/simt/simt.h"
#include "tests/exec/exec_util.h"
#include "tests/unit/ptx/kernels.h"

namespace tilec {
namespace {

using testing::IndexedKind;
using testing::IndexedSpec;
using testing::Launch;
using testing::View;

const int kBlockDims[] = {1, 3, 32, 64, 256};

std::unique_ptr<codegen::JitModule> Emulate(const ir::Module& m, int block_dim) {
  auto errors = ir::Verify(m);
  EXPECT_TRUE(errors.empty()) << errors.front();
  codegen::SimtOptions o;
  o.block_dim = block_dim;
  std::string error;
  auto jit = codegen::JitCompileSimtEmulation(m, o, error);
  EXPECT_TRUE(jit) << error;
  return jit;
}

std::unique_ptr<codegen::JitModule> Cpu(const ir::Module& m) {
  std::string error;
  auto jit = codegen::JitCompile(m, error);
  EXPECT_TRUE(jit) << error;
  return jit;
}

TEST(SimtEmulation, SpecGatherEvenRows) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  for (int bd : kBlockDims) {
    auto jit = Emulate(m, bd);
    ASSERT_TRUE(jit);
    std::vector<float> xs(16), ys(8, -1.0f);
    for (int i = 0; i < 16; ++i) xs[size_t(i)] = float(i + 1);
    tilec_array xa = View(xs.data(), {4, 4}), ya = View(ys.data(), {2, 4});
    Launch(jit->Lookup(codegen::EntrySymbol("gather_even_rows")), {&xa, &ya}, {1}, bd);
    EXPECT_EQ(ys, (std::vector<float>{1, 2, 3, 4, 9, 10, 11, 12})) << "block_dim " << bd;
  }
}

TEST(SimtEmulation, SpecAccumulateEvenRows) {
  ir::Module m;
  testing::AddAccumulateEvenRows(m);
  for (int bd : kBlockDims) {
    auto jit = Emulate(m, bd);
    ASSERT_TRUE(jit);
    std::vector<float> xs(8), ys(16), prev(8, -1.0f);
    for (int i = 0; i < 8; ++i) xs[size_t(i)] = float(i + 1);
    for (int i = 0; i < 16; ++i) ys[size_t(i)] = float(i);
    tilec_array xa = View(xs.data(), {2, 4}), ya = View(ys.data(), {4, 4}), pa = View(prev.data(), {2, 4});
    Launch(jit->Lookup(codegen::EntrySymbol("accumulate_even_rows")), {&xa, &ya, &pa}, {1}, bd);
    EXPECT_EQ(ys, (std::vector<float>{1, 3, 5, 7, 4, 5, 6, 7, 13, 15, 17, 19, 12, 13, 14, 15})) << bd;
    EXPECT_EQ(prev, (std::vector<float>{0, 1, 2, 3, 8, 9, 10, 11})) << bd;
  }
}

// ---------------------------------------------------------------- gather / scatter sweep

struct Case {
  IndexedSpec spec;
  std::vector<int64_t> extent;  // of `a`
  std::vector<int32_t> offset;  // runtime offsets
  bool repeats = false;         // indices repeat (atomic add only)
};

int64_t Prod(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t x : v) p *= x;
  return p;
}

// The reference semantics, written directly from the spec pages.
template <class T>
void Reference(const Case& c, int groups, const std::vector<int32_t>& idx, std::vector<T>& a, std::vector<T>& tiles,
               std::vector<T>& prev) {
  const auto& s = c.spec;
  int nd = int(s.shape.size());
  int64_t n = Prod(s.shape);
  int64_t m = s.shape[size_t(s.axis)];
  for (int g = 0; g < groups; ++g)
    for (int64_t lin = 0; lin < n; ++lin) {
      std::vector<int64_t> cc(static_cast<size_t>(nd));
      int64_t rest = lin;
      for (int d = nd - 1; d >= 0; --d) {
        cc[size_t(d)] = rest % s.shape[size_t(d)];
        rest /= s.shape[size_t(d)];
      }
      bool inb = true;
      int64_t aoff = 0;
      for (int d = 0; d < nd; ++d) {
        int64_t local = d == s.axis ? idx[size_t(g * m + cc[size_t(d)])] : cc[size_t(d)];
        int64_t gc = c.offset[size_t(d)] + local;
        inb = inb && gc >= 0 && gc < c.extent[size_t(d)];
        aoff = aoff * c.extent[size_t(d)] + gc;
      }
      int64_t toff = g * n + lin;  // tiles are stacked along dimension 0, row-major
      switch (s.kind) {
        case IndexedKind::Load: tiles[size_t(toff)] = inb ? a[size_t(aoff)] : T(0); break;
        case IndexedKind::Store: if (inb) a[size_t(aoff)] = tiles[size_t(toff)]; break;
        case IndexedKind::AtomicAdd: case IndexedKind::AtomicAddUnused:
          prev[size_t(toff)] = inb ? a[size_t(aoff)] : T(0);
          if (inb) a[size_t(aoff)] += tiles[size_t(toff)];
          break;
      }
    }
}

// Runs one case with kernel `name` of the compiled modules and checks every result.
template <class T>
void RunCase(const Case& c, const std::string& name, codegen::JitModule& cpu,
             const std::vector<std::unique_ptr<codegen::JitModule>>& emulated, ScalarType dtype) {
  const IndexedSpec& spec = c.spec;
  const int groups = 3;
  int nd = int(spec.shape.size());
  int64_t m_len = spec.shape[size_t(spec.axis)];
  std::mt19937 rng(unsigned(Prod(spec.shape) * 7 + spec.axis * 3 + int(spec.kind)));
  // Indices: in range, -1 padding and past the end (ext); distinct within a block unless
  // repeats are wanted (M <= ext + 2 in every case).
  int64_t ext = c.extent[size_t(spec.axis)];
  std::vector<int32_t> idx(size_t(groups * m_len));
  for (int g = 0; g < groups; ++g)
    for (int64_t i = 0; i < m_len; ++i)
      idx[size_t(g * m_len + i)] = c.repeats ? int32_t(rng() % 3) : int32_t((i + g) % (ext + 2)) - 1;
  std::vector<int64_t> tshape = spec.shape;
  tshape[0] *= groups;
  std::vector<T> a0(size_t(Prod(c.extent))), tiles0(size_t(Prod(tshape))), prev0(tiles0.size(), T(-7));
  for (size_t i = 0; i < a0.size(); ++i) a0[i] = T(int(i % 23) + 1);
  for (size_t i = 0; i < tiles0.size(); ++i) tiles0[i] = spec.kind == IndexedKind::Load ? T(-5) : T(int(i % 11) + 2);

  std::vector<T> ra = a0, rt = tiles0, rp = prev0;
  Reference(c, groups, idx, ra, rt, rp);

  auto run = [&](codegen::JitModule& jit, int bd, std::vector<T>& a, std::vector<T>& t, std::vector<T>& p) {
    a = a0;
    t = tiles0;
    p = prev0;
    tilec_array aa = View(a.data(), c.extent), ia = View(const_cast<int32_t*>(idx.data()), {int64_t(idx.size())});
    tilec_array ta = View(t.data(), tshape), pa = View(p.data(), tshape);
    std::vector<int32_t> offs = c.offset;
    std::vector<void*> args = {&aa, &ia, &ta, &pa};
    for (int d = 0; d < nd; ++d) args.push_back(&offs[size_t(d)]);
    Launch(jit.Lookup(codegen::EntrySymbol(name)), args, {groups}, bd);
  };
  std::vector<T> ca, ct, cp;
  run(cpu, 0, ca, ct, cp);
  for (size_t k = 0; k < emulated.size(); ++k) {
    int bd = kBlockDims[k];
    std::vector<T> ea, et, ep;
    run(*emulated[k], bd, ea, et, ep);
    std::string what = name + " " + std::string(ScalarName(dtype)) + " block_dim " + std::to_string(bd);
    EXPECT_EQ(ea, ra) << what;
    EXPECT_EQ(et, rt) << what;
    EXPECT_EQ(0, std::memcmp(ea.data(), ca.data(), ea.size() * sizeof(T))) << what;
    EXPECT_EQ(0, std::memcmp(et.data(), ct.data(), et.size() * sizeof(T))) << what;
    if (spec.kind == IndexedKind::AtomicAdd && !c.repeats) {
      EXPECT_EQ(ep, rp) << what;
      EXPECT_EQ(0, std::memcmp(ep.data(), cp.data(), ep.size() * sizeof(T))) << what;
    }
  }
}

// All cases in one module per element type, compiled once for the CPU and once per block_dim.
template <class T>
void RunCases(const std::vector<Case>& cases, ScalarType dtype) {
  ir::Module m;
  for (size_t i = 0; i < cases.size(); ++i) {
    IndexedSpec spec = cases[i].spec;
    spec.dtype = dtype;
    testing::AddIndexedKernel(m, "k" + std::to_string(i), spec);
  }
  auto cpu = Cpu(m);
  ASSERT_TRUE(cpu);
  std::vector<std::unique_ptr<codegen::JitModule>> emulated;
  for (int bd : kBlockDims) {
    emulated.push_back(Emulate(m, bd));
    ASSERT_TRUE(emulated.back());
  }
  for (size_t i = 0; i < cases.size(); ++i) RunCase<T>(cases[i], "k" + std::to_string(i), *cpu, emulated, dtype);
}

void RunAllTypes(const std::vector<Case>& cases) {
  RunCases<float>(cases, ScalarType::Float32);
  RunCases<int32_t>(cases, ScalarType::Int32);
  RunCases<double>(cases, ScalarType::Float64);
}

std::vector<Case> Cases(IndexedKind kind) {
  std::vector<Case> out;
  auto add = [&](std::vector<int64_t> shape, int axis, std::vector<int64_t> extent, std::vector<int32_t> off,
                 ir::Storage st, bool shared_idx) {
    Case c;
    c.spec.kind = kind;
    c.spec.shape = shape;
    c.spec.axis = axis;
    c.spec.storage = st;
    c.spec.shared_indices = shared_idx;
    c.extent = extent;
    c.offset = off;
    out.push_back(c);
  };
  // 2-D, gathered rows; the column offset -1 and the narrow extent put columns out on both sides.
  add({4, 8}, 0, {6, 7}, {0, -1}, ir::Storage::Register, false);
  add({4, 8}, 0, {6, 9}, {1, 0}, ir::Storage::Shared, true);
  // 2-D, gathered columns, runtime row offset.
  add({5, 3}, 1, {7, 6}, {2, 1}, ir::Storage::Register, true);
  // 3-D along each axis.
  add({3, 4, 5}, 0, {5, 5, 4}, {0, -1, 0}, ir::Storage::Register, false);
  add({3, 4, 5}, 1, {4, 6, 6}, {1, 0, 1}, ir::Storage::Shared, false);
  add({2, 3, 7}, 2, {3, 3, 9}, {0, 0, 1}, ir::Storage::Register, true);
  return out;
}

TEST(SimtEmulation, GatherMatchesReferenceAndCpu) {
  RunAllTypes(Cases(IndexedKind::Load));
}

TEST(SimtEmulation, ScatterStoreMatchesReferenceAndCpu) {
  RunAllTypes(Cases(IndexedKind::Store));
}

TEST(SimtEmulation, ScatterAddMatchesReferenceAndCpu) {
  // Repeated destinations accumulate; values are small integers, so sums are exact.
  for (IndexedKind kind : {IndexedKind::AtomicAdd, IndexedKind::AtomicAddUnused}) {
    std::vector<Case> cases = Cases(kind);
    for (Case c : Cases(kind)) {
      c.repeats = true;
      cases.push_back(c);
    }
    RunAllTypes(cases);
  }
}

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

// Control flow, carried tiles, map, sum, extract, a per-lane scalar atomic and a scalar store
// read back: bit-equal to the CPU device for every block size, and ptxas accepts the PTX. The
// counter counts lanes, so it is checked apart: G * block_dim.
TEST(SimtEmulation, MixedOpsMatchCpu) {
  ir::Module m;
  testing::AddMixedKernel(m);
  const int groups = 5;
  std::vector<float> x(size_t(groups * 32));
  for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 97) * 0.75f - 3.0f;
  auto run = [&](codegen::JitModule& jit, int bd) {
    std::vector<float> out(x.size(), 0.0f), sums(groups, -1.0f), probe(groups, -1.0f);
    std::vector<int32_t> counter(1, 0);
    std::vector<float> xs = x;
    tilec_array xa = View(xs.data(), {groups * 4, 8}), oa = View(out.data(), {groups * 4, 8});
    tilec_array ca = View(counter.data(), {1}), sa = View(sums.data(), {groups}), pa = View(probe.data(), {groups});
    Launch(jit.Lookup(codegen::EntrySymbol("mixed")), {&xa, &oa, &ca, &sa, &pa}, {groups}, bd);
    std::vector<float> all = out;
    all.insert(all.end(), sums.begin(), sums.end());
    all.insert(all.end(), probe.begin(), probe.end());
    all.push_back(float(counter[0]));
    return all;
  };
  auto cpu = Cpu(m);
  ASSERT_TRUE(cpu);
  std::vector<float> want = run(*cpu, 0);
  EXPECT_EQ(want.back(), float(groups));  // compiled for any block_dim: one lane per block
  want.pop_back();
  // probe[g] = 1000 * x[4g+1, 2] + acc[3, 7], acc = 0.25 + 0.5 * x * (0 + 1 + 2).
  for (int g = 0; g < groups; ++g) {
    float e = x[size_t((4 * g + 1) * 8 + 2)], xa = x[size_t((4 * g + 3) * 8 + 7)];
    EXPECT_FLOAT_EQ(want[size_t(groups * 32 + groups + g)], e * 1000 + (0.25f + 0.5f * xa * 3));
  }
  for (int bd : kBlockDims) {
    auto jit = Emulate(m, bd);
    ASSERT_TRUE(jit);
    std::vector<float> got = run(*jit, bd);
    EXPECT_EQ(got.back(), float(groups * bd)) << "block_dim " << bd;
    got.pop_back();
    ASSERT_EQ(got.size(), want.size());
    EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(float))) << "block_dim " << bd;
  }
}

// A gather, a map and a scatter-add form one run of per-element tile ops, whose slots the
// lowering takes a chunk at a time (one slot with sin, four without): at lane counts that leave
// the last slot and the last chunk partly empty, with source and destination rows out of range
// on both sides and the last column outside both arrays, y is bit-equal to the CPU device's.
TEST(SimtEmulation, SlotChunksMatchCpu) {
  struct Shape {
    int64_t rows, cols;
    bool sin;
  };
  const int groups = 3;
  for (Shape sh : {Shape{5, 13, true}, Shape{5, 13, false}, Shape{2, 1024, false}, Shape{3, 100, true}}) {
    ir::Module m;
    testing::AddGatherMapScatter(m, "k", sh.rows, sh.cols, sh.sin);
    const int64_t n = groups * sh.rows;  // rows of x and y; the columns stop one short of the tile's
    std::vector<float> x(size_t(n * (sh.cols - 1)));
    for (size_t i = 0; i < x.size(); ++i) x[i] = float(i % 37) * 0.37f - 5.0f;
    std::vector<int32_t> src(static_cast<size_t>(n)), dst(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) {
      src[size_t(k)] = k % 4 == 1 ? -1 : k % 4 == 3 ? int32_t(n) : int32_t((k * 7) % n);
      dst[size_t(k)] = k % 5 == 2 ? -1 : k % 5 == 4 ? int32_t(n) : int32_t(n - 1 - k);  // distinct in range
    }
    auto run = [&](codegen::JitModule& jit, int bd) {
      std::vector<float> y(size_t(n * (sh.cols - 1)));
      for (size_t i = 0; i < y.size(); ++i) y[i] = float(i % 11) * 0.5f;
      std::vector<float> xs = x;
      std::vector<int32_t> ss = src, ds = dst;
      tilec_array xa = View(xs.data(), {n, sh.cols - 1}), ya = View(y.data(), {n, sh.cols - 1});
      tilec_array sa = View(ss.data(), {n}), da = View(ds.data(), {n});
      Launch(jit.Lookup(codegen::EntrySymbol("k")), {&xa, &sa, &da, &ya}, {groups}, bd);
      return y;
    };
    auto cpu = Cpu(m);
    ASSERT_TRUE(cpu);
    std::vector<float> want = run(*cpu, 0);
    const std::string what = std::to_string(sh.rows) + "x" + std::to_string(sh.cols) + (sh.sin ? " sin" : "");
    for (int bd : kBlockDims) {
      auto jit = Emulate(m, bd);
      ASSERT_TRUE(jit);
      std::vector<float> got = run(*jit, bd);
      EXPECT_EQ(0, std::memcmp(got.data(), want.data(), got.size() * sizeof(float))) << what << " block_dim " << bd;
    }
  }
}

// LANGUAGE.md §4, version 2: scalar side effects once per lane, lane 0's value where a tile
// operation reads a lane-varying scalar, per-lane tile_extract (kernels.h, AddLanesKernel).
TEST(SimtEmulation, ScalarSideEffectsOncePerLane) {
  ir::Module m;
  testing::AddLanesKernel(m);
  const int groups = 3;
  for (int bd : kBlockDims) {
    auto jit = Emulate(m, bd);
    ASSERT_TRUE(jit);
    const int n = groups * bd;
    std::vector<int32_t> counter(1, 0), seen(size_t(n), 0), ids(size_t(n), -1);
    std::vector<float> fcount(1, 0.0f), tiles(size_t(groups * 8 + 8), -1.0f), ext(size_t(n), -1.0f), evens(1, 0.0f);
    tilec_array ca = View(counter.data(), {1}), sa = View(seen.data(), {n}), ia = View(ids.data(), {n});
    tilec_array fa = View(fcount.data(), {1}), ta = View(tiles.data(), {groups * 8 + 8});
    tilec_array ea = View(ext.data(), {n}), va = View(evens.data(), {1});
    std::vector<float> mat(32), rows(size_t(groups * 8), -1.0f);
    for (size_t k = 0; k < mat.size(); ++k) mat[k] = float(k);
    tilec_array ma = View(mat.data(), {4, 8}), ra = View(rows.data(), {groups * 8});
    Launch(jit->Lookup(codegen::EntrySymbol("lanes")), {&ca, &sa, &ia, &fa, &ta, &ea, &va, &ma, &ra}, {groups}, bd);
    std::string what = "block_dim " + std::to_string(bd);
    EXPECT_EQ(counter[0], n) << what;
    EXPECT_EQ(fcount[0], float(n)) << what;
    EXPECT_EQ(seen, std::vector<int32_t>(size_t(n), 1)) << what;  // every previous value once
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < bd; ++l) {
        EXPECT_EQ(ids[size_t(g * bd + l)], l) << what;
        EXPECT_EQ(ext[size_t(g * bd + l)], float(l % 8 + 100 * g)) << what;
      }
    std::vector<float> want_tiles(tiles.size(), -1.0f);
    for (int k = 0; k < groups * 8; ++k) want_tiles[size_t(k)] = 1.0f;
    EXPECT_EQ(tiles, want_tiles) << what;
    EXPECT_EQ(evens[0], float(groups * ((bd + 1) / 2))) << what;
    for (int k = 0; k < groups * 8; ++k) EXPECT_EQ(rows[size_t(k)], float(2 * (k % 8))) << what;  // 2 mat[0, :]
  }
}

// A barrier inside lane-varying control flow would wait for lanes that never come: the one the
// varying if's load needs (after the tile_store) is placed before the if.
TEST(SimtEmulation, NoBarrierUnderLaneVaryingControl) {
  ir::Module m;
  testing::AddLanesKernel(m);
  const ir::Function& f = *m.functions()[0];
  codegen::simt::Plan plan = codegen::simt::Plan::Build(m, f, 32);
  const ir::Op* branch = nullptr;
  for (auto& op : f.body()->ops())
    if (op->code() == ir::OpCode::If) branch = op.get();
  ASSERT_TRUE(branch);
  ASSERT_TRUE(branch->operand(0)->lane_varying());
  EXPECT_TRUE(plan.BarrierBefore(branch));
  for (auto& r : branch->regions())
    for (auto& op : r->ops()) EXPECT_FALSE(plan.BarrierBefore(op.get())) << ir::OpName(op->code());
}

// tile_scatter_lanes (kernels.h, AddScatterLanesKernel) under emulation: the lanes' values
// applied in increasing lane order, as the CPU device applies them, for every block_dim.
// `E` is the element as stored; `reference(bd)` gives the expected acc (empty: compare with
// the CPU device only).
template <class E>
void RunScatterLanes(ScalarType elem, bool as_struct, const std::function<std::vector<E>(int)>& reference) {
  const int groups = 2;
  auto build = [&](int cpu_lanes) {
    auto m = std::make_unique<ir::Module>();
    testing::AddScatterLanesKernel(*m, "scatter_lanes", elem, as_struct);
    m->functions()[0]->block_dim = cpu_lanes;
    return m;
  };
  auto run = [&](codegen::JitModule& jit, int bd, std::vector<E>& acc, std::vector<int32_t>& wr) {
    acc.assign(size_t(groups * 4), E{});
    wr.assign(size_t(groups * 4), -7);
    tilec_array aa = View(acc.data(), {groups * 4}), wa = View(wr.data(), {groups * 4});
    Launch(jit.Lookup(codegen::EntrySymbol("scatter_lanes")), {&aa, &wa}, {groups}, bd);
  };
  auto emulated_m = build(0);
  for (int bd : kBlockDims) {
    std::string what = std::string(ScalarName(elem)) + (as_struct ? " struct" : "") + " block_dim " + std::to_string(bd);
    std::vector<int32_t> want_wr(size_t(groups * 4), -1);
    for (int g = 0; g < groups; ++g)
      for (int l = 0; l < bd; ++l) want_wr[size_t(g * 4 + l % 4)] = l;
    auto jit = Emulate(*emulated_m, bd);
    ASSERT_TRUE(jit);
    std::vector<E> acc;
    std::vector<int32_t> wr;
    run(*jit, bd, acc, wr);
    EXPECT_EQ(wr, want_wr) << what;
    std::vector<E> want = reference(bd);
    if (!want.empty()) {
      ASSERT_EQ(want.size(), acc.size());
      EXPECT_EQ(0, std::memcmp(acc.data(), want.data(), acc.size() * sizeof(E))) << what;
    }
    auto cpu_m = build(bd);
    auto cpu = Cpu(*cpu_m);
    ASSERT_TRUE(cpu);
    std::vector<E> cacc;
    std::vector<int32_t> cwr;
    run(*cpu, bd, cacc, cwr);
    EXPECT_EQ(cwr, want_wr) << what << " (CPU)";
    EXPECT_EQ(0, std::memcmp(acc.data(), cacc.data(), acc.size() * sizeof(E))) << what << " (vs CPU)";
  }
}

// acc[k] of one block: 0.5 plus (l + 1) * 0.1 for the lanes l in increasing order with
// l % 3 != 1 and l % 5 == k, in float32.
std::vector<float> ScatterReference(int bd, int groups) {
  std::vector<float> acc(size_t(groups * 4), 0.5f);
  for (int g = 0; g < groups; ++g)
    for (int l = 0; l < bd; ++l) {
      if (l % 3 == 1 || l % 5 >= 4) continue;
      volatile float v = float(l + 1) * 0.1f;
      acc[size_t(g * 4 + l % 5)] += v;
    }
  return acc;
}

TEST(SimtEmulation, ScatterLanesFloat32) {
  RunScatterLanes<float>(ScalarType::Float32, false, [](int bd) { return ScatterReference(bd, 2); });
}

struct V3 {
  float x, y, z;
};

TEST(SimtEmulation, ScatterLanesStructAddsComponentwise) {
  RunScatterLanes<V3>(ScalarType::Float32, true, [](int bd) {
    std::vector<float> x = ScatterReference(bd, 2);
    std::vector<V3> out;
    for (size_t k = 0; k < x.size(); ++k) {
      // y adds 2 v per lane: (l + 1) * 0.1 doubled exactly, so its own running sum.
      float y = 0.5f;
      const int e = int(k) % 4;
      for (int l = 0; l < bd; ++l) {
        if (l % 3 == 1 || l % 5 != e) continue;
        volatile float v = float(l + 1) * 0.1f;
        y += v + v;
      }
      out.push_back(V3{x[k], y, 0.5f});
    }
    return out;
  });
}

// 16-bit floats and float64 round as the CPU device does (each lane's add rounded in the
// element type); compared with it bit for bit.
TEST(SimtEmulation, ScatterLanesOtherFloatsMatchCpu) {
  RunScatterLanes<uint16_t>(ScalarType::Float16, false, [](int) { return std::vector<uint16_t>{}; });
  RunScatterLanes<uint16_t>(ScalarType::BFloat16, false, [](int) { return std::vector<uint16_t>{}; });
  RunScatterLanes<double>(ScalarType::Float64, false, [](int) { return std::vector<double>{}; });
}

}  // namespace
}  // namespace tilec
