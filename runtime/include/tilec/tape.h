// Reverse-mode differentiation at the launch level: a Tape records launches while it is
// active on the calling thread, and Backward runs their adjoint kernels in reverse order.
#pragma once
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "tilec/array.h"
#include "tilec/launch.h"

namespace tilec::rt {

struct RecordedLaunch {
  Kernel kernel;
  std::vector<int64_t> dim;
  std::vector<KernelArg> args;
  int block_dim = 0;  // 0: plain launch
  Device device;
  bool hybrid = false;  // LaunchHybrid
  void* stream = nullptr;  // the CUstream of a CUDA launch (null: the legacy default stream)
  // A host operation on the tape (Warp's `wp.copy` between arrays with gradients): its
  // backward runs in place of an adjoint kernel; `args` hold its arrays for Zero().
  std::function<void()> host_backward;
};

class Tape {
 public:
  Tape() = default;
  ~Tape();
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  // Recording is per thread; tapes nest (the innermost active one records).
  void Begin();
  void End();
  class Scope {
   public:
    explicit Scope(Tape& tape) : tape_(tape) { tape_.Begin(); }
    ~Scope() { tape_.End(); }
   private:
    Tape& tape_;
  };
  bool recording() const { return recording_; }
  // The tape recording on this thread, or null.
  static Tape* Current();

  void Record(RecordedLaunch launch);
  const std::vector<RecordedLaunch>& launches() const { return launches_; }

  // Seeds each array's grad with the given value (same shape) and runs the adjoints.
  void Backward(const std::vector<std::pair<Array, Array>>& grads);
  // Seeds loss.grad with 1 (loss must hold exactly one element) and runs the adjoints.
  void BackwardLoss(const Array& loss);
  // Runs the adjoints of the recorded launches, newest first, without seeding. A kernel
  // without adjoint is skipped when none of its array arguments carries a grad, and is an
  // Error otherwise (its gradient would silently be missing).
  void RunAdjoints();

  void Zero();   // zeroes the grad of every array the recorded launches used
  void Reset();  // forgets the recorded launches

 private:
  std::vector<RecordedLaunch> launches_;
  bool recording_ = false;
  Tape* outer_ = nullptr;
};

// Runs one kernel's adjoint entry (forward args plus zeroed adjoint slots). Used by Tape.
void LaunchAdjoint(const RecordedLaunch& launch);

}  // namespace tilec::rt
