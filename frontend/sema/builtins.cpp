// The builtin table itself. Adding an operation is adding rows here (a new kind of check is
// one function in builtin_rules.cpp); checker and lowering have no per-builtin cases. The
// table checks itself when first built: every rule finds the parameters it reads.
#include "frontend/sema/builtins.h"

#include <cstdio>
#include <cstdlib>
#include <utility>

#include "frontend/sema/builtin_rules.h"

namespace tilec::sema {

namespace {

using K = ArgKind;
using P = ArgPattern;
using N = Param;
namespace R = rules;
namespace Res = results;

ParamSpec Req(Param id, ArgKind k, ArgPattern p) { return ParamSpec{id, ParamName(id), k, p}; }
ParamSpec OptInt(Param id, ArgKind k, ArgPattern p, int64_t v) {
  ParamSpec s = Req(id, k, p);
  s.def = DefaultKind::Int;
  s.def_int = v;
  return s;
}
ParamSpec OptStorage() {
  ParamSpec s = Req(N::Storage, K::Const, P::String);
  s.def = DefaultKind::String;
  s.def_str = "register";
  return s;
}
ParamSpec OptDType(ScalarType t = ScalarType::Float32) {
  ParamSpec s = Req(N::DType, K::Type, P::DType);
  s.def = DefaultKind::DType;
  s.def_dtype = t;
  return s;
}
ParamSpec OptOffsetTuple() {
  ParamSpec s = Req(N::Offset, K::Runtime, P::IntTuple);
  s.def = DefaultKind::ZeroOffset;
  return s;
}
ParamSpec OptAxis() { return OptInt(N::Axis, K::Const, P::Int, 0); }

Lowering Lower(LowerKind k) {
  Lowering l;
  l.kind = k;
  return l;
}
Lowering LowerOp(LowerKind k, ir::OpCode op) {
  Lowering l = Lower(k);
  l.op = op;
  return l;
}
Lowering LowerUpdating(LowerKind k, std::vector<Param> updates) {
  Lowering l = Lower(k);
  l.updates = std::move(updates);
  return l;
}
Lowering LowerReduce(ir::ReduceKind r) {
  Lowering l = Lower(LowerKind::TileReduce);
  l.reduce = r;
  return l;
}
Lowering LowerScan(ir::ReduceKind r, bool inclusive) {
  Lowering l = Lower(LowerKind::TileScan);
  l.reduce = r;
  l.inclusive = inclusive;
  return l;
}
Lowering LowerPermute(std::vector<int64_t> perm) {
  Lowering l = Lower(LowerKind::TilePermute);
  l.perm = std::move(perm);
  return l;
}

struct Row {
  const char* name;
  const char* ns;
  std::vector<Overload> overloads;
  bool tile_op;
  Differentiable diff;
  const char* doc;
  Lowering lower;
};
Builtin Make(Row r) {
  Builtin b;
  b.name = r.name;
  b.ns = r.ns;
  b.overloads = std::move(r.overloads);
  b.tile_op = r.tile_op;
  b.diff = r.diff;
  b.doc = r.doc;
  b.lower = std::move(r.lower);
  return b;
}

[[noreturn]] void TableBug(const Builtin& b, const std::string& what) {
  std::fprintf(stderr, "internal error: builtin table row `%s`: %s\n", b.name, what.c_str());
  std::abort();
}

// The parameters a rule reads are constants, so a row that lacks one is a mistake in the
// table; finding it here means a rule never has to cope with a missing parameter.
void Validate(const Builtin& b) {
  for (const Overload& o : b.overloads) {
    if (!o.result) TableBug(b, "an overload has no result rule");
    for (Param p : o.result->needs)
      if (o.Index(p) < 0) TableBug(b, std::string("result rule ") + o.result->name + " needs `" + ParamName(p) + "`");
    for (const RuleSpec* r : o.rules)
      for (Param p : r->needs)
        if (o.Index(p) < 0) TableBug(b, std::string("rule ") + r->name + " needs `" + ParamName(p) + "`");
    for (const ParamSpec& ps : o.params)
      if (ps.def == DefaultKind::ZeroOffset && o.Index(Param::A) < 0)
        TableBug(b, "a zero-offset default needs the array `a`");
  }
}

// Shape-taking builtins come in two rows: a tuple (1-4-D) and a plain int (1-D). The tuple
// row comes first so that an omitted offset defaults to one zero per array dimension.
std::vector<Builtin> MakeTable() {
  std::vector<Builtin> t;
  auto add = [&](Row r) { t.push_back(Make(std::move(r))); };

  // ---- construction
  struct Fill {
    const char* name;
    const RuleSpec* dtype_rule;
    const char* doc;
    LowerKind lower;
  };
  // tile_empty is Warp's uninitialized tile; tilec fills it with zeros (docs/tile_empty.rst).
  for (const Fill& f : {Fill{"tile_zeros", nullptr, "docs/tile_zeros.rst", LowerKind::TileFillZero},
                        Fill{"tile_empty", nullptr, "docs/tile_empty.rst", LowerKind::TileFillZero},
                        Fill{"tile_ones", &R::OnesScalarDType, "docs/tile_ones.rst", LowerKind::TileFillOne}}) {
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::StorageValid};
    if (f.dtype_rule) rules.push_back(f.dtype_rule);
    add({f.name, "wp",
         {{{Req(N::Shape, K::Const, P::Int), OptDType(), OptStorage()}, &Res::TileFromShapeDType, rules},
          {{Req(N::Shape, K::Const, P::IntTuple), OptDType(), OptStorage()}, &Res::TileFromShapeDType, rules}},
         true, Differentiable::No, f.doc, Lower(f.lower)});
  }
  {
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::StorageValid, &R::FullValue};
    ParamSpec value = Req(N::Value, K::Runtime, P::Any);
    add({"tile_full", "wp",
         {{{Req(N::Shape, K::Const, P::Int), value, OptDType(), OptStorage()}, &Res::TileFromShapeDType, rules},
          {{Req(N::Shape, K::Const, P::IntTuple), value, OptDType(), OptStorage()}, &Res::TileFromShapeDType, rules}},
         true, Differentiable::No, "docs/tile_full.rst", Lower(LowerKind::TileFillValue)});
  }
  {
    std::vector<const RuleSpec*> rules = {&R::ScalarDType, &R::ArangeLength, &R::StorageValid};
    ParamSpec start = Req(N::Start, K::Const, P::Numeric), stop = Req(N::Stop, K::Const, P::Numeric),
              step = Req(N::Step, K::Const, P::Numeric);
    // Warp's tile_arange(*args, dtype, storage): the range by position, the rest by keyword.
    std::vector<Overload> ov = {{{stop, OptDType(), OptStorage()}, &Res::TileArange, rules},
                                {{start, stop, OptDType(), OptStorage()}, &Res::TileArange, rules},
                                {{start, stop, step, OptDType(), OptStorage()}, &Res::TileArange, rules}};
    for (size_t k = 0; k < ov.size(); ++k) ov[k].positional = int(k) + 1;
    add({"tile_arange", "wp", ov, true, Differentiable::No, "docs/tile_arange.rst", Lower(LowerKind::TileArange)});
  }

