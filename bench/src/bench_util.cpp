// Worker pool, batched timing and index streams for the CPU benchmarks (see bench_util.h).
#include "bench/src/bench_util.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <random>

namespace tilec::bench {

ThreadPool::ThreadPool(int threads) {
  for (int i = 1; i < std::max(1, threads); ++i) workers_.emplace_back([this, i] { WorkerLoop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void ThreadPool::For(int64_t n, const std::function<void(int64_t, int64_t)>& body) {
  if (workers_.empty()) {
    body(0, n);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = &body;
    n_ = n;
    grain_ = std::max<int64_t>(1, n / (8 * size()));
    next_.store(0);
    busy_ = static_cast<int>(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  Claim(body, n);
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [this] { return busy_ == 0; });
  body_ = nullptr;
}

// Threads claim chunks until none is left, so a thread that the OS delays on a busy machine
// does not hold up the others (the tilec runtime's pool does the same).
void ThreadPool::Claim(const std::function<void(int64_t, int64_t)>& body, int64_t n) {
  for (;;) {
    const int64_t first = next_.fetch_add(grain_);
    if (first >= n) return;
    body(first, std::min(n, first + grain_));
  }
}

void ThreadPool::WorkerLoop(int index) {
  uint64_t seen = 0;
  for (;;) {
    const std::function<void(int64_t, int64_t)>* body;
    int64_t n;
    (void)index;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      body = body_;
      n = n_;
    }
    Claim(*body, n);
    std::lock_guard<std::mutex> lock(mutex_);
    if (--busy_ == 0) done_.notify_one();
  }
}

double NowSeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

Timing Measure(const std::function<void()>& fn, int reps, double budget_s, double min_batch_s) {
  const double start = NowSeconds();
  double t0 = NowSeconds();
  fn();  // warm-up (page faults, caches, lazy symbol resolution)
  double one = NowSeconds() - t0;
  if (one < min_batch_s) {  // short calls: size the batch on a warm call
    t0 = NowSeconds();
    fn();
    one = NowSeconds() - t0;
  }
  one = std::max(one, 1e-9);
  Timing t;
  t.iters = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(min_batch_s / one)));
  std::vector<double> per_iter;
  for (int r = 0; r < std::max(reps, 2); ++r) {
    t0 = NowSeconds();
    for (int64_t i = 0; i < t.iters; ++i) fn();
    per_iter.push_back((NowSeconds() - t0) / static_cast<double>(t.iters));
    if (per_iter.size() >= 2 && NowSeconds() - start > budget_s) break;
  }
  std::sort(per_iter.begin(), per_iter.end());
  t.reps = static_cast<int>(per_iter.size());
  t.min_s = per_iter.front();
  const size_t m = per_iter.size();
  t.median_s = m % 2 ? per_iter[m / 2] : 0.5 * (per_iter[m / 2 - 1] + per_iter[m / 2]);
  return t;
}

std::vector<Timing> MeasureInterleaved(const std::vector<std::function<void()>>& fns, int reps,
                                       double budget_s, double min_batch_s) {
  const double start = NowSeconds();
  std::vector<Timing> t(fns.size());
  std::vector<std::vector<double>> per_iter(fns.size());
  for (size_t k = 0; k < fns.size(); ++k) {
    fns[k]();  // warm-up
    double t0 = NowSeconds();
    fns[k]();
    t[k].iters = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(min_batch_s / std::max(NowSeconds() - t0, 1e-9))));
  }
  for (int r = 0; r < std::max(reps, 2); ++r) {
    for (size_t k = 0; k < fns.size(); ++k) {
      const double t0 = NowSeconds();
      for (int64_t i = 0; i < t[k].iters; ++i) fns[k]();
      per_iter[k].push_back((NowSeconds() - t0) / static_cast<double>(t[k].iters));
    }
    if (r >= 1 && NowSeconds() - start > budget_s) break;
  }
  for (size_t k = 0; k < fns.size(); ++k) {
    std::vector<double>& p = per_iter[k];
    std::sort(p.begin(), p.end());
    t[k].reps = static_cast<int>(p.size());
    t[k].min_s = p.front();
    const size_t m = p.size();
    t[k].median_s = m % 2 ? p[m / 2] : 0.5 * (p[m / 2 - 1] + p[m / 2]);
  }
  return t;
}

std::vector<int32_t> MakeIndices(int64_t n, int64_t rows, double dup, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int32_t> perm(static_cast<size_t>(rows));
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  const int64_t distinct = std::clamp<int64_t>(std::llround((1.0 - dup) * static_cast<double>(n)), 1,
                                               std::min(n, rows));
  std::vector<int32_t> idx(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    idx[static_cast<size_t>(i)] =
        i < distinct ? perm[static_cast<size_t>(i)]
                     : perm[static_cast<size_t>(std::uniform_int_distribution<int64_t>(0, distinct - 1)(rng))];
  }
  std::shuffle(idx.begin(), idx.end(), rng);
  return idx;
}

}  // namespace tilec::bench
