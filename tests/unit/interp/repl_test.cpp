// The REPL driven from a stream, as from a pipe: no prompts, expression echo, multi-line
// blocks ended by a blank line, an error that does not end the session, `:` commands.
#include <gtest/gtest.h>

#include <sstream>

#include "host/interp/commands.h"

namespace tilec::host {
namespace {

std::pair<std::string, std::string> Drive(const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out, err;
  RunReplStream(in, out, err, false, {});
  return {out.str(), err.str()};
}

TEST(Repl, PipeSessionWithBlocksErrorsAndMoreInput) {
  auto [out, err] = Drive(
      "x = 3\n"
      "x * 2\n"
      "def f(n):\n"
      "    total = 0\n"
      "    for i in range(n):\n"
      "        total += i\n"
      "    return total\n"
      "\n"
      "print(f(x))\n"
      "print(undefined)\n"
      "f(4)\n"
      "a = np.arange(4,\n"
      "              dtype=np.float32)\n"
      "print(a * 2)\n"
      ":device\n");
  std::string dev_line = out.substr(out.rfind('\n', out.size() - 2) + 1);
  EXPECT_EQ(out, "6\n3\n6\n[0. 2. 4. 6.]\n" + dev_line);
  EXPECT_TRUE(dev_line == "cpu\n" || dev_line.rfind("cuda:", 0) == 0) << dev_line;
  EXPECT_EQ(err,
            "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\n    print(undefined)\n"
            "NameError: name 'undefined' is not defined\n");
}

TEST(Repl, KernelDefinitionLaunchAndPrint) {
  auto [out, err] = Drive(
      "SCALE = 3.0\n"
      "@wp.kernel\n"
      "def scale(x: wp.array(dtype=float), y: wp.array(dtype=float)):\n"
      "    i = wp.tid()\n"
      "    y[i] = x[i] * SCALE\n"
      "\n"
      "x = wp.array(np.arange(4, dtype=np.float32), dtype=float, device='cpu')\n"
      "y = wp.zeros(4, dtype=float, device='cpu')\n"
      "wp.launch(scale, dim=4, inputs=[x], outputs=[y], device='cpu')\n"
      "print(y.numpy())\n"
      "wp.launch(scale, dim=4, inputs=[x], device='cpu')\n"
      "SCALE = 10.0\n"
      "wp.launch(scale, dim=4, inputs=[x, y], device='cpu')\n"
      "print(y.numpy())\n");
  // The kernel keeps the constant it was defined with.
  EXPECT_EQ(out, "[0. 3. 6. 9.]\n[0. 3. 6. 9.]\n");
  EXPECT_NE(err.find("TypeError: launch(): kernel `scale` takes 2 arguments (inputs + outputs), got 1"),
            std::string::npos)
      << err;
}

TEST(Repl, UnknownCommandAndHelp) {
  auto [out, err] = Drive(":help\n:nonsense\n1 + 1\n");
  EXPECT_NE(out.find(":emit STAGE KERNEL"), std::string::npos);
  EXPECT_NE(err.find("unknown command `:nonsense`"), std::string::npos);
  EXPECT_EQ(out.substr(out.size() - 2), "2\n");
}

}  // namespace
}  // namespace tilec::host
