// Builds the SIMT plan: shared placement, live intervals with first-fit reuse, and a barrier
// analysis over the structured IR (loops iterate to a fixed point; the whole body sits in the
// grid loop). A barrier goes where an access would race with one since the last barrier, and
// never inside lane-varying control flow (some lanes would not reach it): such a region's
// accesses count as those of the op that holds it.
#include "codegen/simt/plan.h"
#include "ir/op_cases.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <sstream>

namespace tilec::codegen::simt {

using ir::OpCode;

uint32_t Plan::ElemBytes(const ir::ElemType& e) const {
  if (e.is_struct()) return module_->structs()[size_t(e.struct_index)].size;
  return uint32_t(ScalarSize(e.scalar));
}

uint32_t Plan::Lane0Bytes(const ir::Value* v) const {
  const ir::Type& t = v->type();
  return t.is_array() ? uint32_t(8 * (1 + 2 * t.ndim)) : ElemBytes(t.elem);
}

bool MmaEligible(const ir::Op& op, int block_dim) {
  if (op.code() != OpCode::TileMatmul || block_dim < 32 || block_dim % 32 != 0) return false;
  const ir::Type& a = op.operand(0)->type();
  const ir::Type& b = op.operand(1)->type();
  const ir::Type& c = op.operand(2)->type();
  if (a.elem.is_struct() || b.elem.is_struct() || c.elem.is_struct()) return false;
  const ScalarType in = a.elem.scalar, cs = c.elem.scalar;
  // precision="tf32": float32 throughout, m16n8k8 tf32 instructions.
  if (op.tf32())
    return in == ScalarType::Float32 && b.elem.scalar == in && cs == in && a.shape[0] % 16 == 0 &&
           a.shape[1] % 8 == 0 && b.shape[1] % 8 == 0;
  if (b.elem.scalar != in || (in != ScalarType::Float16 && in != ScalarType::BFloat16)) return false;
  if (cs != ScalarType::Float16 && cs != ScalarType::Float32) return false;
  return a.shape[0] % 16 == 0 && a.shape[1] % 16 == 0 && b.shape[1] % 8 == 0;
}

uint32_t Plan::MmaExchangeOffset(const ir::Op& op) {
  const uint64_t bytes = uint64_t(op.result()->type().NumElements()) * 4;
  return uint32_t((bytes + 15) & ~uint64_t(15));
}

uint32_t Plan::StagingIndexOffset(const ir::Op& op) const {
  return (ElemBytes(op.operand(0)->type().elem) * uint32_t(block_dim_) + 7u) & ~7u;
}

namespace {

// Who touches memory: Owner = lane L mod B touches element L of one layout (key), so two
// owner accesses with the same key never race; Lane0 = lane 0 only; All = every lane the
// same location; Any = lanes touch locations owned by other lanes; Lane = scalar code, each
// lane its own element access (two lanes' on one address are the program's race, as on a GPU,
// and one lane's accesses are in program order, so they never need a barrier between them).
enum class Pattern : uint8_t { Owner, Lane0, All, Any, Lane };

struct Access {
  const void* region = nullptr;  // null: shared memory; otherwise the array value
  uint32_t lo = 0, hi = 0;       // shared byte range [lo, hi)
  bool write = false;
  bool atomic = false;
  Pattern pat = Pattern::Any;
  int64_t key = 0;
  bool operator==(const Access&) const = default;
};

bool Conflicts(const Access& p, const Access& a) {
  if (p.region != a.region) return false;
  if (!p.region && (p.hi <= a.lo || a.hi <= p.lo)) return false;
  if (!p.write && !a.write) return false;
  if (p.atomic && a.atomic) return false;
  if (p.pat == Pattern::Lane0 && a.pat == Pattern::Lane0) return false;
  if (p.pat == Pattern::Lane && a.pat == Pattern::Lane) return false;
  if (p.pat == Pattern::Owner && a.pat == Pattern::Owner && p.key == a.key) return false;
  return true;
}

using State = std::vector<Access>;

void AddTo(State& s, const Access& a) {
  if (std::find(s.begin(), s.end(), a) == s.end()) s.push_back(a);
}
State Union(State a, const State& b) {
  for (const Access& x : b) AddTo(a, x);
  return a;
}
bool SameSet(const State& a, const State& b) {
  if (a.size() != b.size()) return false;
  for (const Access& x : a)
    if (std::find(b.begin(), b.end(), x) == b.end()) return false;
  return true;
}

// Operand `i` of `op` is read by lanes other than its elements' owners (ops.def traits), so a
// register tile there needs a shared copy.
bool ReadsAcrossLanes(const ir::Op& op, int i) {
  return ir::HasTrait(op.code(), ir::kCrossLane) || (i == 1 && ir::HasTrait(op.code(), ir::kCrossLaneIndices));
}

bool IsLoop(OpCode c) { return c == OpCode::For || c == OpCode::While; }
bool IsControl(OpCode c) { return c == OpCode::If || IsLoop(c); }

// Whether some lanes may run the op's regions and others not (the verifier's rule).
bool LaneVaryingControl(const ir::Op& op) {
  switch (op.code()) {
    case OpCode::If: return op.operand(0)->lane_varying();
    case OpCode::For:
      return op.operand(0)->lane_varying() || op.operand(1)->lane_varying() || op.operand(2)->lane_varying();
    case OpCode::While: {
      const ir::Op* cond = op.region(0)->terminator();
      return cond && cond->num_operands() && cond->operand(0)->lane_varying();
    }
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
    TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape)
    TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
      return false;
  }
  return false;
}

// The ops the lanes of a block perform together (the verifier's rule): those that make, read
// or write a tile. Control flow and terminators carry tiles but compute nothing from scalars.
bool Cooperative(const ir::Op& op) {
  if (IsControl(op.code()) || ir::IsTerminator(op.code()) || ir::FamilyOf(op.code()) == ir::OpFamily::Print) return false;
  if (op.code() == OpCode::TileExtract) return false;  // a lane's own read of a shared copy
  for (const ir::Value* v : op.operands())
    if (v->type().is_tile()) return true;
  for (auto& r : op.results())
    if (r->type().is_tile()) return true;
  return ir::FamilyOf(op.code()) == ir::OpFamily::TileMemory;
}

// The lane-varying non-tile values a cooperative op reads with lane 0's value: its operands
// but the per-lane ones, and what a tile_map's body takes from outside it.
std::vector<const ir::Value*> Lane0Values(const ir::Op& op) {
  std::vector<const ir::Value*> out;
  if (!Cooperative(op)) return out;
  auto add = [&](const ir::Value* v) {
    if (!v->type().is_tile() && v->lane_varying() && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  };
  const bool per_lane = op.code() == OpCode::TileExtract || op.code() == OpCode::TileScatterLanes;
  for (int i = 0; i < (per_lane ? 1 : op.num_operands()); ++i) add(op.operand(i));
  if (op.code() == OpCode::TileMap) {
    std::unordered_set<const ir::Value*> inside;
    ir::Walk(const_cast<ir::Block*>(op.region(0)), [&](ir::Op* o) {
      for (auto& r : o->results()) inside.insert(r.get());
      for (auto& reg : o->regions())
        for (auto& a : reg->args()) inside.insert(a.get());
    });
    for (auto& a : op.region(0)->args()) inside.insert(a.get());
    ir::Walk(const_cast<ir::Block*>(op.region(0)), [&](ir::Op* o) {
      for (const ir::Value* v : o->operands())
        if (!inside.count(v)) add(v);
    });
  }
  return out;
}

}  // namespace

class PlanBuilder {
 public:
  PlanBuilder(Plan& p, const ir::Function& f) : p_(p), f_(f) {}

