// The diagnostic registry and the renderer with source line and caret range.
#include "support/diagnostics.h"

#include <algorithm>
#include <ostream>

namespace tilec::diag {

namespace {
constexpr CodeInfo kCodes[] = {
#define DIAG(code, name, severity) {Code::name, #code, #name, Severity::severity},
#include "support/diagnostic_codes.def"
#undef DIAG
};

const char* SeverityWord(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

void RenderSnippet(std::ostream& os, const SourceFile& file, SourceRange range) {
  std::string_view line = file.LineText(range.begin);
  uint32_t line_start = file.LineStart(std::min<uint32_t>(range.begin, file.text().size()));
  uint32_t col = range.begin - line_start;
  // Tabs in the source line become a single space in both lines so the caret stays aligned.
  std::string shown(line);
  std::replace(shown.begin(), shown.end(), '\t', ' ');
  os << "    " << shown << "\n    ";
  uint32_t width = 1;
  if (range.end > range.begin) {
    uint32_t end_in_line = std::min<uint32_t>(range.end - line_start, uint32_t(line.size()));
    width = end_in_line > col ? end_in_line - col : 1;
  }
  os << std::string(std::min<uint32_t>(col, uint32_t(line.size())), ' ') << '^'
     << std::string(width - 1, '~') << "\n";
}
}  // namespace

const CodeInfo& Info(Code code) { return kCodes[static_cast<int>(code)]; }
std::span<const CodeInfo> AllCodes() { return kCodes; }

LineCol Diagnostic::Where() const { return file ? file->Locate(range.begin) : LineCol{}; }

DiagnosticEngine::Builder& DiagnosticEngine::Builder::AddNote(const SourceFile* file,
                                                              SourceRange range,
                                                              std::string message) {
  d_.notes.push_back({file, range, std::move(message)});
  return *this;
}

DiagnosticEngine::Builder& DiagnosticEngine::Builder::AddNote(std::string message) {
  d_.notes.push_back({nullptr, {}, std::move(message)});
  return *this;
}

DiagnosticEngine::Builder DiagnosticEngine::Report(Code code, const SourceFile* file,
                                                   SourceRange range, std::string message) {
  Severity sev = Info(code).severity;
  if (sev == Severity::Error) {
    if (errors_ >= error_limit_) {
      overflow_ = Diagnostic{code, sev, file, range, std::move(message), {}};
      return Builder(overflow_);
    }
    ++errors_;
  } else if (sev == Severity::Warning) {
    ++warnings_;
  }
  diags_.push_back(Diagnostic{code, sev, file, range, std::move(message), {}});
  return Builder(diags_.back());
}

void DiagnosticEngine::RenderOne(std::ostream& os, const Diagnostic& d, bool color) {
  const CodeInfo& info = Info(d.code);
  const char* bold = color ? "\033[1m" : "";
  const char* red = color ? (d.severity == Severity::Error ? "\033[1;31m" : "\033[1;35m") : "";
  const char* reset = color ? "\033[0m" : "";
  if (d.file) {
    LineCol lc = d.file->Locate(d.range.begin);
    os << bold << d.file->path() << ":" << lc.line << ":" << lc.col << ": " << reset;
  }
  os << red << SeverityWord(d.severity) << "[" << info.id << "]" << reset << bold << ": "
     << d.message << reset << "\n";
  if (d.file) RenderSnippet(os, *d.file, d.range);
  for (const Note& n : d.notes) {
    if (n.file) {
      LineCol lc = n.file->Locate(n.range.begin);
      os << n.file->path() << ":" << lc.line << ":" << lc.col << ": ";
    }
    os << "note: " << n.message << "\n";
    if (n.file) RenderSnippet(os, *n.file, n.range);
  }
}

void DiagnosticEngine::Render(std::ostream& os, bool color) const {
  for (const Diagnostic& d : diags_) RenderOne(os, d, color);
  if (errors_ >= error_limit_) os << "too many errors; stopped after " << error_limit_ << "\n";
}

}  // namespace tilec::diag
