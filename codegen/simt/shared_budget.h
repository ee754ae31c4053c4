// The shared-memory budget of the GPU lowering: a kernel whose static allocation plan (at its
// block_dim) does not fit what one block may have on the target architecture is reported
// before any code is generated, naming the tiles live at the plan's peak.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "ir/ir.h"

namespace tilec::codegen {

struct SharedBudgetExcess {
  const ir::Function* kernel = nullptr;
  uint32_t needed = 0, limit = 0;
  std::string message;  // the whole diagnostic text
};

// The most shared memory one block may use on `arch` (sm_75 ... sm_90), with the opt-in
// attribute the runtime sets for more than 48 KiB.
uint32_t SharedMemoryLimit(const std::string& arch);

// Every kernel of `m` (adjoints included) whose plan exceeds the limit; tiled kernels are
// planned with `block_dim` lanes.
std::vector<SharedBudgetExcess> CheckSharedBudget(const ir::Module& m, const std::string& arch, int block_dim);

}  // namespace tilec::codegen
