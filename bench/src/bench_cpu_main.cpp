// bench_cpu: one CPU throughput configuration (row gather or row scatter-add at one size, row
// width and duplicate share), timed for the STREAM-style copy of the same bytes, the
// hand-written loop and, when given an AOT object, the tilec kernel. Prints CSV on stdout:
//   impl,status,min_s,median_s,reps,iters,note
// `--op copy --bytes N` times only the copy (the run's header bandwidth).
// `--op rowsum|rowmax|softmax --rows R --width N` times the copy of the R x N input and the
// tilec row-reduction kernel (y = R floats, or R x N for softmax); `--dump FILE` writes the
// kernel's output as raw float32 for the driver to check against NumPy.
// `--op blocksum --rows BLOCKS --width B --kernel K1,K2,...` times each kernel of the list on
// x = BLOCKS * B floats, y = BLOCKS floats, block_dim B, the kernels' batches interleaved (one
// row `tilec:K` each); `--dump FILE` writes FILE.K per kernel.
// `--op matmul --width T --rows R --kernel K` times the FMA peak (row `fma_peak`: independent
// vector FMAs on every thread, note: flops per iteration and ISA) and the tilec kernel on
// a, b, c of R x T floats (R / T block programs of (T, T) tiles); `--dump FILE` writes c.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench/src/bench_util.h"
#include "bench/src/cpu_loops.h"
#include "bench/src/tilec_cpu.h"
#include "tilec/array.h"

using namespace tilec::bench;

namespace {

struct Args {
  std::string op = "gather";
  int64_t width = 16, tile_m = 128, rows = 1 << 16, bytes = 0;
  double dup = 0, budget = 2.0;
  int reps = 5, threads = 0, block_dim = 256;
  std::string tilec_so, kernel, dump;
};

bool Parse(int argc, char** argv, Args& a) {
  std::map<std::string, std::string> kv;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strncmp(argv[i], "--", 2) != 0) return false;
    kv[argv[i] + 2] = argv[i + 1];
  }
  if (argc % 2 != 1) return false;
  for (auto& [k, v] : kv) {
    if (k == "op") a.op = v;
    else if (k == "width") a.width = std::atoll(v.c_str());
    else if (k == "tile-m") a.tile_m = std::atoll(v.c_str());
    else if (k == "rows") a.rows = std::atoll(v.c_str());
    else if (k == "bytes") a.bytes = std::atoll(v.c_str());
    else if (k == "dup") a.dup = std::atof(v.c_str());
    else if (k == "budget") a.budget = std::atof(v.c_str());
    else if (k == "reps") a.reps = std::atoi(v.c_str());
    else if (k == "threads") a.threads = std::atoi(v.c_str());
    else if (k == "block-dim") a.block_dim = std::atoi(v.c_str());
    else if (k == "tilec-so") a.tilec_so = v;
    else if (k == "kernel") a.kernel = v;
    else if (k == "dump") a.dump = v;
    else return false;
  }
  return a.width > 0 && a.tile_m > 0 && a.rows > 0 && a.rows % a.tile_m == 0;
}

void Row(const char* impl, const Timing& t, const std::string& note = "") {
  std::printf("%s,ok,%.9g,%.9g,%d,%lld,%s\n", impl, t.min_s, t.median_s, t.reps,
              static_cast<long long>(t.iters), note.c_str());
}

void Missing(const char* impl, const std::string& why) {
  std::string w = why;
  for (char& c : w) if (c == ',' || c == '\n') c = ';';
  std::printf("%s,n/a,,,,,%s\n", impl, w.substr(0, 300).c_str());
}

// Largest relative difference between two results, scaled by the reference's magnitude.
// The first launch of a tilec kernel, outside the timing: reports the row as missing (and
// returns false) when the kernel could not be made, throws, or its `n` outputs at `out` cannot
// be written to `dump` (empty: no dump).
bool FirstLaunch(const char* impl, const std::function<void()>& launch, const std::string& why, const float* out,
                 int64_t n, const std::string& dump) {
  if (!launch) {
    Missing(impl, "not available (" + why + ")");
    return false;
  }
  try {
    launch();
  } catch (const std::exception& e) {
    Missing(impl, std::string("launch failed (") + e.what() + ")");
    return false;
  }
  if (dump.empty()) return true;
  FILE* f = std::fopen(dump.c_str(), "wb");
  const bool written = f && std::fwrite(out, sizeof(float), static_cast<size_t>(n), f) == static_cast<size_t>(n);
  if (f) std::fclose(f);
  if (!written) Missing(impl, "could not write " + dump);
  return written;
}

double MaxRelDiff(const std::vector<float>& a, const std::vector<float>& b) {
  double scale = 1e-30, diff = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::fabs(static_cast<double>(a[i])));
    diff = std::max(diff, std::fabs(static_cast<double>(a[i]) - b[i]));
  }
  return diff / scale;
}

