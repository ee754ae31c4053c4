// Dead code elimination on Tile IR: removes ops whose results are unused and that have no
// side effects (nor do the ops in their regions).
#pragma once
#include "ir/ir.h"

namespace tilec::ir {

// Returns the number of ops removed.
int RunDce(Function& f);

}  // namespace tilec::ir
