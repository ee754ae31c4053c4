// wp.config (Warp's defaults, settable, enable_backward as the kernels' default) and
// wp.ScopedTimer (Warp's "<name> took <ms> ms" lines, nesting indentation, dict, active,
// print and verbose), the version, log levels and clear_kernel_cache, as warp/config.py and
// warp/utils.py define them.
#include <gtest/gtest.h>

#include <regex>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

// Milliseconds vary from run to run; the format does not.
std::string MaskTimes(const std::string& s) { return std::regex_replace(s, std::regex("[0-9]+\\.[0-9]{2} ms"), "T ms"); }

TEST(WpConfig, DefaultsAreWarpsAndSettable) {
  std::string out = RunProgram(
      "print(wp.config.mode, wp.config.verbose, wp.config.quiet, wp.config.verify_fp, wp.config.enable_backward, "
      "wp.config.max_unroll, wp.config.kernel_cache_dir)\n"
      "wp.config.quiet = True\nwp.config.mode = 'debug'\nwp.config.verify_fp = True\nwp.config.verbose = False\n"
      "import warp\nprint(warp.config.quiet, warp.config.mode, wp.config.verify_fp, warp.config is wp.config)\n"
      "print(wp.get_cuda_device_count() >= 0, wp.get_cuda_device_count() == (1 if wp.is_cuda_available() else 0) or "
      "wp.get_cuda_device_count() > 1)\n");
  EXPECT_EQ(out, "release False False False True 16 None\nTrue debug True True\nTrue True\n");
}

// Warp 1.19's values: the version, the log levels and their default, and clear_kernel_cache
// (returns None; the next launch compiles again).
TEST(WpConfig, VersionLogLevelsAndClearKernelCache) {
  std::string out = RunProgram(
      "print(wp.__version__, wp.config.version, wp.LOG_DEBUG, wp.LOG_INFO, wp.LOG_WARNING, wp.LOG_ERROR, "
      "wp.config.log_level)\n"
      "wp.config.log_level = wp.LOG_WARNING\nprint(wp.config.log_level, wp.clear_kernel_cache())\n"
      "@wp.kernel\ndef k(a: wp.array(dtype=float)):\n    a[wp.tid()] = 3.0\n"
      "a = wp.zeros(2, dtype=float, device='cpu')\nwp.launch(k, dim=2, inputs=[a], device='cpu')\n"
      "wp.clear_kernel_cache()\nwp.launch(k, dim=2, inputs=[a], device='cpu')\nprint(a.numpy())\n");
  EXPECT_EQ(out, "1.19.0 1.19.0 10 20 30 40 20\n30 None\n[3. 3.]\n");
}

TEST(WpConfig, EnableBackwardIsTheKernelDefault) {
  std::string out = RunProgram(
      "wp.config.enable_backward = False\n"
      "@wp.kernel\ndef k(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n    i = wp.tid()\n    b[i] = a[i] * 2.0\n"
      "a = wp.array([1.0, 2.0], dtype=float, requires_grad=True, device='cpu')\n"
      "b = wp.zeros(2, dtype=float, requires_grad=True, device='cpu')\n"
      "tape = wp.Tape()\nwith tape:\n    wp.launch(k, dim=2, inputs=[a], outputs=[b], device='cpu')\n"
      "tape.backward(grads={b: wp.ones(2, dtype=float, device='cpu')})\n");
  // The same as `@wp.kernel(enable_backward=False)` written out.
  EXPECT_EQ(ErrorLine(out),
            "RuntimeError: kernel `k` has no adjoint (it was compiled with enable_backward=False) but arrays with "
            "gradients pass through it")
      << out;
  // An explicit option still wins over the config.
  out = RunProgram(
      "wp.config.enable_backward = False\n"
      "@wp.kernel(enable_backward=True)\ndef k(a: wp.array(dtype=float), b: wp.array(dtype=float)):\n    i = wp.tid()\n"
      "    b[i] = a[i] * 2.0\n"
      "a = wp.array([1.0, 2.0], dtype=float, requires_grad=True, device='cpu')\n"
      "b = wp.zeros(2, dtype=float, requires_grad=True, device='cpu')\n"
      "tape = wp.Tape()\nwith tape:\n    wp.launch(k, dim=2, inputs=[a], outputs=[b], device='cpu')\n"
      "tape.backward(grads={b: wp.ones(2, dtype=float, device='cpu')})\nprint(a.grad.numpy())\n");
  EXPECT_EQ(out, "[2. 2.]\n") << out;
}

TEST(WpScopedTimer, PrintsLikeWarpWithNesting) {
  std::string out = RunProgram(
      "times = {}\n"
      "with wp.ScopedTimer('outer', dict=times) as t:\n"
      "    with wp.ScopedTimer('inner'):\n        x = sum(range(100))\n"
      "    with wp.ScopedTimer('silent', print=False) as q:\n        pass\n"
      "    with wp.ScopedTimer('inner2') as t2:\n        t2.extra_msg = '(extra)'\n"
      "print(isinstance(t.elapsed, float), len(times['outer']), t.elapsed >= q.elapsed >= 0.0)\n"
      "with wp.ScopedTimer('inactive', active=False) as i:\n    pass\nprint(i.elapsed)\n"
      "wp.ScopedTimer.enabled = False\nwith wp.ScopedTimer('disabled'):\n    pass\nwp.ScopedTimer.enabled = True\n"
      "wp.config.verbose = True\nwith wp.ScopedTimer('verbose'):\n    pass\n");
  EXPECT_EQ(MaskTimes(out),
            "    inner took T ms\n    inner2 took T ms (extra)\nouter took T ms\nTrue 1 True\n0.0\n"
            "verbose ...\nverbose took T ms\n");
}

TEST(WpScopedTimer, ReportsEvenWhenTheBodyRaises) {
  std::string out = RunProgram("with wp.ScopedTimer('failing'):\n    1 / 0\n");
  EXPECT_NE(MaskTimes(out).find("failing took T ms\n"), std::string::npos) << out;
  EXPECT_EQ(ErrorLine(out), "ZeroDivisionError: division by zero");
}

}  // namespace
}  // namespace tilec::host::test
