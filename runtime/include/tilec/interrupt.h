// Interrupt requests, for hosts that let a user stop work in progress (Ctrl-C in the REPL):
// a signal handler calls RequestInterrupt; CPU launches check between pieces of their index
// range and throw Interrupted, leaving the rest of the grid unrun.
#pragma once
#include <atomic>

#include "tilec/error.h"

namespace tilec::rt {

class Interrupted : public Error {
 public:
  Interrupted() : Error("interrupted") {}
};

namespace detail {
// A lock-free atomic, so that setting it from a signal handler is safe.
inline std::atomic<bool> interrupt_flag{false};
}  // namespace detail

inline void RequestInterrupt() noexcept { detail::interrupt_flag.store(true, std::memory_order_relaxed); }
inline bool InterruptPending() noexcept { return detail::interrupt_flag.load(std::memory_order_relaxed); }
inline void ClearInterrupt() noexcept { detail::interrupt_flag.store(false, std::memory_order_relaxed); }

}  // namespace tilec::rt
