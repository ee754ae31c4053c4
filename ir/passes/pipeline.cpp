// Default pipeline: canonicalize, DCE, repeated until stable (bounded), verifying after each.
#include "ir/passes/pipeline.h"

#include "ir/passes/canonicalize.h"
#include "ir/passes/dce.h"
#include "ir/verifier.h"

namespace tilec::ir {

std::vector<std::string> RunDefaultPasses(Module& m, bool verify_each) {
  for (auto& f : m.functions()) {
    for (int round = 0; round < 4; ++round) {
      int changes = RunCanonicalize(m, *f);
      if (verify_each) {
        auto errors = VerifyFunction(m, *f);
        if (!errors.empty()) {
          errors.insert(errors.begin(), "after canonicalize:");
          return errors;
        }
      }
      changes += RunDce(*f);
      if (verify_each) {
        auto errors = VerifyFunction(m, *f);
        if (!errors.empty()) {
          errors.insert(errors.begin(), "after dce:");
          return errors;
        }
      }
      if (!changes) break;
    }
  }
  return {};
}

}  // namespace tilec::ir
