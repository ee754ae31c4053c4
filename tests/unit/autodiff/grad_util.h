// Gradient-test harness: builds a kernel's adjoint, JIT-compiles both on the CPU device, and
// compares the adjoint's gradients with central finite differences in float64 of the loss
// L = sum over float arrays A of sum(w_A * A_final), w_A random: seeding A.grad = w_A and
// running the adjoint must leave dL/dA_initial in every A.grad.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "codegen/codegen.h"
#include "compiler/pipeline.h"
#include "codegen/nvptx/nvptx.h"
#include "codegen/simt/simt.h"
#include "ir/autodiff/autodiff.h"
#include "ir/builder.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "runtime/include/tilec/abi.h"
#include "tests/unit/ptx/ptxas.h"

namespace tilec::adtest {

inline constexpr double kCanary = -12345.5;
inline constexpr int kPad = 8;  // canary elements around every buffer

// A host array: float64 or int32, row-major, with canaries around data and grad.
struct HostArray {
  std::vector<int64_t> shape;
  bool is_int = false;
  bool has_grad = true;
  std::vector<double> d;     // kPad + n + kPad
  std::vector<int32_t> i;    // int arrays
  std::vector<double> g;     // grad, same layout as d

  int64_t size() const {
    int64_t n = 1;
    for (int64_t s : shape) n *= s;
    return n;
  }
  static HostArray Float(std::vector<int64_t> shape, std::vector<double> values, bool grad = true) {
    HostArray a;
    a.shape = std::move(shape);
    a.has_grad = grad;
    a.d.assign(a.size() + 2 * kPad, kCanary);
    a.g.assign(a.size() + 2 * kPad, kCanary);
    for (int64_t k = 0; k < a.size(); ++k) a.d[kPad + k] = values[k];
    return a;
  }
  static HostArray Int(std::vector<int64_t> shape, std::vector<int32_t> values) {
    HostArray a;
    a.shape = std::move(shape);
    a.is_int = true;
    a.has_grad = false;
    a.i = std::move(values);
    return a;
  }
  double& at(int64_t k) { return d[kPad + k]; }
  double& grad(int64_t k) { return g[kPad + k]; }
  tilec_array View() {
    tilec_array v{};
    int nd = int(shape.size());
    int64_t esize = is_int ? 4 : 8;
    int64_t stride = esize;
    for (int k = TILEC_MAX_DIMS - 1; k >= 0; --k) {
      v.shape[k] = k < nd ? shape[k] : 1;
      v.strides[k] = k < nd ? stride : 0;
      if (k < nd) stride *= shape[k];
    }
    v.data = is_int ? static_cast<void*>(i.data()) : static_cast<void*>(d.data() + kPad);
    v.grad = (!is_int && has_grad) ? static_cast<void*>(g.data() + kPad) : nullptr;
    return v;
  }
};

inline ir::Type F64Array(int ndim) { return ir::Type::Array(ir::ElemType::Of(ScalarType::Float64), ndim); }
inline ir::Type I32Array(int ndim) { return ir::Type::Array(ir::ElemType::Of(ScalarType::Int32), ndim); }

// A module with one kernel under construction.
struct KernelBuilder {
  ir::Module m;
  ir::Builder b{m};
  ir::Function* f = nullptr;
  explicit KernelBuilder(const std::string& name, bool tiled = true) {
    f = m.AddFunction(name);
    f->tiled = tiled;
    b.SetInsertionPoint(f->body());
  }
  ir::Value* I(int64_t v) { return b.ConstInt(ScalarType::Int32, v); }
  ir::Value* F(double v) { return b.ConstFloat(ScalarType::Float64, v); }
};

struct Compiled {
  std::unique_ptr<codegen::JitModule> jit;
  void* fwd = nullptr;
  void* adj = nullptr;
  std::string grad_ir;
};

// TILEC_SIMT_EMULATION=B runs every check through the GPU lowering under host-SIMT emulation
// with B lanes per block (CTest registers the whole suite that way too); 0 when unset.
inline int EmulationLanes() {
  const char* env = std::getenv("TILEC_SIMT_EMULATION");
  int b = env ? std::atoi(env) : 0;
  return b >= 1 && b <= 1024 ? b : 0;
}

// With TILEC_AUTODIFF_PTXAS set (CTest's autodiff_ptxas), the module with its adjoint kernels
// is also compiled to PTX and must be accepted by ptxas for sm_80 and sm_90.
inline void CheckPtxas(const ir::Module& m) {
  if (!testing::HavePtxas()) return;
  for (const char* arch : {"sm_80", "sm_90"}) {
    codegen::PtxOptions opts;
    opts.arch = arch;
    opts.block_dim = 64;
    codegen::PtxModule ptx;
    std::string error;
    ASSERT_TRUE(codegen::EmitPtx(m, opts, ptx, error)) << arch << ": " << error;
    testing::PtxasResult r = testing::RunPtxas(ptx.ptx, arch, false);
    EXPECT_EQ(r.status, 0) << arch << ":\n" << r.log;
  }
}

// Builds the adjoint, verifies the module and JIT-compiles it.
inline Compiled Compile(ir::Module& m, const std::string& name) {
  Compiled c;
  diag::DiagnosticEngine diags;
  bool ok = autodiff::BuildAdjoints(m, diags);
  std::ostringstream msgs;
  diags.Render(msgs);
  EXPECT_TRUE(ok) << msgs.str();
  EXPECT_EQ(diags.warning_count(), 0) << msgs.str();
  auto errors = ir::Verify(m);
  EXPECT_TRUE(errors.empty()) << (errors.empty() ? "" : errors.front()) << "\n" << ir::ModuleToString(m);
  if (!errors.empty()) return c;
  if (std::getenv("TILEC_AUTODIFF_PTXAS")) CheckPtxas(m);
  std::string error;
  if (int lanes = EmulationLanes()) {
    codegen::SimtOptions opts;
    opts.block_dim = lanes;
    c.jit = codegen::JitCompileSimtEmulation(m, opts, error);
  } else {
    c.jit = codegen::JitCompile(m, error);
  }
  EXPECT_TRUE(c.jit) << error;
  if (!c.jit) return c;
  c.fwd = c.jit->Lookup(codegen::EntrySymbol(name));
  c.adj = c.jit->Lookup(codegen::EntrySymbol(autodiff::AdjointName(name)));
  if (ir::Function* a = m.FindFunction(autodiff::AdjointName(name))) {
    std::ostringstream os;
    ir::PrintFunction(os, m, *a);
    c.grad_ir = os.str();
    if (std::getenv("TILEC_DUMP_GRAD_IR")) std::fprintf(stderr, "%s", c.grad_ir.c_str());
  }
  return c;
}

inline void RunEntry(void* entry, std::vector<HostArray>& arrays, const std::vector<void*>& scalars,
                     std::vector<int64_t> grid, int block_dim) {
  std::vector<tilec_array> views;
  views.reserve(arrays.size());
  for (HostArray& a : arrays) views.push_back(a.View());
  std::vector<void*> args;
  for (tilec_array& v : views) args.push_back(&v);
  for (void* s : scalars) args.push_back(s);
  // Adjoint slots (signature.h): zeroed storage for scalars, null for arrays.
  std::vector<double> slots(scalars.size(), 0.0);
  for (size_t k = 0; k < arrays.size(); ++k) args.push_back(nullptr);
  for (double& s : slots) args.push_back(&s);
  tilec_launch l{};
  l.ndim = int32_t(grid.size());
  int64_t total = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    l.dim[d] = d < int(grid.size()) ? grid[d] : 1;
    total *= l.dim[d];
  }
  l.block_dim = block_dim > 0 && EmulationLanes() ? EmulationLanes() : block_dim;
  reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, 0, total);
}

