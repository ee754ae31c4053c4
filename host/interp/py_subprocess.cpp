// Child runs of tilec itself: Warp's test helper run_python_subprocess(source, *args) runs
// Python source in a fresh interpreter and returns its exit status and output. Here the child
// interpreter is this same tilec binary running the source as a program (`tilec run`), with
// the environment it is given; no other program is ever started.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "host/interp/args.h"
#include "host/interp/exceptions.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"

extern char** environ;

namespace tilec::host {
namespace {

// subprocess.CompletedProcess: what the child did.
struct CompletedProcessObj : Object {
  std::string TypeName() const override { return "CompletedProcess"; }
  std::string Repr() const override {
    return "CompletedProcess(args=" + host::Repr(args) + ", returncode=" + std::to_string(returncode) + ")";
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "returncode") return Value::Int(returncode);
    if (name == "stdout") return MakeStr(out);
    if (name == "stderr") return MakeStr(err);
    if (name == "args") return args;
    return std::nullopt;
  }
  Value args;
  int64_t returncode = 0;
  std::string out, err;
};

struct TempFile {
  std::string path;
  ~TempFile() {
    if (!path.empty()) std::remove(path.c_str());
  }
};

}  // namespace

Value RunTilecChild(Interpreter&, const std::string& source, const std::vector<std::string>& args, double timeout,
                    const std::vector<std::pair<std::string, std::string>>& env_updates) {
  TempFile script;
  {
    std::string templ = (std::filesystem::temp_directory_path() / "tilec-child-XXXXXX.py").string();
    std::vector<char> buf(templ.begin(), templ.end());
    buf.push_back('\0');
    int fd = ::mkstemps(buf.data(), 3);
    if (fd < 0) Raise("OSError", "cannot create a file for the child program in " + templ);
    ::close(fd);
    script.path = buf.data();
    std::ofstream(script.path) << source;
  }
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  // Only the tilec program runs host programs as `run FILE`; a binary that embeds the
  // interpreter (a test, a host application) has no such command.
  if (ec || std::filesystem::path(self).filename().string().rfind("tilec", 0) != 0)
    Raise("OSError", "run_python_subprocess(): the child program runs in the `tilec` executable, and this is " +
                         (ec ? std::string("unknown") : "`" + self + "`"));

  std::vector<std::string> argv_s = {self, "run", script.path};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    const std::string key = kv.substr(0, kv.find('='));
    bool replaced = false;
    for (const auto& [k, v] : env_updates) replaced |= k == key;
    if (!replaced) env_s.push_back(kv);
  }
  for (const auto& [k, v] : env_updates) env_s.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (std::string& s : env_s) envp.push_back(s.data());
  envp.push_back(nullptr);

  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0 || ::pipe2(err_pipe, O_CLOEXEC) != 0) Raise("OSError", "pipe() failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, self.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    Raise("OSError", "cannot start the child tilec: " + std::string(std::strerror(rc)));
  }

  auto result = std::make_shared<CompletedProcessObj>();
  std::vector<Value> shown = {MakeStr(self), MakeStr("run"), MakeStr(script.path)};
  for (const std::string& a : args) shown.push_back(MakeStr(a));
  result->args = MakeList(shown);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout);
  pollfd fds[2] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  std::string* sinks[2] = {&result->out, &result->err};
  int open_fds = 2;
  bool timed_out = false;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
      break;
    }
    if (::poll(fds, 2, int(std::min<int64_t>(left.count(), 1000))) < 0 && errno != EINTR) break;
    for (int k = 0; k < 2; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[4096];
      ssize_t n = ::read(fds[k].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[k]->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        ::close(fds[k].fd);
        fds[k].fd = -1;
        --open_fds;
      }
    }
  }
  for (pollfd& f : fds)
    if (f.fd >= 0) ::close(f.fd);
  if (timed_out) ::kill(pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (timed_out)
    Raise("subprocess.TimeoutExpired", "Command '" + host::Repr(result->args) + "' timed out after " +
                                           FloatRepr(timeout) + " seconds");
  result->returncode = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
  return Value(result);
}

}  // namespace tilec::host
