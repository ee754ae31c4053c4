// Diagnostic rendering: location, caret range under the exact token, notes, codes and limits.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "support/diagnostics.h"

using namespace tilec;

TEST(SourceFile, LocatesLinesAndColumns) {
  SourceFile f("a.tile", "x = 1\n  y = 22\r\nz\n");
  EXPECT_EQ(f.Locate(0).line, 1);
  EXPECT_EQ(f.Locate(0).col, 1);
  EXPECT_EQ(f.Locate(8).line, 2);
  EXPECT_EQ(f.Locate(8).col, 3);
  EXPECT_EQ(f.LineText(8), "  y = 22");
  EXPECT_EQ(f.Locate(16).line, 3);
  // A block cut out of a page keeps the page's line numbers.
  SourceFile g("page.rst", "a\nb\n", 40, 4);
  EXPECT_EQ(g.Locate(2).line, 42);
  EXPECT_EQ(g.Locate(2).col, 5);
}

TEST(Diagnostics, RendersCaretUnderRange) {
  SourceFile f("k.tile", "def k():\n    t = tile_load(a, shape=n)\n");
  diag::DiagnosticEngine diags;
  uint32_t begin = uint32_t(f.text().find("n)"));
  diags.Report(diag::Code::SyntaxError, &f, {begin, begin + 1}, "something about `n`")
      .AddNote(&f, {13, 14}, "`t` assigned here");
  std::ostringstream os;
  diags.Render(os);
  EXPECT_EQ(os.str(),
            "k.tile:2:28: error[E0010]: something about `n`\n"
            "        t = tile_load(a, shape=n)\n"
            "                               ^\n"
            "k.tile:2:5: note: `t` assigned here\n"
            "        t = tile_load(a, shape=n)\n"
            "        ^\n");
  EXPECT_EQ(diags.error_count(), 1);
}

TEST(Diagnostics, MultiCharacterRangeGetsTildes) {
  SourceFile f("k.tile", "x = foo + 1\n");
  diag::DiagnosticEngine diags;
  diags.Report(diag::Code::SyntaxError, &f, {4, 7}, "m");
  std::ostringstream os;
  diags.Render(os);
  EXPECT_NE(os.str().find("    x = foo + 1\n        ^~~\n"), std::string::npos) << os.str();
}

TEST(Diagnostics, CodesAreUniqueAndWellFormed) {
  std::set<std::string> ids;
  for (const auto& info : diag::AllCodes()) {
    EXPECT_TRUE(ids.insert(info.id).second) << "duplicate code " << info.id;
    std::string id = info.id;
    ASSERT_EQ(id.size(), 5u) << id;
    EXPECT_TRUE(id[0] == 'E' || id[0] == 'W') << id;
    EXPECT_EQ(id[0] == 'E', info.severity == diag::Severity::Error) << id;
  }
}

TEST(Diagnostics, StopsAfterErrorLimit) {
  SourceFile f("k.tile", "x\n");
  diag::DiagnosticEngine diags;
  diags.set_error_limit(3);
  for (int i = 0; i < 10; ++i) diags.Report(diag::Code::SyntaxError, &f, {0, 1}, "e").AddNote("n");
  EXPECT_EQ(diags.error_count(), 3);
  EXPECT_EQ(diags.diagnostics().size(), 3u);
}
