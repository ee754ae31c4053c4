// The builtin table itself. Adding an operation is adding rows here (and, for a new rule or
// result rule, one case in call_checker.cpp); the checker has no per-builtin special cases.
#include "frontend/sema/builtins.h"

#include <cstdlib>

namespace tilec::sema {

namespace {

using K = ArgKind;
using P = ArgPattern;
using R = Rule;

ParamSpec Req(const char* name, ArgKind k, ArgPattern p) { return ParamSpec{name, k, p}; }
ParamSpec OptInt(const char* name, ArgKind k, ArgPattern p, int64_t v) {
  ParamSpec s{name, k, p};
  s.def = DefaultKind::Int;
  s.def_int = v;
  return s;
}
ParamSpec OptStorage() {
  ParamSpec s{"storage", K::Const, P::String};
  s.def = DefaultKind::String;
  s.def_str = "register";
  return s;
}
ParamSpec OptDType(ScalarType t = ScalarType::Float32) {
  ParamSpec s{"dtype", K::Type, P::DType};
  s.def = DefaultKind::DType;
  s.def_dtype = t;
  return s;
}
ParamSpec OptOffsetTuple() {
  ParamSpec s{"offset", K::Runtime, P::IntTuple};
  s.def = DefaultKind::ZeroOffset;
  return s;
}
ParamSpec OptAxis() { return OptInt("axis", K::Const, P::Int, 0); }

const char* Doc(const char* page) { return page; }

// Shape-taking builtins come in two rows: a tuple (1-4-D) and a plain int (1-D). The tuple
// row comes first so that an omitted offset defaults to one zero per array dimension.
std::vector<Builtin> MakeTable() {
  std::vector<Builtin> t;
  auto add = [&](Builtin b) { t.push_back(std::move(b)); };

  // ---- construction
  for (const char* name : {"tile_zeros", "tile_ones"}) {
    std::vector<Rule> rules = {R::ShapeValid, R::StorageValid};
    if (std::string(name) == "tile_ones") rules.push_back(R::ScalarDTypeOnly);
    add({name, "wp",
         {{{Req("shape", K::Const, P::Int), OptDType(), OptStorage()}, ResultRule::TileFromShapeDtype, rules},
          {{Req("shape", K::Const, P::IntTuple), OptDType(), OptStorage()}, ResultRule::TileFromShapeDtype, rules}},
         true, Differentiable::No,
         std::string(name) == "tile_zeros" ? Doc("docs/builtins/tile_zeros.rst") : Doc("docs/builtins/tile_ones.rst")});
  }
  {
    std::vector<Rule> rules = {R::ShapeValid, R::StorageValid, R::FullValue};
    add({"tile_full", "wp",
         {{{Req("shape", K::Const, P::Int), Req("value", K::Runtime, P::Any), OptDType(), OptStorage()},
           ResultRule::TileFromShapeDtype, rules},
          {{Req("shape", K::Const, P::IntTuple), Req("value", K::Runtime, P::Any), OptDType(), OptStorage()},
           ResultRule::TileFromShapeDtype, rules}},
         true, Differentiable::No, Doc("docs/builtins/tile_full.rst")});
  }
  {
    std::vector<Rule> rules = {R::ArangeLength, R::ScalarDTypeOnly, R::StorageValid};
    ParamSpec start = Req("start", K::Const, P::Numeric), stop = Req("stop", K::Const, P::Numeric),
              step = Req("step", K::Const, P::Numeric);
    add({"tile_arange", "wp",
         {{{stop, OptDType(), OptStorage()}, ResultRule::TileArange, rules},
          {{start, stop, OptDType(), OptStorage()}, ResultRule::TileArange, rules},
          {{start, stop, step, OptDType(), OptStorage()}, ResultRule::TileArange, rules}},
         true, Differentiable::No, Doc("docs/builtins/tile_arange.rst")});
  }

  // ---- memory
  ParamSpec a = Req("a", K::Runtime, P::Array);
  ParamSpec tt = Req("t", K::Runtime, P::Tile);
  ParamSpec idx = Req("indices", K::Runtime, P::Tile);
  add({"tile_load", "wp",
       {{{a, Req("shape", K::Const, P::Int), OptInt("offset", K::Runtime, P::Int, 0), OptStorage()},
         ResultRule::TileFromArrayShape,
         {R::ShapeValid, R::ShapeRankEqArray, R::OffsetRankEqArray, R::StorageValid}},
        {{a, Req("shape", K::Const, P::IntTuple), OptOffsetTuple(), OptStorage()},
         ResultRule::TileFromArrayShape,
         {R::ShapeValid, R::ShapeRankEqArray, R::OffsetRankEqArray, R::StorageValid}}},
       true, Differentiable::Yes, Doc("docs/builtins/tile_load.rst")});
  for (const char* name : {"tile_store", "tile_atomic_add"}) {
    bool atomic = std::string(name) == "tile_atomic_add";
    std::vector<Rule> rules = {R::TileRankEqArray, R::OffsetRankEqArray, R::DTypeEq};
    if (atomic) rules.push_back(R::AtomicDType);
    ResultRule res = atomic ? ResultRule::TileLikeT : ResultRule::Void;
    add({name, "wp",
         {{{a, tt, OptOffsetTuple()}, res, rules},
          {{a, tt, OptInt("offset", K::Runtime, P::Int, 0)}, res, rules}},
         true, Differentiable::Yes,
         atomic ? Doc("docs/builtins/tile_atomic_add.rst") : Doc("docs/builtins/tile_store.rst")});
  }
  add({"tile_load_indexed", "wp",
       {{{a, idx, Req("shape", K::Const, P::Int), OptInt("offset", K::Runtime, P::Int, 0), OptAxis(), OptStorage()},
         ResultRule::TileFromArrayShape,
         {R::ShapeValid, R::AxisInRange, R::ShapeRankEqArray, R::OffsetRankEqArray, R::IndexTile,
          R::StorageValid}},
        {{a, idx, Req("shape", K::Const, P::IntTuple), OptOffsetTuple(), OptAxis(), OptStorage()},
         ResultRule::TileFromArrayShape,
         {R::ShapeValid, R::AxisInRange, R::ShapeRankEqArray, R::OffsetRankEqArray, R::IndexTile,
          R::StorageValid}}},
       true, Differentiable::Yes, Doc("../shared/spec/tile_load_indexed.rst")});
  for (const char* name : {"tile_store_indexed", "tile_atomic_add_indexed"}) {
    bool atomic = std::string(name) == "tile_atomic_add_indexed";
    std::vector<Rule> rules = {R::AxisInRange, R::TileRankEqArray, R::OffsetRankEqArray, R::IndexTile,
                               R::DTypeEq};
    if (atomic) rules.push_back(R::AtomicDType);
    ResultRule res = atomic ? ResultRule::TileLikeT : ResultRule::Void;
    add({name, "wp",
         {{{a, idx, tt, OptOffsetTuple(), OptAxis()}, res, rules},
          {{a, idx, tt, OptInt("offset", K::Runtime, P::Int, 0), OptAxis()}, res, rules}},
         true, Differentiable::Yes,
         atomic ? Doc("../shared/spec/tile_atomic_add_indexed.rst")
                : Doc("docs/builtins/tile_store_indexed.rst")});
  }

  // ---- maps and reductions
  add({"tile_map", "wp",
       {{{Req("f", K::Runtime, P::Callable), Req("a", K::Runtime, P::Tile)}, ResultRule::TileMap,
         {R::TileMapArgs}, true}},
       true, Differentiable::Yes, Doc("docs/builtins/tile_map.rst")});
  add({"tile_sum", "wp",
       {{{Req("t", K::Runtime, P::Tile)}, ResultRule::TileSum, {R::NumericTile}}},
       true, Differentiable::Yes, Doc("docs/builtins/tile_sum.rst")});

  // ---- tile operators (not callable by name)
  auto tile_binary = [&](const char* name, bool scalar_ok) {
    std::vector<Overload> ov = {{{Req("lhs", K::Runtime, P::Tile), Req("rhs", K::Runtime, P::Tile)},
                                 ResultRule::TileArith,
                                 {R::NumericTile, R::TilesSameShape, R::TilesSameDType}}};
    if (scalar_ok) {
      ov.push_back({{Req("lhs", K::Runtime, P::Tile), Req("rhs", K::Runtime, P::Scalar)},
                    ResultRule::TileArith, {R::NumericTile, R::ScalarMatchesTile}});
      ov.push_back({{Req("lhs", K::Runtime, P::Scalar), Req("rhs", K::Runtime, P::Tile)},
                    ResultRule::TileArith, {R::NumericTile, R::ScalarMatchesTile}});
    }
    add({name, "op", ov, true, Differentiable::Yes, Doc("docs/builtins/tile_arithmetic.rst")});
  };
  tile_binary("tile_add", false);
  tile_binary("tile_sub", false);
  tile_binary("tile_mul", true);
  tile_binary("tile_div", true);
  add({"tile_neg", "op", {{{Req("t", K::Runtime, P::Tile)}, ResultRule::TileArith, {R::NumericTile}}},
       true, Differentiable::Yes, Doc("docs/builtins/tile_arithmetic.rst")});
  add({"tile_extract", "op",
       {{{Req("t", K::Runtime, P::Tile), Req("index", K::Runtime, P::Any)}, ResultRule::TileElement,
         {R::TileIndexCount}}},
       true, Differentiable::Yes, Doc("docs/builtins/tile_extract.rst")});

  // ---- scalar kernel builtins
  add({"tid", "wp", {{{}, ResultRule::Tid, {}}}, false, Differentiable::No, Doc("docs/builtins/tid.rst")});
  {
    std::vector<Overload> ov;
    for (int n = 1; n <= 4; ++n) {
      Overload o{{a}, ResultRule::ArrayElement, {R::AtomicIndexRank}};
      static const char* kIdx[] = {"i", "j", "k", "l"};
      for (int d = 0; d < n; ++d) o.params.push_back(Req(kIdx[d], K::Runtime, P::Int));
      o.params.push_back(Req("value", K::Runtime, P::Any));
      ov.push_back(o);
    }
    add({"atomic_add", "wp", ov, false, Differentiable::Yes, Doc("docs/builtins/atomic_add.rst")});
  }
  for (const char* name : {"sqrt", "exp", "log", "sin", "cos", "floor", "ceil"})
    add({name, "wp", {{{Req("x", K::Runtime, P::Float)}, ResultRule::SameAsFirst, {}}}, false,
         std::string(name) == "floor" || std::string(name) == "ceil" ? Differentiable::No
                                                                     : Differentiable::Yes,
         Doc("docs/builtins/math.rst")});
  for (const char* ns : {"wp", ""}) {
    add({"abs", ns, {{{Req("x", K::Runtime, P::Numeric)}, ResultRule::SameAsFirst, {}}}, false,
         Differentiable::Yes, Doc("docs/builtins/math.rst")});
    for (const char* name : {"min", "max"})
      add({name, ns,
           {{{Req("a", K::Runtime, P::Numeric), Req("b", K::Runtime, P::Numeric)}, ResultRule::CommonNumeric,
             {R::CommonNumericArgs}}},
           false, Differentiable::Yes, Doc("docs/builtins/math.rst")});
  }
  add({"pow", "wp",
       {{{Req("x", K::Runtime, P::Float), Req("y", K::Runtime, P::Float)}, ResultRule::CommonNumeric,
         {R::CommonNumericArgs}}},
       false, Differentiable::Yes, Doc("docs/builtins/math.rst")});
  add({"clamp", "wp",
       {{{Req("x", K::Runtime, P::Numeric), Req("low", K::Runtime, P::Numeric),
          Req("high", K::Runtime, P::Numeric)},
         ResultRule::CommonNumeric, {R::CommonNumericArgs}}},
       false, Differentiable::Yes, Doc("docs/builtins/math.rst")});
  add({"print", "", {{{Req("value", K::Runtime, P::Any)}, ResultRule::Void, {}, true}}, false,
       Differentiable::NotApplicable, Doc("docs/builtins/print.rst")});
  add({"range", "",
       {{{Req("stop", K::Runtime, P::Int)}, ResultRule::Range, {}},
        {{Req("start", K::Runtime, P::Int), Req("stop", K::Runtime, P::Int)}, ResultRule::Range, {}},
        {{Req("start", K::Runtime, P::Int), Req("stop", K::Runtime, P::Int), Req("step", K::Runtime, P::Int)},
         ResultRule::Range, {}}},
       false, Differentiable::NotApplicable, Doc("docs/builtins/range.rst")});
  // Casts: `float(x)`, `int(x)`, `wp.float16(x)`; reached by calling a scalar type.
  add({"cast", "op", {{{Req("x", K::Runtime, P::Scalar)}, ResultRule::CastTarget, {}}}, false,
       Differentiable::Yes, Doc("docs/builtins/casts.rst")});
  {
    Builtin lane{"lane_id", "wp", {{{}, ResultRule::LaneId, {}}}, false, Differentiable::No, ""};
    lane.test_only = true;
    add(lane);
  }
  return t;
}

const std::vector<Builtin>& Table() {
  static const std::vector<Builtin> table = MakeTable();
  return table;
}

}  // namespace

std::string Builtin::Spelling() const {
  std::string n = name;
  if (std::string(ns) == "op") {
    if (n == "tile_add") return "`+` on tiles";
    if (n == "tile_sub") return "`-` on tiles";
    if (n == "tile_mul") return "`*` on tiles";
    if (n == "tile_div") return "`/` on tiles";
    if (n == "tile_neg") return "unary `-` on a tile";
    if (n == "tile_extract") return "tile element access";
    return "cast";
  }
  return std::string(ns).empty() ? n : std::string(ns) + "." + n;
}

std::span<const Builtin> BuiltinTable() { return Table(); }

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
