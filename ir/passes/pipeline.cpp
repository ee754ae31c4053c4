// The pass registry and the loop that runs a pass list, verifying (and optionally printing)
// after each pass.
#include "ir/passes/pipeline.h"

#include <ostream>

#include "ir/passes/canonicalize.h"
#include "ir/passes/dce.h"
#include "ir/passes/uniformity.h"
#include "ir/printer.h"
#include "ir/verifier.h"

namespace tilec::ir {

namespace {
int Dce(Module&, Function& f) { return RunDce(f); }
}  // namespace

const std::vector<PassInfo>& RegisteredPasses() {
  static const std::vector<PassInfo> passes = {
      {"canonicalize", &RunCanonicalize},
      {"dce", &Dce},
  };
  return passes;
}

const PassInfo* FindPass(std::string_view name) {
  for (const PassInfo& p : RegisteredPasses())
    if (name == p.name) return &p;
  return nullptr;
}

PassList DefaultPassList() {
  PassList list;
  for (const PassInfo& p : RegisteredPasses()) list.passes.push_back(&p);
  list.max_rounds = 4;
  return list;
}

std::optional<PassList> ParsePassList(std::string_view spec, std::string& error) {
  if (spec == "default") return DefaultPassList();
  PassList list;
  if (spec == "none") return list;
  size_t start = 0;
  while (start <= spec.size()) {
    size_t comma = spec.find(',', start);
    if (comma == std::string_view::npos) comma = spec.size();
    std::string_view name = spec.substr(start, comma - start);
    const PassInfo* p = FindPass(name);
    if (!p) {
      error = "unknown pass `" + std::string(name) + "` (expected";
      for (const PassInfo& q : RegisteredPasses()) error += std::string(" ") + q.name + ",";
      error += " default or none)";
      return std::nullopt;
    }
    list.passes.push_back(p);
    start = comma + 1;
  }
  return list;
}

std::vector<std::string> RunPassList(Module& m, const PassList& list, const PassOptions& opts) {
  for (auto& f : m.functions()) {
    // The verifier after each pass checks cooperative ops against these marks; the analysis
    // runs again at the end, since passes add and remove values.
    AnalyzeUniformity(*f);
    for (int round = 0; round < list.max_rounds; ++round) {
      int changes = 0;
      for (const PassInfo* p : list.passes) {
        changes += p->run(m, *f);
        if (opts.print_after_each) {
          *opts.print_after_each << "# IR after " << p->name << " on @" << f->name();
          if (list.max_rounds > 1) *opts.print_after_each << " (round " << round + 1 << ")";
          *opts.print_after_each << "\n";
          PrintFunction(*opts.print_after_each, m, *f);
        }
        if (opts.verify_each) {
          std::vector<std::string> errors = VerifyFunction(m, *f);
          if (!errors.empty()) {
            errors.insert(errors.begin(), std::string("after ") + p->name + ":");
            return errors;
          }
        }
      }
      if (!changes) break;
    }
    AnalyzeUniformity(*f);
  }
  return {};
}

std::vector<std::string> RunDefaultPasses(Module& m, bool verify_each) {
  PassOptions opts;
  opts.verify_each = verify_each;
  return RunPassList(m, DefaultPassList(), opts);
}

}  // namespace tilec::ir
