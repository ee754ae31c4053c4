// Runs every golden file under tests/golden/ (.tile and .tir) as its own test, and checks that
// every registered error code is exercised by some `fail_` test. `--update` (or
// TILEC_UPDATE_GOLDEN=1) rewrites the expectations from the actual output instead of comparing.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "support/diagnostics.h"
#include "tests/golden/golden_file.h"

namespace fs = std::filesystem;
using namespace tilec::golden;

namespace {

bool g_update = false;

// `.tile` files hold Tile source; `.tir` files hold Tile IR (tests/golden/passes/, run with
// `--input=tile-ir`), whose `#` expectation lines the IR parser reads as comments.
std::vector<std::string> GoldenFiles() {
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(TILEC_GOLDEN_DIR))
    if (e.is_regular_file() && (e.path().extension() == ".tile" || e.path().extension() == ".tir"))
      files.push_back(fs::relative(e.path(), TILEC_GOLDEN_DIR).string());
  std::sort(files.begin(), files.end());
  return files;
}

class Golden : public ::testing::TestWithParam<std::string> {};

TEST_P(Golden, Matches) {
  std::string path = std::string(TILEC_GOLDEN_DIR) + "/" + GetParam();
  GoldenFile g;
  std::string error;
  ASSERT_TRUE(g.Load(path, error)) << error;
  RunResult r = RunTilec(TILEC_BINARY, g.run_args);
  ASSERT_LT(r.exit_code, 3) << "tilec crashed or failed internally (exit " << r.exit_code
                            << ")\nstderr:\n" << r.err;
  std::vector<ActualDiag> actual = ParseDiagnostics(r.err);
  if (g_update) {
    ASSERT_TRUE(Update(g, r, actual, error)) << error;
    return;
  }
  std::vector<std::string> problems = Compare(g, r, actual);
  std::string all;
  for (const auto& p : problems) all += "  " + p + "\n";
  EXPECT_TRUE(problems.empty()) << path << ":\n" << all << "stderr was:\n" << r.err;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.find_last_of('.'));  // drop the extension
  for (char& c : n)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Files, Golden, ::testing::ValuesIn(GoldenFiles()), TestName);

// Every registered error code must be expected by at least one `fail_` test, so that no
// diagnostic exists that nobody has seen.
TEST(DiagnosticCoverage, EveryErrorCodeHasAFailTest) {
  std::set<std::string> seen;
  const std::regex code_re(R"(#\s*(?:ERROR|WARNING)@[+-]?\d+(?::\d+)?:\s*([EW]\d{4}):)");
  for (const std::string& rel : GoldenFiles()) {
    std::string path = std::string(TILEC_GOLDEN_DIR) + "/" + rel;
    if (!IsFailTest(path) && rel.find("warn") == std::string::npos) continue;
    std::ifstream in(path);
    std::string line;
    std::smatch m;
    while (std::getline(in, line))
      if (std::regex_search(line, m, code_re)) seen.insert(m[1].str());
  }
  std::string missing;
  for (const auto& info : tilec::diag::AllCodes())
    if (info.severity == tilec::diag::Severity::Error && !seen.count(info.id))
      missing += std::string(" ") + info.id + " (" + info.name + ")";
  EXPECT_TRUE(missing.empty()) << "error codes without a `fail_` golden test:" << missing;
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--update") == 0) g_update = true;
  if (const char* env = std::getenv("TILEC_UPDATE_GOLDEN"); env && *env && *env != '0')
    g_update = true;
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
