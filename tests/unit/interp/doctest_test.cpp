// Doctest pieces: block extraction with page line numbers and dedent, Sphinx-style output
// comparison, the unified diff shown on a mismatch, and whole pages: setup and cleanup
// blocks, `:skipif:`, and every block run and counted whatever failed before it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "host/interp/commands.h"

namespace tilec::host {
namespace {

const char* kPage =
    "Title\n"                         // 1
    "=====\n"                         // 2
    "\n"                              // 3
    "   .. testcode::\n"              // 4
    "\n"                              // 5
    "      x = 1\n"                   // 6
    "      if x:\n"                   // 7
    "          print(x)\n"            // 8
    "\n"                              // 9
    "   .. testoutput::\n"            // 10
    "      :options: +NORMALIZE_WHITESPACE\n"  // 11
    "\n"                              // 12
    "      1\n"                       // 13
    "\n"                              // 14
    "Some text.\n";                   // 15

TEST(DoctestExtract, BlocksWithLinesIndentAndOptions) {
  auto blocks = ExtractDocBlocks(kPage);
  ASSERT_EQ(blocks.size(), 2u);
  EXPECT_EQ(blocks[0].kind, DocBlock::Kind::Code);
  EXPECT_EQ(blocks[0].directive_line, 4);
  EXPECT_EQ(blocks[0].first_line, 6);
  EXPECT_EQ(blocks[0].indent, 6);
  EXPECT_EQ(blocks[0].text, "x = 1\nif x:\n    print(x)\n");
  EXPECT_EQ(blocks[1].kind, DocBlock::Kind::Output);
  EXPECT_EQ(blocks[1].first_line, 13);
  EXPECT_EQ(blocks[1].text, "1\n");
  ASSERT_EQ(blocks[1].options.size(), 1u);
  EXPECT_EQ(blocks[1].options[0], "+NORMALIZE_WHITESPACE");
}

TEST(DoctestExtract, BlankLinesInsideABlockStay) {
  auto blocks = ExtractDocBlocks(".. testcode::\n\n   a = 1\n\n   b = 2\n\nafter\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].text, "a = 1\n\nb = 2\n");
}

TEST(DoctestCompare, TrailingSpaceAndSurroundingBlankLinesIgnored) {
  EXPECT_TRUE(OutputMatches("[1 2]\n", "[1 2]   \n\n", {}));
  EXPECT_FALSE(OutputMatches("[1 2]\n", "[1  2]\n", {}));
  EXPECT_TRUE(OutputMatches("[1 2]\n", "[1  2]\n", {"+NORMALIZE_WHITESPACE"}));
  EXPECT_FALSE(OutputMatches("a\nb\n", "a\n\nb\n", {}));
  EXPECT_TRUE(OutputMatches("a\n<BLANKLINE>\nb\n", "a\n\nb\n", {}));
}

TEST(DoctestCompare, EllipsisAndTracebacks) {
  EXPECT_TRUE(OutputMatches("start ... end\n", "start middle end\n", {}));
  EXPECT_FALSE(OutputMatches("start ... end\n", "start middle\n", {}));
  EXPECT_TRUE(OutputMatches("Traceback (most recent call last):\n  ...\nNameError: name 'x' is not defined\n",
                            "Traceback (most recent call last):\n  File \"p.rst\", line 3, in <module>\n    x\n"
                            "NameError: name 'x' is not defined\n",
                            {}));
  EXPECT_FALSE(OutputMatches("Traceback (most recent call last):\n  ...\nNameError: name 'y' is not defined\n",
                             "Traceback (most recent call last):\n  File \"p.rst\", line 3, in <module>\n    x\n"
                             "NameError: name 'x' is not defined\n",
                             {}));
}

TEST(DoctestDiff, NumbersLinesFromThePage) {
  std::string d = UnifiedDiff("a\nb\nc\n", "a\nB\nc\n", 40, "expected", "actual");
  EXPECT_EQ(d, "--- expected\n+++ actual\n@@ -40,3 +40,3 @@\n a\n-b\n+B\n c\n");
}

TEST(DoctestExtract, SkipifConditionAndItsLine) {
  auto blocks = ExtractDocBlocks(".. testcode::\n   :skipif: wp.get_device() == \"cpu\"\n\n   x = 1\n");
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].skipif, "wp.get_device() == \"cpu\"");
  EXPECT_EQ(blocks[0].skipif_line, 2);
  EXPECT_EQ(blocks[0].text, "x = 1\n");
}

// Writes `text` to a temporary page and runs it.
DocCounts RunPageText(const std::string& text, std::string& report) {
  char path[] = "/tmp/tilec_doctest_page_XXXXXX.rst";
  int fd = mkstemps(path, 4);
  std::ofstream(path) << text;
  close(fd);
  std::ostringstream out;
  DocCounts c = RunDocPage(path, out);
  std::remove(path);
  report = out.str();
  return c;
}

const char* kSphinxPage =
    ".. testcleanup::\n\n   print('cleanup', x)\n\n"                          // runs last
    ".. testcode::\n\n   print(x + 1)\n\n.. testoutput::\n\n   2\n\n"       // needs the setup
    ".. testsetup::\n\n   x = 1\n\n"                                          // runs first
    ".. testcode::\n   :skipif: x == 1\n\n   print('no')\n\n.. testoutput::\n\n   never\n\n"
    ".. testcode::\n\n   print(undefined_name)\n\n"                           // fails
    ".. testcode::\n   :skipif: x == 2\n\n   print(f'{x:03d}')\n\n.. testoutput::\n\n   001\n\n"
    ".. testcode::\n\n   print('unchecked')\n\n.. testoutput::\n   :skipif: True\n\n   other\n";

TEST(DoctestPage, SetupFirstSkipsCountedEveryBlockRun) {
  std::string report;
  DocCounts c = RunPageText(kSphinxPage, report);
  EXPECT_EQ(c.passed, 3) << report;
  EXPECT_EQ(c.failed, 1) << report;
  EXPECT_EQ(c.skipped, 1) << report;
  EXPECT_NE(report.find("NameError: name 'undefined_name' is not defined"), std::string::npos) << report;
  EXPECT_EQ(report.find("cleanup"), std::string::npos) << report;  // cleanup output is not compared
}

TEST(DoctestPage, FailingCleanupAndBadConditionAreFailures) {
  std::string report;
  DocCounts c = RunPageText(
      ".. testcode::\n   :skipif: 1 / 0\n\n   pass\n\n.. testcode::\n\n   pass\n\n"
      ".. testcleanup::\n\n   raise_here()\n",
      report);
  EXPECT_EQ(c.passed, 1) << report;
  EXPECT_EQ(c.failed, 2) << report;
  EXPECT_NE(report.find("the `:skipif:` condition failed"), std::string::npos) << report;
  EXPECT_NE(report.find("ZeroDivisionError: division by zero"), std::string::npos) << report;
  EXPECT_NE(report.find("testcleanup block failed"), std::string::npos) << report;
}

}  // namespace
}  // namespace tilec::host