  // ---- memory
  ParamSpec a = Req(N::A, K::Runtime, P::Array);
  ParamSpec tt = Req(N::T, K::Runtime, P::Tile);
  ParamSpec idx = Req(N::Indices, K::Runtime, P::Tile);
  ParamSpec offset_int = OptInt(N::Offset, K::Runtime, P::Int, 0);
  // Warp's promises about the access, accepted as compile-time constants and changing
  // nothing: every access is checked (docs/semantics.md), and alignment is found at run time.
  ParamSpec bounds_check = OptInt(N::BoundsCheck, K::Const, P::Scalar, 1);
  ParamSpec aligned = OptInt(N::Aligned, K::Const, P::Scalar, 0);
  // The atomic adds' bit-reproducible mode (ours: Warp has none for tile atomics).
  ParamSpec deterministic = OptInt(N::Deterministic, K::Const, P::Scalar, 0);
  {
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::ShapeRankEqArray, &R::OffsetRankEqArray,
                                          &R::StorageValid};
    add({"tile_load", "wp",
         {{{a, Req(N::Shape, K::Const, P::Int), offset_int, OptStorage(), bounds_check, aligned},
           &Res::TileFromArrayShape, rules},
          {{a, Req(N::Shape, K::Const, P::IntTuple), OptOffsetTuple(), OptStorage(), bounds_check, aligned},
           &Res::TileFromArrayShape, rules}},
         true, Differentiable::Yes, "docs/tile_load.rst", Lower(LowerKind::TileLoad)});
  }
  struct Store {
    const char* name;
    bool atomic;
    const char* doc;
    LowerKind lower;
  };
  for (const Store& s :
       {Store{"tile_store", false, "docs/tile_store.rst", LowerKind::TileStore},
        Store{"tile_atomic_add", true, "docs/tile_atomic_add.rst", LowerKind::TileAtomicAdd}}) {
    std::vector<const RuleSpec*> rules = {&R::TileRankEqArray, &R::OffsetRankEqArray, &R::DTypeEq};
    if (s.atomic) rules.push_back(&R::AtomicDType);
    const ResultSpec* res = s.atomic ? &Res::TileLikeT : &Res::Void;
    std::vector<ParamSpec> tuple_form = {a, tt, OptOffsetTuple(), bounds_check, aligned};
    std::vector<ParamSpec> int_form = {a, tt, offset_int, bounds_check, aligned};
    if (s.atomic) tuple_form.push_back(deterministic), int_form.push_back(deterministic);
    add({s.name, "wp",
         {{tuple_form, res, rules},
          {int_form, res, rules}},
         true,
         Differentiable::Yes, s.doc, Lower(s.lower)});
  }
  {
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::AxisInRange, &R::ShapeRankEqArray,
                                          &R::OffsetRankEqArray, &R::IndexTile, &R::StorageValid};
    add({"tile_load_indexed", "wp",
         {{{a, idx, Req(N::Shape, K::Const, P::Int), offset_int, OptAxis(), OptStorage()}, &Res::TileFromArrayShape,
           rules},
          {{a, idx, Req(N::Shape, K::Const, P::IntTuple), OptOffsetTuple(), OptAxis(), OptStorage()},
           &Res::TileFromArrayShape, rules}},
         true, Differentiable::Yes, "../shared/spec/tile_load_indexed.rst", Lower(LowerKind::TileLoadIndexed)});
  }
  for (const Store& s : {Store{"tile_store_indexed", false, "docs/tile_store_indexed.rst",
                               LowerKind::TileStoreIndexed},
                         Store{"tile_atomic_add_indexed", true, "../shared/spec/tile_atomic_add_indexed.rst",
                               LowerKind::TileAtomicAddIndexed}}) {
    std::vector<const RuleSpec*> rules = {&R::AxisInRange, &R::TileRankEqArray, &R::OffsetRankEqArray,
                                          &R::IndexTile, &R::DTypeEq};
    if (s.atomic) rules.push_back(&R::AtomicDType);
    const ResultSpec* res = s.atomic ? &Res::TileLikeT : &Res::Void;
    std::vector<ParamSpec> tuple_form = {a, idx, tt, OptOffsetTuple(), OptAxis()};
    std::vector<ParamSpec> int_form = {a, idx, tt, offset_int, OptAxis()};
    if (s.atomic) tuple_form.push_back(deterministic), int_form.push_back(deterministic);
    add({s.name, "wp",
         {{tuple_form, res, rules}, {int_form, res, rules}},
         true, Differentiable::Yes, s.doc, Lower(s.lower)});
  }

  // ---- maps and reductions
  ParamSpec ta = Req(N::A, K::Runtime, P::Tile);
  add({"tile_map", "wp",
       {{{Req(N::Op, K::Runtime, P::Callable), ta}, &Res::TileMap, {&R::TileMapArgs}, true, true}},
       true, Differentiable::Yes, "docs/tile_map.rst", Lower(LowerKind::TileMap)});
  ParamSpec axis = Req(N::Axis, K::Const, P::Int);
  // The whole-tile sum lowers to the v1 tile_sum op; the axis form to tile_reduce {add}.
  add({"tile_sum", "wp",
       {{{ta}, &Res::OneElementOfA, {&R::FieldwiseElemTile}},
        {{ta, axis}, &Res::ReducedAlongAxis, {&R::ArithElemTile, &R::TileAxisInRange}}},
       true, Differentiable::Yes, "docs/tile_sum.rst", Lower(LowerKind::TileSum)});
  {
    ParamSpec f = Req(N::Op, K::Runtime, P::Callable);
    std::vector<const RuleSpec*> rules = {&R::ReduceElemTile, &R::ReduceCombiner};
    std::vector<const RuleSpec*> axis_rules = {&R::ReduceElemTile, &R::TileAxisInRange, &R::ReduceCombiner};
    // Differentiable with wp.add, wp.mul, wp.min and wp.max (which Warp is not); a bitwise
    // combiner has no adjoint, and a gradient through one is E0502.
    add({"tile_reduce", "wp",
         {{{f, ta}, &Res::OneElementOfA, rules}, {{f, ta, axis}, &Res::ReducedAlongAxis, axis_rules}}, true,
         Differentiable::Yes, "docs/tile_reduce.rst", Lower(LowerKind::TileReduce)});
  }
  struct Scan {
    const char* name;
    ir::ReduceKind kind;
    bool inclusive;
  };
  for (const Scan& s : {Scan{"tile_scan_inclusive", ir::ReduceKind::Add, true},
                        Scan{"tile_scan_exclusive", ir::ReduceKind::Add, false},
                        Scan{"tile_scan_max_inclusive", ir::ReduceKind::Max, true},
                        Scan{"tile_scan_min_inclusive", ir::ReduceKind::Min, true}})
    add({s.name, "wp", {{{ta}, &Res::RegisterLikeA, {&R::ScanDType}}}, true, Differentiable::Yes,
         "docs/tile_scan.rst", LowerScan(s.kind, s.inclusive)});
  // Vectors and matrices reduce component by component, as tile_reduce(wp.min, t) does (Warp
  // 1.19 accepts tile_min of a vec3 tile; its tile_max refuses one, tilec takes both).
  add({"tile_max", "wp", {{{ta}, &Res::OneElementOfA, {&R::ReduceElemTile}}}, true, Differentiable::Yes,
       "docs/tile_max.rst", LowerReduce(ir::ReduceKind::Max)});
  add({"tile_min", "wp", {{{ta}, &Res::OneElementOfA, {&R::ReduceElemTile}}}, true, Differentiable::Yes,
       "docs/tile_min.rst", LowerReduce(ir::ReduceKind::Min)});
  // Piecewise constant in `a`: no gradient (as in Warp).
  for (ir::ReduceKind k : {ir::ReduceKind::Min, ir::ReduceKind::Max}) {
    Lowering l = Lower(LowerKind::TileArgReduce);
    l.reduce = k;
    add({k == ir::ReduceKind::Min ? "tile_argmin" : "tile_argmax", "wp",
         {{{ta}, &Res::OneInt32, {&R::OrderedElemTile}}}, true, Differentiable::No, "docs/tile_argmin.rst", l});
  }
  add({"tile_dot", "wp",
       {{{ta, Req(N::B, K::Runtime, P::Tile)}, &Res::OneScalarOfA, {&R::ArithElemTile, &R::DotOperands}}}, true,
       Differentiable::Yes, "docs/tile_dot.rst", Lower(LowerKind::TileDot)});
  add({"tile_axpy", "wp",
       {{{Req(N::Alpha, K::Runtime, P::Scalar), Req(N::Src, K::Runtime, P::Tile), Req(N::Dest, K::Runtime, P::Tile)},
         &Res::Void, {&R::ArithElemTile, &R::AxpyArgs}}},
       true, Differentiable::Yes, "docs/tile_axpy.rst", LowerUpdating(LowerKind::TileAxpy, {N::Dest})});
  add({"tile_astype", "wp",
       {{{tt, Req(N::DType, K::Type, P::DType)}, &Res::TileOfDType, {&R::AstypeTypes}}}, true, Differentiable::Yes,
       "docs/tile_astype.rst", Lower(LowerKind::Cast)});
  {
    // One overload per rank, as Warp's: tile_extract(a, i), (a, i, j), ... (a, i, j, k, l).
    std::vector<Overload> ov;
    static const Param kIdx[] = {N::I, N::J, N::K, N::L};
    for (int n = 1; n <= 4; ++n) {
      Overload o{{ta}, &Res::ElementOfA, {&R::ExtractIndexCount}};
      for (int d = 0; d < n; ++d) o.params.push_back(Req(kIdx[d], K::Runtime, P::Int));
      ov.push_back(o);
    }
    add({"tile_extract", "wp", ov, true, Differentiable::Yes, "docs/tile_extract.rst", Lower(LowerKind::TileExtract)});
  }

  // ---- regions and order
  {
    ParamSpec offset = Req(N::Offset, K::Runtime, P::IntTuple);
    add({"tile_view", "wp",
         {{{tt, offset}, &Res::ViewOfT, {&R::ViewArgs}},
          {{tt, offset, Req(N::Shape, K::Const, P::IntTuple)}, &Res::ViewOfT, {&R::ViewArgs}}},
         true, Differentiable::Yes, "docs/tile_view.rst", Lower(LowerKind::TileView)});
    ParamSpec dst = Req(N::Dst, K::Runtime, P::Tile), src = Req(N::Src, K::Runtime, P::Tile);
    add({"tile_assign", "wp",
         {{{dst, src}, &Res::Void, {&R::AssignArgs}}, {{dst, src, offset}, &Res::Void, {&R::AssignArgs}}}, true,
         Differentiable::Yes, "docs/tile_assign.rst", LowerUpdating(LowerKind::TileAssign, {N::Dst})});
    add({"tile_sort", "wp",
         {{{Req(N::Keys, K::Runtime, P::Tile), Req(N::Values, K::Runtime, P::Tile)}, &Res::Void, {&R::SortArgs}}},
         true, Differentiable::Yes, "docs/tile_sort.rst", LowerUpdating(LowerKind::TileSort, {N::Keys, N::Values})});
  }

  // ---- lanes and tiles (Warp's hybrid kernels: every lane runs the scalar code)
  add({"block_dim", "wp", {{{}, &Res::BlockDim, {}}}, false, Differentiable::No, "docs/lanes.rst",
       Lower(LowerKind::BlockDim)});
  add({"tile", "wp",
       {{{Req(N::X, K::Runtime, P::Any), OptInt(N::PreserveType, K::Const, P::Scalar, 0)},
         &Res::TileOfLanes, {&R::LaneValue}}},
       true, Differentiable::Yes, "docs/lanes.rst", Lower(LowerKind::TileOfLanes)});
  add({"untile", "wp", {{{ta}, &Res::Untiled, {&R::UntileShape}}}, true, Differentiable::Yes, "docs/lanes.rst",
       Lower(LowerKind::Untile)});
  {
    // Warp marks tile_from_thread not differentiable.
    ParamSpec value = Req(N::Value, K::Runtime, P::Any), lane = Req(N::ThreadIdx, K::Runtime, P::Int);
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::StorageValid, &R::LaneValue};
    add({"tile_from_thread", "wp",
         {{{Req(N::Shape, K::Const, P::IntTuple), value, lane, OptStorage()}, &Res::TileFromThread, rules},
          {{Req(N::Shape, K::Const, P::Int), value, lane, OptStorage()}, &Res::TileFromThread, rules}},
         true, Differentiable::No, "docs/lanes.rst", Lower(LowerKind::TileFromThread)});
  }
  for (bool adds : {true, false}) {
    // One overload per rank, as Warp's. has_value must be a bool, so that a rank-2 call's
    // (a, i, j, value, has_value) cannot bind as a rank-1 call's (a, i, value, has_value, atomic).
    std::vector<Overload> ov;
    static const Param kIdx[] = {N::I, N::J, N::K, N::L};
    for (int n = 1; n <= 4; ++n) {
      Overload o{{ta}, &Res::Void, {&R::ScatterArgs}};
      for (int d = 0; d < n; ++d) o.params.push_back(Req(kIdx[d], K::Runtime, P::Int));
      o.params.push_back(Req(N::Value, K::Runtime, P::Any));
      o.params.push_back(Req(N::HasValue, K::Runtime, P::Bool));
      // `atomic` changes nothing: lanes add one after another in lane order on every device.
      if (adds) o.params.push_back(OptInt(N::Atomic, K::Const, P::Bool, 1));
      ov.push_back(o);
    }
    Lowering l = LowerUpdating(LowerKind::TileScatterLanes, {N::A});
    l.accumulate = adds;
    add({adds ? "tile_scatter_add" : "tile_scatter_masked", "wp", ov, true, Differentiable::Yes, "docs/lanes.rst", l});
  }
  // ---- the block-shared stack (Warp's tile_stack_*, none differentiable). tile_stack_count
  // is not cooperative: Warp lets one thread, or divergent code, read the count.
  {
    ParamSpec s = Req(N::S, K::Runtime, P::TileStack);
    add({"tile_stack", "wp",
         {{{Req(N::Capacity, K::Const, P::Int), Req(N::DType, K::Type, P::DType)}, &Res::TileStack,
           {&R::StackKeywords, &R::StackCapacity, &R::StackDType}}},
         true, Differentiable::No, "docs/lanes.rst", Lower(LowerKind::TileStack)});
    add({"tile_stack_push", "wp",
         {{{s, Req(N::Value, K::Runtime, P::Any), Req(N::HasValue, K::Runtime, P::Bool)}, &Res::StackSlot,
           {&R::StackValue, &R::StackVariable}}},
         true, Differentiable::No, "docs/lanes.rst", LowerUpdating(LowerKind::TileStackPush, {N::S})});
    add({"tile_stack_pop", "wp", {{{s}, &Res::StackPop, {&R::StackVariable}}}, true, Differentiable::No,
         "docs/lanes.rst", LowerUpdating(LowerKind::TileStackPop, {N::S})});
    add({"tile_stack_count", "wp", {{{s}, &Res::StackCount, {}}}, false, Differentiable::No, "docs/lanes.rst",
         Lower(LowerKind::TileStackCount)});
    add({"tile_stack_clear", "wp", {{{s}, &Res::Void, {&R::StackVariable}}}, true, Differentiable::No,
         "docs/lanes.rst", LowerUpdating(LowerKind::TileStackClear, {N::S})});
  }
  // ---- random tiles: Warp's per-lane streams (tile.h), as on its GPU
  for (bool is_float : {false, true}) {
    ParamSpec rng = Req(N::Rng, K::Runtime, P::Int);
    ArgPattern bound = is_float ? P::Float : P::Int;
    ParamSpec lo = Req(N::Min, K::Const, bound), hi = Req(N::Max, K::Const, bound);
    std::vector<const RuleSpec*> rules = {&R::ShapeValid, &R::StorageValid, &R::RandRange};
    const ResultSpec* res = is_float ? &Res::RandfTile : &Res::RandiTile;
    ParamSpec tuple = Req(N::Shape, K::Const, P::IntTuple), one = Req(N::Shape, K::Const, P::Int);
    add({is_float ? "tile_randf" : "tile_randi", "wp",
         {{{tuple, rng, OptStorage()}, res, rules},
          {{one, rng, OptStorage()}, res, rules},
          {{tuple, rng, lo, hi, OptStorage()}, res, rules},
          {{one, rng, lo, hi, OptStorage()}, res, rules}},
         true, Differentiable::No, "docs/tile_random.rst", Lower(LowerKind::TileRandom)});
  }

  // ---- linear algebra
  {
    ParamSpec b = Req(N::B, K::Runtime, P::Tile), out = Req(N::Out, K::Runtime, P::Tile);
    ParamSpec alpha = OptInt(N::Alpha, K::Runtime, P::Numeric, 1), beta = OptInt(N::Beta, K::Runtime, P::Numeric, 1);
    ParamSpec precision = Req(N::Precision, K::Const, P::String);
    precision.def = DefaultKind::String;
    precision.def_str = "default";
    add({"tile_matmul", "wp",
         {{{ta, b, alpha, precision}, &Res::MatmulOfAB, {&R::MatmulArgs}},
          {{ta, b, out, alpha, beta, precision}, &Res::Void, {&R::MatmulArgs}}},
         true, Differentiable::Yes, "docs/tile_matmul.rst", LowerUpdating(LowerKind::TileMatmul, {N::Out})});
  }

  // Warp's dense solvers: new shared tiles, float32/64 (diag_add: any numeric type), all with
  // adjoints (tile_cholesky_solve through its two triangular solves, where Warp has none). The
  // _inplace forms write the result into `A`, `y` or `z` and keep the adjoints (Warp's have none).
  {
    ParamSpec fill = Req(N::FillMode, K::Const, P::String);
    fill.def = DefaultKind::String;
    fill.def_str = "lower";
    ParamSpec y = Req(N::Y, K::Runtime, P::Tile), z = Req(N::Z, K::Runtime, P::Tile);
    ParamSpec ma = Req(N::MatA, K::Runtime, P::Tile), ml = Req(N::MatL, K::Runtime, P::Tile),
              mu = Req(N::MatU, K::Runtime, P::Tile);
    add({"tile_diag_add", "wp",
         {{{ta, Req(N::D, K::Runtime, P::Tile)}, &Res::LinalgResult, {&R::DiagAddArgs}}}, true, Differentiable::Yes,
         "docs/tile_diag_add.rst", Lower(LowerKind::TileDiagAdd)});
    for (bool inplace : {false, true}) {
      auto name = [&](const char* plain, const char* in_place) { return inplace ? in_place : plain; };
      auto lower = [&](Lowering l, Param updated) {
        if (inplace) l.updates = {updated};
        return l;
      };
      const ResultSpec* res = inplace ? &Res::Void : &Res::LinalgResult;
      std::vector<const RuleSpec*> in_place;
      if (inplace) in_place.push_back(&R::InPlaceLinalgTarget);
      auto rules = [&](std::vector<const RuleSpec*> r) {
        r.insert(r.end(), in_place.begin(), in_place.end());
        return r;
      };
      add({name("tile_cholesky", "tile_cholesky_inplace"), "wp", {{{ma, fill}, res, rules({&R::LinalgArgs, &R::FillModeValid})}}, true,
           Differentiable::Yes, "docs/tile_cholesky.rst", lower(Lower(LowerKind::TileCholesky), N::MatA)});
      add({name("tile_cholesky_solve", "tile_cholesky_solve_inplace"), "wp", {{{ml, y, fill}, res, rules({&R::LinalgArgs, &R::FillModeValid})}}, true,
           Differentiable::Yes, "docs/tile_cholesky.rst", lower(Lower(LowerKind::TileCholeskySolve), N::Y)});
      add({name("tile_lower_solve", "tile_lower_solve_inplace"), "wp", {{{ml, y}, res, rules({&R::LinalgArgs})}}, true, Differentiable::Yes,
           "docs/tile_lower_solve.rst", lower(LowerOp(LowerKind::TileTriSolve, ir::OpCode::TileLowerSolve), N::Y)});
      add({name("tile_upper_solve", "tile_upper_solve_inplace"), "wp", {{{mu, z}, res, rules({&R::LinalgArgs})}}, true, Differentiable::Yes,
           "docs/tile_lower_solve.rst", lower(LowerOp(LowerKind::TileTriSolve, ir::OpCode::TileUpperSolve), N::Z)});
    }
  }

  // Warp's FFTs of complex (vec2f/vec2d) tiles, in place; each is the other's adjoint.
  for (bool inverse : {false, true}) {
    Lowering l = LowerUpdating(LowerKind::TileFft, {N::Inout});
    l.inverse = inverse;
    add({inverse ? "tile_ifft" : "tile_fft", "wp",
         {{{Req(N::Inout, K::Runtime, P::Tile)}, &Res::Void, {&R::FftArgs}}}, true, Differentiable::Yes,
         "docs/tile_fft.rst", l});
  }

  // ---- shape
  add({"tile_transpose", "wp", {{{ta}, &Res::TransposeOfA, {&R::Tile2D}}}, true, Differentiable::Yes,
       "docs/tile_transpose.rst", LowerPermute({1, 0})});
  add({"tile_broadcast", "wp",
       {{{ta, Req(N::Shape, K::Const, P::IntTuple)}, &Res::BroadcastTo, {&R::BroadcastShape}},
        {{ta, Req(N::Shape, K::Const, P::Int)}, &Res::BroadcastTo, {&R::BroadcastShape}}},
       true, Differentiable::Yes, "docs/tile_broadcast.rst", LowerOp(LowerKind::TileShape, ir::OpCode::TileBroadcast)});
  add({"tile_reshape", "wp",
       {{{tt, Req(N::Shape, K::Const, P::IntTuple)}, &Res::ReshapedT, {&R::ReshapeShape}},
        {{tt, Req(N::Shape, K::Const, P::Int)}, &Res::ReshapedT, {&R::ReshapeShape}}},
       true, Differentiable::Yes, "docs/tile_reshape.rst", LowerOp(LowerKind::TileShape, ir::OpCode::TileReshape)});
  add({"tile_squeeze", "wp",
       {{{tt}, &Res::SqueezedT, {&R::SqueezeAxes}},
        {{tt, Req(N::Axis, K::Const, P::Int)}, &Res::SqueezedT, {&R::SqueezeAxes}},
        {{tt, Req(N::Axis, K::Const, P::IntTuple)}, &Res::SqueezedT, {&R::SqueezeAxes}}},
       true, Differentiable::Yes, "docs/tile_squeeze.rst", LowerOp(LowerKind::TileShape, ir::OpCode::TileReshape)});

  // ---- tile operators (not callable by name)
  auto tile_binary = [&](const char* name, const char* spelling, ir::OpCode op, bool scalar_ok) {
    ParamSpec lt = Req(N::Lhs, K::Runtime, P::Tile), rt = Req(N::Rhs, K::Runtime, P::Tile);
    // Tiles of vectors and matrices add and subtract, and scale by a scalar of their
    // component type, component by component (Warp's operators on the elements).
    const RuleSpec* elems = scalar_ok ? &R::ArithElemTile : &R::FieldwiseElemTile;
    // `*` and `/` also pair a scalar element with a vector or matrix one (Warp's tile_mul and
    // tile_div): the result holds the vector or matrix type.
    const RuleSpec* dtypes = scalar_ok ? &R::TilesScaleCompatible : &R::TilesSameDType;
    std::vector<Overload> ov = {{{lt, rt}, &Res::TileArith, {elems, &R::TilesSameShape, dtypes}}};
    if (scalar_ok) {
      ParamSpec ls = Req(N::Lhs, K::Runtime, P::Any), rs = Req(N::Rhs, K::Runtime, P::Any);
      ov.push_back({{lt, rs}, &Res::TileArith, {&R::ArithElemTile, &R::ScalarMatchesTile}});
      ov.push_back({{ls, rt}, &Res::TileArith, {&R::ArithElemTile, &R::ScalarMatchesTile}});
    }
    Builtin b = Make({name, "op", ov, true, Differentiable::Yes, "docs/tile_arithmetic.rst",
                      LowerOp(LowerKind::TileBinary, op)});
    b.op_spelling = spelling;
    t.push_back(std::move(b));
  };
  tile_binary("tile_add", "`+` on tiles", ir::OpCode::Add, false);
  tile_binary("tile_sub", "`-` on tiles", ir::OpCode::Sub, false);
  tile_binary("tile_mul", "`*` on tiles", ir::OpCode::Mul, true);
  tile_binary("tile_div", "`/` on tiles", ir::OpCode::Div, true);
  // Bitwise operators: two tiles of one integer type, no gradient (Warp's tile bit_and/or/xor).
  struct Bitwise {
    const char* name;
    const char* spelling;
    ir::OpCode op;
  };
  for (const Bitwise& bw : {Bitwise{"tile_bit_and", "`&` on tiles", ir::OpCode::BitAnd},
                            Bitwise{"tile_bit_or", "`|` on tiles", ir::OpCode::BitOr},
                            Bitwise{"tile_bit_xor", "`^` on tiles", ir::OpCode::BitXor}}) {
    ParamSpec lt = Req(N::Lhs, K::Runtime, P::Tile), rt = Req(N::Rhs, K::Runtime, P::Tile);
    Builtin b = Make({bw.name, "op",
                      {{{lt, rt}, &Res::TileArith, {&R::IntElemTile, &R::TilesSameShape, &R::TilesSameDType}}}, true,
                      Differentiable::No, "docs/tile_arithmetic.rst", LowerOp(LowerKind::TileBinary, bw.op)});
    b.op_spelling = bw.spelling;
    t.push_back(std::move(b));
  }
  {
    Builtin neg = Make({"tile_neg", "op", {{{tt}, &Res::TileArith, {&R::FieldwiseElemTile}}}, true, Differentiable::Yes,
                        "docs/tile_arithmetic.rst", LowerOp(LowerKind::TileUnary, ir::OpCode::Neg)});
    neg.op_spelling = "unary `-` on a tile";
    t.push_back(std::move(neg));
    Builtin extract = Make({"tile_extract", "op",
                            {{{tt, Req(N::Index, K::Runtime, P::Any)}, &Res::TileElement, {&R::TileIndexCount}}},
                            true, Differentiable::Yes, "docs/tile_extract.rst",
                            Lower(LowerKind::TileExtract)});
    extract.op_spelling = "tile element access";
    t.push_back(std::move(extract));
  }

  // ---- scalar kernel builtins
  add({"tid", "wp", {{{}, &Res::Tid, {}}}, false, Differentiable::No, "docs/tid.rst", Lower(LowerKind::Tid)});
  {
    std::vector<Overload> ov;
    for (int n = 1; n <= 4; ++n) {
      Overload o{{a}, &Res::ArrayElement, {&R::AtomicIndexRank}};
      static const Param kIdx[] = {N::I, N::J, N::K, N::L};
      for (int d = 0; d < n; ++d) o.params.push_back(Req(kIdx[d], K::Runtime, P::Int));
      o.params.push_back(Req(N::Value, K::Runtime, P::Any));
      ov.push_back(o);
    }
    add({"atomic_add", "wp", ov, false, Differentiable::Yes, "docs/atomic_add.rst",
         Lower(LowerKind::AtomicAdd)});
  }
  struct Math {
    const char* name;
    ir::OpCode op;
    Differentiable diff;
  };
  for (const Math& m : {Math{"sqrt", ir::OpCode::Sqrt, Differentiable::Yes}, Math{"exp", ir::OpCode::Exp, Differentiable::Yes},
                        Math{"log", ir::OpCode::Log, Differentiable::Yes}, Math{"sin", ir::OpCode::Sin, Differentiable::Yes},
                        Math{"cos", ir::OpCode::Cos, Differentiable::Yes},
                        Math{"floor", ir::OpCode::Floor, Differentiable::No},
                        Math{"ceil", ir::OpCode::Ceil, Differentiable::No}})
    add({m.name, "wp", {{{Req(N::X, K::Runtime, P::Float)}, &Res::SameAsFirst, {}}}, false, m.diff,
         "docs/math.rst", LowerOp(LowerKind::Math, m.op)});
  // Warp's other scalar math (docs/scalar_math.rst): one IR op each, float types only.
  for (const Math& m : {Math{"tan", ir::OpCode::Tan, Differentiable::Yes}, Math{"asin", ir::OpCode::Asin, Differentiable::Yes},
                        Math{"acos", ir::OpCode::Acos, Differentiable::Yes}, Math{"atan", ir::OpCode::Atan, Differentiable::Yes},
                        Math{"sinh", ir::OpCode::Sinh, Differentiable::Yes}, Math{"cosh", ir::OpCode::Cosh, Differentiable::Yes},
                        Math{"tanh", ir::OpCode::Tanh, Differentiable::Yes}, Math{"log2", ir::OpCode::Log2, Differentiable::Yes},
                        Math{"log10", ir::OpCode::Log10, Differentiable::Yes}, Math{"exp2", ir::OpCode::Exp2, Differentiable::Yes},
                        Math{"cbrt", ir::OpCode::Cbrt, Differentiable::Yes}, Math{"erf", ir::OpCode::Erf, Differentiable::Yes},
                        Math{"erfc", ir::OpCode::Erfc, Differentiable::Yes},
                        Math{"round", ir::OpCode::Round, Differentiable::No}, Math{"rint", ir::OpCode::Rint, Differentiable::No},
                        Math{"trunc", ir::OpCode::Trunc, Differentiable::No}})
    add({m.name, "wp", {{{Req(N::X, K::Runtime, P::Float)}, &Res::SameAsFirst, {}}}, false, m.diff,
         "docs/scalar_math.rst", LowerOp(LowerKind::Math, m.op)});
  add({"atan2", "wp",
       {{{Req(N::Y, K::Runtime, P::Float), Req(N::X, K::Runtime, P::Float)}, &Res::CommonNumeric,
         {&R::CommonNumericArgs}}},
       false, Differentiable::Yes, "docs/scalar_math.rst", LowerOp(LowerKind::Math, ir::OpCode::Atan2)});
  // copysign(x, y): |x| with y's sign (its sign bit: -0.0 and -nan count as negative).
  add({"copysign", "wp",
       {{{Req(N::X, K::Runtime, P::Float), Req(N::Y, K::Runtime, P::Float)}, &Res::CommonNumeric,
         {&R::CommonNumericArgs}}},
       false, Differentiable::Yes, "docs/scalar_math.rst", LowerOp(LowerKind::Math, ir::OpCode::Copysign)});
  // The compositions (MathForm): sign, step and nonzero take any number, as Warp's do.
  struct Form {
    const char* name;
    MathForm form;
    std::vector<Param> params;
    ArgPattern pattern;
    const ResultSpec* result;
    Differentiable diff;
  };
  for (const Form& f : {Form{"sign", MathForm::Sign, {N::X}, P::Numeric, &Res::SameAsFirst, Differentiable::No},
                        Form{"step", MathForm::Step, {N::X}, P::Numeric, &Res::SameAsFirst, Differentiable::No},
                        Form{"nonzero", MathForm::Nonzero, {N::X}, P::Numeric, &Res::SameAsFirst, Differentiable::No},
                        Form{"frac", MathForm::Frac, {N::X}, P::Float, &Res::SameAsFirst, Differentiable::Yes},
                        Form{"isnan", MathForm::IsNan, {N::A}, P::Float, &Res::Bool, Differentiable::No},
                        Form{"isinf", MathForm::IsInf, {N::A}, P::Float, &Res::Bool, Differentiable::No},
                        Form{"isfinite", MathForm::IsFinite, {N::A}, P::Float, &Res::Bool, Differentiable::No},
                        Form{"bit_count", MathForm::BitCount, {N::X}, P::Int, &Res::Int32, Differentiable::No},
                        Form{"lerp", MathForm::Lerp, {N::A, N::B, N::T}, P::Float, &Res::CommonNumeric, Differentiable::Yes},
                        Form{"smoothstep", MathForm::Smoothstep, {N::A, N::B, N::X}, P::Float, &Res::CommonNumeric,
                             Differentiable::Yes}}) {
    Overload o{{}, f.result, {}};
    for (Param p : f.params) o.params.push_back(Req(p, K::Runtime, f.pattern));
    if (f.params.size() > 1) o.rules.push_back(&R::CommonNumericArgs);
    Lowering l = Lower(LowerKind::MathForm);
    l.form = f.form;
    add({f.name, "wp", {o}, false, f.diff, "docs/scalar_math.rst", l});
  }
  // The other scalar atomics (atomic_add's row is above): atomic_cas takes `compare` before
  // `value`; atomic_sub, _min and _max pass gradients as Warp's do.
  struct Atomic {
    const char* name;
    ir::AtomicKind kind;
    Differentiable diff;
  };
  for (const Atomic& at : {Atomic{"atomic_sub", ir::AtomicKind::Sub, Differentiable::Yes},
                           Atomic{"atomic_min", ir::AtomicKind::Min, Differentiable::Yes},
                           Atomic{"atomic_max", ir::AtomicKind::Max, Differentiable::Yes},
                           Atomic{"atomic_exch", ir::AtomicKind::Exch, Differentiable::No},
                           Atomic{"atomic_cas", ir::AtomicKind::Cas, Differentiable::No},
                           Atomic{"atomic_and", ir::AtomicKind::BitAnd, Differentiable::No},
                           Atomic{"atomic_or", ir::AtomicKind::BitOr, Differentiable::No},
                           Atomic{"atomic_xor", ir::AtomicKind::BitXor, Differentiable::No}}) {
    std::vector<Overload> ov;
    for (int n = 1; n <= 4; ++n) {
      Overload o{{a}, &Res::ArrayElement, {&R::AtomicRmwArgs}};
      static const Param kIdx[] = {N::I, N::J, N::K, N::L};
      for (int d = 0; d < n; ++d) o.params.push_back(Req(kIdx[d], K::Runtime, P::Int));
      if (at.kind == ir::AtomicKind::Cas) o.params.push_back(Req(N::Compare, K::Runtime, P::Any));
      o.params.push_back(Req(N::Value, K::Runtime, P::Any));
      ov.push_back(o);
    }
    Lowering l = Lower(LowerKind::AtomicRmw);
    l.rmw = at.kind;
    add({at.name, "wp", ov, false, at.diff, "docs/scalar_atomics.rst", l});
  }
  // wp.static(expr): the value of a compile-time expression (LANGUAGE.md §3); the checker's
  // constant stands for the call, so it lowers as that constant.
  add({"static", "wp", {{{Req(N::Expr, K::Const, P::Any)}, &Res::StaticValue, {}}}, false,
       Differentiable::NotApplicable, "docs/static.rst", Lower(LowerKind::Constant)});
  // len of a tuple (shapes, constants): an int known at compile time.
  add({"len", "", {{{Req(N::Expr, K::Runtime, P::Any)}, &Res::TupleLength, {&R::TupleArg}}}, false,
       Differentiable::NotApplicable, "docs/static.rst", Lower(LowerKind::Constant)});
  for (const char* ns : {"wp", ""}) {
    add({"abs", ns, {{{Req(N::X, K::Runtime, P::Numeric)}, &Res::Abs, {}}}, false, Differentiable::Yes,
         "docs/math.rst", LowerOp(LowerKind::Math, ir::OpCode::Abs)});
    ParamSpec an = Req(N::A, K::Runtime, P::Numeric), bn = Req(N::B, K::Runtime, P::Numeric);
    add({"min", ns, {{{an, bn}, &Res::CommonMin, {&R::CommonNumericArgs}}}, false, Differentiable::Yes,
         "docs/math.rst", LowerOp(LowerKind::Math, ir::OpCode::Min)});
    add({"max", ns, {{{an, bn}, &Res::CommonMax, {&R::CommonNumericArgs}}}, false, Differentiable::Yes,
         "docs/math.rst", LowerOp(LowerKind::Math, ir::OpCode::Max)});
  }
  // The operators as functions: callable in kernels and, as combiners, by wp.tile_reduce.
  struct Operator {
    const char* name;
    ir::OpCode op;
    ArgPattern pattern;
    Differentiable diff;
  };
  for (const Operator& o : {Operator{"add", ir::OpCode::Add, P::Numeric, Differentiable::Yes},
                            Operator{"sub", ir::OpCode::Sub, P::Numeric, Differentiable::Yes},
                            Operator{"mul", ir::OpCode::Mul, P::Numeric, Differentiable::Yes},
                            Operator{"div", ir::OpCode::Div, P::Numeric, Differentiable::Yes},
                            Operator{"floordiv", ir::OpCode::FloorDiv, P::Numeric, Differentiable::No},
                            Operator{"mod", ir::OpCode::Mod, P::Numeric, Differentiable::Yes},
                            Operator{"bit_and", ir::OpCode::BitAnd, P::Int, Differentiable::No},
                            Operator{"bit_or", ir::OpCode::BitOr, P::Int, Differentiable::No},
                            Operator{"bit_xor", ir::OpCode::BitXor, P::Int, Differentiable::No},
                            Operator{"lshift", ir::OpCode::Shl, P::Int, Differentiable::No},
                            Operator{"rshift", ir::OpCode::Shr, P::Int, Differentiable::No}})
    add({o.name, "wp",
         {{{Req(N::A, K::Runtime, o.pattern), Req(N::B, K::Runtime, o.pattern)}, &Res::CommonNumeric,
           {&R::CommonNumericArgs}}},
         false, o.diff, "docs/operator_functions.rst", LowerOp(LowerKind::Math, o.op)});
  // The unary operators as functions (a composite argument to `neg` hands over to its row).
  for (const Operator& o : {Operator{"neg", ir::OpCode::Neg, P::Numeric, Differentiable::Yes},
                            Operator{"invert", ir::OpCode::BitNot, P::Int, Differentiable::No}})
    add({o.name, "wp", {{{Req(N::A, K::Runtime, o.pattern)}, &Res::SameAsFirst, {}}}, false, o.diff,
         "docs/operator_functions.rst", LowerOp(LowerKind::Math, o.op)});
  add({"pow", "wp",
       {{{Req(N::X, K::Runtime, P::Float), Req(N::Y, K::Runtime, P::Float)}, &Res::CommonNumeric,
         {&R::CommonNumericArgs}}},
       false, Differentiable::Yes, "docs/math.rst", LowerOp(LowerKind::Math, ir::OpCode::Pow)});
  add({"clamp", "wp",
       {{{Req(N::X, K::Runtime, P::Numeric), Req(N::Low, K::Runtime, P::Numeric), Req(N::High, K::Runtime, P::Numeric)},
         &Res::CommonNumeric, {&R::CommonNumericArgs}}},
       false, Differentiable::Yes, "docs/math.rst", LowerOp(LowerKind::Math, ir::OpCode::Clamp)});
  // Both values are evaluated (a call), unlike `a if c else b`.
  add({"where", "wp",
       {{{Req(N::Cond, K::Runtime, P::Scalar), Req(N::ValueIfTrue, K::Runtime, P::Any),
          Req(N::ValueIfFalse, K::Runtime, P::Any)},
         &Res::CommonNumeric, {&R::WhereArgs}}},
       false, Differentiable::Yes, "docs/math.rst", Lower(LowerKind::Where)});
  add({"print", "", {{{Req(N::Value, K::Runtime, P::Any)}, &Res::Void, {}, true}}, false,
       Differentiable::NotApplicable, "docs/print.rst", Lower(LowerKind::Print)});
  // Warp's wp.print(value): one value, printed as `print` prints it.
  add({"print", "wp", {{{Req(N::Value, K::Runtime, P::Any)}, &Res::Void, {}}}, false,
       Differentiable::NotApplicable, "docs/print.rst", Lower(LowerKind::Print)});
  // Warp's test helper: a message when the two values differ, and the kernel goes on.
  for (const char* name : {"expect_eq", "expect_neq"})
    add({name, "wp",
         {{{Req(N::A, K::Runtime, P::Any), Req(N::B, K::Runtime, P::Any)}, &Res::Void, {&R::ExpectArgs}}},
         false, Differentiable::NotApplicable, "docs/print.rst", Lower(LowerKind::ExpectEq)});
  // A message when two floats (or float vectors, quaternions, matrices) differ by more than
  // `tolerance` (1e-6 by default; the largest component difference for composites).
  {
    ParamSpec a = Req(N::A, K::Runtime, P::Any), b = Req(N::B, K::Runtime, P::Any);
    add({"expect_near", "wp",
         {{{a, b}, &Res::Void, {&R::NearArgs}}, {{a, b, Req(N::Tolerance, K::Runtime, P::Any)}, &Res::Void, {&R::NearArgs}}},
         false, Differentiable::NotApplicable, "docs/print.rst", Lower(LowerKind::ExpectNear)});
  }
  {
    ParamSpec start = Req(N::Start, K::Runtime, P::Int), stop = Req(N::Stop, K::Runtime, P::Int),
              step = Req(N::Step, K::Runtime, P::Int);
    add({"range", "",
         {{{stop}, &Res::Range, {}}, {{start, stop}, &Res::Range, {}}, {{start, stop, step}, &Res::Range, {}}},
         false, Differentiable::NotApplicable, "docs/range.rst", Lower(LowerKind::None)});
  }
  // Casts: `float(x)`, `int(x)`, `wp.float16(x)`; reached by calling a scalar type.
  {
    Builtin cast = Make({"cast", "op", {{{Req(N::X, K::Runtime, P::Scalar)}, &Res::CastTarget, {}}}, false,
                         Differentiable::Yes, "docs/casts.rst", Lower(LowerKind::Cast)});
    cast.op_spelling = "cast";
    t.push_back(std::move(cast));
  }
  {
    Builtin lane = Make({"lane_id", "wp", {{{}, &Res::LaneId, {}}}, false, Differentiable::No, "",
                         Lower(LowerKind::LaneId)});
    lane.test_only = true;
    t.push_back(std::move(lane));
  }
  for (const Builtin& b : t) Validate(b);
  return t;
}