  void Build() {
    Number(f_.body(), false);
    for (auto& [op, in_map] : in_map_)
      for (const ir::Value* v : op->operands()) p_.used_.insert(v);
    Place();
    Allocate();
    if (p_.block_dim_ > 1) {
      // The grid loop: block programs follow each other on the same lanes.
      RunLoopBody([&](const State& in, bool rec) { return Run(f_.body(), in, rec); }, State{}, true);
    }
  }

 private:
  // ---------------------------------------------------------------- numbering and uses
  void Number(const ir::Block* b, bool in_map) {
    for (auto& op : b->ops()) {
      int i = counter_++;
      idx_[op.get()] = i;
      in_map_.emplace_back(op.get(), in_map);
      for (auto& r : op->regions()) Number(r.get(), in_map || op->code() == OpCode::TileMap);
      end_[op.get()] = counter_ - 1;
    }
  }

  int DefPos(const ir::Value* v) const {
    if (v->def()) return idx_.at(v->def());
    const ir::Op* parent = v->owner_block() ? v->owner_block()->parent_op() : nullptr;
    return parent ? idx_.at(parent) : 0;
  }

  // Position of a use, extended to the end of every loop around the use that does not
  // contain the definition (the value must survive all iterations).
  int UsePos(const ir::Op* user, int def_pos) const {
    int pos = idx_.at(user);
    for (const ir::Block* b = user->parent_block(); b && b->parent_op(); b = b->parent_op()->parent_block()) {
      const ir::Op* anc = b->parent_op();
      if (IsLoop(anc->code()) && (def_pos < idx_.at(anc) || def_pos > end_.at(anc))) pos = std::max(pos, end_.at(anc));
    }
    return pos;
  }

