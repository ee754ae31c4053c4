// Driver of the autodiff pass: builds each adjoint kernel (replay, then the reverse sweep),
// removes what the sweep did not need, and checks that what it does need can be replayed
// faithfully; otherwise the kernel is rejected rather than given a wrong gradient.
#include "ir/autodiff/autodiff.h"

#include <set>

#include "ir/autodiff/internal.h"
#include "ir/op_cases.h"
#include "ir/passes/canonicalize.h"
#include "ir/passes/dce.h"
#include "ir/passes/uniformity.h"

namespace tilec::autodiff {

using ir::OpCode;

std::string AdjointName(std::string_view kernel) { return std::string(kernel) + "$adjoint"; }

namespace detail {

void Generator::Run() {
  ir::Block* body = fwd_.body();
  for (int i = 0; i < body->num_args(); ++i) {
    const ir::Value* p = body->arg(i);
    primal_[p] = adj_fn_.AddParam(p->name(), p->type(), fwd_.params()[i].loc);
  }
  b_.SetInsertionPoint(adj_fn_.body());
  ReplayBlock(*body);
  ReverseBlock(*body);
  b_.set_loc(fwd_.loc());
  b_.Return();
}

}  // namespace detail

namespace {

bool IsWrite(OpCode c) {
  return c == OpCode::ArrayStore || c == OpCode::AtomicAdd || c == OpCode::AtomicRmw || c == OpCode::TileStore || c == OpCode::TileAtomicAdd ||
         c == OpCode::TileStoreIndexed || c == OpCode::TileAtomicAddIndexed;
}

bool IsLoad(OpCode c) { return c == OpCode::ArrayLoad || c == OpCode::TileLoad || c == OpCode::TileLoadIndexed; }

int LineOf(const ir::Loc& loc) { return loc.file ? loc.file->Locate(loc.range.begin).line : 0; }

std::string OpWord(const ir::Op& op) {
  switch (op.code()) {
    case OpCode::ArrayLoad: return "element read";
    case OpCode::ArrayStore: return "element store";
    case OpCode::AtomicAdd: return "`atomic_add`";
    case OpCode::AtomicRmw: return "`atomic_" + std::string(ir::AtomicKindName(op.rmw())) + "`";
    case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView: TILEC_CASES(Constant) TILEC_CASES(Tid)
    TILEC_CASES(Elementwise) TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic)
    TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      return "`" + std::string(op.name()) + "`";
  }
  return "`" + std::string(op.name()) + "`";
}

}  // namespace

ir::Function* BuildAdjoint(ir::Module& m, const ir::Function& fwd, diag::DiagnosticEngine& diags) {
  if (!fwd.enable_backward || !fwd.adjoint_of.empty()) return nullptr;
  detail::Activity act = detail::AnalyzeActivity(m, fwd);

  // W0500: previous values of an atomic add that reach a differentiated result.
  ir::Walk(fwd.body(), [&](ir::Op* op) {
    OpCode c = op->code();
    if ((c == OpCode::AtomicAdd || c == OpCode::AtomicRmw || c == OpCode::TileAtomicAdd ||
         c == OpCode::TileAtomicAddIndexed) &&
        act.useful.count(op->result()))
      diags.Report(diag::Code::AtomicResultNotDifferentiated, op->loc().file, op->loc().range,
                   "the previous values returned by " + OpWord(*op) +
                       " reach a differentiated result, but their gradient is not propagated");
  });

  ir::Function* adj = m.AddFunction(AdjointName(fwd.name()), fwd.loc());
  adj->tiled = fwd.tiled;
  adj->block_dim = fwd.block_dim;
  adj->hybrid_launch = fwd.hybrid_launch;
  adj->adjoint_of = fwd.name();
  detail::Generator gen(m, fwd, *adj, act);
  gen.Run();
  // The checks below need what the adjoint really uses, before constants are merged (a zero
  // standing for an atomic's result must not be confused with another zero).
  ir::RunDce(*adj);

  int errors_before = diags.error_count();
  for (auto& [op, why] : gen.unsupported())
    diags.Report(diag::Code::AdjointUnsupported, op->loc().file, op->loc().range, why);

  // Where forward values are written to arrays; the replay reads arrays after the forward
  // kernel ran.
  std::unordered_map<const ir::Value*, const ir::Op*> writes;
  ir::Walk(fwd.body(), [&](ir::Op* op) {
    if (IsWrite(op->code()) && !writes.count(op->operand(0))) writes[op->operand(0)] = op;
  });
  std::set<std::pair<int64_t, int64_t>> reported;
  std::unordered_set<const ir::Value*> substitutes;
  for (auto& [v, op] : gen.substitutes()) substitutes.insert(v);
  ir::Walk(adj->body(), [&](ir::Op* op) {
    // E0500: a load the adjoint replays from an array the kernel writes.
    if (IsLoad(op->code()) && op->operand(0)->is_block_arg() && op->operand(0)->owner_block() == adj->body() &&
        !gen.final_reads().count(op)) {
      const ir::Value* fparam = fwd.body()->arg(op->operand(0)->index());
      auto w = writes.find(fparam);
      if (w != writes.end() && reported.insert({op->loc().range.begin, 0}).second) {
        const std::string& name = fparam->name();
        diags
            .Report(diag::Code::AdjointNeedsOverwrittenLoad, op->loc().file, op->loc().range,
                    "the gradient needs the value this " + OpWord(*op) + " reads from `" + name +
                        "`, but the kernel also writes `" + name + "` (line " + std::to_string(LineOf(w->second->loc())) +
                        "), so the adjoint cannot read it again; load from an array the kernel does not write")
            .AddNote(w->second->loc().file, w->second->loc().range, "`" + name + "` is written here");
      }
    }
    // E0501: the adjoint needs previous values returned by an atomic add.
    for (const ir::Value* v : op->operands()) {
      if (!substitutes.count(v)) continue;
      const ir::Op* atomic = gen.substitutes().at(v);
      if (reported.insert({atomic->loc().range.begin, 1}).second)
        diags.Report(diag::Code::AdjointNeedsAtomicResult, atomic->loc().file, atomic->loc().range,
                     "the gradient needs the previous values returned by " + OpWord(*atomic) +
                         ", which the adjoint cannot recompute without repeating the addition; "
                         "use values that do not come from the atomic add");
    }
  });

  ir::RunCanonicalize(m, *adj);
  ir::RunDce(*adj);
  ir::AnalyzeUniformity(*adj);
  if (diags.error_count() > errors_before) {
    auto& fns = m.functions();
    for (size_t i = 0; i < fns.size(); ++i)
      if (fns[i].get() == adj) {
        fns.erase(fns.begin() + i);
        break;
      }
    return nullptr;
  }
  return adj;
}

bool BuildAdjoints(ir::Module& m, diag::DiagnosticEngine& diags) {
  bool ok = true;
  size_t n = m.functions().size();
  std::vector<const ir::Function*> kernels;
  for (size_t i = 0; i < n; ++i) kernels.push_back(m.functions()[i].get());
  for (const ir::Function* f : kernels) {
    if (!f->enable_backward || !f->adjoint_of.empty()) continue;
    int before = diags.error_count();
    BuildAdjoint(m, *f, diags);
    if (diags.error_count() > before) ok = false;
  }
  return ok;
}

}  // namespace tilec::autodiff