const std::vector<Builtin>& Table() {
  static const std::vector<Builtin> table = MakeTable();
  return table;
}

}  // namespace

const char* ParamName(Param p) {
  switch (p) {
    case Param::A: return "a";
    case Param::T: return "t";
    case Param::F: return "f";
    case Param::B: return "b";
    case Param::X: return "x";
    case Param::Y: return "y";
    case Param::Value: return "value";
    case Param::Shape: return "shape";
    case Param::Offset: return "offset";
    case Param::Storage: return "storage";
    case Param::DType: return "dtype";
    case Param::Axis: return "axis";
    case Param::Indices: return "indices";
    case Param::Start: return "start";
    case Param::Stop: return "stop";
    case Param::Step: return "step";
    case Param::Lhs: return "lhs";
    case Param::Rhs: return "rhs";
    case Param::Index: return "index";
    case Param::Low: return "low";
    case Param::High: return "high";
    case Param::I: return "i";
    case Param::J: return "j";
    case Param::K: return "k";
    case Param::L: return "l";
    case Param::Op: return "op";
    case Param::Alpha: return "alpha";
    case Param::Src: return "src";
    case Param::Dest: return "dest";
    case Param::Dst: return "dst";
    case Param::Keys: return "keys";
    case Param::Values: return "values";
    case Param::Out: return "out";
    case Param::Beta: return "beta";
    case Param::Compare: return "compare";
    case Param::Expr: return "expr";
    case Param::BoundsCheck: return "bounds_check";
    case Param::Deterministic: return "deterministic";
    case Param::Aligned: return "aligned";
    case Param::D: return "d";
    case Param::MatA: return "A";
    case Param::MatL: return "L";
    case Param::MatU: return "U";
    case Param::FillMode: return "fill_mode";
    case Param::Precision: return "precision";
    case Param::Tolerance: return "tolerance";
    case Param::PreserveType: return "preserve_type";
    case Param::ThreadIdx: return "thread_idx";
    case Param::HasValue: return "has_value";
    case Param::Atomic: return "atomic";
    case Param::Rng: return "rng";
    case Param::Min: return "min";
    case Param::Max: return "max";
    case Param::S: return "s";
    case Param::Capacity: return "capacity";
    case Param::Inout: return "inout";
    case Param::Z: return "z";
    case Param::Cond: return "cond";
    case Param::ValueIfTrue: return "value_if_true";
    case Param::ValueIfFalse: return "value_if_false";
  }
  return "?";
}