// A fixed run of floats in memory someone else owns.
struct HostSpan {
  float* p;
  int64_t n;
  float* data() const { return p; }
  float* begin() const { return p; }
  float* end() const { return p + n; }
  float& operator[](int64_t i) const { return p[i]; }
};

// Row reductions: the copy of the input's bytes, then the tilec kernel (checked by the driver).
int RunReduce(const Args& a, ThreadPool& pool) {
  const int64_t n = a.rows, w = a.width, elems = n * w;
  const bool softmax = a.op == "softmax";
  const tilec::rt::Array x_array = tilec::rt::Array::Empty({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  const HostSpan x{static_cast<float*>(x_array.data()), elems};
  for (int64_t i = 0; i < elems; ++i) x[i] = static_cast<float>(i % 1021) * 0.001f;
  {
    const tilec::rt::Array c_array = tilec::rt::Array::Zeros({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
    float* c = static_cast<float*>(c_array.data());
    Row("copy", Measure([&] { CopyFloats(pool, x.data(), c, elems); }, a.reps, a.budget));
  }
  if (a.tilec_so.empty()) {
    Missing("tilec", "not available (no AOT object)");
    return 0;
  }
  const int64_t out = softmax ? elems : n;
  const tilec::rt::Array y_array = tilec::rt::Array::Zeros({out}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  float* y = static_cast<float*>(y_array.data());
  std::string why;
  ReduceKernelCall call{x.data(), n, w, y, softmax ? w : 0, a.tile_m, a.block_dim};
  auto launch = MakeTilecReduceLaunch(a.tilec_so, a.kernel, call, why);
  if (!FirstLaunch("tilec", launch, why, y, out, a.dump)) return 0;
  Row("tilec", Measure(launch, a.reps, a.budget), "on all cores");
  return 0;
}

std::vector<std::string> SplitCommas(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    const size_t end = std::min(s.find(',', start), s.size());
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Block sums of flat input: several kernels that compute the same y, timed against each other.
int RunBlockSum(const Args& a) {
  const int64_t blocks = a.rows, elems = blocks * a.width;
  const tilec::rt::Array x_array = tilec::rt::Array::Empty({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  const HostSpan x{static_cast<float*>(x_array.data()), elems};
  for (int64_t i = 0; i < elems; ++i) x[i] = static_cast<float>(i % 1021) * 0.001f;
  const std::vector<std::string> names = SplitCommas(a.kernel);
  if (a.tilec_so.empty() || names.empty()) {
    Missing("tilec", "not available (no AOT object or no --kernel)");
    return 0;
  }
  std::vector<tilec::rt::Array> outs;
  std::vector<std::string> ok_names;
  std::vector<std::function<void()>> launches;
  for (const std::string& name : names) {
    const std::string impl = "tilec:" + name;
    tilec::rt::Array y_array = tilec::rt::Array::Zeros({blocks}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
    float* y = static_cast<float*>(y_array.data());
    std::string why;
    const FlatKernelCall call{x.data(), elems, y, blocks, blocks, static_cast<int>(a.width)};
    auto launch = MakeTilecFlatLaunch(a.tilec_so, name, call, why);
    if (!FirstLaunch(impl.c_str(), launch, why, y, blocks, a.dump.empty() ? "" : a.dump + "." + name)) continue;
    outs.push_back(y_array);
    ok_names.push_back(impl);
    launches.push_back(launch);
  }
  if (launches.empty()) return 0;
  const std::vector<Timing> t = MeasureInterleaved(launches, a.reps, a.budget);
  for (size_t k = 0; k < t.size(); ++k) Row(ok_names[k].c_str(), t[k], "on all cores");
  return 0;
}

// Batched tile_matmul: the FMA peak of this machine on the pool's threads, then the tilec kernel.
int RunMatmul(const Args& a, ThreadPool& pool) {
  const int64_t t = a.width, elems = a.rows * t, batch = a.rows / t;
  {
    const int64_t chunks = 8 * pool.size(), iters = 1 << 16;
    double flops = 0;
    // Five times the repetitions (each batch a few tens of ms): the best batch is the peak, and
    // on a shared machine a handful of batches can all meet another process.
    const Timing peak = Measure([&] { flops = FmaPeakWork(pool, chunks, iters); }, 5 * std::max(a.reps, 1), a.budget);
    char note[96];
    std::snprintf(note, sizeof note, "%.6g flop per iteration; %s on %d threads", flops, FmaPeakIsa(), pool.size());
    Row("fma_peak", peak, note);
  }
  auto make = [&](bool zero) {
    return zero ? tilec::rt::Array::Zeros({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu())
                : tilec::rt::Array::Empty({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  };
  const tilec::rt::Array a_array = make(false), b_array = make(false), c_array = make(true);
  const HostSpan x{static_cast<float*>(a_array.data()), elems}, y{static_cast<float*>(b_array.data()), elems};
  // The same values as bench/py/matmul_section.py makes for NumPy and Warp.
  for (int64_t i = 0; i < elems; ++i) {
    x[i] = static_cast<float>(i % 1021) * 0.001f;
    y[i] = static_cast<float>(i % 1019) * 0.001f - 0.5f;
  }
  float* c = static_cast<float*>(c_array.data());
  if (a.tilec_so.empty()) {
    Missing("tilec", "not available (no AOT object)");
    return 0;
  }
  std::string why;
  const MatmulKernelCall call{x.data(), y.data(), c, batch, t, a.block_dim};
  auto launch = MakeTilecMatmulLaunch(a.tilec_so, a.kernel, call, why);
  if (!FirstLaunch("tilec", launch, why, c, elems, a.dump)) return 0;
  Row("tilec", Measure(launch, a.reps, a.budget), "on " + std::to_string(pool.size()) + " threads");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  if (!Parse(argc, argv, a)) {
    std::fprintf(stderr,
                 "usage: bench_cpu --op gather|scatter|copy|rowsum|rowmax|softmax|blocksum|matmul --width FLOATS --tile-m M "
                 "--rows N [--dup D] [--reps R] [--budget S] [--threads T] [--tilec-so K.so --kernel NAME[,NAME...]] "
                 "[--dump OUT.f32]\n");
    return 2;
  }
  const int threads = a.threads > 0 ? a.threads : static_cast<int>(std::thread::hardware_concurrency());
  ThreadPool pool(threads);
  std::printf("impl,status,min_s,median_s,reps,iters,note\n");

  if (a.op == "copy") {
    const int64_t n = std::max<int64_t>(a.bytes, 4) / 4;
    const tilec::rt::Array src = tilec::rt::Array::Empty({n}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
    const tilec::rt::Array dst = tilec::rt::Array::Zeros({n}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
    std::fill_n(static_cast<float*>(src.data()), n, 1.0f);
    Row("copy", Measure([&] { CopyFloats(pool, static_cast<const float*>(src.data()), static_cast<float*>(dst.data()), n); },
                        a.reps, a.budget));
    return 0;
  }
  if (a.op == "rowsum" || a.op == "rowmax" || a.op == "softmax") return RunReduce(a, pool);
  if (a.op == "blocksum") return RunBlockSum(a);
  if (a.op == "matmul") return RunMatmul(a, pool);
  if (a.op != "gather" && a.op != "scatter") return 2;

  const int64_t n = a.rows, w = a.width, elems = n * w;
  // Every contestant works on arrays from tilec's runtime allocator, as a tilec user's arrays
  // are (large ones start on huge pages where the kernel grants them).
  const tilec::rt::Array x_array = tilec::rt::Array::Empty({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  const tilec::rt::Array y_array = tilec::rt::Array::Zeros({elems}, tilec::ScalarType::Float32, tilec::rt::Device::Cpu());
  const HostSpan x{static_cast<float*>(x_array.data()), elems}, y{static_cast<float*>(y_array.data()), elems};
  for (int64_t i = 0; i < elems; ++i) x[i] = static_cast<float>(i % 1021) * 0.001f;
  const bool gather = a.op == "gather";
  std::vector<int32_t> idx = MakeIndices(n, n, gather ? 0.0 : a.dup, gather ? 7 : 11);

  Row("copy", Measure([&] { CopyFloats(pool, x.data(), y.data(), elems); }, a.reps, a.budget));

  auto hand = [&] {
    if (gather) GatherRows(pool, x.data(), n, idx.data(), n, y.data(), w);
    else ScatterAddRows(pool, x.data(), idx.data(), n, y.data(), n, w);
  };
  std::fill(y.begin(), y.end(), 0.0f);
  hand();
  const std::vector<float> reference(y.begin(), y.end());
  Row("hand", Measure(hand, a.reps, a.budget));

  if (a.tilec_so.empty()) {
    Missing("tilec", "not available (no AOT object)");
    return 0;
  }
  std::string why;
  RowsKernelCall call{x.data(), n, idx.data(), n, y.data(), n, w, a.tile_m, a.block_dim};
  auto launch = MakeTilecRowsLaunch(a.tilec_so, a.kernel, call, why);
  std::fill(y.begin(), y.end(), 0.0f);
  if (!FirstLaunch("tilec", launch, why, y.data(), n, "")) return 0;
  const double diff = MaxRelDiff(reference, std::vector<float>(y.begin(), y.end()));
  const bool valid = gather ? diff == 0.0 : diff < 1e-4;
  char note[64];
  std::snprintf(note, sizeof note, "%s (max rel diff %.2g)", valid ? "valid" : "WRONG RESULT", diff);
  Row("tilec", Measure(launch, a.reps, a.budget), note);
  return 0;
}
