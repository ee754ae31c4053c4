// help(), dir(), getattr()/hasattr(), Ctrl-C's KeyboardInterrupt and the candidates the REPL's
// Tab completion offers, checked without a terminal (repl_pty_test.cpp drives the real one).
#include <gtest/gtest.h>

#include <algorithm>

#include "interp_test_util.h"
#include "tilec/interrupt.h"

namespace tilec::host::test {
namespace {

TEST(Introspect, HelpOfAKernelBuiltinGivesSignatureAndSummary) {
  std::string out = RunProgram("help(wp.tile_load)\n");
  EXPECT_NE(out.find("tile_load(a: Array[Any], shape: tuple[int, ...]"), std::string::npos) << out;
  EXPECT_NE(out.find("Load a tile from a global memory array."), std::string::npos) << out;
  EXPECT_NE(out.find("docs/tile_load.rst"), std::string::npos) << out;
}

TEST(Introspect, HelpOfHostFunctionsAndKernels) {
  std::string out = RunProgram(
      "def scale(x, k=2):\n    \"Multiplies x by k.\"\n    return x * k\n"
      "help(scale)\n"
      "@wp.kernel\ndef twice(a: wp.array(dtype=float)):\n    a[wp.tid()] = a[wp.tid()] * 2.0\n"
      "help(twice)\n");
  EXPECT_NE(out.find("scale(x, k=2)\n    Multiplies x by k.\n"), std::string::npos) << out;
  EXPECT_NE(out.find("Help on kernel twice:\n\ntwice(a)\n"), std::string::npos) << out;
}

TEST(Introspect, KernelBuiltinsAreNamedButNotCallableOnTheHost) {
  std::string out = RunProgram("print(wp.tile_load)\nwp.tile_load(1)\n");
  EXPECT_NE(out.find("<kernel builtin wp.tile_load>\n"), std::string::npos) << out;
  EXPECT_EQ(ErrorLine(out), "TypeError: `wp.tile_load` is a kernel builtin: call it from a @wp.kernel or @wp.func function");
}

TEST(Introspect, DirGetattrHasattr) {
  std::string out = RunProgram(
      "x = 5\n"
      "print('x' in dir(), 'upper' in dir('s'), 'append' in dir([]), 'tile_load' in dir(wp), 'arange' in dir(np))\n"
      "print(getattr(np, 'pi'), getattr(wp, 'nope', 'fallback'), hasattr(wp, 'launch'), hasattr('s', 'nope'))\n");
  EXPECT_EQ(out, "True True True True True\n3.141592653589793 fallback True False\n");
}

TEST(Introspect, CompletionCandidates) {
  std::ostringstream out;
  Interpreter session(out);
  session.RunSource("page.rst", "values = [1, 2]\nvalue_count = 2\n", 0, 0, out);
  using V = std::vector<std::string>;
  V tile_lo = CompletionCandidates(session, "wp.tile_lo");
  EXPECT_NE(std::find(tile_lo.begin(), tile_lo.end(), "wp.tile_load"), tile_lo.end());
  for (const auto& c : tile_lo) EXPECT_EQ(c.rfind("wp.tile_lo", 0), 0u) << c;
  EXPECT_EQ(CompletionCandidates(session, "wp.tile_loa"), (V{"wp.tile_load", "wp.tile_load_indexed"}));
  EXPECT_EQ(CompletionCandidates(session, "np.arang"), (V{"np.arange"}));
  EXPECT_EQ(CompletionCandidates(session, "value"), (V{"value_count", "values"}));
  EXPECT_EQ(CompletionCandidates(session, "values.app"), (V{"values.append"}));
  EXPECT_EQ(CompletionCandidates(session, "whil"), (V{"while"}));
  EXPECT_TRUE(CompletionCandidates(session, "nothing_here.x").empty());
}

TEST(Introspect, InterruptRequestRaisesKeyboardInterruptAndTheSessionGoesOn) {
  std::ostringstream out;
  Interpreter session(out);
  session.RunSource("page.rst", "kept = 7\n", 0, 0, out);
  rt::RequestInterrupt();
  EXPECT_FALSE(session.RunSource("page.rst", "for i in range(10):\n    pass\n", 0, 0, out));
  EXPECT_FALSE(rt::InterruptPending());
  EXPECT_EQ(ErrorLine(out.str()), "KeyboardInterrupt");
  session.RunSource("page.rst", "try:\n    print(kept)\nexcept KeyboardInterrupt:\n    print('no')\n", 0, 0, out);
  EXPECT_NE(out.str().find("\n7\n"), std::string::npos) << out.str();
}

}  // namespace
}  // namespace tilec::host::test
