// PTX from the SIMT lowering: accepted by ptxas for sm_75, sm_80 and sm_90 (skipped where
// ptxas is absent), and the patterns that matter: no local-memory spills in the spec gather,
// `red` exactly when the previous values are unused, bfloat16 atomics native on sm_90 and a
// CAS loop below, and the barrier count the data flow needs.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>

#include "codegen/nvptx/nvptx.h"
#include "tilec/abi.h"
#include "tests/unit/ptx/kernels.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec {
namespace {

using testing::CountMatches;
using testing::IndexedKind;
using testing::IndexedSpec;

const char* kArchs[] = {"sm_75", "sm_80", "sm_90"};

codegen::PtxModule Compile(const ir::Module& m, const std::string& arch, int block_dim = 256, int threads = 0) {
  auto errors = ir::Verify(m);
  EXPECT_TRUE(errors.empty()) << errors.front();
  codegen::PtxOptions o;
  o.arch = arch;
  o.block_dim = block_dim;
  o.threads = threads;
  codegen::PtxModule out;
  std::string error;
  EXPECT_TRUE(codegen::EmitPtx(m, o, out, error)) << error;
  return out;
}

// The body of one .entry (PTX of a module may hold several).
std::string EntryBody(const std::string& ptx, const std::string& kernel) {
  std::string head = ".entry " + codegen::EntrySymbol(kernel) + "(";
  size_t at = ptx.find(head);
  if (at == std::string::npos) return "";
  size_t end = ptx.find("\n}", at);
  return ptx.substr(at, end - at);
}

void ExpectPtxasAccepts(const std::string& ptx, const std::string& arch, const std::string& what) {
  if (!testing::HavePtxas()) GTEST_SKIP() << "ptxas not found at " << testing::PtxasPath();
  testing::PtxasResult r = testing::RunPtxas(ptx, arch);
  EXPECT_EQ(r.status, 0) << what << " on " << arch << ":\n" << r.log << "\n" << ptx;
}

ir::Module IndexedModule(const std::string& name, const IndexedSpec& s) {
  ir::Module m;
  testing::AddIndexedKernel(m, name, s);
  return m;
}

TEST(Ptx, SpecKernelsAcceptedByPtxas) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  testing::AddAccumulateEvenRows(m);
  for (const char* arch : kArchs) {
    codegen::PtxModule p = Compile(m, arch, 4);
    EXPECT_NE(p.ptx.find(".target " + std::string(arch)), std::string::npos);
    EXPECT_NE(p.ptx.find(".entry tilec_kernel_gather_even_rows("), std::string::npos);
    ExpectPtxasAccepts(p.ptx, arch, "spec kernels");
  }
}

TEST(Ptx, KernelMetadata) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  codegen::PtxModule p = Compile(m, "sm_80", 64);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].name, "gather_even_rows");
  EXPECT_EQ(p.kernels[0].block_dim, 64);
  // The only shared tile is the promoted index tile: 2 int32 values, padded to 16 bytes.
  EXPECT_EQ(p.kernels[0].shared_bytes, 16u);
  // Parameters by value: two 80-byte arrays and the 64-byte launch record (abi.h).
  static_assert(sizeof(tilec_launch) == 64);
  std::string body = EntryBody(p.ptx, "gather_even_rows");
  EXPECT_EQ(CountMatches(body, R"(\.param \.align 8 \.b8 \w+\[80\])"), 2) << body;
  EXPECT_EQ(CountMatches(body, R"(\.param \.align 8 \.b8 \w+\[64\])"), 1) << body;
}

// Kernels that use sin and cos pull in libdevice's module-scope table (`.global ...
// __cudart_i2opi_f`); it is declared once in the joined text and the kernels still compile
// apart. Kernels declaring the same name with other contents compile as one module instead.
TEST(Ptx, KernelsWithLibdeviceTablesStillCompileApart) {
  ir::Module m;
  for (const char* name : {"sines", "cosines"}) {
    ir::Builder b(m);
    ir::Function* f = m.AddFunction(name);
    ir::Value* x = f->AddParam("x", testing::Arr(ScalarType::Float32, 1));
    b.SetInsertionPoint(f->body());
    ir::Value* i = b.Tid(1)[0];
    ir::Value* v = b.ArrayLoad(x, {i});
    b.ArrayStore(x, {i}, b.Unary(std::string(name) == "sines" ? ir::OpCode::Sin : ir::OpCode::Cos, v));
    b.Return();
  }
  codegen::PtxModule p = Compile(m, "sm_90", 32);
  EXPECT_TRUE(p.compiled_apart);
  EXPECT_EQ(CountMatches(p.ptx, R"(\.global \.align 4 \.b8 __cudart_i2opi_f\[24\])"), 1) << p.ptx;
  EXPECT_EQ(CountMatches(p.ptx, R"(\.entry )"), 2);
  ExpectPtxasAccepts(p.ptx, "sm_90", "joined kernels with a libdevice table");
}

