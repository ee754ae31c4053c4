// The Tape: per-thread recording of launches and the reverse sweep over their adjoints.
#include "tilec/error.h"
#include "tilec/tape.h"

namespace tilec::rt {

namespace {
thread_local Tape* t_current = nullptr;

bool AnyGrad(const RecordedLaunch& r) {
  for (const KernelArg& a : r.args)
    if (a.kind() == KernelArg::Kind::Array && !a.array().is_null() && a.array().requires_grad())
      return true;
  return false;
}
}  // namespace

Tape::~Tape() {
  // A tape destroyed while recording must not stay reachable from this thread.
  if (recording_ && t_current == this) t_current = outer_;
}

Tape* Tape::Current() { return t_current; }

void Tape::Begin() {
  if (recording_) throw Error("this tape is already recording");
  outer_ = t_current;
  t_current = this;
  recording_ = true;
}

void Tape::End() {
  if (!recording_) return;
  if (t_current != this) throw Error("tapes must stop recording in the reverse order they began");
  t_current = outer_;
  outer_ = nullptr;
  recording_ = false;
}

void Tape::Record(RecordedLaunch launch) { launches_.push_back(std::move(launch)); }

void Tape::Backward(const std::vector<std::pair<Array, Array>>& grads) {
  for (const auto& [array, seed] : grads) {
    // C++ wording: the host interpreter checks the same first and words it for Python
    // (TapeObj in host/interp/wp_module.cpp).
    if (array.is_null()) throw Error("Tape::Backward: a gradient was given for a null array");
    if (!array.requires_grad())
      throw Error("Tape::Backward: the array given a gradient does not require grad "
                  "(create it with requires_grad = true, or call set_requires_grad(true))");
    if (seed.is_null()) throw Error("Tape::Backward: the gradient value is a null array");
    if (seed.shape() != array.shape() || !(seed.dtype() == array.dtype()))
      throw Error("Tape::Backward: the gradient must have the array's shape and dtype `" +
                  array.dtype().Name() + "`");
    array.grad().CopyFrom(seed);
  }
  RunAdjoints();
}

void Tape::BackwardLoss(const Array& loss) {
  if (loss.is_null()) throw Error("Tape::BackwardLoss: `loss` is a null array");
  if (!loss.requires_grad())
    throw Error("Tape::BackwardLoss: `loss` does not require grad (create it with requires_grad = true, "
                "or call set_requires_grad(true))");
  if (loss.size() != 1)
    throw Error("Tape::BackwardLoss: `loss` must hold exactly one element, it has " +
                std::to_string(loss.size()));
  if (loss.dtype().is_struct() || !IsFloat(loss.dtype().scalar))
    throw Error("Tape::BackwardLoss: `loss` must have a float dtype, not `" + loss.dtype().Name() + "`");
  loss.grad().Fill(1.0);
  RunAdjoints();
}

void Tape::RunAdjoints() {
  for (auto it = launches_.rbegin(); it != launches_.rend(); ++it) {
    if (it->host_backward) {
      it->host_backward();
      continue;
    }
    const KernelSignature& k = it->kernel.signature();
    if (!k.has_adjoint) {
      if (AnyGrad(*it)) {
        if (!k.adjoint_error.empty())
          throw Error("kernel `" + k.name + "` has no adjoint: its gradient would be wrong, so "
                      "the compiler rejected it\n" + k.adjoint_error);
        throw Error("kernel `" + k.name + "` has no adjoint (it was compiled with "
                    "enable_backward=False) but arrays with gradients pass through it");
      }
      continue;
    }
    LaunchAdjoint(*it);
  }
}

void Tape::Zero() {
  for (const RecordedLaunch& r : launches_)
    for (const KernelArg& a : r.args)
      if (a.kind() == KernelArg::Kind::Array && !a.array().is_null() && a.array().requires_grad())
        a.array().grad().Zero();
}

void Tape::Reset() { launches_.clear(); }

}  // namespace tilec::rt
