// The compiler-side half of GPU recording: what a record needs from a kernel's Tile IR (a
// runtime signature for hand-built modules, which have no checked source; the replay's
// comparison flags) and the sm_90 PTX filled into a signature.
#pragma once
#include <functional>
#include <map>
#include <set>
#include <string>

#include "codegen/codegen.h"
#include "codegen/nvptx/nvptx.h"
#include "ir/ir.h"
#include "ir/op_cases.h"
#include "tests/gpu_replay/record_format.h"
#include "tilec/signature.h"

namespace tilec::gpu_record {

inline rt::ElemType RtElem(const ir::ElemType& e) { return rt::ElemType{e.scalar, e.struct_index}; }

// The runtime signature of a module built with ir::Builder (as compiler::SignatureOf gives for
// checked source): parameters from the IR types, adjoints found by `adjoint_of`.
inline rt::ModuleSignature SignatureFromIr(const ir::Module& m) {
  rt::ModuleSignature sig;
  for (const ir::StructDef& s : m.structs()) {
    rt::StructLayout l;
    l.name = s.name;
    l.size = s.size;
    l.align = s.align;
    for (const ir::StructField& f : s.fields) l.fields.push_back({f.name, RtElem(f.type), f.offset});
    sig.structs.push_back(std::move(l));
  }
  for (const auto& f : m.functions()) {
    if (!f->adjoint_of.empty()) continue;
    rt::KernelSignature k;
    k.name = f->name();
    k.tiled = f->tiled;
    k.entry_symbol = codegen::EntrySymbol(k.name);
    for (int i = 0; i < f->body()->num_args() && i < int(f->params().size()); ++i) {
      const ir::Type& t = f->body()->arg(i)->type();
      rt::ParamInfo p;
      p.name = f->params()[size_t(i)].name;
      p.type = RtElem(t.elem);
      p.kind = t.is_array() ? rt::ParamKind::Array : t.is_struct() ? rt::ParamKind::Struct : rt::ParamKind::Scalar;
      p.ndim = t.is_array() ? t.ndim : 0;
      k.params.push_back(std::move(p));
    }
    for (const auto& g : m.functions())
      if (g->adjoint_of == k.name) {
        k.has_adjoint = true;
        k.adjoint_symbol = codegen::EntrySymbol(g->name());
      }
    sig.kernels.push_back(std::move(k));
  }
  return sig;
}

// The PTX module (every kernel's .entry in one text) and each entry's block_dim and dynamic
// shared bytes, as the compiler's Stage::Ptx fills them.
inline void FillPtx(rt::ModuleSignature& sig, const ir::Module& m, const codegen::PtxModule& ptx, int block_dim) {
  for (rt::KernelSignature& k : sig.kernels) {
    k.ptx = ptx.ptx;
    k.block_dim = k.tiled ? block_dim : 0;
    std::string adjoint;
    for (const auto& g : m.functions())
      if (g->adjoint_of == k.name) adjoint = g->name();
    for (const codegen::SimtKernelInfo& info : ptx.kernels) {
      if (info.name == k.name) k.shared_bytes = info.shared_bytes;
      if (!adjoint.empty() && info.name == adjoint) k.adjoint_shared_bytes = info.shared_bytes;
    }
  }
}

namespace detail {

inline bool IsAtomic(ir::OpCode c) {
  return c == ir::OpCode::AtomicAdd || c == ir::OpCode::AtomicRmw || c == ir::OpCode::TileAtomicAdd ||
         c == ir::OpCode::TileAtomicAddIndexed;
}
inline bool IsWrite(ir::OpCode c) {
  return IsAtomic(c) || c == ir::OpCode::ArrayStore || c == ir::OpCode::TileStore ||
         c == ir::OpCode::TileStoreIndexed;
}

}  // namespace detail

// Summation order: on the GPU atomic adds land in any order and tile reductions combine in a
// lane-tree order, so float results are compared within a tolerance. Atomics' returned values
// depend on the order itself: whatever they reach (through data or through control flow) is
// checked for shape only.
inline KernelFlags FlagsOf(const ir::Function& f) {
  KernelFlags flags;
  std::set<std::string> why;
  std::set<const ir::Value*> tainted;
  std::set<int> shape_only;
  auto param_of = [&](const ir::Value* v) {
    for (int i = 0; i < f.body()->num_args(); ++i)
      if (f.body()->arg(i) == v) return i;
    return -1;
  };
  ir::Walk(f.body(), [&](ir::Op* op) {
    if (detail::IsAtomic(op->code())) {
      why.insert("atomic add");
      for (const auto& r : op->results()) tainted.insert(r.get());
      // Which exchange (or compare-and-swap) lands last is the order itself.
      if (op->code() == ir::OpCode::AtomicRmw &&
          (op->rmw() == ir::AtomicKind::Exch || op->rmw() == ir::AtomicKind::Cas)) {
        int p = param_of(op->operand(0));
        if (p >= 0) shape_only.insert(p);
      }
    }
    const bool reduce = op->code() == ir::OpCode::TileSum || op->code() == ir::OpCode::TileReduce ||
                        op->code() == ir::OpCode::TileScan;
    if (reduce && op->num_operands() > 0 && IsFloat(op->operand(0)->type().elem.scalar) &&
        !op->operand(0)->type().elem.is_struct()) {
      bool order_free = op->code() != ir::OpCode::TileSum &&
                        (op->kind() == ir::ReduceKind::Min || op->kind() == ir::ReduceKind::Max);
      if (!order_free) why.insert("float reduction");
    }
    // Tensor cores sum each 16-wide step of k in their own order (docs/semantics.md).
    if (op->code() == ir::OpCode::TileMatmul && !op->operand(0)->type().elem.is_struct() &&
        (op->operand(0)->type().elem.scalar == ScalarType::Float16 ||
         op->operand(0)->type().elem.scalar == ScalarType::BFloat16))
      why.insert("tensor-core matmul");
    // The GPU's transcendental functions are libdevice's, the CPU's the host's: both within an
    // ulp or two, not bit-identical (LANGUAGE.md promises bit-identity for element order only).
    const ir::OpCode c = op->code();
#define TILEC_REPLAY_MATH(name) || c == ir::OpCode::name
    if (c == ir::OpCode::Exp || c == ir::OpCode::Log || c == ir::OpCode::Sin || c == ir::OpCode::Cos ||
        c == ir::OpCode::Pow TILEC_OPS_FloatMath(TILEC_REPLAY_MATH))
      why.insert("math library");
#undef TILEC_REPLAY_MATH
  });
  // Taint to a fixed point: loops carry values back to their block arguments.
  for (size_t before = size_t(-1); before != tainted.size() + shape_only.size();) {
    before = tainted.size() + shape_only.size();
    std::function<void(ir::Block*, bool)> walk = [&](ir::Block* b, bool ctl) {
      for (auto& op : b->ops()) {
        bool in = false;
        for (ir::Value* v : op->operands())
          if (tainted.count(v) && !v->type().is_array()) in = true;
        if (detail::IsWrite(op->code()) && (in || ctl) && op->num_operands() > 0) {
          int p = param_of(op->operand(0));
          if (p >= 0) shape_only.insert(p);
        }
        if (in || (ctl && !op->regions().empty()))
          for (const auto& r : op->results()) tainted.insert(r.get());
        if ((op->code() == ir::OpCode::Yield || op->code() == ir::OpCode::Condition) && in) {
          if (ir::Op* parent = b->parent_op()) {
            for (const auto& r : parent->results()) tainted.insert(r.get());
            for (const auto& region : parent->regions())
              for (const auto& a : region->args()) tainted.insert(a.get());
          }
        }
        for (const auto& region : op->regions()) {
          if (in)
            for (const auto& a : region->args()) tainted.insert(a.get());
          walk(region.get(), ctl || in);
        }
      }
    };
    walk(f.body(), false);
  }
  flags.tolerant = !why.empty();
  for (const std::string& w : why) flags.why += (flags.why.empty() ? "" : ", ") + w;
  flags.shape_only.assign(shape_only.begin(), shape_only.end());
  return flags;
}

inline std::map<std::string, KernelFlags> FlagsOf(const ir::Module& m) {
  std::map<std::string, KernelFlags> out;
  for (const auto& f : m.functions())
    if (f->adjoint_of.empty()) out[f->name()] = FlagsOf(*f);
  return out;
}

}  // namespace tilec::gpu_record