  int NewSlot(uint32_t bytes, int first, int last) {
    SharedSlot s;
    s.bytes = (bytes + 15u) & ~15u;
    s.first = first;
    s.last = last;
    p_.slots_.push_back(s);
    return int(p_.slots_.size()) - 1;
  }

  uint32_t TileBytes(const ir::Type& t) const { return p_.ElemBytes(t.elem) * uint32_t(t.NumElements()); }

  void Place() {
    std::unordered_map<const ir::Value*, std::vector<const ir::Op*>> uses;
    std::unordered_set<const ir::Value*> cross;
    for (auto& [op, in_map] : in_map_) {
      for (int i = 0; i < op->num_operands(); ++i) {
        const ir::Value* v = op->operand(i);
        uses[v].push_back(op);
        if (in_map || !v->type().is_tile()) continue;
        if (ReadsAcrossLanes(*op, i)) cross.insert(v);
      }
    }
    auto interval = [&](const ir::Value* v, int& first, int& last) {
      first = DefPos(v);
      last = first;
      for (const ir::Op* u : uses[v]) last = std::max(last, UsePos(u, first));
    };
    for (auto& [op, in_map] : in_map_) {
      if (in_map) continue;
      if (!IsControl(op->code()))
        for (auto& r : op->results())
          if (r->type().is_tile() && r->type().storage == ir::Storage::Shared) {
            int first, last;
            interval(r.get(), first, last);
            p_.primary_[r.get()] = NewSlot(TileBytes(r->type()), first, last);
          }
      if (op->code() == OpCode::TileScatterLanes) {
        uint32_t bytes = p_.StagingIndexOffset(*op) + 8u * uint32_t(p_.block_dim_);
        p_.staging_[op] = NewSlot(bytes, idx_.at(op), idx_.at(op));
      }
      if (p_.mma_support_ != MmaSupport::None && MmaEligible(*op, p_.block_dim_)) {
        uint32_t bytes = Plan::MmaExchangeOffset(*op);
        if (p_.mma_support_ == MmaSupport::Emulated) bytes += 24u * uint32_t(p_.block_dim_);
        p_.mma_[op] = NewSlot(bytes, idx_.at(op), idx_.at(op));
      }
      if (p_.block_dim_ > 1) {
        Plan::Lane0Reads l0;
        l0.values = Lane0Values(*op);
        uint32_t bytes = 0;
        for (const ir::Value* v : l0.values) {
          l0.offsets.push_back(bytes);
          bytes += (p_.Lane0Bytes(v) + 15u) & ~15u;
        }
        if (!l0.values.empty()) {
          l0.slot = NewSlot(bytes, idx_.at(op), idx_.at(op));
          p_.lane0_[op] = std::move(l0);
        }
      }
    }
    for (const ir::Value* v : cross) {
      if (p_.primary_.count(v)) continue;
      int first, last;
      interval(v, first, last);
      p_.copy_[v] = NewSlot(TileBytes(v->type()), first, last);
    }
  }

