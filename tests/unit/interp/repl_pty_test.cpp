// `tilec repl` on a pseudo-terminal, as a user at a keyboard meets it: Ctrl-C at the prompt,
// during a host loop and during a kernel launch keeps the session; Tab completes and indents;
// history survives from one session to the next. Every wait has a generous deadline, so that a
// loaded machine makes the tests slower, not flaky.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <thread>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr double kDeadline = 120.0;  // seconds for anything to show up (a kernel compile included)

class PtySession {
 public:
  // Starts `tilec repl --device cpu` on a new pseudo-terminal with `env` added to the
  // environment.
  explicit PtySession(const std::map<std::string, std::string>& env) {
    struct winsize ws = {};
    ws.ws_row = 40;
    ws.ws_col = 200;  // wide, so that no echoed line wraps
    pid_ = forkpty(&fd_, nullptr, nullptr, &ws);
    if (pid_ == 0) {
      for (auto& [k, v] : env) {
        if (v.empty()) unsetenv(k.c_str());
        else setenv(k.c_str(), v.c_str(), 1);
      }
      setenv("TERM", "xterm", 1);
      execl(TILEC_BINARY, TILEC_BINARY, "repl", "--device", "cpu", static_cast<char*>(nullptr));
      _exit(127);
    }
  }
  ~PtySession() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }
  bool started() const { return pid_ > 0 && fd_ >= 0; }

  void Send(const std::string& keys) {
    size_t done = 0;
    while (done < keys.size()) {
      ssize_t n = write(fd_, keys.data() + done, keys.size() - done);
      if (n <= 0) return;
      done += size_t(n);
    }
  }

  // Reads until `needle` appears after the consumed part of the output, which then moves past
  // it; false at the deadline or when the session ends first.
  bool WaitFor(const std::string& needle, double seconds = kDeadline) {
    auto end = Clock::now() + std::chrono::duration<double>(seconds);
    for (;;) {
      size_t at = output_.find(needle, consumed_);
      if (at != std::string::npos) {
        consumed_ = at + needle.size();
        return true;
      }
      double left = std::chrono::duration<double>(end - Clock::now()).count();
      if (left <= 0 || !ReadSome(left)) return false;
    }
  }

  // Waits for `prompt`, then for the line editor to take the terminal (canonical mode off:
  // on Linux the master side sees the slave's settings). Keys typed before that reach the
  // cooked terminal, where Ctrl-D is an end-of-file the editor never sees.
  bool WaitForPrompt(const std::string& prompt, double seconds = kDeadline) {
    if (!WaitFor(prompt, seconds)) return false;
    auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
      struct termios t;
      if (tcgetattr(fd_, &t) == 0 && !(t.c_lflag & ICANON)) return true;
      ReadSome(0.005);
    }
    return false;
  }

  // Ctrl-D, then waits for the process to leave; true when it exited with status 0. Call it
  // after WaitForPrompt.
  bool Quit(double seconds = kDeadline) {
    Send("\x04");
    auto end = Clock::now() + std::chrono::duration<double>(seconds);
    while (Clock::now() < end) {
      int status = 0;
      pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        exited_ = true;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0;
      }
      ReadSome(0.05);
    }
    return false;
  }

  bool Alive() {
    if (exited_) return false;
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) exited_ = true;
    return !exited_;
  }

  const std::string& output() const { return output_; }
  std::string Unconsumed() const { return output_.substr(consumed_); }

 private:
  bool ReadSome(double seconds) {
    struct pollfd p = {fd_, POLLIN, 0};
    int r = poll(&p, 1, int(seconds * 1000) + 1);
    if (r <= 0) return r == 0;
    char buf[4096];
    ssize_t n = read(fd_, buf, sizeof buf);
    if (n <= 0) return false;  // EIO: the child closed the terminal
    output_.append(buf, size_t(n));
    return true;
  }

  pid_t pid_ = -1;
  int fd_ = -1;
  bool exited_ = false;
  std::string output_;
  size_t consumed_ = 0;
};

// A scratch HOME per test, so that no test reads or writes the user's history.
class ReplPty : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "tilec-pty-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    home_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(home_, ec);
  }
  std::map<std::string, std::string> Env() const {
    return {{"HOME", home_.string()},
            {"TILEC_HISTORY_FILE", ""},
            {"TILEC_CACHE_DIR", (home_ / "cache").string()}};
  }
  fs::path home_;
};

#define ASSERT_PROMPT(session, text) \
  ASSERT_TRUE((session).WaitForPrompt(text)) << "waiting for prompt: " << (text) << "\noutput so far:\n" << (session).output()
#define ASSERT_SEEN(session, text) \
  ASSERT_TRUE((session).WaitFor(text)) << "waiting for: " << (text) << "\noutput so far:\n" << (session).output()

