// Helpers for the checker's unit tests: parse and check a source string in one call.
#pragma once
#include <memory>
#include <sstream>
#include <string>

#include "frontend/parse/parse.h"
#include "frontend/sema/sema.h"

namespace tilec::sema::testing {

struct Checked {
  std::unique_ptr<SourceFile> file;
  std::unique_ptr<ast::Module> module;
  diag::DiagnosticEngine diags;
  std::unique_ptr<CheckedModule> checked;
  int parse_errors = 0;
};

inline std::unique_ptr<Checked> ParseAndCheck(const std::string& text, const CheckOptions& options = {},
                                              const std::string& path = "test.tile") {
  auto c = std::make_unique<Checked>();
  c->file = std::make_unique<SourceFile>(path, text);
  c->module = parse::ParseFile(*c->file, c->diags);
  c->parse_errors = c->diags.error_count();
  c->checked = Check(*c->module, c->diags, options);
  return c;
}

// The first `.. testcode::` block of a documentation page's text, dedented.
inline std::string TestCode(const std::string& rst) {
  std::istringstream in(rst);
  std::string line, out;
  bool in_block = false;
  size_t indent = std::string::npos;
  while (std::getline(in, line)) {
    if (line.find(".. testcode::") != std::string::npos) {
      in_block = true;
      continue;
    }
    if (!in_block) continue;
    size_t k = line.find_first_not_of(' ');
    if (k == std::string::npos) {
      out += "\n";
      continue;
    }
    if (indent == std::string::npos) indent = k;
    if (k < indent) break;
    out += line.substr(indent) + "\n";
  }
  return out;
}

}  // namespace tilec::sema::testing
