// bench_gpu_prepare: writes the modules that bench_gpu launches, as runtime signature text
// with the PTX inside: tilec's throughput kernels (compiled here to PTX for sm_90, block_dim
// 256) in the normal and the deterministic mode, and the nvcc-built references (their PTX with
// the same parameters), and the tiled GEMMs of the matmul table (gemm.sig, each kernel compiled
// for its own block_dim). Done on the build machine, so that the GPU machine needs only
// bench_gpu and libtilec_rt.
//   bench_gpu_prepare --tile T.tile --ref-ptx R.ptx --widths 16,... --out-dir DIR
//   bench_gpu_prepare --gemm-tile gemm.tile --gemm-kernels gemm_f16:128,gemm_f32:256 --out-dir DIR
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/pipeline.h"
#include "tilec/runtime.h"

using namespace tilec;

namespace {

constexpr int kBlock = 256;

// tilec's module: compiler::Run to the ptx end; its signature carries the PTX and shared bytes.
bool CompileTilec(const std::string& path, bool deterministic, rt::ModuleSignature& out, std::string& why,
                  int block_dim = kBlock) {
  std::string text;
  if (!SourceFile::Load(path, text, why)) return false;
  SourceFile file(path, text);
  // Forward kernels only: bench_gpu launches no adjoints.
  compiler::PipelineOptions po;
  po.adjoints = compiler::AdjointMode::None;
  po.compile.block_dim = block_dim;
  po.compile.deterministic = deterministic;
  compiler::PipelineResult r = compiler::Run(file, po, compiler::Stage::Ptx);
  if (r.diags.has_errors()) return why = "diagnostics in " + path, false;
  if (r.ice.is_set()) return why = r.ice.message, false;
  if (!r.compiled) return why = "lowering failed", false;
  out = r.compiled->signature;
  return true;
}

// The references: nvcc's PTX with a signature written here (same parameters as tilec's).
rt::ModuleSignature ReferenceSignature(const std::string& ptx_path, const std::vector<int>& widths) {
  std::ifstream f(ptx_path);
  std::stringstream ss;
  ss << f.rdbuf();
  rt::ModuleSignature sig;
  auto array = [](const char* name, ScalarType t, int ndim) {
    rt::ParamInfo p;
    p.name = name;
    p.kind = rt::ParamKind::Array;
    p.type.scalar = t;
    p.ndim = ndim;
    return p;
  };
  for (int w : widths) {
    for (const char* op : {"gather_rows_", "scatter_add_rows_"}) {
      rt::KernelSignature k;
      k.name = std::string(op) + std::to_string(w) + "B";
      k.params = {array("x", ScalarType::Float32, 2), array("idx", ScalarType::Int32, 1),
                  array("y", ScalarType::Float32, 2)};
      k.tiled = true;
      k.entry_symbol = "ref_" + k.name;
      k.ptx = ss.str();
      k.block_dim = kBlock;
      sig.kernels.push_back(k);
    }
  }
  return sig;
}

bool Write(const std::string& path, const std::string& text) {
  std::ofstream f(path);
  f << text;
  return static_cast<bool>(f);
}

// The GEMM module: `kernels` is "name:block_dim,..."; the file is compiled once per block_dim
// (block_dim is a compile-time constant of tilec's GPU code) and each kernel taken from the
// compile for its own, so one signature holds them all.
bool CompileGemm(const std::string& path, const std::string& kernels, rt::ModuleSignature& out, std::string& why) {
  std::map<int, std::vector<std::string>> by_block;
  std::stringstream ss(kernels);
  for (std::string item; std::getline(ss, item, ',');) {
    const size_t colon = item.find(':');
    const int block = colon == std::string::npos ? kBlock : std::atoi(item.c_str() + colon + 1);
    if (block < 32 || block > 1024) return why = "bad block_dim in --gemm-kernels item `" + item + "`", false;
    by_block[block].push_back(item.substr(0, colon));
  }
  if (by_block.empty()) return why = "no kernels named (--gemm-kernels)", false;
  for (const auto& [block, names] : by_block) {
    rt::ModuleSignature sig;
    if (!CompileTilec(path, false, sig, why, block)) return false;
    if (out.kernels.empty()) {
      out = sig;  // the structs table (none today) is the same in every compile
      out.kernels.clear();
    }
    for (const std::string& name : names) {
      bool found = false;
      for (const rt::KernelSignature& k : sig.kernels)
        if (k.name == name) out.kernels.push_back(k), found = true;
      if (!found) return why = "no kernel `" + name + "` in " + path, false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string tile, ref_ptx, out_dir = ".", gemm_tile, gemm_kernels = "gemm_f16:128,gemm_f32:256";
  std::vector<int> widths = {16, 64, 256, 1024, 4096};
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string k = argv[i], v = argv[i + 1];
    if (k == "--tile") tile = v;
    else if (k == "--ref-ptx") ref_ptx = v;
    else if (k == "--out-dir") out_dir = v;
    else if (k == "--gemm-tile") gemm_tile = v;
    else if (k == "--gemm-kernels") gemm_kernels = v;
    else if (k == "--widths") {
      widths.clear();
      std::stringstream ss(v);
      for (std::string item; std::getline(ss, item, ',');) widths.push_back(std::atoi(item.c_str()));
    }
  }
  int rc = 0;
  if (!tile.empty()) {
    // wp.config.deterministic's kernels: the scatter-adds commit in launch order.
    for (const bool det : {false, true}) {
      const std::string stem = out_dir + (det ? "/tilec_det" : "/tilec");
      rt::ModuleSignature sig;
      std::string why;
      if (CompileTilec(tile, det, sig, why)) {
        Write(stem + ".sig", rt::SerializeSignature(sig));
      } else {
        Write(stem + ".why", why);
        std::fprintf(stderr, "bench_gpu_prepare: tilec%s: %s\n", det ? " (deterministic)" : "", why.c_str());
        rc = 1;
      }
    }
  }
  if (!gemm_tile.empty()) {
    rt::ModuleSignature sig;
    std::string why;
    if (CompileGemm(gemm_tile, gemm_kernels, sig, why)) {
      Write(out_dir + "/gemm.sig", rt::SerializeSignature(sig));
    } else {
      Write(out_dir + "/gemm.why", why);
      std::fprintf(stderr, "bench_gpu_prepare: gemm: %s\n", why.c_str());
      rc = 1;
    }
  }
  if (!ref_ptx.empty()) Write(out_dir + "/nvcc.sig", rt::SerializeSignature(ReferenceSignature(ref_ptx, widths)));
  return rc;
}
