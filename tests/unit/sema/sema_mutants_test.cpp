// Mutants of the valid typed-AST golden files and examples through parse + sema: the checker
// must not crash or hang, and every rejected mutant must carry a located error diagnostic.
#include <gtest/gtest.h>

#include <chrono>

#include "tests/unit/parse/mutants.h"
#include "tests/unit/sema/sema_test_util.h"

namespace tilec::sema {
namespace {

TEST(SemaMutants, NoCrashNoHangEveryRejectionLocated) {
  std::vector<tilec::testing::SeedSource> seeds =
      tilec::testing::LoadSeedSources(std::string(TILEC_SOURCE_DIR) + "/tests/golden/typed_ast");
  for (auto& s : tilec::testing::LoadSeedSources(std::string(TILEC_SOURCE_DIR) + "/examples")) seeds.push_back(s);
  ASSERT_GE(seeds.size(), 10u);
  std::vector<tilec::testing::Mutant> mutants = tilec::testing::GenerateMutants(seeds, 1500);
  int rejected_by_sema = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& m : mutants) {
    auto t0 = std::chrono::steady_clock::now();
    auto c = testing::ParseAndCheck(m.text, {}, m.name);
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    ASSERT_LT(secs, 2.0) << "slow mutant " << m.name;
    if (c->parse_errors == 0 && c->diags.has_errors()) ++rejected_by_sema;
    for (const diag::Diagnostic& d : c->diags.diagnostics()) {
      if (d.severity != diag::Severity::Error) continue;
      ASSERT_NE(d.file, nullptr) << m.name << ": " << d.message;
      ASSERT_LE(d.range.begin, m.text.size()) << m.name << ": " << d.message;
      ASSERT_LE(d.range.begin, d.range.end) << m.name << ": " << d.message;
      ASSERT_FALSE(d.message.empty()) << m.name;
    }
    if (c->diags.has_errors()) {
      ASSERT_FALSE(c->diags.diagnostics().empty()) << m.name;
    }
    // Whatever was accepted must be fully typed: every checked expression has a type.
    if (!c->diags.has_errors()) {
      for (const auto& [e, info] : c->checked->expr_info) ASSERT_NE(info.type, nullptr) << m.name;
    }
  }
  double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(total, 60.0);
  // The mutants exercise the checker, not only the parser.
  EXPECT_GT(rejected_by_sema, 20);
}

}  // namespace
}  // namespace tilec::sema