// The libdevice functions a set of names pulls in are kept per process as a slice: a module
// that needs the same names again gets the same code from it, and one that needs other names
// gets its own slice, not a neighbour's.
TEST(Ptx, LibdeviceSlicesGiveTheSameCodeAsTheLibrary) {
  auto unary_module = [](std::vector<ir::OpCode> ops) {
    auto m = std::make_unique<ir::Module>();
    ir::Builder b(*m);
    ir::Function* f = m->AddFunction("math");
    ir::Value* x = f->AddParam("x", testing::Arr(ScalarType::Float32, 1));
    b.SetInsertionPoint(f->body());
    ir::Value* i = b.Tid(1)[0];
    ir::Value* v = b.ArrayLoad(x, {i});
    for (ir::OpCode op : ops) v = b.Unary(op, v);
    b.ArrayStore(x, {i}, v);
    b.Return();
    return m;
  };
  const std::string sin_first = Compile(*unary_module({ir::OpCode::Sin}), "sm_90", 32).ptx;
  const std::string exp_log = Compile(*unary_module({ir::OpCode::Exp, ir::OpCode::Log}), "sm_90", 32).ptx;
  const std::string sin_again = Compile(*unary_module({ir::OpCode::Sin}), "sm_90", 32).ptx;
  EXPECT_EQ(sin_first, sin_again);
  EXPECT_NE(sin_first, exp_log);
  // sin's range reduction brings libdevice's table; exp and log need none.
  EXPECT_EQ(CountMatches(sin_again, R"(__cudart_i2opi_f\[24\])"), 1) << sin_again;
  EXPECT_EQ(CountMatches(exp_log, R"(__cudart_i2opi_f)"), 0) << exp_log;
  ExpectPtxasAccepts(sin_again, "sm_90", "sin from a libdevice slice");
  ExpectPtxasAccepts(exp_log, "sm_90", "exp and log from a libdevice slice");
}

// Kernels compile apart (in parallel) and their texts are joined: one header, one declaration
// of the dynamic shared memory, every entry once and in module order, metadata in that order.
TEST(Ptx, KernelsCompiledApartFormOneModule) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  testing::AddAccumulateEvenRows(m);
  {
    ir::Builder b(m);
    b.SetInsertionPoint(m.AddFunction("empty")->body());
    b.Return();
  }
  codegen::PtxModule p = Compile(m, "sm_90", 32);
  EXPECT_EQ(CountMatches(p.ptx, R"(\.version )"), 1) << p.ptx;
  EXPECT_EQ(CountMatches(p.ptx, R"(\.extern \.shared )"), 1) << p.ptx;
  const char* names[] = {"gather_even_rows", "accumulate_even_rows", "empty"};
  size_t last = 0;
  ASSERT_EQ(p.kernels.size(), 3u);
  for (int k = 0; k < 3; ++k) {
    const std::string head = ".entry " + codegen::EntrySymbol(names[k]) + "(";
    EXPECT_EQ(CountMatches(p.ptx, "\\.entry " + codegen::EntrySymbol(names[k]) + "\\("), 1) << names[k];
    const size_t at = p.ptx.find(head);
    EXPECT_GT(at, last) << names[k] << " out of order";
    last = at;
    EXPECT_EQ(p.kernels[size_t(k)].name, names[k]);
  }
  EXPECT_EQ(p.kernels[0].shared_bytes, 16u);
  // The same kernels as one LLVM module on one thread: the same entries, line for line (labels
  // are numbered per module: $L__BB<function>_<block>).
  codegen::PtxModule one = Compile(m, "sm_90", 32, 1);
  auto lines = [](const std::string& ptx) {
    std::vector<std::string> out;
    std::istringstream in(ptx);
    const std::regex label(R"(\$L__BB\d+_)");
    for (std::string l; std::getline(in, l);)
      if (!l.empty() && l.find("//") == std::string::npos) out.push_back(std::regex_replace(l, label, "$$L__BB_"));
    return out;
  };
  EXPECT_EQ(lines(p.ptx), lines(one.ptx));
  ExpectPtxasAccepts(p.ptx, "sm_90", "three kernels");
}

