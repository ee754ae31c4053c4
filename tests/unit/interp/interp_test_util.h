// Helpers for the host interpreter tests: run chunks in one session and collect what they
// print (tracebacks included), and run the same code under /usr/bin/python3 as an oracle.
#pragma once
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "host/interp/interpreter.h"

namespace tilec::host::test {

inline constexpr const char* kPython = "/usr/bin/python3";

inline bool HavePythonWithNumpy() {
  static int have = -1;
  if (have < 0) have = std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") == 0;
  return have == 1;
}

// Runs each chunk in turn in one session; chunk k starts at page line `first_lines[k]`
// (default: consecutive). Returns stdout and tracebacks interleaved, as a page would show.
inline std::string RunChunks(const std::vector<std::string>& chunks, std::vector<int> first_lines = {}) {
  std::ostringstream out;
  Interpreter session(out);
  int line = 1;
  for (size_t k = 0; k < chunks.size(); ++k) {
    int first = k < first_lines.size() ? first_lines[k] : line;
    session.RunSource("page.rst", chunks[k], first - 1, 0, out);
    line = first + int(std::count(chunks[k].begin(), chunks[k].end(), '\n'));
  }
  return out.str();
}

inline std::string RunProgram(const std::string& code) { return RunChunks({code}); }

// Runs `code` under /usr/bin/python3 (with `import numpy as np` first) and returns stdout,
// or, when it raises, the last line of stderr (the `Type: message` line).
inline std::string Python(const std::string& code, bool* raised = nullptr) {
  char path[] = "/tmp/tilec_interp_oracle_XXXXXX";
  int fd = mkstemp(path);
  std::string src = "import numpy as np\n" + code;
  if (write(fd, src.data(), src.size()) < 0) return "<write failed>";
  close(fd);
  std::string cmd = std::string(kPython) + " " + path + " 2>" + path + ".err";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  std::ifstream err(std::string(path) + ".err");
  std::string line, last;
  while (std::getline(err, line))
    if (!line.empty()) last = line;
  std::remove(path);
  std::remove((std::string(path) + ".err").c_str());
  if (raised) *raised = rc != 0;
  return rc != 0 ? last : out;
}

// The `Type: message` line of a traceback in `output`, or "" when there is none.
inline std::string ErrorLine(const std::string& output) {
  std::istringstream in(output);
  std::string line, last;
  bool after = false;
  while (std::getline(in, line)) {
    if (line == "Traceback (most recent call last):") after = true;
    else if (after && !line.empty() && line[0] != ' ') return line;
  }
  return "";
}

}  // namespace tilec::host::test
