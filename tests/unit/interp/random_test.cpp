// np.random against NumPy 1.24: each program draws 10,000 values from default_rng (PCG64) or
// the legacy MT19937 functions for seeds 0, 1, 42 and 2**32-1, and must print exactly what
// NumPy printed (random_cases.inc: first 20 lines verbatim, line count and FNV-1a hash).
#include <gtest/gtest.h>

#include <cstdint>

#include "interp_test_util.h"

namespace tilec::host::test {
namespace {

struct SeedExpectation {
  uint32_t seed;
  int lines;
  uint64_t hash;
  const char* head;
};

struct RandomCase {
  const char* name;
  const char* code;  // SEED stands for the seed
  SeedExpectation seeds[4];
};

#include "random_cases.inc"

uint64_t Fnv1a(const std::string& s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : s) h = (h ^ c) * 0x100000001b3ull;
  return h;
}

std::string Head(const std::string& s, int lines) {
  size_t pos = 0;
  for (int k = 0; k < lines && pos != std::string::npos; ++k) {
    pos = s.find('\n', pos);
    if (pos != std::string::npos) ++pos;
  }
  return pos == std::string::npos ? s : s.substr(0, pos);
}

std::string WithSeed(std::string code, uint32_t seed) {
  for (size_t p; (p = code.find("SEED")) != std::string::npos;) code.replace(p, 4, std::to_string(seed));
  return code;
}

class NpRandomStream : public ::testing::TestWithParam<RandomCase> {};

TEST_P(NpRandomStream, SameTextAsNumPyForEachSeed) {
  const RandomCase& c = GetParam();
  for (const SeedExpectation& e : c.seeds) {
    std::string out = RunProgram("import numpy as np\n" + WithSeed(c.code, e.seed));
    SCOPED_TRACE("seed " + std::to_string(e.seed));
    ASSERT_EQ(Head(out, 20), e.head);
    EXPECT_EQ(int(std::count(out.begin(), out.end(), '\n')), e.lines);
    EXPECT_EQ(Fnv1a(out), e.hash) << out.substr(0, 2000);
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, NpRandomStream, ::testing::ValuesIn(kRandomCases),
                         [](const auto& info) { return std::string(info.param.name); });

// Generators are independent objects; reseeding the legacy state restarts its stream,
// including the cached second value of the polar method.
TEST(NpRandom, GeneratorsAreIndependentAndSeedsRestart) {
  std::string out = RunProgram(
      "import numpy as np\n"
      "a = np.random.default_rng(7)\nb = np.random.default_rng(7)\n"
      "x = a.random(3)\ny = b.random(3)\nprint(np.array_equal(x, y), a.random() == b.random())\n"
      "np.random.seed(3)\nu = np.random.randn()\nnp.random.seed(3)\nprint(u == np.random.randn())\n"
      "np.random.seed(3)\nnp.random.randn()\nnp.random.seed(3)\nprint(u == np.random.randn())\n"
      "print(np.random.default_rng(np.random.default_rng(1)) is not None, str(np.random.default_rng(1)))\n");
  EXPECT_EQ(out, "True True\nTrue\nTrue\nTrue Generator(PCG64)\n");
}

TEST(NpRandom, ImportForms) {
  std::string out = RunProgram(
      "from numpy.random import default_rng\nimport numpy as np\nimport numpy.random as npr\nimport numpy.random\n"
      "print(default_rng(0).random() == np.random.default_rng(0).random() == npr.default_rng(0).random(),\n"
      "      numpy.random.default_rng(0).random() == npr.default_rng(0).random())\n");
  EXPECT_EQ(out, "True True\n");
}

}  // namespace
}  // namespace tilec::host::test
