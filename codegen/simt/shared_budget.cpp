// Checks each kernel's shared-memory plan against the architecture's per-block limit and
// describes an excess by the slots live together at the plan's peak, largest first.
#include "codegen/simt/shared_budget.h"

#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "codegen/simt/plan.h"
#include "ir/types.h"
#include "support/source.h"

namespace tilec::codegen {

uint32_t SharedMemoryLimit(const std::string& arch) {
  // CUDA's "maximum shared memory per block (opt-in)" per compute capability.
  if (arch == "sm_75") return 64 * 1024;
  if (arch == "sm_80") return 163 * 1024;
  if (arch == "sm_86" || arch == "sm_89") return 99 * 1024;
  return 227 * 1024;  // sm_90
}

namespace {

std::string Describe(const ir::Module& m, const ir::Value* v, bool is_copy, uint32_t bytes) {
  std::ostringstream os;
  const ir::Op* def = v ? v->def() : nullptr;
  std::string where;
  if (def && def->loc().file) {
    const SourceFile& f = *def->loc().file;
    std::string text = f.text().substr(def->loc().range.begin, def->loc().range.end - def->loc().range.begin);
    if (text.size() > 48) text = text.substr(0, 45) + "...";
    where = " at line " + std::to_string(f.Locate(def->loc().range.begin).line) + " (`" + text + "`)";
  }
  if (!v) {
    os << "a broadcast or staging slot, " << bytes << " bytes";
  } else {
    os << (is_copy ? "the shared copy of the tile" : "the shared tile") << where << ", "
       << ir::TypeName(v->type(), m.structs()) << ", " << bytes << " bytes";
  }
  return os.str();
}

}  // namespace

std::vector<SharedBudgetExcess> CheckSharedBudget(const ir::Module& m, const std::string& arch, int block_dim) {
  std::vector<SharedBudgetExcess> out;
  const uint32_t limit = SharedMemoryLimit(arch);
  for (auto& f : m.functions()) {
    const simt::MmaSupport mma = simt::NvptxMmaSupport(arch.size() > 3 ? std::atoi(arch.c_str() + 3) : 0);
    simt::Plan plan = simt::Plan::Build(m, *f, f->tiled ? block_dim : 1, mma);
    if (plan.shared_bytes() <= limit) continue;
    // The peak: the program point where the live slots hold the most bytes.
    int best = -1;
    uint64_t best_bytes = 0;
    for (int s = 0; s < plan.num_slots(); ++s) {
      int at = plan.slot(s).first;
      uint64_t sum = 0;
      for (int t = 0; t < plan.num_slots(); ++t)
        if (plan.slot(t).first <= at && at <= plan.slot(t).last) sum += plan.slot(t).bytes;
      if (sum > best_bytes) best_bytes = sum, best = at;
    }
    std::vector<int> live;
    for (int t = 0; t < plan.num_slots(); ++t)
      if (plan.slot(t).first <= best && best <= plan.slot(t).last) live.push_back(t);
    std::sort(live.begin(), live.end(), [&](int a, int b) { return plan.slot(a).bytes > plan.slot(b).bytes; });
    SharedBudgetExcess e;
    e.kernel = f.get();
    e.needed = plan.shared_bytes();
    e.limit = limit;
    std::ostringstream os;
    if (f->adjoint_of.empty()) os << "kernel `" << f->name() << "`";
    else os << "the adjoint of kernel `" << f->adjoint_of << "`";
    os << " needs " << e.needed << " bytes of shared memory per block on " << arch;
    if (f->tiled) os << " with block_dim " << block_dim;
    os << ", " << (e.needed - limit) << " more than the " << limit << " a block can have; live together at its peak:";
    for (size_t k = 0; k < live.size() && k < 4; ++k) {
      bool is_copy = false;
      const ir::Value* v = plan.SlotValue(live[k], is_copy);
      os << (k ? "; " : " ") << Describe(m, v, is_copy, plan.slot(live[k]).bytes);
    }
    if (live.size() > 4) os << "; and " << live.size() - 4 << " more";
    os << ". Use smaller tiles, register storage, or fewer tiles live at once";
    e.message = os.str();
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace tilec::codegen
