// bench_compile: warm in-process compile latency. For each .tile file, compiles it `reps`
// times in one process (the compiler's one-time set-up is paid by a warm-up compile first):
//   host-jit: source -> parse -> check -> Tile IR (+ adjoints) -> host JIT (compiler facade)
//   ptx:      source -> parse -> check -> Tile IR (+ adjoints) -> PTX text for --arch
// Prints CSV on stdout: kernel,mode,status,min_s,median_s,reps,note
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/compiler.h"
#include "frontend/parse/parse.h"
#if TILEC_BENCH_HAVE_NVPTX
#include "codegen/nvptx/nvptx.h"
#endif

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

// One compile; returns an empty string on success, else why it failed.
std::string CompileHost(const SourceFile& file) {
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto m = compiler::CompileSource(file, diags, {}, ice);
  if (m) return "";
  return ice.is_set() ? "internal error: " + ice.message : "diagnostics: " + Rendered(diags);
}

// "#smem,<kernel>,<bytes>" lines: the dynamic shared memory each kernel's launch requests,
// which ptxas -v cannot see.
std::string smem_lines;

std::string CompilePtx(const SourceFile& file, const std::string& arch) {
#if TILEC_BENCH_HAVE_NVPTX
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto parsed = parse::ParseFile(file, diags);
  if (diags.has_errors()) return "diagnostics: " + Rendered(diags);
  auto checked = sema::Check(*parsed, diags);
  if (diags.has_errors()) return "diagnostics: " + Rendered(diags);
  auto m = compiler::LowerChecked(*checked, &file, diags, ice);
  if (!m || !compiler::AddAdjoints(*m, diags, ice))
    return ice.is_set() ? "internal error: " + ice.message : "diagnostics: " + Rendered(diags);
  codegen::PtxOptions opts;
  opts.arch = arch;
  codegen::PtxModule out;
  std::string error;
  if (!codegen::EmitPtx(*m, opts, out, error)) return "ptx emission failed: " + error;
  smem_lines.clear();
  for (const auto& k : out.kernels)
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

// `--write-so=OUT FILE`: the AOT shared object through the library, as `tilec compile
// --target=host -o OUT FILE` writes it (the CPU benchmark's fallback when the CLI is absent).
int WriteSo(const std::string& out, const std::string& path) {
  std::string text, error;
  if (!SourceFile::Load(path, text, error)) return std::fprintf(stderr, "%s\n", error.c_str()), 1;
  const SourceFile file(path, text);
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto parsed = parse::ParseFile(file, diags);
  std::unique_ptr<sema::CheckedModule> checked;
  if (!diags.has_errors()) checked = sema::Check(*parsed, diags);
  std::unique_ptr<ir::Module> m;
  if (!diags.has_errors()) m = compiler::LowerChecked(*checked, &file, diags, ice);
  if (m && !compiler::AddAdjoints(*m, diags, ice)) m.reset();
  if (!m) {
    std::fprintf(stderr, "error: %s\n", ice.is_set() ? ice.message.c_str() : Rendered(diags).c_str());
    return 1;
  }
  if (!compiler::WriteSharedObject(*checked, *m, out, error)) return std::fprintf(stderr, "error: %s\n", error.c_str()), 1;
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 5;
  std::string arch = "sm_90";
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--write-so=", 0) == 0 && i + 1 < argc) return WriteSo(a.substr(11), argv[i + 1]);
    if (a.rfind("--reps=", 0) == 0) reps = std::max(1, std::atoi(a.c_str() + 7));
    else if (a.rfind("--arch=", 0) == 0) arch = a.substr(7);
    else files.push_back(a);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: bench_compile [--reps=N] [--arch=sm_90] FILE.tile...\n");
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
