// The `.. testcode::` blocks of the two normative pages parse without diagnostics and give
// the reviewed ASTs in tests/golden/parse/spec_blocks/ (locations are those of the page).
// Runs on the copies in tests/spec_pages/ and, when present, on ../shared/spec/ itself.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/ast/ast_printer.h"
#include "frontend/parse/parse.h"

namespace tilec {
namespace {

namespace fs = std::filesystem;

const char* const kPages[] = {"tile_load_indexed", "tile_atomic_add_indexed"};

std::string ReadFile(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Block {
  std::string text;
  int first_line = 0;  // 1-based line of the block's first line in the page
  int indent = 0;      // columns removed from every line
};

// Every `.. testcode::` block: the following lines that are blank or indented deeper than
// the directive, without the leading blank lines, dedented by their common indentation.
std::vector<Block> ExtractTestcode(const std::string& page) {
  std::vector<std::string> lines;
  std::istringstream in(page);
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  auto indent_of = [](const std::string& l) { return l.find_first_not_of(' '); };
  auto blank = [](const std::string& l) { return l.find_first_not_of(" \t\r") == std::string::npos; };
  std::vector<Block> blocks;
  for (size_t i = 0; i < lines.size(); ++i) {
    const size_t at = lines[i].find(".. testcode::");
    if (at == std::string::npos || indent_of(lines[i]) != at) continue;
    size_t j = i + 1;
    while (j < lines.size() && blank(lines[j])) ++j;
    const size_t start = j;
    size_t end = j;
    size_t common = std::string::npos;
    for (; j < lines.size() && (blank(lines[j]) || indent_of(lines[j]) > at); ++j) {
      if (blank(lines[j])) continue;
      end = j + 1;
      common = std::min(common, indent_of(lines[j]));
    }
    Block b;
    b.first_line = int(start) + 1;
    b.indent = int(common == std::string::npos ? 0 : common);
    for (size_t k = start; k < end; ++k)
      b.text += (blank(lines[k]) ? std::string() : lines[k].substr(size_t(b.indent))) + "\n";
    blocks.push_back(std::move(b));
    i = end ? end - 1 : i;
  }
  return blocks;
}

std::string GoldenPath(const std::string& page, size_t index) {
  return std::string(TILEC_SOURCE_DIR) + "/tests/golden/parse/spec_blocks/" + page + "." +
         std::to_string(index) + ".ast";
}

void CheckPage(const fs::path& page_path, const std::string& page) {
  ASSERT_TRUE(fs::exists(page_path)) << page_path;
  const std::string text = ReadFile(page_path);
  const auto blocks = ExtractTestcode(text);
  ASSERT_EQ(blocks.size(), 1u) << page_path << " should hold one testcode block";
  for (size_t i = 0; i < blocks.size(); ++i) {
    const Block& b = blocks[i];
    SourceFile file(page_path.string(), b.text, b.first_line - 1, b.indent);
    diag::DiagnosticEngine diags;
    auto module = parse::ParseFile(file, diags);
    std::ostringstream rendered;
    diags.Render(rendered);
    EXPECT_TRUE(diags.diagnostics().empty()) << rendered.str();
    EXPECT_FALSE(module->body.empty());
    const std::string actual = ast::PrintAst(*module);
    const std::string golden_path = GoldenPath(page, i);
    if (std::getenv("TILEC_UPDATE_GOLDEN")) {
      fs::create_directories(fs::path(golden_path).parent_path());
      std::ofstream(golden_path, std::ios::binary) << actual;
    }
    ASSERT_TRUE(fs::exists(golden_path)) << "missing " << golden_path;
    EXPECT_EQ(actual, ReadFile(golden_path)) << "AST of " << page_path << " block " << i;
  }
}

TEST(SpecPages, CopiedPagesParseToTheGoldenAst) {
  for (const char* page : kPages)
    CheckPage(fs::path(TILEC_SOURCE_DIR) / "tests/spec_pages" / (std::string(page) + ".rst"), page);
}

fs::path SharedSpecDir() {
  if (const char* env = std::getenv("TILEC_SHARED_SPEC")) return env;
  return fs::path(TILEC_SOURCE_DIR) / ".." / "shared" / "spec";
}

TEST(SpecPages, SharedPagesParseToTheGoldenAst) {
  const fs::path dir = SharedSpecDir();
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no shared spec pages at " << dir;
  for (const char* page : kPages) CheckPage(dir / (std::string(page) + ".rst"), page);
}

TEST(SpecPages, CopiesAreVerbatim) {
  const fs::path dir = SharedSpecDir();
  if (!fs::is_directory(dir)) GTEST_SKIP() << "no shared spec pages at " << dir;
  for (const char* page : kPages) {
    const std::string name = std::string(page) + ".rst";
    EXPECT_EQ(ReadFile(fs::path(TILEC_SOURCE_DIR) / "tests/spec_pages" / name), ReadFile(dir / name))
        << "tests/spec_pages/" << name << " differs from the shared page";
  }
}

TEST(SpecPages, ExtractionFindsIndentedBlocks) {
  const std::string page =
      "Title\n=====\n\n   .. testcode::\n\n       x = 1\n\n       if x:\n           y = 2\n\n"
      "   .. testoutput::\n\n       1\n";
  const auto blocks = ExtractTestcode(page);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].text, "x = 1\n\nif x:\n    y = 2\n");
  EXPECT_EQ(blocks[0].first_line, 6);
  EXPECT_EQ(blocks[0].indent, 7);
}

}  // namespace
}  // namespace tilec
