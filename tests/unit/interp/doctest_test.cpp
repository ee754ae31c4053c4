// Doctest pieces: block extraction with page line numbers and dedent, Sphinx-style output
// comparison, and the unified diff shown on a mismatch.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace tilec::host
