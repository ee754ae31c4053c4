// The CPU worker pool: every grid index runs exactly once, blocks run on several threads at
// once, and kernels can rely on real atomics across blocks.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <set>
#include <thread>

#include "stand_in.h"

namespace tilec::rt {
namespace {

using namespace test;

// count(hits: array1d[int32], total: array1d[int64]): hits[i] += 1 (non-atomic: each index
// must be visited by exactly one chunk); total[0] += i atomically.
extern "C" void count_fwd(void* const* args, const tilec_launch*, int64_t first, int64_t last) {
  auto* hits = static_cast<const tilec_array*>(args[0]);
  auto* total = static_cast<const tilec_array*>(args[1]);
  int64_t local = 0;
  for (int64_t i = first; i < last; ++i) {
    At<int32_t>(hits, i) += 1;
    local += i;
  }
  std::atomic_ref<int64_t>(At<int64_t>(total, 0)).fetch_add(local);
}

std::mutex g_ids_mutex;
std::set<std::thread::id> g_ids;
std::atomic<int> g_inside{0}, g_max_inside{0};

// spin(x: array1d[int32]) as a tiled kernel: records which threads ran blocks, and how many
// blocks ran at the same time.
extern "C" void spin_fwd(void* const*, const tilec_launch*, int64_t first, int64_t last) {
  {
    std::lock_guard<std::mutex> lock(g_ids_mutex);
    g_ids.insert(std::this_thread::get_id());
  }
  for (int64_t b = first; b < last; ++b) {
    int now = ++g_inside;
    int prev = g_max_inside.load();
    while (now > prev && !g_max_inside.compare_exchange_weak(prev, now)) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    --g_inside;
  }
}

std::atomic<int64_t> g_stream_bytes{-1};

// probe(x: array1d[int32]): records the launch's streaming-store threshold.
extern "C" void probe_fwd(void* const*, const tilec_launch* launch, int64_t, int64_t) {
  g_stream_bytes = launch->stream_bytes;
}

Module PoolModule() {
  ModuleSignature sig;
  sig.kernels.push_back(KernelSig("count", {ArrayParam("hits", ScalarType::Int32),
                                            ArrayParam("total", ScalarType::Int64)}));
  sig.kernels.push_back(KernelSig("spin", {ArrayParam("x", ScalarType::Int32)}, true));
  sig.kernels.push_back(KernelSig("probe", {ArrayParam("x", ScalarType::Int32)}));
  return MakeModule(sig, {{"count_fwd", (void*)&count_fwd}, {"spin_fwd", (void*)&spin_fwd}, {"probe_fwd", (void*)&probe_fwd}});
}

TEST(PoolTest, EveryIndexExactlyOnce) {
  Module m = PoolModule();
  for (int64_t n : {1, 7, 255, 256, 257, 4096, 100003}) {
    Array hits = Array::Zeros({n}, ScalarType::Int32, Device::Cpu());
    Array total = Array::Zeros({1}, ScalarType::Int64, Device::Cpu());
    Launch(m.GetKernel("count"), {n}, {hits, total}, Device::Cpu());
    std::vector<int32_t> h = hits.ToVector<int32_t>();
    int64_t wrong = 0;
    for (int32_t v : h) wrong += v != 1;
    EXPECT_EQ(wrong, 0) << "n=" << n;
    EXPECT_EQ(total.ToVector<int64_t>()[0], n * (n - 1) / 2) << "n=" << n;
  }
}

// Launches back to back, small ones that the caller finishes before a worker wakes and large
// ones that the workers join: a worker waking late stays out of a launch that has taken its
// last chunk, and joins the next one whole.
TEST(PoolTest, BackToBackSmallAndLargeLaunches) {
  Module m = PoolModule();
  const int64_t sizes[] = {300, 3000, 60000, 2, 1000};
  Array total = Array::Zeros({1}, ScalarType::Int64, Device::Cpu());
  for (int rep = 0; rep < 400; ++rep) {
    const int64_t n = sizes[rep % 5];
    Array hits = Array::Zeros({n}, ScalarType::Int32, Device::Cpu());
    Launch(m.GetKernel("count"), {n}, {hits, total}, Device::Cpu());
    int64_t wrong = 0;
    for (int32_t v : hits.ToVector<int32_t>()) wrong += v != 1;
    ASSERT_EQ(wrong, 0) << "launch " << rep << ", n=" << n;
  }
  int64_t want = 0;
  for (int rep = 0; rep < 400; ++rep) want += sizes[rep % 5] * (sizes[rep % 5] - 1) / 2;
  EXPECT_EQ(total.ToVector<int64_t>()[0], want);
}

// Launches separated by pauses shorter and longer than the time an idle worker watches for
// the next launch: the ones the watching workers join and the ones that wake sleeping workers
// both run every index once.
TEST(PoolTest, LaunchesAfterIdleGaps) {
  Module m = PoolModule();
  const int64_t n = 50000;
  Array total = Array::Zeros({1}, ScalarType::Int64, Device::Cpu());
  int launches = 0;
  for (int rep = 0; rep < 3; ++rep) {
    for (int gap_us : {0, 5, 40, 200, 3000}) {
      std::this_thread::sleep_for(std::chrono::microseconds(gap_us));
      Array hits = Array::Zeros({n}, ScalarType::Int32, Device::Cpu());
      Launch(m.GetKernel("count"), {n}, {hits, total}, Device::Cpu());
      ++launches;
      int64_t wrong = 0;
      for (int32_t v : hits.ToVector<int32_t>()) wrong += v != 1;
      ASSERT_EQ(wrong, 0) << "gap " << gap_us << " us";
    }
  }
  EXPECT_EQ(total.ToVector<int64_t>()[0], launches * (n * (n - 1) / 2));
}

// A CPU launch tells its kernel the last-level cache's size, from which whole-row stores
// stream past the caches; Linux lists the caches of CPU 0 under sysfs.
TEST(PoolTest, LaunchPassesTheLastLevelCacheSize) {
  Module m = PoolModule();
  Array x = Array::Zeros({1}, ScalarType::Int32, Device::Cpu());
  g_stream_bytes = -1;
  Launch(m.GetKernel("probe"), {1}, {x}, Device::Cpu());
  int64_t want = 0;
  int want_level = 0;
  for (int i = 0;; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    std::ifstream level_file(dir + "level"), size_file(dir + "size");
    int level = 0;
    std::string size;
    if (!(level_file >> level) || !(size_file >> size)) break;
    int64_t bytes = std::stoll(size);
    if (size.back() == 'K') bytes *= 1024;
    if (size.back() == 'M') bytes *= 1024 * 1024;
    if (level > want_level || (level == want_level && bytes > want)) want = bytes, want_level = level;
  }
  if (want == 0) {
    EXPECT_GE(g_stream_bytes.load(), 0);
    GTEST_SKIP() << "no cache sizes under /sys/devices/system/cpu/cpu0/cache";
  }
  EXPECT_EQ(g_stream_bytes.load(), want);
}

TEST(PoolTest, MultiDimensionalGridCoversProduct) {
  Module m = PoolModule();
  Array hits = Array::Zeros({2 * 3 * 5 * 7}, ScalarType::Int32, Device::Cpu());
  Array total = Array::Zeros({1}, ScalarType::Int64, Device::Cpu());
  Launch(m.GetKernel("count"), {2, 3, 5, 7}, {hits, total}, Device::Cpu());
  for (int32_t v : hits.ToVector<int32_t>()) ASSERT_EQ(v, 1);
}

TEST(PoolTest, BlocksRunInParallel) {
  if (CpuWorkerCount() < 2) GTEST_SKIP() << "one hardware thread";
  Module m = PoolModule();
  Array x = Array::Zeros({1}, ScalarType::Int32, Device::Cpu());
  g_ids.clear();
  g_max_inside = 0;
  LaunchTiled(m.GetKernel("spin"), {64}, {x}, 32, Device::Cpu());
  EXPECT_GE(g_ids.size(), 2u);
  EXPECT_GE(g_max_inside.load(), 2);
}

TEST(PoolTest, ConcurrentLaunchesFromHostThreads) {
  Module m = PoolModule();
  std::vector<Array> hits, totals;
  for (int t = 0; t < 4; ++t) {
    hits.push_back(Array::Zeros({20000}, ScalarType::Int32, Device::Cpu()));
    totals.push_back(Array::Zeros({1}, ScalarType::Int64, Device::Cpu()));
  }
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int r = 0; r < 5; ++r) Launch(m.GetKernel("count"), {20000}, {hits[t], totals[t]}, Device::Cpu());
    });
  for (auto& th : threads) th.join();
  for (int t = 0; t < 4; ++t) {
    for (int32_t v : hits[t].ToVector<int32_t>()) ASSERT_EQ(v, 5);
    EXPECT_EQ(totals[t].ToVector<int64_t>()[0], 5 * (20000ll * 19999 / 2));
  }
}

}  // namespace
}  // namespace tilec::rt
