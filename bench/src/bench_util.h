// Shared pieces of the CPU benchmark binaries: a fixed worker pool (the caller is one of the
// threads, as in the tilec runtime), batched timing that reports min and median per
// iteration, and reproducible index streams with a chosen share of duplicate destinations.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tilec::bench {

class ThreadPool {
 public:
  explicit ThreadPool(int threads);
  ~ThreadPool();
  int size() const { return static_cast<int>(workers_.size()) + 1; }
  // Runs body(first, last) over chunks of [0, n) (about 8 per thread), claimed dynamically.
  void For(int64_t n, const std::function<void(int64_t, int64_t)>& body);

 private:
  void WorkerLoop(int index);
  void Claim(const std::function<void(int64_t, int64_t)>& body, int64_t n);
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int64_t, int64_t)>* body_ = nullptr;
  int64_t n_ = 0, grain_ = 1;
  std::atomic<int64_t> next_{0};
  uint64_t generation_ = 0;
  int busy_ = 0;
  bool stop_ = false;
};

struct Timing {
  double min_s = 0, median_s = 0;  // per iteration
  int reps = 0;                    // timed batches
  int64_t iters = 0;               // iterations per batch
};

// Runs `fn` once to warm up, sizes a batch to take at least `min_batch_s`, then times `reps`
// batches (fewer when `budget_s` runs out, at least two).
Timing Measure(const std::function<void()>& fn, int reps, double budget_s,
               double min_batch_s = 0.01);

// The same for several contestants at once: one batch of each per round, in turn, so that
// machine noise (other jobs, frequency changes) falls on all of them alike and their ratio
// holds up better than that of separate runs. One Timing per function.
std::vector<Timing> MeasureInterleaved(const std::vector<std::function<void()>>& fns, int reps,
                                       double budget_s, double min_batch_s = 0.01);

// `n` indices into [0, rows): a shuffled permutation when dup == 0; otherwise only
// round((1 - dup) * n) distinct destinations, the other entries repeating them at random.
std::vector<int32_t> MakeIndices(int64_t n, int64_t rows, double dup, uint64_t seed);

double NowSeconds();

}  // namespace tilec::bench
