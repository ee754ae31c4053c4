// DCE: repeatedly drops unused, effect-free ops, innermost regions first, until nothing changes.
#include "ir/passes/dce.h"

#include <unordered_set>

namespace tilec::ir {

namespace {

bool RegionsHaveEffects(const Op& op) {
  bool effects = false;
  for (auto& r : op.regions())
    Walk(r.get(), [&](Op* inner) {
      if (HasSideEffects(inner->code()) && inner->code() != OpCode::Yield && inner->code() != OpCode::Condition)
        effects = true;
    });
  return effects;
}

int Sweep(Block* b, const std::unordered_set<const Value*>& used) {
  int removed = 0;
  auto& ops = b->ops();
  for (size_t i = ops.size(); i-- > 0;) {
    Op* op = ops[i].get();
    for (auto& r : op->regions()) removed += Sweep(r.get(), used);
    if (HasSideEffects(op->code()) || RegionsHaveEffects(*op)) continue;
    bool any_used = false;
    for (auto& r : op->results()) any_used |= used.count(r.get()) > 0;
    if (any_used) continue;
    ops.erase(ops.begin() + i);
    ++removed;
  }
  return removed;
}

}  // namespace

int RunDce(Function& f) {
  int total = 0;
  for (;;) {
    std::unordered_set<const Value*> used;
    Walk(f.body(), [&](Op* op) {
      for (Value* v : op->operands()) used.insert(v);
    });
    int n = Sweep(f.body(), used);
    total += n;
    if (!n) return total;
  }
}

}  // namespace tilec::ir
