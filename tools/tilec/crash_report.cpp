// A fatal signal (a kernel's stray access, a stack overflow) ends `tilec` with a message of its
// own and an exit code, instead of the shell's bare "Segmentation fault": a crash inside a CPU
// launch names the kernel and the way to find the access at fault (exit 4); any other is ours (3).
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "tilec/launch.h"
#include "tools/tilec/cli.h"

namespace tilec::cli {
namespace {

void Write(const char* s) {
  size_t n = std::strlen(s);
  while (n > 0) {
    ssize_t w = ::write(STDERR_FILENO, s, n);
    if (w <= 0) return;
    s += w;
    n -= size_t(w);
  }
}

// Set by the first thread to report: lanes of one CPU launch often crash together, and one
// report is wanted, not several interleaved.
std::atomic<bool> g_reporting{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the flag is used from a signal handler");

// Only async-signal-safe calls from here on: write, pause and _exit.
extern "C" void OnFatalSignal(int sig) {
  if (g_reporting.exchange(true))
    for (;;) ::pause();  // the first reporter's _exit ends the process
  const char* what = sig == SIGSEGV ? "segmentation fault"
                     : sig == SIGBUS ? "bus error"
                     : sig == SIGFPE ? "arithmetic exception"
                                     : "illegal instruction";
  if (const char* kernel = rt::CpuKernelInFlight()) {
    Write("tilec: kernel `");
    Write(kernel);
    Write("` crashed on the CPU (");
    Write(what);
    Write("): an array access outside its array, or through a None array; run with --debug "
          "(wp.config.mode = \"debug\") to check every access and name the one at fault\n");
    ::_exit(kExitRuntime);
  }
  Write("tilec: internal compiler error: ");
  Write(what);
  Write("\n");
  ::_exit(kExitInternal);
}

}  // namespace

void InstallCrashReport() {
  // Its own stack, so that a stack overflow is reported too.
  static char stack[64 * 1024];
  stack_t ss{};
  ss.ss_sp = stack;
  ss.ss_size = sizeof stack;
  ::sigaltstack(&ss, nullptr);
  struct sigaction sa{};
  sa.sa_handler = OnFatalSignal;
  sa.sa_flags = SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::sigaction(sig, &sa, nullptr);
}

}  // namespace tilec::cli
