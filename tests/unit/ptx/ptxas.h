// Runs CUDA's ptxas on PTX text (the independent judge of what we emit) and counts patterns.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <string>
#include <unistd.h>

namespace tilec::testing {

inline std::string PtxasPath() {
  if (const char* p = std::getenv("TILEC_PTXAS")) return p;
  return "/usr/local/cuda/bin/ptxas";
}
inline bool HavePtxas() { return access(PtxasPath().c_str(), X_OK) == 0; }

struct PtxasResult {
  int status = -1;
  std::string log;  // stdout and stderr (with -v: registers, spills)
};

inline PtxasResult RunPtxas(const std::string& ptx, const std::string& arch, bool verbose = true) {
  char dir[] = "/tmp/tilec_ptxXXXXXX";
  PtxasResult r;
  if (!mkdtemp(dir)) return r;
  std::string in = std::string(dir) + "/k.ptx", out = std::string(dir) + "/k.cubin", log = std::string(dir) + "/log";
  std::ofstream(in) << ptx;
  std::string cmd = PtxasPath() + " -arch=" + arch + (verbose ? " -v " : " ") + in + " -o " + out + " > " + log + " 2>&1";
  int rc = std::system(cmd.c_str());
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  std::ifstream f(log);
  r.log.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  std::remove(in.c_str());
  std::remove(out.c_str());
  std::remove(log.c_str());
  rmdir(dir);
  return r;
}

// Occurrences of `re` in `text`.
inline int CountMatches(const std::string& text, const std::string& re) {
  std::regex r(re);
  return int(std::distance(std::sregex_iterator(text.begin(), text.end(), r), std::sregex_iterator()));
}

}  // namespace tilec::testing
