// Chunks of a large function, outlined at its articulation blocks: the blocks on the chain of
// immediate post-dominators from the entry, which every path passes through. A chunk is the
// run of blocks between two such cuts, so it has one entry and one exit, as CodeExtractor needs.
#include "codegen/common/split_function.h"

#include <algorithm>
#include <functional>

#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Utils/CodeExtractor.h>

namespace tilec::codegen {

size_t InstructionCount(const llvm::Function& f) {
  size_t n = 0;
  for (const llvm::BasicBlock& bb : f) n += bb.size();
  return n;
}

namespace {

// Scalar locals and small local arrays (a lane's slots of a tile) become SSA values, so that
// what crosses a cut travels as arguments, not through escaped stack slots.
void PromoteLocals(llvm::Function& f) {
  llvm::PassBuilder pb;
  llvm::FunctionAnalysisManager fam;
  pb.registerFunctionAnalyses(fam);
  llvm::FunctionPassManager fpm;
  fpm.addPass(llvm::SROAPass(llvm::SROAOptions::PreserveCFG));
  fpm.run(f, fam);
}

// The region of the cut [from, to): blocks dominated by `from` and not by `to`, provided that
// it is single-entry, single-exit (its only successor outside is `to`); empty otherwise.
std::vector<llvm::BasicBlock*> Region(llvm::Function& f, llvm::DominatorTree& dt, llvm::BasicBlock* from,
                                      llvm::BasicBlock* to) {
  std::vector<llvm::BasicBlock*> region;
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> in;
  for (llvm::BasicBlock& bb : f)
    if (dt.dominates(from, &bb) && !dt.dominates(to, &bb)) {
      region.push_back(&bb);
      in.insert(&bb);
    }
  for (llvm::BasicBlock* bb : region) {
    for (llvm::BasicBlock* s : llvm::successors(bb))
      if (!in.contains(s) && s != to) return {};
    if (bb != from)
      for (llvm::BasicBlock* p : llvm::predecessors(bb))
        if (!in.contains(p)) return {};
  }
  return region;
}

// Whether the address of `a` is used only inside `in`: its own uses and those of every value
// computed from it (a GEP, a phi or select choosing it, a cast), and it is never stored. A
// chunk's stack frame ends with its call, so a slot whose address leaves the chunk (a matmul
// factor's phi of its stack copy and the array, read by a later chunk) must not move into it.
bool AddressStaysIn(llvm::AllocaInst* a, const llvm::SmallPtrSetImpl<llvm::BasicBlock*>& in) {
  llvm::SmallVector<llvm::Instruction*, 8> work{a};
  llvm::SmallPtrSet<llvm::Instruction*, 16> seen{a};
  while (!work.empty()) {
    llvm::Instruction* v = work.pop_back_val();
    for (llvm::User* u : v->users()) {
      auto* ui = llvm::dyn_cast<llvm::Instruction>(u);
      if (!ui || !in.contains(ui->getParent())) return false;
      if (auto* st = llvm::dyn_cast<llvm::StoreInst>(ui); st && st->getValueOperand() == v) return false;
      // A load reads the slot's contents and a compare gives a flag: neither carries the address.
      if (!ui->getType()->isVoidTy() && !llvm::isa<llvm::LoadInst, llvm::CmpInst>(ui) && seen.insert(ui).second)
        work.push_back(ui);
    }
  }
  return true;
}

// CodeExtractor moves into the new function only the stack slots that carry lifetime markers;
// ours carry none. A slot of `f`'s entry whose address is used only inside `region` moves to
// the region's first block (`head`) before extraction, and to the new function's entry after
// (HoistAllocas), so that each chunk holds its own tiles instead of receiving them as
// arguments. Returns the slots moved, which go back where extraction fails.
std::vector<llvm::AllocaInst*> SinkAllocas(llvm::Function& f, const std::vector<llvm::BasicBlock*>& region,
                                           llvm::BasicBlock* head) {
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> in(region.begin(), region.end());
  std::vector<llvm::AllocaInst*> sink;
  for (llvm::Instruction& i : f.getEntryBlock())
    if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && !a->use_empty() && AddressStaysIn(a, in))
      sink.push_back(a);
  for (llvm::AllocaInst* a : sink) a->moveBefore(&*head->getFirstInsertionPt());
  return sink;
}

// The inliner would undo the split (one call site of an internal function is its best case);
// barriers inside make the call convergent.
void MarkOutlined(llvm::Function& g) {
  g.addFnAttr(llvm::Attribute::NoInline);
  g.addFnAttr(llvm::Attribute::NoUnwind);
  g.addFnAttr(llvm::Attribute::Convergent);
  g.setLinkage(llvm::GlobalValue::InternalLinkage);
}

// Static slots of `g` that are outside its entry block go to its entry.
void HoistAllocas(llvm::Function& g) {
  llvm::BasicBlock& entry = g.getEntryBlock();
  std::vector<llvm::AllocaInst*> moved;
  for (llvm::BasicBlock& bb : g)
    if (&bb != &entry)
      for (llvm::Instruction& i : bb)
        if (auto* a = llvm::dyn_cast<llvm::AllocaInst>(&i); a && llvm::isa<llvm::ConstantInt>(a->getArraySize()))
          moved.push_back(a);
  for (llvm::AllocaInst* a : moved) a->moveBefore(&*entry.getFirstInsertionPt());
}

// Tile buffers beyond the stack budget are constant offsets into one heap block, computed in the
// kernel's entry. Passed as they are, each would be an argument of the block program (1,500 of
// them in a kernel of 5,000 ops) and of the chunks that use it. An address at a constant offset
// from a value outside `region` is computed again at `head` instead, so that only its base
// crosses the cut. Returns the copies, bases first.
std::vector<llvm::Instruction*> RematerializeAddresses(const std::vector<llvm::BasicBlock*>& region,
                                                       llvm::BasicBlock* head) {
  llvm::SmallPtrSet<llvm::BasicBlock*, 32> in(region.begin(), region.end());
  auto outside = [&](llvm::Value* v) {
    auto* i = llvm::dyn_cast<llvm::Instruction>(v);
    return i && !in.contains(i->getParent());
  };
  llvm::DenseMap<llvm::GetElementPtrInst*, llvm::GetElementPtrInst*> copies;
  std::vector<llvm::Instruction*> made;
  std::vector<llvm::Use*> uses;
  for (llvm::BasicBlock* bb : region)
    for (llvm::Instruction& i : *bb)
      for (llvm::Use& u : i.operands())
        if (auto* g = llvm::dyn_cast<llvm::GetElementPtrInst>(u.get());
            g && outside(g) && g->hasAllConstantIndices())
          uses.push_back(&u);
  llvm::Instruction* at = &*head->getFirstInsertionPt();
  // A copy's base may itself be such an address (a chain of offsets): copied the same way.
  std::function<llvm::Value*(llvm::GetElementPtrInst*)> copy = [&](llvm::GetElementPtrInst* g) -> llvm::Value* {
    if (auto it = copies.find(g); it != copies.end()) return it->second;
    llvm::Value* base = g->getPointerOperand();
    if (auto* b = llvm::dyn_cast<llvm::GetElementPtrInst>(base); b && outside(b) && b->hasAllConstantIndices())
      base = copy(b);
    auto* clone = llvm::cast<llvm::GetElementPtrInst>(g->clone());
    clone->setName(g->getName());
    clone->setOperand(0, base);
    clone->insertBefore(at);
    made.push_back(clone);
    return copies[g] = clone;
  };
  for (llvm::Use* u : uses) u->set(copy(llvm::cast<llvm::GetElementPtrInst>(u->get())));
  return made;
}

// Outlines the single-entry, single-exit `region` headed by `head` (its slots with it), or
// returns null and leaves `f` as it was.
llvm::Function* Extract(llvm::Function& f, llvm::DominatorTree& dt, const std::vector<llvm::BasicBlock*>& region,
                        llvm::BasicBlock* head, const char* suffix) {
  llvm::CodeExtractor ce(region, &dt, /*AggregateArgs=*/false, nullptr, nullptr, nullptr, /*AllowVarArgs=*/false,
                         /*AllowAlloca=*/true, nullptr, suffix);
  if (!ce.isEligible()) return nullptr;
  std::vector<llvm::Instruction*> addresses = RematerializeAddresses(region, head);
  std::vector<llvm::AllocaInst*> sunk = SinkAllocas(f, region, head);
  llvm::CodeExtractorAnalysisCache cache(f);
  llvm::Function* g = ce.extractCodeRegion(cache);
  if (!g) {
    // The copies stay: they compute what the addresses they replaced did.
    for (llvm::AllocaInst* a : sunk) a->moveBefore(&*f.getEntryBlock().getFirstInsertionPt());
    return nullptr;
  }
  MarkOutlined(*g);
  HoistAllocas(*g);
  // In `g`'s entry, which no chunk of `g` takes, the copies stay outside every chunk, to be
  // copied again into those that use them (at a chunk's head, the blocks left in `g` after
  // its last chunk would receive them back from that chunk).
  for (llvm::Instruction* a : addresses) a->moveBefore(g->getEntryBlock().getTerminator());
  return g;
}

}  // namespace

