// The Tile IR pass list between lowering and code generation: which passes run, in what order,
// how often, and what happens between two of them (the verifier, and on request a dump of the
// IR for `--print-after-all`).
#pragma once
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/ir.h"

namespace tilec::ir {

#ifdef NDEBUG
inline constexpr bool kVerifyEachDefault = false;
#else
inline constexpr bool kVerifyEachDefault = true;
#endif

// One pass over one function; returns the number of rewrites it made (0: nothing changed).
struct PassInfo {
  const char* name;  // as `--passes=` spells it
  int (*run)(Module& m, Function& f);
};

// Every pass `--passes=` may name, in the default list's order.
const std::vector<PassInfo>& RegisteredPasses();
const PassInfo* FindPass(std::string_view name);

struct PassList {
  std::vector<const PassInfo*> passes;
  // The list runs again on a function while some pass changed it, at most this many times.
  int max_rounds = 1;
};

// Canonicalize then DCE, repeated until stable (at most 4 rounds).
PassList DefaultPassList();

// `--passes=` values: "default", "none", or names joined by commas ("canonicalize,dce"; each
// runs once, in that order). Returns nullopt with `error` set for an unknown name.
std::optional<PassList> ParsePassList(std::string_view spec, std::string& error);

struct PassOptions {
  // The verifier after every pass; a pass that breaks the IR is reported by name.
  bool verify_each = true;
  // Where to print each function after every pass, headed by the pass's name; null: nowhere.
  std::ostream* print_after_each = nullptr;
};

// Runs `list` on every function of `m`. Returns verifier messages (empty on success); a
// non-empty result means a pass broke the IR.
std::vector<std::string> RunPassList(Module& m, const PassList& list, const PassOptions& opts = {});

// The default list with the verifier on in debug builds only (the pre-pipeline entry point).
std::vector<std::string> RunDefaultPasses(Module& m, bool verify_each = kVerifyEachDefault);

}  // namespace tilec::ir
