// The runtime's exception: every misuse (bad launch, bad device, driver failure, malformed
// signature) throws it with a message that says what was found and what was expected. An
// allocation that cannot be satisfied throws the OutOfMemory kind (Python's MemoryError).
#pragma once
#include <stdexcept>
#include <string>

namespace tilec::rt {

class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

class OutOfMemory : public Error {
 public:
  explicit OutOfMemory(const std::string& message) : Error(message) {}
};

// A kernel compiled with checked access indexed outside an array (Python's IndexError).
class AccessError : public Error {
 public:
  explicit AccessError(const std::string& message) : Error(message) {}
};

// A kernel compiled in debug mode failed an `assert` (Python's AssertionError).
class AssertError : public Error {
 public:
  explicit AssertError(const std::string& message) : Error(message) {}
};

}  // namespace tilec::rt