TEST(Ptx, GatherScatterKernelsAcceptedByPtxas) {
  ir::Module m;
  int n = 0;
  for (IndexedKind kind : {IndexedKind::Load, IndexedKind::Store, IndexedKind::AtomicAdd, IndexedKind::AtomicAddUnused})
    for (ScalarType t : {ScalarType::Float32, ScalarType::Float64, ScalarType::Int32, ScalarType::UInt64,
                         ScalarType::Float16, ScalarType::BFloat16})
      for (int axis : {0, 1}) {
        IndexedSpec s;
        s.kind = kind;
        s.dtype = t;
        s.shape = axis == 0 ? std::vector<int64_t>{4, 8} : std::vector<int64_t>{3, 5, 2};
        s.axis = axis;
        s.storage = n % 3 == 0 ? ir::Storage::Shared : ir::Storage::Register;
        s.shared_indices = n % 2 == 0;
        testing::AddIndexedKernel(m, "k" + std::to_string(n++), s);
      }
  for (const char* arch : kArchs) ExpectPtxasAccepts(Compile(m, arch, 32).ptx, arch, "gather/scatter kernels");
}

// The spec gather keeps everything in registers: ptxas -v reports no spill.
TEST(Ptx, SpecGatherHasNoLocalMemorySpill) {
  if (!testing::HavePtxas()) GTEST_SKIP() << "ptxas not found at " << testing::PtxasPath();
  ir::Module m;
  testing::AddGatherEvenRows(m);
  for (const char* arch : kArchs) {
    std::string ptx = Compile(m, arch, 4).ptx;
    EXPECT_EQ(ptx.find(".local"), std::string::npos) << ptx;
    testing::PtxasResult r = testing::RunPtxas(ptx, arch);
    ASSERT_EQ(r.status, 0) << r.log;
    EXPECT_NE(r.log.find("0 bytes spill stores, 0 bytes spill loads"), std::string::npos) << r.log;
    EXPECT_NE(r.log.find("0 bytes stack frame"), std::string::npos) << r.log;
  }
}

// ptxas -v's registers for each entry function of `log`.
std::map<std::string, int> RegistersByEntry(const std::string& log) {
  std::map<std::string, int> out;
  std::regex entry(R"(entry function '(\w+)')"), used(R"(Used (\d+) registers)");
  std::string current;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);) {
    std::smatch mt;
    if (std::regex_search(line, mt, entry)) current = mt[1];
    else if (std::regex_search(line, mt, used) && !current.empty()) out[current] = std::stoi(mt[1]);
  }
  return out;
}

// Tiles of eight slots a lane (2 x 1024 and 32 x 64 floats at 256 lanes) go through the slots
// a chunk at a time: a row gather, a row gather through x * x into a scatter-add, and a gather
// through sin into a scatter-add fit in 40 registers (the gathers took 94 and 61 when every
// slot was unrolled and kept its address live across the grid loop), with no spill and no
// stack; a chunk holds four of the row gather's loads, and the sin routine (its argument
// reduction multiplies by 2/pi, 0f3F22F983) appears once, not once per slot.
TEST(Ptx, WideTilesTakeTheLaneSlotsInChunks) {
  ir::Module m;
  IndexedSpec s;
  s.shape = {2, 1024};
  testing::AddIndexedKernel(m, "wide_gather", s);
  testing::AddGatherMapScatter(m, "wide_rows_square", 2, 1024, false);
  testing::AddGatherMapScatter(m, "gather_sin_scatter", 32, 64, true);
  std::string ptx = Compile(m, "sm_90", 256).ptx;
  EXPECT_EQ(CountMatches(EntryBody(ptx, "wide_gather"), R"(ld\.global\.f32)"), 4) << ptx;
  EXPECT_EQ(CountMatches(EntryBody(ptx, "gather_sin_scatter"), "0f3F22F983"), 1) << ptx;
  for (const char* k : {"wide_gather", "wide_rows_square"})
    EXPECT_EQ(EntryBody(ptx, k).find(".local"), std::string::npos) << ptx;
  if (!testing::HavePtxas()) GTEST_SKIP() << "ptxas not found at " << testing::PtxasPath();
  testing::PtxasResult r = testing::RunPtxas(ptx, "sm_90");
  ASSERT_EQ(r.status, 0) << r.log;
  std::map<std::string, int> regs = RegistersByEntry(r.log);
  for (const char* k : {"wide_gather", "wide_rows_square", "gather_sin_scatter"}) {
    ASSERT_TRUE(regs.count(codegen::EntrySymbol(k))) << k << "\n" << r.log;
    EXPECT_LE(regs[codegen::EntrySymbol(k)], 40) << k << "\n" << r.log;
  }
  EXPECT_EQ(CountMatches(r.log, "0 bytes spill stores, 0 bytes spill loads"), 3) << r.log;
  EXPECT_EQ(CountMatches(r.log, " 0 bytes stack frame"), 3) << r.log;
}

