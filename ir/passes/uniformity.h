// Uniformity analysis on Tile IR: marks every value uniform (the same on every lane of a
// block) or lane-varying (Value::lane_varying), so that the code generators can keep uniform
// values as scalars and give lane-varying ones a value per lane.
#pragma once
#include "ir/ir.h"

namespace tilec::ir {

// Recomputes the marks of every value of `f` from scratch. A value is lane-varying when its op
// has the kLaneVarying trait, when an operand is, or when it leaves control flow (a result or
// region argument of if/for/while) whose condition, bounds or carried values are.
void AnalyzeUniformity(Function& f);
void AnalyzeUniformity(Module& m);

}  // namespace tilec::ir