struct GradCheck {
  std::vector<int64_t> grid{1};
  int block_dim = 8;
  std::vector<void*> scalars;  // scalar parameters after the arrays, in order
  double h = 1e-6;
  double tol = 1e-6;  // |adjoint - fd| <= tol * (1 + |fd|)
};

inline double Loss(std::vector<HostArray>& arrays, const std::vector<std::vector<double>>& w) {
  double l = 0;
  for (size_t a = 0; a < arrays.size(); ++a)
    if (!arrays[a].is_int)
      for (int64_t k = 0; k < arrays[a].size(); ++k) l += w[a][k] * arrays[a].at(k);
  return l;
}

// Runs forward + adjoint on `init` and compares every float array's gradient with central
// differences; also checks that no canary around data or grad was touched. Returns the
// arrays after the adjoint (for further checks).
inline std::vector<HostArray> CheckGradients(const Compiled& c, const std::vector<HostArray>& init,
                                             const GradCheck& opt, unsigned seed = 7) {
  std::vector<HostArray> out = init;
  if (!c.fwd || !c.adj) {
    ADD_FAILURE() << "kernel or adjoint missing";
    return out;
  }
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(0.5, 1.5);
  std::vector<std::vector<double>> w(init.size());
  for (size_t a = 0; a < init.size(); ++a)
    for (int64_t k = 0; k < init[a].size(); ++k) w[a].push_back(dist(rng) * ((k % 2) ? -1 : 1));

  RunEntry(c.fwd, out, opt.scalars, opt.grid, opt.block_dim);
  for (size_t a = 0; a < out.size(); ++a)
    if (!out[a].is_int && out[a].has_grad)
      for (int64_t k = 0; k < out[a].size(); ++k) out[a].grad(k) = w[a][k];
  RunEntry(c.adj, out, opt.scalars, opt.grid, opt.block_dim);

  for (size_t a = 0; a < init.size(); ++a) {
    if (init[a].is_int || !init[a].has_grad) continue;
    for (int k = 0; k < kPad; ++k) {
      EXPECT_EQ(out[a].g[k], kCanary) << "array " << a << ": grad written before the array";
      EXPECT_EQ(out[a].g[kPad + out[a].size() + k], kCanary) << "array " << a << ": grad written past the array";
    }
    for (int64_t k = 0; k < init[a].size(); ++k) {
      std::vector<HostArray> p = init, q = init;
      p[a].at(k) += opt.h;
      q[a].at(k) -= opt.h;
      RunEntry(c.fwd, p, opt.scalars, opt.grid, opt.block_dim);
      RunEntry(c.fwd, q, opt.scalars, opt.grid, opt.block_dim);
      double fd = (Loss(p, w) - Loss(q, w)) / (2 * opt.h);
      EXPECT_NEAR(out[a].grad(k), fd, opt.tol * (1 + std::abs(fd))) << "array " << a << " element " << k;
    }
  }
  return out;
}

inline std::vector<double> Seq(int n, double start, double step) {
  std::vector<double> v;
  for (int k = 0; k < n; ++k) v.push_back(start + step * k);
  return v;
}

// The forward module from source (the pipeline's tile-ir stage), with its adjoint built and
// compiled by the harness as for hand-built IR.
struct SourceKernel {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ir::Module> ir;
  Compiled c;
};

// `block_dim`: the lanes of a tiled kernel's variant (0: the default).
inline SourceKernel FromSource(const std::string& text, const std::string& name, int block_dim = 0) {
  SourceKernel k;
  k.file = std::make_unique<SourceFile>("grad.tile", "import warp as wp\n" + text);
  compiler::PipelineOptions po;
  po.compile.block_dim = block_dim;
  compiler::PipelineResult r = compiler::Run(*k.file, po, compiler::Stage::TileIr);
  std::ostringstream os;
  r.diags.Render(os);
  EXPECT_TRUE(r.ok() && r.ir) << os.str() << r.ice.message;
  if (!r.ir) return k;
  k.ir = std::move(r.ir);
  k.c = Compile(*k.ir, name);
  return k;
}

}  // namespace tilec::adtest