TEST_F(ReplPty, CtrlCAtThePromptCancelsTheLine) {
  PtySession s(Env());
  ASSERT_TRUE(s.started());
  ASSERT_PROMPT(s, ">>> ");
  s.Send("x = 41\r");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("undefined_name_typed");
  ASSERT_SEEN(s, "undefined_name_typed");
  s.Send("\x03");
  ASSERT_SEEN(s, "KeyboardInterrupt");
  ASSERT_PROMPT(s, ">>> ");
  // Ctrl-C in the middle of a block drops the whole block.
  s.Send("if True:\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("\x03");
  ASSERT_SEEN(s, "KeyboardInterrupt");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("print(x + 1)\r");
  ASSERT_SEEN(s, "42");
  EXPECT_EQ(s.output().find("NameError"), std::string::npos) << s.output();
  EXPECT_TRUE(s.Alive());
  ASSERT_PROMPT(s, ">>> ");
  EXPECT_TRUE(s.Quit()) << s.output();
}

TEST_F(ReplPty, CtrlCStopsAHostLoopAndKeepsTheVariables) {
  PtySession s(Env());
  ASSERT_TRUE(s.started());
  ASSERT_PROMPT(s, ">>> ");
  s.Send("keep = 'still' + ' here'\r");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("for k in range(10**15):\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("    if k == 1000: print('loop' + 'ing')\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("\r");
  ASSERT_SEEN(s, "looping");  // only the running loop prints it joined
  s.Send("\x03");
  ASSERT_SEEN(s, "KeyboardInterrupt");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("print(keep, k > 1000)\r");
  ASSERT_SEEN(s, "still here True");
  ASSERT_PROMPT(s, ">>> ");
  EXPECT_TRUE(s.Quit()) << s.output();
}

TEST_F(ReplPty, CtrlCStopsALongKernelLaunch) {
  PtySession s(Env());
  ASSERT_TRUE(s.started());
  ASSERT_PROMPT(s, ">>> ");
  s.Send("keep = np.arange(3)\r");
  ASSERT_PROMPT(s, ">>> ");
  // About 10^12 sin() calls: hours on any CPU, so only an interrupt ends the launch.
  s.Send("@wp.kernel\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("def spin(out: wp.array(dtype=float), n: int):\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("    acc = float(0.0)\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("    for j in range(n):\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("        acc = acc + wp.sin(float(j + wp.tid()))\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("    if acc == -12345.0:\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("        out[0] = acc\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("\r");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("out = wp.zeros(1, dtype=float)\r");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("print('launch' + 'ing'); wp.launch(spin, dim=10**9, inputs=[out, 1000])\r");
  ASSERT_SEEN(s, "launching");
  // Let the launch get going (a compile that is still running is interrupted just the same).
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  s.Send("\x03");
  ASSERT_SEEN(s, "KeyboardInterrupt");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("print(keep, out.numpy())\r");
  ASSERT_SEEN(s, "[0 1 2] [0.]");
  ASSERT_PROMPT(s, ">>> ");
  EXPECT_TRUE(s.Quit()) << s.output();
}

TEST_F(ReplPty, TabCompletesWarpMembersAndIndents) {
  PtySession s(Env());
  ASSERT_TRUE(s.started());
  ASSERT_PROMPT(s, ">>> ");
  // `wp.tile_lo` is a prefix of several builtins: a second Tab lists them all, whether or not
  // the first one could extend the word.
  s.Send("wp.tile_lo\t\t");
  ASSERT_SEEN(s, "wp.tile_load");
  s.Send("\x03");
  ASSERT_SEEN(s, "KeyboardInterrupt");
  ASSERT_PROMPT(s, ">>> ");
  // `wp.tile_loa` extends to the common prefix of tile_load and tile_load_indexed.
  s.Send("wp.tile_loa\t");
  ASSERT_SEEN(s, "d");
  s.Send("\r");
  ASSERT_SEEN(s, "<kernel builtin wp.tile_load>");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("prin\t('com' + 'pleted')\r");
  ASSERT_SEEN(s, "completed");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("def g():\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("\treturn 'in' + 'dented'\r");
  ASSERT_PROMPT(s, "... ");
  s.Send("\r");
  ASSERT_PROMPT(s, ">>> ");
  s.Send("g()\r");
  ASSERT_SEEN(s, "'indented'");
  EXPECT_EQ(s.output().find("IndentationError"), std::string::npos) << s.output();
  ASSERT_PROMPT(s, ">>> ");
  EXPECT_TRUE(s.Quit()) << s.output();
}

TEST_F(ReplPty, HistoryPersistsAcrossSessions) {
  {
    PtySession first(Env());
    ASSERT_TRUE(first.started());
    ASSERT_PROMPT(first, ">>> ");
    first.Send("print('hist' + 'ory', 6 * 7)\r");
    ASSERT_SEEN(first, "history 42");
    ASSERT_PROMPT(first, ">>> ");
    ASSERT_TRUE(first.Quit()) << first.output();
  }
  fs::path file = home_ / ".tilec_history";
  ASSERT_TRUE(fs::exists(file)) << "no " << file;
  {
    PtySession second(Env());
    ASSERT_TRUE(second.started());
    ASSERT_PROMPT(second, ">>> ");
    second.Send("\x10");  // Ctrl-P: the previous line, from the first session
    ASSERT_SEEN(second, "6 * 7");
    second.Send("\r");
    ASSERT_SEEN(second, "history 42");
    ASSERT_PROMPT(second, ">>> ");
    EXPECT_TRUE(second.Quit()) << second.output();
  }
  // TILEC_HISTORY_FILE names another file.
  fs::path other = home_ / "other_history";
  auto env = Env();
  env["TILEC_HISTORY_FILE"] = other.string();
  PtySession third(env);
  ASSERT_PROMPT(third, ">>> ");
  third.Send("1 + 1\r");
  ASSERT_SEEN(third, "2");
  ASSERT_PROMPT(third, ">>> ");
  ASSERT_TRUE(third.Quit()) << third.output();
  std::ifstream in(other);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_NE(text.str().find("1"), std::string::npos) << text.str();
}

}  // namespace