// The PTX code generator declines LLVM's loop strength reduction through a pass gate keyed by
// the pass's name: a renamed pass in a later LLVM would silently bring it back (registers up,
// compile time up by a fifth on matmul_tc).
TEST(Ptx, LoopStrengthReductionDeclined) {
  ir::Module m;
  IndexedSpec s;
  s.shape = {8, 64};
  testing::AddIndexedKernel(m, "grid_loop_gather", s);
  const size_t before = codegen::PtxPassesDeclined();
  std::string ptx = Compile(m, "sm_90", 128).ptx;
  EXPECT_NE(ptx.find(".entry"), std::string::npos);
  EXPECT_GT(codegen::PtxPassesDeclined(), before) << "the gate no longer matches LLVM's loop strength reduction";
}

// red.global.add exactly when the returned previous values are unused.
TEST(Ptx, ReductionExactlyWhenPreviousUnused) {
  for (ScalarType t : {ScalarType::Float32, ScalarType::Int32, ScalarType::Float64, ScalarType::UInt64, ScalarType::Float16}) {
    IndexedSpec s;
    s.dtype = t;
    s.shape = {4, 8};
    s.kind = IndexedKind::AtomicAddUnused;
    std::string unused = Compile(IndexedModule("k", s), "sm_80", 32).ptx;
    s.kind = IndexedKind::AtomicAdd;
    std::string used = Compile(IndexedModule("k", s), "sm_80", 32).ptx;
    EXPECT_GT(CountMatches(unused, R"(red\.global\.add)"), 0) << ScalarName(t) << unused;
    EXPECT_EQ(CountMatches(unused, R"(atom\.global)"), 0) << ScalarName(t) << unused;
    EXPECT_EQ(CountMatches(used, R"(red\.global)"), 0) << ScalarName(t) << used;
    EXPECT_GT(CountMatches(used, R"(atom\.global\.add)"), 0) << ScalarName(t) << used;
  }
}

// bfloat16 atomic add: native on sm_90, a compare-and-swap loop on sm_80.
TEST(Ptx, BFloat16AtomicNativeOnlyOnSm90) {
  IndexedSpec s;
  s.dtype = ScalarType::BFloat16;
  s.shape = {4, 8};
  for (IndexedKind kind : {IndexedKind::AtomicAdd, IndexedKind::AtomicAddUnused}) {
    s.kind = kind;
    ir::Module m = IndexedModule("k", s);
    std::string sm90 = Compile(m, "sm_90", 32).ptx;
    std::string sm80 = Compile(m, "sm_80", 32).ptx;
    const char* native = kind == IndexedKind::AtomicAdd ? R"(atom\.global\.add\.noftz\.bf16)"
                                                        : R"(red\.global\.add\.noftz\.bf16)";
    EXPECT_GT(CountMatches(sm90, native), 0) << sm90;
    EXPECT_EQ(CountMatches(sm90, R"(atom\.global\.cas)"), 0) << sm90;
    EXPECT_EQ(CountMatches(sm80, R"((atom|red)\.global\.add\.noftz\.bf16)"), 0) << sm80;
    EXPECT_GT(CountMatches(sm80, R"(atom(\.relaxed\.sys)?\.global\.cas\.b32)"), 0) << sm80;
    ExpectPtxasAccepts(sm80, "sm_80", "bf16 CAS loop");
    ExpectPtxasAccepts(sm90, "sm_90", "bf16 native");
  }
}

// Barriers the data flow needs in the seed kernels, and no more. In both, the register index
// tile `tile_arange(2) * 2` is promoted to shared memory and read by every lane, so:
//   1. one barrier between writing the shared index tile and the gather/scatter reading it;
//   2. one barrier before the index tile is written again by the next block program this
//      block runs (the grid-stride loop), while slower lanes may still read the old one.
// Global memory needs none: x, y and previous are distinct arrays and each is accessed once.
TEST(Ptx, SeedKernelsHaveMinimalBarriers) {
  for (auto add : {testing::AddGatherEvenRows, testing::AddAccumulateEvenRows}) {
    ir::Module m;
    add(m);
    for (const char* arch : kArchs) {
      codegen::PtxModule p = Compile(m, arch, 4);
      EXPECT_EQ(CountMatches(p.ptx, R"(bar\.sync)"), 2) << p.ptx;
      EXPECT_EQ(p.kernels[0].barrier_sites, 2);
    }
  }
}

