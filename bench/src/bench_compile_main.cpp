// bench_compile: warm in-process compile latency. For each .tile file, compiles it `reps`
// times in one process (the compiler's one-time set-up is paid by a warm-up compile first):
//   host-jit: compiler::Run to the jit end: parse, check, Tile IR (+ adjoints), host JIT
//   ptx:      compiler::Run to the ptx end: parse, check, Tile IR (+ adjoints), PTX for --arch
// Prints CSV on stdout: kernel,mode,status,min_s,median_s,reps,note
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/pipeline.h"

namespace {

using namespace tilec;

double Now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string Flat(std::string s) {
  for (char& c : s) if (c == ',' || c == '\n') c = ';';
  return s.substr(0, 300);
}

std::string Rendered(const diag::DiagnosticEngine& diags) {
  std::ostringstream os;
  diags.Render(os);
  return os.str();
}

std::string Failure(const compiler::PipelineResult& r) {
  return r.ice.is_set() ? "internal error: " + r.ice.message : "diagnostics: " + Rendered(r.diags);
}

// One compile; returns an empty string on success, else why it failed.
std::string CompileHost(const SourceFile& file) {
  const compiler::PipelineOptions defaults;
  compiler::PipelineResult r = compiler::Run(file, defaults, compiler::Stage::Jit);
  return r.ok() ? "" : Failure(r);
}

// "#smem,<kernel>,<bytes>" lines: the dynamic shared memory each kernel's launch requests,
// which ptxas -v cannot see.
std::string smem_lines;

// Every adjoint must build: a benchmark kernel whose gradient is rejected is a broken input.
std::string CompilePtx(const SourceFile& file, const std::string& arch) {
#if TILEC_BENCH_HAVE_NVPTX
  compiler::PipelineOptions po;
  po.adjoints = compiler::AdjointMode::Strict;
  po.arch = arch;
  compiler::PipelineResult r = compiler::Run(file, po, compiler::Stage::Ptx);
  if (!r.ok()) return Failure(r);
  smem_lines.clear();
  for (const auto& k : r.ptx.kernels)
    smem_lines += "#smem," + k.name + "," + std::to_string(k.shared_bytes) + "\n";
  return "";
#else
  (void)file;
  (void)arch;
  return "not available (no NVPTX target in this build)";
#endif
}

void Time(const std::string& kernel, const char* mode, int reps,
          const std::function<std::string()>& once) {
  std::string why = once();  // warm-up: target registration, first-use allocations
  if (!why.empty()) {
    std::printf("%s,%s,n/a,,,,%s\n", kernel.c_str(), mode, Flat(why).c_str());
    return;
  }
  std::vector<double> t;
  for (int r = 0; r < reps; ++r) {
    const double t0 = Now();
    once();
    t.push_back(Now() - t0);
  }
  std::sort(t.begin(), t.end());
  const size_t m = t.size();
  const double median = m % 2 ? t[m / 2] : 0.5 * (t[m / 2 - 1] + t[m / 2]);
  std::printf("%s,%s,ok,%.9g,%.9g,%d,\n", kernel.c_str(), mode, t.front(), median, static_cast<int>(m));
}

// `--write-so=OUT [--block-dim=B] FILE`: the AOT shared object through the library, as `tilec
// compile --target=host -o OUT FILE` writes it (the CPU benchmark's fallback when the CLI is
// absent). The CLI compiles a tiled kernel whose code depends on the lane count (per-lane code)
// for 256 lanes only, so the per-lane table gets its other block_dims here.
int WriteSo(const std::string& out, const std::string& path, int block_dim) {
  std::string text, error;
  if (!SourceFile::Load(path, text, error)) return std::fprintf(stderr, "%s\n", error.c_str()), 1;
  const SourceFile file(path, text);
  compiler::PipelineOptions po;
  po.adjoints = compiler::AdjointMode::Strict;
  po.output_path = out;
  po.compile.block_dim = block_dim;
  compiler::PipelineResult r = compiler::Run(file, po, compiler::Stage::SharedObject);
  if (!r.ok()) {
    std::string why = !r.write_error.empty() ? r.write_error : r.ice.is_set() ? r.ice.message : Rendered(r.diags);
    std::fprintf(stderr, "error: %s\n", why.c_str());
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  std::string arch = "sm_90";
  std::vector<std::string> files;
  std::string write_so;
  int block_dim = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--write-so=", 0) == 0) write_so = a.substr(11);
    else if (a.rfind("--block-dim=", 0) == 0) block_dim = std::max(0, std::atoi(a.c_str() + 12));
    else if (a.rfind("--reps=", 0) == 0) reps = std::max(1, std::atoi(a.c_str() + 7));
    else if (a.rfind("--arch=", 0) == 0) arch = a.substr(7);
    else files.push_back(a);
  }
  if (!write_so.empty() && files.size() == 1) return WriteSo(write_so, files[0], block_dim);
  if (files.empty() || !write_so.empty()) {
    std::fprintf(stderr, "usage: bench_compile [--reps=N] [--arch=sm_90] FILE.tile...\n"
                         "       bench_compile --write-so=OUT.so [--block-dim=B] FILE.tile\n");
    return 2;
  }
  std::printf("kernel,mode,status,min_s,median_s,reps,note\n");
  for (const std::string& path : files) {
    std::string text, error;
    std::string kernel = path.substr(path.find_last_of('/') + 1);
    kernel = kernel.substr(0, kernel.find('.'));
    if (!SourceFile::Load(path, text, error)) {
      std::printf("%s,host-jit,n/a,,,,%s\n", kernel.c_str(), Flat(error).c_str());
      continue;
    }
    const SourceFile file(path, text);
    Time(kernel, "host-jit", reps, [&] { return CompileHost(file); });
    Time(kernel, "ptx", reps, [&] { return CompilePtx(file, arch); });
    std::fputs(smem_lines.c_str(), stdout);
    smem_lines.clear();
    std::fflush(stdout);
  }
  return 0;
}