int Overload::Index(Param p) const {
  for (size_t k = 0; k < params.size(); ++k)
    if (params[k].id == p) return int(k);
  return -1;
}

std::string Builtin::Spelling() const {
  if (op_spelling) return op_spelling;
  return std::string(ns).empty() ? name : std::string(ns) + "." + name;
}

std::span<const Builtin> BuiltinTable() { return Table(); }

bool ReduceKindOf(const Builtin& b, ir::ReduceKind& out) {
  // The math rows that are reduction combiners; every other op is not one.
  static constexpr std::pair<ir::OpCode, ir::ReduceKind> kCombiners[] = {
      {ir::OpCode::Add, ir::ReduceKind::Add},       {ir::OpCode::Mul, ir::ReduceKind::Mul},
      {ir::OpCode::Min, ir::ReduceKind::Min},       {ir::OpCode::Max, ir::ReduceKind::Max},
      {ir::OpCode::BitAnd, ir::ReduceKind::BitAnd}, {ir::OpCode::BitOr, ir::ReduceKind::BitOr},
      {ir::OpCode::BitXor, ir::ReduceKind::BitXor}};
  if (b.lower.kind != LowerKind::Math) return false;
  for (const auto& [op, kind] : kCombiners)
    if (b.lower.op == op) {
      out = kind;
      return true;
    }
  return false;
}

const Builtin* FindBuiltin(const std::string& ns, const std::string& name) {
  for (const Builtin& b : Table())
    if (ns == b.ns && name == b.name) return &b;
  return nullptr;
}

int BuiltinIndex(const Builtin* b) { return int(b - Table().data()); }

const Builtin& OperatorBuiltin(const std::string& name) {
  for (const Builtin& b : Table())
    if (std::string(b.ns) == "op" && name == b.name) return b;
  std::abort();  // a misspelt operator name is a bug in the checker, caught by every test
}

}  // namespace tilec::sema
