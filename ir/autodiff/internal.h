// Internals of the autodiff pass shared by its files: activity analysis, the generator that
// builds the adjoint kernel (replay, adjoint bookkeeping) and the rule entry points.
#pragma once
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/builder.h"
#include "ir/ir.h"
#include "support/diagnostics.h"

namespace tilec::autodiff::detail {

// Types that carry a derivative: float scalars and tiles, and structs (or tiles of structs)
// with at least one float field.
bool IsDiffType(const ir::Module& m, const ir::Type& t);
bool IsDiffElem(const ir::Module& m, const ir::ElemType& e);
// The type of an adjoint: the value's type, tiles always in registers.
ir::Type AdjType(const ir::Type& t);

// varied: depends on float data loaded from an array; useful: reaches a value stored or added
// into an array. Active values get adjoints.
struct Activity {
  std::unordered_set<const ir::Value*> varied;
  std::unordered_set<const ir::Value*> useful;
  bool Active(const ir::Value* v) const { return varied.count(v) && useful.count(v); }
};
Activity AnalyzeActivity(const ir::Module& m, const ir::Function& f);

// Which rule of the reverse sweep handles an op; ReverseOp dispatches on it.
enum class RuleFamily : uint8_t { None, Elementwise, Memory, Other, Map, If, For, While, TileShape };
RuleFamily RuleOf(ir::OpCode c);
// The elementwise rule table has an entry for `c` (rules.cpp).
bool HasElementwiseRule(ir::OpCode c);

class Generator {
 public:
  Generator(ir::Module& m, const ir::Function& fwd, ir::Function& adj, const Activity& act);
  void Run();
  // Replay substitutes (zeros standing for atomic results) and the atomic op each stands for.
  const std::unordered_map<const ir::Value*, const ir::Op*>& substitutes() const { return substitutes_; }
  // Ops whose adjoint is not supported, for E0502, with the reason.
  const std::vector<std::pair<const ir::Op*, std::string>>& unsupported() const { return unsupported_; }
  // Loads the reverse rules make on purpose of what the forward kernel left in an array it
  // writes (atomic_min/max compare with the final element, as Warp's adjoint does): not E0500.
  const std::unordered_set<const ir::Op*>& final_reads() const { return final_reads_; }

  // ---- replay (replay.cpp) ----
  // Clones the replayable ops of `src` (everything but stores, atomics and print; atomic
  // results become zeros) at the insertion point, mapping forward values to primal ones.
  void ReplayBlock(const ir::Block& src);
  ir::Op* CloneOp(const ir::Op& op);
  ir::Value* P(const ir::Value* v) const;

  // ---- adjoint bookkeeping (replay.cpp) ----
  ir::Value* Adj(const ir::Value* v) const;
  ir::Value* AdjOrZero(const ir::Value* v);
  // Adds `contrib` into v's adjoint (summing a tile contribution for a scalar v); no-op for
  // inactive values.
  void Accum(const ir::Value* v, ir::Value* contrib);
  // The forward op whose rule runs (Accum masks what a tile op gives its scalar operands).
  const ir::Op* reversing_ = nullptr;
  // A tile operation that reads scalar operands as lane 0's values (not the per-lane bridge).
  static bool CooperativeReadsScalars(const ir::Op& op);
  static bool InsideMap(const ir::Value* v);
  ir::Value* Zero(const ir::Type& t);
  ir::Value* AddValues(ir::Value* a, ir::Value* b);
  // Sum of tile `t` along `axis` (-1: every element); struct elements field by field.
  ir::Value* SumAlong(ir::Value* t, int axis);
  ir::Value* Grad(const ir::Value* array);  // the array_grad view of a parameter
  ir::Value* HasGrad(ir::Value* grad);      // bool: the view is not empty
  ir::Value* ConstLike(const ir::Value* like, double v);  // scalar of like's element type
  ir::Value* InElem(const ir::Value* like, float f32, double f64);  // f64 for float64, else f32
  ir::Value* InverseLog(const ir::Value* like, double base);  // 1/log(base), rounded as InElem
  bool Active(const ir::Value* v) const { return act_.Active(v); }

  // ---- the reverse sweep (reverse.cpp, rules.cpp, memory_rules.cpp, control_flow.cpp) ----
  void ReverseBlock(const ir::Block& b);
  void ReverseOp(const ir::Op& op);
  void ElementwiseRule(const ir::Op& op);
  void OtherRule(const ir::Op& op);  // select, struct fields, tile construction/map/sum/element access
  void SortRule(const ir::Op& op);
  // tile_lower_solve / tile_upper_solve and tile_cholesky, with the result's adjoint d
  // (linalg_rules.cpp).
  void TriSolveRule(const ir::Op& op, ir::Value* d);
  void CholeskyRule(const ir::Op& op, ir::Value* d);
  void FftRule(const ir::Op& op);
  // The primal values of op's operands from `first` on (the offsets of tile_view/tile_assign).
  std::vector<ir::Value*> Offsets(const ir::Op& op, int first);
  void MapRule(const ir::Op& op);
  void TileShapeRule(const ir::Op& op);  // reductions, scans, broadcast, reshape, permute
  void MemoryRule(const ir::Op& op);
  void IfRule(const ir::Op& op);
  void ForRule(const ir::Op& op);
  void WhileRule(const ir::Op& op);
  // Active values defined outside `regions` of op and used inside them, in first-use order.
  std::vector<const ir::Value*> OuterActiveUses(const ir::Op& op) const;
  // Per-operand partial adjoints of a scalar elementwise op (null where none).
  std::vector<ir::Value*> ScalarPartials(ir::OpCode code, const std::vector<ir::Value*>& x, ir::Value* r,
                                         ir::Value* d);
  // Inside the reversed regions of a lane-varying `if`: the adjoint and primal indices of
  // each tile_extract of the region, which IfRule scatters into the tile's adjoint after the
  // region, where every lane is (a scatter is cooperative). Null elsewhere.
  struct DeferredRead {
    ir::Value* d = nullptr;
    std::vector<ir::Value*> idx;
  };
  std::unordered_map<const ir::Op*, DeferredRead>* deferred_reads_ = nullptr;
  void Unsupported(const ir::Op& op, std::string why) { unsupported_.push_back({&op, std::move(why)}); }

  ir::Module& m() { return m_; }
  ir::Builder& b() { return b_; }

 private:
  ir::Module& m_;
  const ir::Function& fwd_;
  ir::Function& adj_fn_;
  const Activity& act_;
  ir::Builder b_;
  std::unordered_map<const ir::Value*, ir::Value*> primal_;
  std::unordered_map<const ir::Value*, ir::Value*> adj_;
  std::unordered_map<const ir::Value*, ir::Value*> grads_;
  std::unordered_map<const ir::Value*, const ir::Op*> substitutes_;
  std::vector<std::pair<const ir::Op*, std::string>> unsupported_;
  std::unordered_set<const ir::Op*> final_reads_;

 public:
  // Scoped save/restore of the adjoint map around a region.
  std::unordered_map<const ir::Value*, ir::Value*>& adj_map() { return adj_; }
  std::unordered_map<const ir::Value*, ir::Value*>& primal_map() { return primal_; }
};

}  // namespace tilec::autodiff::detail
