// Diagnostics: stable codes from one registry, rendered as
//   file:line:col: error[E0123]: message
//   <source line>
//   <caret range>
//   note: ...
// Every stage reports through a DiagnosticEngine; nothing prints compiler errors any other way.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <span>
#include <string>
#include <vector>

#include "support/source.h"

namespace tilec::diag {

enum class Severity : uint8_t { Error, Warning, Note };

enum class Code : uint16_t {
#define DIAG(code, name, severity) name,
#include "support/diagnostic_codes.def"
#undef DIAG
};

struct CodeInfo {
  Code code;
  const char* id;    // "E0003"
  const char* name;  // "InconsistentDedent"
  Severity severity;
};

const CodeInfo& Info(Code code);
std::span<const CodeInfo> AllCodes();

struct Note {
  const SourceFile* file = nullptr;  // null: a note without a location
  SourceRange range;
  std::string message;
};

struct Diagnostic {
  Code code;
  Severity severity;
  const SourceFile* file = nullptr;
  SourceRange range;
  std::string message;
  std::vector<Note> notes;

  LineCol Where() const;
};

class DiagnosticEngine {
 public:
  // Adds a diagnostic (severity from the registry) and returns it so that callers can attach
  // notes: `diags.Report(...).AddNote(...)`.
  class Builder {
   public:
    Builder(Diagnostic& d) : d_(d) {}
    Builder& AddNote(const SourceFile* file, SourceRange range, std::string message);
    Builder& AddNote(std::string message);  // no location
   private:
    Diagnostic& d_;
  };

  Builder Report(Code code, const SourceFile* file, SourceRange range, std::string message);

  const std::vector<Diagnostic>& diagnostics() const { return diags_; }
  int error_count() const { return errors_; }
  int warning_count() const { return warnings_; }
  bool has_errors() const { return errors_ > 0; }
  void Clear() { diags_.clear(); errors_ = warnings_ = 0; }
  // Stops recording after this many errors (a mutated file can hold thousands).
  void set_error_limit(int limit) { error_limit_ = limit; }

  // Renders every diagnostic in the order reported.
  void Render(std::ostream& os, bool color = false) const;
  static void RenderOne(std::ostream& os, const Diagnostic& d, bool color = false);

 private:
  std::vector<Diagnostic> diags_;
  int errors_ = 0;
  int warnings_ = 0;
  int error_limit_ = 100;
  Diagnostic overflow_;  // sink once the limit is reached
};

}  // namespace tilec::diag
