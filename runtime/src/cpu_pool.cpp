// The CPU device's worker pool: hardware_concurrency threads (the caller counts as one) that
// split a launch's index range into chunks. One launch runs at a time; callers queue on a lock.
// The caller waits only for the workers that joined its launch before it had taken the last
// chunk: a launch smaller than a worker's wake-up (tens of microseconds) is not held up by it.
// A worker that finishes a launch watches for the next one for a short while before it sleeps,
// so that back-to-back launches (a training step, a solver's iterations) start on every thread
// without a futex wake-up each, which costs more than a small launch's whole work.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "runtime/src/internal.h"
#include "tilec/launch.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace tilec::rt {

namespace {

// How long an idle worker watches for the next launch before it sleeps: longer than the gap
// between launches issued back to back from host code, short enough that a worker does not
// hold a core that another process wants for long.
constexpr auto kWatch = std::chrono::microseconds(50);

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

class Pool {
 public:
  explicit Pool(int threads) {
    for (int i = 0; i < threads; ++i) workers_.emplace_back([this, i] { WorkerLoop(i + 1); });
  }
  ~Pool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
  }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void Run(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t, int)>& body) {
    std::lock_guard<std::mutex> launch_lock(launch_mutex_);
    bool wake_sleepers;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      n_ = n;
      grain_ = grain;
      next_.store(0);
      busy_ = 0;
      closed_ = false;
      generation_.fetch_add(1, std::memory_order_release);
      wake_sleepers = sleeping_ > 0;  // watching workers see generation_ change by themselves
    }
    if (wake_sleepers) wake_.notify_all();
    Work(0);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;  // every chunk is taken: a worker waking from now on stays out
    }
    // The workers still in a chunk finish within about one chunk's time; sleeping on done_
    // instead would add a futex round trip to every launch they share.
    Await([this] { return busy_.load(std::memory_order_acquire) == 0; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return busy_.load() == 0; });
    body_ = nullptr;
  }

 private:
  void Work(int worker) {
    for (;;) {
      int64_t first = next_.fetch_add(grain_);
      if (first >= n_) return;
      (*body_)(first, std::min(n_, first + grain_), worker);
    }
  }

  // Polls `ready` for up to kWatch; true as soon as it holds.
  template <typename Ready>
  static bool Await(const Ready& ready) {
    auto until = std::chrono::steady_clock::now() + kWatch;
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (ready()) return true;
        CpuRelax();
      }
      if (std::chrono::steady_clock::now() >= until) return false;
    }
  }

  void WorkerLoop(int worker) {
    uint64_t seen = 0;
    for (;;) {
      bool watched = Await([&] { return generation_.load(std::memory_order_acquire) != seen; });
      {
        std::unique_lock<std::mutex> lock(mutex_);
        if (!watched) {
          ++sleeping_;
          wake_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
          --sleeping_;
        }
        if (stop_) return;
        seen = generation_.load();
        if (closed_) continue;
        ++busy_;
      }
      Work(worker);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--busy_ == 0 && closed_) done_.notify_one();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex launch_mutex_;  // one launch at a time
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  bool stop_ = false;
  std::atomic<uint64_t> generation_{0};  // written under mutex_; read without it while watching
  int sleeping_ = 0;                     // workers waiting on wake_
  std::atomic<int> busy_{0};  // workers in the current launch's chunks; written under mutex_
  bool closed_ = false;       // the current launch takes no more workers
  const std::function<void(int64_t, int64_t, int)>* body_ = nullptr;
  int64_t n_ = 0, grain_ = 1;
  std::atomic<int64_t> next_{0};
};

Pool& GetPool() {
  // Intentionally leaked: worker threads must not be joined during static destruction,
  // when a launch from another static destructor could still need them.
  static Pool* pool = new Pool(std::max(1u, std::thread::hardware_concurrency()) - 1);
  return *pool;
}

}  // namespace

int CpuWorkerCount() { return GetPool().size(); }

void CpuParallelFor(int64_t n, int64_t grain,
                    const std::function<void(int64_t, int64_t, int)>& body) {
  if (n <= 0) return;
  grain = std::max<int64_t>(1, grain);
  Pool& pool = GetPool();
  if (n <= grain || pool.size() == 1) {
    for (int64_t first = 0; first < n; first += grain) body(first, std::min(n, first + grain), 0);
    return;
  }
  pool.Run(n, grain, body);
}

}  // namespace tilec::rt
