// Robustness: thousands of deterministic mutants of the valid golden sources go through the
// parser in-process. None may crash or hang; every rejected mutant must carry a diagnostic
// located inside the file, and every accepted one an AST whose ranges lie inside the file.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "frontend/ast/ast_printer.h"
#include "frontend/parse/parse.h"
#include "tests/unit/parse/ast_walk.h"
#include "tests/unit/parse/mutants.h"

namespace tilec {
namespace {

using Clock = std::chrono::steady_clock;

// Aborts the whole test binary, naming the mutant, when one parse runs far too long.
class Watchdog {
 public:
  explicit Watchdog(std::chrono::seconds limit) : limit_(limit), thread_([this] { Run(); }) {}
  ~Watchdog() {
    stop_ = true;
    thread_.join();
  }
  void Begin(const std::string* name) {
    name_.store(name);
    start_.store(Clock::now().time_since_epoch().count());
  }
  void End() { name_.store(nullptr); }

 private:
  void Run() {
    while (!stop_) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const std::string* name = name_.load();
      if (!name) continue;
      const auto started = Clock::time_point(Clock::duration(start_.load()));
      if (Clock::now() - started > limit_) {
        std::fprintf(stderr, "parse of mutant %s did not finish within %lld s\n", name->c_str(),
                     static_cast<long long>(limit_.count()));
        std::abort();
      }
    }
  }
  std::chrono::seconds limit_;
  std::atomic<bool> stop_{false};
  std::atomic<const std::string*> name_{nullptr};
  std::atomic<Clock::rep> start_{0};
  std::thread thread_;
};

TEST(ParseMutation, MutantsNeverCrashHangOrLoseLocations) {
  const auto seeds = testing::LoadSeedSources(TILEC_SOURCE_DIR "/tests/golden/parse");
  ASSERT_GE(seeds.size(), 10u) << "expected the valid golden parse tests as seeds";
  const auto mutants = testing::GenerateMutants(seeds, 2400);
  ASSERT_EQ(mutants.size(), 2400u);

  Watchdog watchdog(std::chrono::seconds(20));
  int rejected = 0, accepted = 0;
  auto slowest = Clock::duration::zero();
  for (const auto& m : mutants) {
    SourceFile file("mutant.tile", m.text);
    diag::DiagnosticEngine diags;
    watchdog.Begin(&m.name);
    const auto t0 = Clock::now();
    auto module = parse::ParseFile(file, diags);
    const std::string printed = ast::PrintAst(*module);
    diag::DiagnosticEngine token_diags;
    parse::DumpTokens(file, token_diags);
    slowest = std::max(slowest, Clock::now() - t0);
    watchdog.End();

    const uint32_t size = uint32_t(m.text.size());
    ASSERT_NE(module, nullptr) << m.name;
    EXPECT_EQ(printed.rfind("Module\n", 0), 0u) << m.name;
    if (diags.has_errors()) {
      ++rejected;
      ASSERT_FALSE(diags.diagnostics().empty()) << m.name;
      for (const auto& d : diags.diagnostics()) {
        EXPECT_EQ(d.file, &file) << m.name << ": " << d.message;
        EXPECT_LE(d.range.begin, d.range.end) << m.name << ": " << d.message;
        EXPECT_LE(d.range.end, size) << m.name << ": " << d.message;
        EXPECT_FALSE(d.message.empty()) << m.name;
        const LineCol lc = d.Where();
        EXPECT_GE(lc.line, 1) << m.name;
        EXPECT_GE(lc.col, 1) << m.name;
      }
      // The tokenizer sees the same lexical problems as the parser.
      EXPECT_LE(token_diags.error_count(), diags.error_count()) << m.name;
    } else {
      ++accepted;
      EXPECT_EQ(token_diags.error_count(), 0) << m.name;
    }
    testing::WalkBody(module->body, [&](SourceRange r, const char* what) {
      EXPECT_LE(r.begin, r.end) << m.name << ": " << what;
      EXPECT_LE(r.end, size) << m.name << ": " << what;
    });
    if (::testing::Test::HasFailure()) {
      ADD_FAILURE() << "first failing mutant: " << m.name;
      return;
    }
  }
  // Both outcomes must be common, or the mutations test nothing.
  EXPECT_GT(rejected, 500);
  EXPECT_GT(accepted, 100);
  EXPECT_LT(std::chrono::duration<double>(slowest).count(), 5.0);
  std::printf("mutants: %d rejected, %d accepted, slowest %.3f s\n", rejected, accepted,
              std::chrono::duration<double>(slowest).count());
}

TEST(ParseMutation, GenerationIsDeterministic) {
  std::vector<testing::SeedSource> seeds = {{"a", "def f(x):\n    return x + 1\n"},
                                            {"b", "x = [1, 2, 3]\n"}};
  const auto a = testing::GenerateMutants(seeds, 50, 7);
  const auto b = testing::GenerateMutants(seeds, 50, 7);
  const auto c = testing::GenerateMutants(seeds, 50, 8);
  ASSERT_EQ(a.size(), 50u);
  bool differs = false;
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].name, b[i].name);
    EXPECT_EQ(a[i].text, b[i].text);
    differs |= a[i].text != c[i].text;
  }
  EXPECT_TRUE(differs);
}

}  // namespace
}  // namespace tilec