  // First fit in order of first use: a slot may take the bytes of any slot whose interval
  // does not overlap its own.
  void Allocate() {
    std::vector<int> order(p_.slots_.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = int(i);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
      const SharedSlot &x = p_.slots_[size_t(a)], &y = p_.slots_[size_t(b)];
      return x.first != y.first ? x.first < y.first : x.bytes > y.bytes;
    });
    std::vector<int> placed;
    uint32_t total = 0;
    for (int i : order) {
      SharedSlot& s = p_.slots_[size_t(i)];
      uint32_t off = 0;
      for (bool moved = true; moved;) {
        moved = false;
        for (int j : placed) {
          const SharedSlot& o = p_.slots_[size_t(j)];
          bool live_together = !(o.last < s.first || s.last < o.first);
          bool mem_overlap = off < o.offset + o.bytes && o.offset < off + s.bytes;
          if (live_together && mem_overlap) {
            off = o.offset + o.bytes;
            moved = true;
          }
        }
      }
      s.offset = off;
      placed.push_back(i);
      total = std::max(total, off + s.bytes);
    }
    p_.shared_bytes_ = total;
  }

  // ---------------------------------------------------------------- accesses
  Access SharedAccess(int slot, bool write, Pattern pat) const {
    const SharedSlot& s = p_.slots_[size_t(slot)];
    Access a;
    a.lo = s.offset;
    a.hi = s.offset + s.bytes;
    a.write = write;
    a.pat = pat;
    a.key = slot;
    return a;
  }

  // Identifies the lane layout of a non-indexed tile access: equal keys mean every element
  // is touched by the same lane in both accesses.
  int64_t LayoutKey(const ir::Op& op, int first_offset, const ir::Type& tile) {
    std::ostringstream k;
    for (int d = 0; d < tile.ndim; ++d) k << tile.shape[d] << 'x';
    for (int i = first_offset; i < op.num_operands(); ++i) {
      const ir::Value* o = op.operand(i);
      bool constant = o->def() && o->def()->code() == OpCode::Const;
      if (constant) k << 'c' << o->def()->value().i;
      else k << 'v' << static_cast<const void*>(o);
      k << ',';
    }
    auto it = keys_.emplace(k.str(), int64_t(keys_.size())).first;
    if (k.str().find('v') != std::string::npos) variant_keys_.insert(it->second);
    return it->second;
  }

  // Across a loop's back edge (and from one block program to the next) a runtime offset may
  // take another value, so the same layout key no longer means the same elements per lane.
  State AcrossBackEdge(State s) const {
    for (Access& a : s)
      if (a.pat == Pattern::Owner && a.region && variant_keys_.count(a.key)) a.pat = Pattern::Any;
    return s;
  }

  // Views (array_slice) share their base's memory: accesses through them race with the
  // base's, so they are keyed by the array they were sliced from.
  static const ir::Value* RootArray(const ir::Value* array) {
    while (array->def() && (array->def()->code() == OpCode::ArraySlice || array->def()->code() == OpCode::ArrayView))
    array = array->def()->operand(0);
    return array;
  }

  static Access Global(const ir::Value* array, bool write, bool atomic, Pattern pat, int64_t key = 0) {
    Access a;
    a.region = RootArray(array);
    a.write = write;
    a.atomic = atomic;
    a.pat = pat;
    a.key = key;
    return a;
  }

