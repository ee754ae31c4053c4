// Reverse-mode automatic differentiation on Tile IR: for each kernel with enable_backward, a
// separate adjoint kernel that replays the forward values it needs (loads, never stores or
// atomics) and then sweeps backwards, accumulating into the arrays' gradient buffers.
#pragma once
#include <string>
#include <string_view>

#include "ir/ir.h"
#include "support/diagnostics.h"

namespace tilec::autodiff {

// The name of the adjoint kernel of `kernel` (`$` keeps it apart from every source name).
std::string AdjointName(std::string_view kernel);

// Builds the adjoint of `fwd` and appends it to `m` (Function::adjoint_of names `fwd`).
// Reports E05xx errors and W05xx warnings into `diags`; returns null where the kernel is
// rejected (no adjoint is added then) or where fwd.enable_backward is false.
// The adjoint kernel takes the forward parameters; an array's gradient is read through
// `array_grad` (the grad pointer of its tilec_array), so the runtime's adjoint slots
// (signature.h) are not read: scalar parameters get no gradient, as in Warp's Tape.
ir::Function* BuildAdjoint(ir::Module& m, const ir::Function& fwd, diag::DiagnosticEngine& diags);

// Builds the adjoints of every kernel of `m` with enable_backward (kernels that are already
// adjoints are skipped). Returns false when any kernel was rejected.
bool BuildAdjoints(ir::Module& m, diag::DiagnosticEngine& diags);

}  // namespace tilec::autodiff