std::vector<llvm::Function*> SplitLargeFunction(llvm::Function& f, size_t chunk) {
  std::vector<llvm::Function*> chunks;
  if (f.isDeclaration() || InstructionCount(f) < 2 * chunk) return chunks;
  PromoteLocals(f);
  // The chain of cuts, in program order, with the instructions each owns up to the next.
  llvm::PostDominatorTree pdt(f);
  llvm::DominatorTree dt(f);
  std::vector<llvm::BasicBlock*> cuts;
  for (llvm::DomTreeNode* n = pdt.getNode(&f.getEntryBlock()); n && n->getBlock(); n = n->getIDom())
    cuts.push_back(n->getBlock());
  llvm::DenseMap<llvm::BasicBlock*, size_t> cut_index;
  for (size_t i = 0; i < cuts.size(); ++i) cut_index[cuts[i]] = i;
  std::vector<size_t> owned(cuts.size(), 0);
  for (llvm::DomTreeNode* n : llvm::depth_first(dt.getRootNode())) {
    llvm::DomTreeNode* d = n;
    while (d && !cut_index.count(d->getBlock())) d = d->getIDom();
    if (d) owned[cut_index[d->getBlock()]] += n->getBlock()->size();
  }
  // Greedy chunks from the cut after the entry (the entry keeps the allocas); each [from, to)
  // pair is only taken where it forms a single-entry, single-exit region.
  std::vector<std::pair<llvm::BasicBlock*, llvm::BasicBlock*>> spans;
  size_t from = 1, size = 0;
  for (size_t to = 1; to < cuts.size(); ++to) {
    if (to > from && size >= chunk) {
      spans.push_back({cuts[from], cuts[to]});
      from = to;
      size = 0;
    }
    size += owned[to];
  }
  // Outlined last to first, so that the blocks of the spans not yet taken stay in `f`. A span's
  // end, the head of the next one, has moved into that chunk where it was outlined: the block
  // of its call stands in for it. (Cut at the moved head instead, a region ran to the function's
  // end, and each chunk called the next with every value the later ones use as arguments.)
  llvm::BasicBlock* next_call = nullptr;
  for (auto it = spans.rbegin(); it != spans.rend(); ++it) {
    llvm::BasicBlock* to = next_call ? next_call : it->second;
    next_call = nullptr;
    llvm::DominatorTree cur(f);
    std::vector<llvm::BasicBlock*> region = Region(f, cur, it->first, to);
    if (region.empty()) continue;
    if (llvm::Function* g = Extract(f, cur, region, it->first, "chunk")) {
      chunks.push_back(g);
      next_call = llvm::cast<llvm::CallInst>(g->user_back())->getParent();
    }
  }
  std::reverse(chunks.begin(), chunks.end());
  return chunks;
}

llvm::Function* OutlineLoopBody(llvm::Function& f, llvm::BasicBlock* body, llvm::BasicBlock* latch, size_t chunk) {
  if (InstructionCount(f) < 2 * chunk) return nullptr;
  PromoteLocals(f);
  llvm::DominatorTree dt(f);
  std::vector<llvm::BasicBlock*> blocks;
  size_t size = 0;
  for (llvm::BasicBlock& bb : f)
    if (&bb != latch && dt.dominates(body, &bb)) {
      blocks.push_back(&bb);
      size += bb.size();
    }
  if (size < 2 * chunk) return nullptr;
  llvm::Function* g = Extract(f, dt, blocks, body, "program");
  if (g) SplitLargeFunction(*g, chunk);
  return g;
}

}  // namespace tilec::codegen
