// Standard-library modules written in C++ for host programs, each in a file of its own
// (py_stdio.cpp, py_warnings.cpp, py_re.cpp, py_files.cpp, py_mock.cpp); `import` finds them
// through MakeStdModule.
#pragma once
#include <cstdint>
#include <regex>
#include <string>

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

}  // namespace tilec::host
