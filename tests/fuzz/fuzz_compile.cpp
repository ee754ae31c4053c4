// Fuzz target: any bytes as a Tile source file, through parse, sema, Tile IR with adjoints and
// both lowerings to LLVM IR (host, and nvptx64 for the SIMT lowering), running nothing; LLVM's
// own optimizer and PTX back end are left out, so an input costs milliseconds. A crash,
// a hang or an internal compiler error is a finding; diagnostics are the right answer to bad
// input. Built as a libFuzzer target where the compiler offers one (LLVMFuzzerTestOneInput),
// and always as a replay driver: `fuzz_compile FILE|DIR...` runs each input once, which is
// how AFL++ calls it (`@@`) and how CI replays the corpus.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/pipeline.h"

namespace {

using tilec::compiler::Stage;

// An internal compiler error is a compiler bug even though the CLI reports it cleanly.
void Check(const tilec::compiler::PipelineResult& r, const char* what) {
  if (!r.ice.is_set()) return;
  std::fprintf(stderr, "internal compiler error (%s): %s\n", what, r.ice.message.c_str());
  std::abort();
}

void CompileOne(const std::string& text) {
  tilec::SourceFile file("fuzz.tile", text);
  tilec::compiler::PipelineOptions host;
  host.compile.optimize = false;
  tilec::compiler::PipelineResult r = tilec::compiler::Run(file, host, Stage::Llvm);
  Check(r, "host");
  if (!r.ok()) return;
  tilec::compiler::PipelineOptions gpu = host;
  gpu.compile.target = tilec::compiler::Target::Nvptx;
  gpu.compile.block_dim = 32;
  Check(tilec::compiler::Run(file, gpu, Stage::Llvm), "nvptx");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 16)) return 0;  // programs, not megabytes: keep each run short
  CompileOne(std::string(reinterpret_cast<const char*>(data), size));
  return 0;
}

#ifndef TILEC_LIBFUZZER
int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE|DIR...\n", argv[0]);
    return 2;
  }
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) inputs.push_back(e.path());
    } else {
      inputs.push_back(p);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  for (const auto& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string s = ss.str();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(s.data()), s.size());
  }
  std::printf("%zu inputs compiled\n", inputs.size());
  return 0;
}
#endif