  void MapRegionAccesses(const ir::Block* b, std::vector<Access>& out) {
    ir::Walk(const_cast<ir::Block*>(b), [&](ir::Op* op) {
      switch (op->code()) {
        case OpCode::ArrayLoad: out.push_back(Global(op->operand(0), false, false, Pattern::Any)); break;
        case OpCode::ArrayStore: out.push_back(Global(op->operand(0), true, false, Pattern::Any)); break;
        case OpCode::AtomicAdd: case OpCode::AtomicRmw:
          out.push_back(Global(op->operand(0), true, true, Pattern::Any));
          break;
        // Nothing else in a map region touches global memory (per-element code: no tiles).
        case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView:
        TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise)
        TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
        TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
        TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
          break;
      }
    });
  }

  void OpAccesses(const ir::Op& op, std::vector<Access>& pre, bool& internal, std::vector<Access>& post) {
    OpCode c = op.code();
    for (int i = 0; i < op.num_operands(); ++i) {
      const ir::Value* v = op.operand(i);
      if (!v->type().is_tile()) continue;
      bool cross = ReadsAcrossLanes(op, i);
      int prim = p_.Primary(v);
      if (cross) {
        int s = prim >= 0 ? prim : p_.Copy(v);
        if (s >= 0) pre.push_back(SharedAccess(s, false, Pattern::Any));
      } else if (prim >= 0) {
        pre.push_back(SharedAccess(prim, false, Pattern::Owner));
      }
    }
    switch (c) {
      // Scalar code: every lane does its own access.
      case OpCode::ArrayLoad: pre.push_back(Global(op.operand(0), false, false, Pattern::Lane)); break;
      case OpCode::ArrayStore: pre.push_back(Global(op.operand(0), true, false, Pattern::Lane)); break;
      case OpCode::AtomicAdd: case OpCode::AtomicRmw:
        pre.push_back(Global(op.operand(0), true, true, Pattern::Lane));
        break;
      case OpCode::TileScatterLanes: {
        // Each lane stages its entry and starts the result from its own elements of dst; after
        // the internal barrier lane 0 reads every entry and writes anywhere in the result.
        int st = p_.Staging(&op);
        pre.push_back(SharedAccess(st, true, Pattern::Owner));
        int prim = p_.Primary(op.result());
        if (prim >= 0) pre.push_back(SharedAccess(prim, true, Pattern::Owner));
        internal = true;
        post.push_back(SharedAccess(st, false, Pattern::Any));
        break;
      }
      case OpCode::TileMatmul:
        // The tensor-core path: warps write result fragments anywhere in the scratch; after the
        // internal barrier each lane reads its own elements.
        if (int sc = p_.MmaScratch(&op); sc >= 0) {
          pre.push_back(SharedAccess(sc, true, Pattern::Any));
          internal = true;
          post.push_back(SharedAccess(sc, false, Pattern::Any));
        }
        break;
      case OpCode::TileFft: {
        // A radix-2 transform scatters the input to bit-reversed positions of the results, then
        // its passes read and write them anywhere, a barrier between each two.
        const int64_t n = op.operand(0)->type().shape[op.operand(0)->type().ndim - 1];
        if (n < 2 || (n & (n - 1)) != 0) break;
        for (auto& r : op.results())
          if (int prim = p_.Primary(r.get()); prim >= 0) pre.push_back(SharedAccess(prim, true, Pattern::Any));
        internal = true;
        break;
      }
      case OpCode::TileLoad:
        pre.push_back(Global(op.operand(0), false, false, Pattern::Owner, LayoutKey(op, 1, op.result()->type())));
        break;
      case OpCode::TileStore:
        pre.push_back(Global(op.operand(0), true, false, Pattern::Owner, LayoutKey(op, 2, op.operand(1)->type())));
        break;
      case OpCode::TileAtomicAdd:
        pre.push_back(Global(op.operand(0), true, true, Pattern::Owner, LayoutKey(op, 2, op.operand(1)->type())));
        break;
      case OpCode::TileLoadIndexed: pre.push_back(Global(op.operand(0), false, false, Pattern::Any)); break;
      case OpCode::TileStoreIndexed: pre.push_back(Global(op.operand(0), true, false, Pattern::Any)); break;
      case OpCode::TileAtomicAddIndexed: pre.push_back(Global(op.operand(0), true, true, Pattern::Any)); break;
      case OpCode::TileMap: MapRegionAccesses(op.region(0), pre); break;
      // No global memory; their tile operands and results were added above.
      case OpCode::ArrayDim: case OpCode::ArrayGrad: case OpCode::ArraySlice: case OpCode::ArrayView:
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
      TILEC_CASES(Logic) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort)
      case OpCode::TileDiagAdd: case OpCode::TileCholesky: case OpCode::TileLowerSolve:
      case OpCode::TileUpperSolve: case OpCode::TileTril:
      TILEC_CASES(TileShape) TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      case OpCode::TileExtract: case OpCode::TileInsert: case OpCode::TileView: case OpCode::TileAssign:
      case OpCode::TileGather: case OpCode::TileScatterAdd:
        break;
    }
    // Results that lanes write at positions other lanes own (tile_sort's ranks) race with any
    // other lane's access, so the next read of them needs a barrier.
    const Pattern result_pat = ir::HasTrait(c, ir::kCrossLaneResults) ? Pattern::Any : Pattern::Owner;
    for (auto& r : op.results()) {
      int prim = p_.Primary(r.get());
      if (prim >= 0) (internal ? post : pre).push_back(SharedAccess(prim, true, result_pat));
      int copy = p_.Copy(r.get());
      if (copy >= 0) (internal ? post : pre).push_back(SharedAccess(copy, true, Pattern::Owner));
    }
  }

  // Adds `accs` to the state, first cutting it with a barrier at `key` if any would race.
  void Check(State& s, const std::vector<Access>& accs, const void* key, bool record) {
    bool race = false;
    for (const Access& a : accs)
      for (const Access& p : s)
        if (Conflicts(p, a)) race = true;
    if (race) {
      if (record) p_.barriers_.insert(key);
      s.clear();
    }
    for (const Access& a : accs) AddTo(s, a);
  }

  void CopyWrites(State& s, const ir::Value* v, bool record) {
    int copy = p_.Copy(v);
    if (copy >= 0) Check(s, {SharedAccess(copy, true, Pattern::Owner)}, v, record);
  }

  State RunLoopBody(const std::function<State(const State&, bool)>& body, const State& pre, bool record) {
    State in = pre;
    for (int it = 0; it < 32; ++it) {
      State next = Union(pre, AcrossBackEdge(body(in, false)));
      if (SameSet(next, in)) break;
      in = next;
    }
    if (record) body(in, true);
    return in;
  }

  // Everything the ops inside lane-varying control flow touch. The verifier keeps tile
  // operations out of such regions but tile_extract, so these are scalar code's accesses and
  // reads of shared tiles, which never race with one another.
  std::vector<Access> VaryingRegionAccesses(const ir::Op& control) {
    std::vector<Access> out;
    for (auto& r : control.regions())
      ir::Walk(const_cast<ir::Block*>(r.get()), [&](ir::Op* op) {
        if (IsControl(op->code()) || ir::IsTerminator(op->code())) return;
        std::vector<Access> pre, post;
        bool internal = false;
        OpAccesses(*op, pre, internal, post);
        out.insert(out.end(), pre.begin(), pre.end());
        out.insert(out.end(), post.begin(), post.end());
      });
    return out;
  }

  State Run(const ir::Block* b, State s, bool record) {
    for (auto& arg : b->args()) CopyWrites(s, arg.get(), record);
    for (auto& up : b->ops()) {
      const ir::Op* op = up.get();
      if (IsControl(op->code()) && LaneVaryingControl(*op)) {
        // Some lanes skip the regions, so any barrier they need goes before the op.
        Check(s, VaryingRegionAccesses(*op), op, record);
        for (auto& r : op->results()) CopyWrites(s, r.get(), record);
        continue;
      }
      switch (op->code()) {
        case OpCode::If: {
          State t = Run(op->region(0), s, record);
          State e = Run(op->region(1), s, record);
          s = Union(t, e);
          break;
        }
        case OpCode::For: {
          const ir::Block* body = op->region(0);
          s = RunLoopBody([&](const State& in, bool rec) { return Run(body, in, rec); }, s, record);
          break;
        }
        case OpCode::While: {
          const ir::Block* before = op->region(0);
          const ir::Block* after = op->region(1);
          State in = RunLoopBody(
              [&](const State& st, bool rec) { return Run(after, Run(before, st, rec), rec); }, s, record);
          s = Run(before, in, false);
          break;
        }
        case OpCode::Yield: case OpCode::Condition: case OpCode::Return: {
          std::vector<Access> accs;
          for (const ir::Value* v : op->operands())
            if (p_.Primary(v) >= 0) accs.push_back(SharedAccess(p_.Primary(v), false, Pattern::Owner));
          Check(s, accs, op, record);
          break;
        }
        TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
        TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap)
        TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement)
        TILEC_CASES(TileMemory) TILEC_CASES(Print) {
          std::vector<Access> pre, post;
          bool internal = false;
          OpAccesses(*op, pre, internal, post);
          if (const Plan::Lane0Reads* l0 = p_.Lane0(op)) {
            // Lane 0 writes its values, a barrier, then every lane reads them and runs the op.
            Check(s, {SharedAccess(l0->slot, true, Pattern::Lane0)}, op, record);
            if (record) lane0_ops_.insert(op);
            s.clear();
            AddTo(s, SharedAccess(l0->slot, false, Pattern::All));
            for (const Access& a : pre) AddTo(s, a);
          } else {
            Check(s, pre, op, record);
          }
          if (internal) {
            if (record) internal_ops_.insert(op);
            s.clear();
            for (const Access& a : post) AddTo(s, a);
          }
          p_.internal_barriers_ = int(internal_ops_.size() + lane0_ops_.size());
          break;
        }
      }
      if (IsControl(op->code()))
        for (auto& r : op->results()) CopyWrites(s, r.get(), record);
    }
    return s;
  }

  Plan& p_;
  const ir::Function& f_;
  int counter_ = 0;
  std::unordered_map<const ir::Op*, int> idx_, end_;
  std::vector<std::pair<const ir::Op*, bool>> in_map_;  // every op in pre-order, and whether inside a map
  std::map<std::string, int64_t> keys_;
  std::set<int64_t> variant_keys_;  // layout keys that name a runtime offset
  std::unordered_set<const ir::Op*> internal_ops_;  // ops with a barrier inside
  std::unordered_set<const ir::Op*> lane0_ops_;     // ops that read lane 0's values behind one
};

Plan Plan::Build(const ir::Module& m, const ir::Function& f, int block_dim, MmaSupport mma) {
  Plan p;
  p.module_ = &m;
  p.block_dim_ = std::max(1, block_dim);
  p.mma_support_ = mma;
  PlanBuilder(p, f).Build();
  return p;
}

const ir::Value* Plan::SlotValue(int slot, bool& is_copy) const {
  for (auto& [v, s] : primary_)
    if (s == slot) return is_copy = false, v;
  for (auto& [v, s] : copy_)
    if (s == slot) return is_copy = true, v;
  is_copy = false;
  return nullptr;
}

std::string Plan::Describe() const {
  std::ostringstream os;
  os << "block_dim " << block_dim_ << ", shared " << shared_bytes_ << " bytes, barriers " << barrier_sites() << "\n";
  for (size_t i = 0; i < slots_.size(); ++i)
    os << "  slot " << i << ": [" << slots_[i].offset << ", " << slots_[i].offset + slots_[i].bytes << ") live "
       << slots_[i].first << ".." << slots_[i].last << "\n";
  return os.str();
}

}  // namespace tilec::codegen::simt