// With one lane per block nothing is shared between lanes: no barrier at all.
TEST(Ptx, SingleLaneBlocksNeedNoBarrier) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  EXPECT_EQ(CountMatches(Compile(m, "sm_90", 1).ptx, R"(bar\.sync)"), 0);
}

TEST(Ptx, RejectsUnknownArch) {
  ir::Module m;
  testing::AddGatherEvenRows(m);
  codegen::PtxOptions o;
  o.arch = "sm_70";
  codegen::PtxModule out;
  std::string error;
  EXPECT_FALSE(codegen::EmitPtx(m, o, out, error));
  EXPECT_NE(error.find("sm_70"), std::string::npos) << error;
}

}  // namespace
}  // namespace tilec

namespace tilec {
namespace {

TEST(Ptx, MixedOpsAcceptedByPtxas) {
  ir::Module m;
  testing::AddMixedKernel(m);
  for (const char* arch : kArchs)
    for (int bd : {1, 3, 32, 256}) ExpectPtxasAccepts(Compile(m, arch, bd).ptx, arch, "mixed ops");
}

// Per-lane scalar code, lane 0's values read by tile operations (shared memory and a barrier),
// and tile_scatter_lanes of scalars, 16-bit floats and structs.
TEST(Ptx, LanesAndScatterLanesAcceptedByPtxas) {
  ir::Module m;
  testing::AddLanesKernel(m);
  testing::AddScatterLanesKernel(m, "scatter_f32", ScalarType::Float32, false);
  testing::AddScatterLanesKernel(m, "scatter_f16", ScalarType::Float16, false);
  testing::AddScatterLanesKernel(m, "scatter_bf16", ScalarType::BFloat16, false);
  testing::AddScatterLanesKernel(m, "scatter_v3", ScalarType::Float32, true);
  for (const char* arch : kArchs)
    for (int bd : {1, 3, 32, 256}) ExpectPtxasAccepts(Compile(m, arch, bd).ptx, arch, "lanes and scatter_lanes");
}

// Deterministic tile atomics (wp.config.deterministic): the block ticket is spun on with a
// volatile load and passed with a volatile store, each fenced by membar.gl, since LLVM 19's
// NVPTX back end cannot select acquire loads, release stores or `fence` (it aborted the
// compiler before). Every arch and block_dim must compile and pass ptxas.
TEST(Ptx, DeterministicAtomicsAcceptedByPtxas) {
  ir::Module m;
  testing::AddAccumulateEvenRows(m);
  testing::AddIndexedKernel(m, "scatter_unused", {IndexedKind::AtomicAddUnused, ScalarType::Float32, {8, 4}, 1});
  for (auto& f : m.functions()) f->deterministic = true;
  for (const char* arch : kArchs)
    for (int bd : {1, 3, 32, 256}) {
      codegen::PtxModule p = Compile(m, arch, bd);
      for (const char* k : {"accumulate_even_rows", "scatter_unused"}) {
        std::string body = EntryBody(p.ptx, k);
        EXPECT_GT(CountMatches(body, R"(ld\.volatile(\.global)?\.u64)"), 0) << k << "\n" << body;
        EXPECT_GT(CountMatches(body, R"(st\.volatile(\.global)?\.u64)"), 0) << k << "\n" << body;
        EXPECT_EQ(CountMatches(body, R"(membar\.gl)"), 2) << k << "\n" << body;
      }
      ExpectPtxasAccepts(p.ptx, arch, "deterministic atomics");
    }
}

// Scalar atomics run on every lane: a used previous value is the lane's own atom, an unused
// one a red, neither under a lane-0 branch.
TEST(Ptx, ScalarAtomicIsPerLane) {
  ir::Module m;
  testing::AddLanesKernel(m);
  std::string body = EntryBody(Compile(m, "sm_80", 32).ptx, "lanes");
  EXPECT_GT(CountMatches(body, R"(atom\.global\.add\.u32)"), 0) << body;
  EXPECT_GT(CountMatches(body, R"(red\.global\.add\.f32)"), 0) << body;
}

}  // namespace
}  // namespace tilec
