// Standard-library modules written in C++ for host programs, each in a file of its own
// (py_stdio.cpp, py_warnings.cpp, py_re.cpp, py_files.cpp, py_mock.cpp); `import` finds them
// through MakeStdModule.
#pragma once
#include <cstdint>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "host/interp/value.h"

namespace tilec::host {

class Interpreter;

Value MakeIoModule();
Value MakeContextlibModule();
Value MakeWarningsModule();
Value MakeReModule();
// A Python pattern (re's syntax and flags) compiled for std::regex; re.error when it cannot be.
std::regex PyRegex(const std::string& pattern, int64_t flags = 0);
Value MakeTempfileModule();
Value MakePathlibModule();
Value MakeMockModule();
Value MakeItertoolsModule();  // py_itertools.cpp
// A placeholder for `path`, a name of `owner` ("CPython's `ast` module") that tilec lacks:
// using it raises NotImplementedError (py_unprovided.cpp).
Value MakeUnprovided(std::string path, std::string owner);
// A module tilec answers in part: the names it lacks are placeholders.
struct UnprovidedModule : ModuleObj {
  UnprovidedModule(std::string name, std::string owner) : ModuleObj(std::move(name)), owner(std::move(owner)) {}
  std::optional<Value> GetAttr(Interpreter& in, const std::string& attr) override;
  std::string owner;
};
// `struct`, or CPython's introspection modules in part (`ast`, `inspect`, `weakref`, ...).
std::optional<Value> MakeCPythonOnlyModule(Interpreter& in, const std::string& name);
// Runs `source` as a program in a child tilec (sys.argv[1:] = args) and returns a
// subprocess.CompletedProcess with its exit status and captured output.
Value RunTilecChild(Interpreter& in, const std::string& source, const std::vector<std::string>& args, double timeout,
                    const std::vector<std::pair<std::string, std::string>>& env_updates);

}  // namespace tilec::host
