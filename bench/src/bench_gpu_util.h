// What bench_gpu's tables share: timing of work queued on a CUDA device (batches of back-to-back
// calls closed by one synchronization, so launch latency overlaps the work), CSV cells, and the
// signature files (PTX inside) that bench_gpu_prepare wrote.
#pragma once
#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "tilec/runtime.h"

namespace tilec::bench {

inline double GpuNow() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// A CSV cell: no separators or line breaks.
inline std::string Flat(std::string s) {
  for (char& c : s) if (c == ',' || c == '\n') c = ';';
  return s.substr(0, 300);
}

struct Stat {
  double min_s, median_s;
  int reps;
};

// One warm-up call, one timed call to size the batches (>= 20 ms each), then `reps` batches.
inline Stat TimeOnDevice(const std::function<void()>& fn, int reps, const rt::Device& dev) {
  fn();
  rt::Synchronize(dev);
  double t0 = GpuNow();
  fn();
  rt::Synchronize(dev);
  const double one = std::max(GpuNow() - t0, 1e-7);
  const int iters = std::max(1, static_cast<int>(std::ceil(0.02 / one)));
  std::vector<double> per;
  for (int r = 0; r < reps; ++r) {
    t0 = GpuNow();
    for (int i = 0; i < iters; ++i) fn();
    rt::Synchronize(dev);
    per.push_back((GpuNow() - t0) / iters);
  }
  std::sort(per.begin(), per.end());
  const size_t m = per.size();
  return {per.front(), m % 2 ? per[m / 2] : 0.5 * (per[m / 2 - 1] + per[m / 2]), static_cast<int>(m)};
}

// A module from signature text; empty `why` on success.
inline bool LoadSignature(const std::string& path, rt::Module& out, std::string& why) {
  std::ifstream f(path);
  if (!f) return why = "not available (no " + path + ")", false;
  std::stringstream ss;
  ss << f.rdbuf();
  try {
    out = rt::Module::FromResolver(rt::ParseSignature(ss.str()), {});
    return true;
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
}

}  // namespace tilec::bench
