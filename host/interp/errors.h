// Python-style exceptions of the host interpreter (`NameError: name 'x' is not defined`).
// They unwind C++ frames up to the statement loop, which adds the traceback lines and lets
// the session carry on.
#pragma once
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tilec::host {

struct Object;

struct TraceEntry {
  std::string file;
  int line = 0;
  std::string function;  // "<module>" or the host function's name
  std::string source;    // the source line, stripped
};

class PyError : public std::exception {
 public:
  PyError(std::string type, std::string message)
      : type_(std::move(type)), message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& type() const { return type_; }
  const std::string& message() const { return message_; }
  // `TypeError: message`, or just the type when the message is empty.
  std::string Line() const { return message_.empty() ? type_ : type_ + ": " + message_; }
  // Innermost first; printing reverses them.
  std::vector<TraceEntry> trace;
  // Pre-rendered compiler diagnostics that explain the error (printed before the traceback).
  std::string diagnostics;
  // The exception object when host code raised one (`raise ValueError(...)`); otherwise
  // `except ... as e` builds one from the type and message.
  std::shared_ptr<Object> instance;
  // Chaining, printed before this exception as CPython prints it: the exception that was being
  // handled when this one was raised, or the operand of `raise ... from X` (explicit_cause).
  // `chained` records that the link is settled (a re-raise keeps none, `from None` hides it).
  std::shared_ptr<PyError> context;
  bool explicit_cause = false;
  bool suppress_context = false;
  bool chained = false;

 private:
  std::string type_;
  std::string message_;
};

[[noreturn]] inline void Raise(const std::string& type, const std::string& message) {
  throw PyError(type, message);
}
[[noreturn]] inline void TypeError(const std::string& m) { Raise("TypeError", m); }
[[noreturn]] inline void ValueError(const std::string& m) { Raise("ValueError", m); }
[[noreturn]] inline void IndexError(const std::string& m) { Raise("IndexError", m); }
[[noreturn]] inline void KeyError(const std::string& m) { Raise("KeyError", m); }
[[noreturn]] inline void AttributeError(const std::string& m) { Raise("AttributeError", m); }
[[noreturn]] inline void RuntimeError(const std::string& m) { Raise("RuntimeError", m); }

}  // namespace tilec::host
