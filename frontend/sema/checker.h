// The checker's internal state, shared by its parts: module level (check_module.cpp),
// statements and uniformity (check_stmt.cpp), expressions (check_expr.cpp) and calls through
// the builtin table (check_call.cpp). Not part of the public API; see sema.h.
#pragma once
#include <map>
#include <set>
#include <tuple>
#include <string>
#include <vector>

#include "frontend/sema/sema.h"

namespace tilec::sema {

// One argument of a call as the overload resolver sees it.
struct CallArg {
  const ast::Expr* expr = nullptr;
  ExprInfo info;
  std::string keyword;  // empty for positional
  SourceRange range;    // the argument (keyword: `name=value`)
  SourceRange name_range;
};

class CallContext;
struct PreludeUnit;  // prelude.cpp

// Whether an argument of type `t` fits a parameter pattern (error types fit anything).
bool PatternMatches(ArgPattern p, const Type* t);
// The CompositeOp a `wp.` builtin name stands for (check_composite.cpp), or -1.
int CompositeFnIndex(const std::string& name);

class Checker {
 public:
  Checker(const ast::Module& m, diag::DiagnosticEngine& d, const CheckOptions& o, CheckedModule& out)
      : ast_(m), diags_(d), options_(o), out_(out), types_(out.types) {}
  void Run();

  // ---- module level
  struct ModuleEntry {
    // FuncSet: @wp.func definitions of one name with different parameter types (Warp's
    // overloads), `index` into CheckedModule::overloads.
    enum class Kind : uint8_t { Constant, Struct, Func, FuncSet, Kernel, Module, Host };
    Kind kind = Kind::Constant;
    int index = -1;
    ConstValue value;
    ModuleId module = ModuleId::Warp;
    SourceRange range;
  };

 private:
  friend class CallContext;
  // check_module.cpp
  void RegisterDefinitions();
  void DefineStruct(int index);
  // `bound`: an instance of a generic func, the type of each generic parameter.
  void DeclareFunction(FunctionInfo& fn, const ast::FunctionDef& def, bool is_kernel,
                       const std::vector<const Type*>* bound = nullptr);
  void ModuleAssign(const ast::Stmt& s);
  const Type* ResolveAnnotation(const ast::Expr* e, bool allow_array);
  const Type* TupleAnnotation(const ast::Expr* e);
  const Type* ResolveReturnAnnotation(const ast::Expr* e);
  // A struct with array fields (here or nested): a kernel or func parameter only, read field by
  // field; never an element, a local, a constructor's result or a return value.
  bool HoldsArrays(const Type* t) const {
    return t && t->kind == TypeKind::Struct && t->struct_index >= 0 &&
           out_.structs[size_t(t->struct_index)].holds_arrays;
  }
  // Reports E0133 at `range` when `t`, or the element of the array, tile or stack `t`, is a
  // struct with array fields; `what` says what it would be ("a local variable").
  bool RejectArrayStruct(const Type* t, SourceRange range, const std::string& what);
  std::optional<ConstValue> EvalModuleExpr(const ast::Expr* e, bool& host_dependent);
  void EnsureFuncChecked(int index);
 public:
  // The func to call for `index` with arguments of `types` (one per parameter, null where a
  // default applies): `index` itself unless it is generic, else its instance for those types,
  // declared and checked on first use. -1 after an error at `where`.
  int FuncInstance(int index, const std::vector<const Type*>& types, SourceRange where,
                   const std::vector<SourceRange>* arg_ranges = nullptr);

 private:

  // check_stmt.cpp
  void CheckFunction(FunctionInfo& fn);
  void CheckBody(const ast::Body& body);
  void CheckStmt(const ast::Stmt& s);
  void CheckAssign(const ast::Assign& s);
  void CheckAugAssign(const ast::AugAssign& s);
  void CheckFor(const ast::For& s);
  // Warp's unrolling rule for `for` over `range`: the trip values, or why the loop stays a
  // loop (for the notes of a constant required in its body).
  struct UnrollPlan {
    std::vector<int64_t> values;
    std::string why_not;  // empty: unrolled
  };
  UnrollPlan PlanUnroll(const ast::For& s);
  bool MentionsStatic(const ast::Expr* e);
  bool MentionsStatic(const ast::Body& body);
  void CheckUnrolled(const ast::For& s, std::vector<int64_t> values);
  // A variable first assigned in an unrolled body may take another type in a later trip
  // (Warp gives every trip its own variables); only straight-line assignments re-declare it.
  bool MayRedeclare(const LocalSymbol& sym) const;
  bool MayRebindTile(const LocalSymbol& sym, const Type* t) const;
  void AssignTarget(const ast::Expr* target, const ast::Expr* value, ExprInfo info);
  void BindName(const ast::Name& name, const ast::Expr* value, ExprInfo info);
  void CountAssignments(const ast::Body& body);
  void CountTarget(const ast::Expr* target);
  LocalSymbol* NewLocal(const std::string& name, SymbolKind kind, const Type* type, SourceRange range);
  bool InVaryingRegion() const { return !varying_conds_.empty(); }
  // Whether `e` is a call of `wp.tid()` (already checked).
  bool IsTidCall(const ast::Expr* e) const {
    auto it = out_.call_info.find(e);
    return it != out_.call_info.end() && it->second.builtin && it->second.builtin->lower.kind == LowerKind::Tid;
  }

  // check_expr.cpp
 public:
  ExprInfo CheckExpr(const ast::Expr* e);
  ExprInfo& Record(const ast::Expr* e, ExprInfo info);
  // Converts a weak constant to `to` where Warp allows it; returns false when the types do
  // not match. Records the converted type on `e`.
  bool Convert(const ast::Expr* e, ExprInfo& info, const Type* to);
  bool Convertible(const ExprInfo& info, const Type* to) const;
  std::string Text(const ast::Expr* e) const;  // source text of a node
  int Line(SourceRange r) const;
  diag::DiagnosticEngine::Builder Error(diag::Code code, SourceRange r, std::string msg);
  void NoteProvenance(diag::DiagnosticEngine::Builder& b, const ExprInfo& info);
  ExprInfo Poison() { ExprInfo i; i.type = types_.Error(); return i; }
  ExprInfo ConstInfo(ConstValue v, const Type* t, bool weak);
  // What `if`, `while`, `not`, `and`/`or` and `x if c else y` test: a scalar (nonzero), or as in
  // Warp an array (true unless it is None or has no elements).
  static bool IsCondition(const Type* t) { return t->IsScalar() || t->IsArray(); }
  TypeContext& types() { return types_; }
  CheckedModule& out() { return out_; }
  const CheckOptions& options() const { return options_; }
  void MarkTileOp(const ast::Expr* node, const std::string& what, const std::vector<CallArg>& args,
                  bool per_lane = false);
  // The variable an in-place tile update writes (`t`, `t[1:3]`, `t[i][2:]`): the local under
  // any views, or null when the tile is a temporary. Counts the write as an assignment.
  LocalSymbol* InPlaceRoot(const ast::Expr* e);
  // A mapped lambda's body, its parameters typed `elems` in the enclosing function's scope.
  ExprInfo CheckLambdaBody(int index, const std::vector<const Type*>& elems);

 private:
  ExprInfo CheckName(const ast::Name& n);
  ExprInfo CheckLambda(const ast::Lambda& l);
  const ast::Expr* mapped_lambda_ = nullptr;  // the lambda a wp.tile_map call being checked maps
  ExprInfo CheckAttribute(const ast::Attribute& a);
  std::optional<ExprInfo> WarpMember(const std::string& name);
  bool python_fold_ = false;  // inside wp.static(...): constants fold as the host computes them
  ExprInfo CheckSubscript(const ast::Subscript& s);
  // `t[...]` other than an element read: a view or a gather (sema.h, TileAccess).
  ExprInfo CheckTileAccess(const ast::Subscript& s, const ExprInfo& base, const std::vector<const ast::Expr*>& idx);
  ExprInfo CheckUnary(const ast::Unary& u);
  ExprInfo CheckBinary(const ast::Binary& b);
  ExprInfo CheckCompare(const ast::Compare& c);
  ExprInfo CheckBoolOp(const ast::BoolOp& b);
  ExprInfo CheckIfExp(const ast::IfExp& e);
  ExprInfo CheckTuple(const ast::Tuple& t);
  // Vector-like types (check_composite.cpp).
 public:
  int CompositeStruct(const Composite& c);  // the struct index, registered on first use
  const Type* CompositeType(const Composite& c);
  const Composite* CompositeOf(const Type* t) const;  // null unless a vector-like struct
  ExprInfo CompositeCall(CompositeOp op, const ast::Expr* node, const std::string& fname, std::vector<CallArg>& args);
  // A prelude builtin (prelude.cpp) called with these arguments; E0114-style errors when no
  // overload takes them.
  ExprInfo CallPrelude(const std::string& name, const ast::Expr* node, SourceRange callee_range,
                       std::vector<CallArg>& args);
  ExprInfo CallOverloads(int set, const ast::Expr* node, SourceRange callee_range, std::vector<CallArg>& args);

 private:
  ExprInfo CompositeResult(const ast::Expr* node, CallInfo ci, const Type* type, const std::vector<ExprInfo>& operands);
  bool CompositeScalarOperand(const ast::Expr* e, ExprInfo& info, ScalarType s, const std::string& what);
  ExprInfo FoldModuleComposite(ExprInfo r, const Type* t, const std::vector<CallArg>& args);
  ExprInfo FoldModuleElementwise(ExprInfo r, CompositeOp op, const std::vector<const ExprInfo*>& in);
  ExprInfo CompositeCtor(const ast::Call& c, const Type* t, std::vector<CallArg>& args);
  ExprInfo CompositeAttribute(const ast::Attribute& a, const ExprInfo& base);
  ExprInfo CompositeSubscript(const ast::Subscript& s, const ExprInfo& base, const std::vector<const ast::Expr*>& idx,
                              std::vector<ExprInfo>& infos);
  // `v[lo:hi]` of a vector: constant bounds, step 1, a vector of the components in range.
  ExprInfo VectorSlice(const ast::Subscript& s, const ExprInfo& base, const ast::Slice& sl);
  ExprInfo CompositeUnary(const ast::Unary& u, const ExprInfo& v);
  ExprInfo CompositeBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range, const ast::Expr* l,
                           ExprInfo li, const ast::Expr* r, ExprInfo ri);
  ExprInfo CompositeCompare(const ast::Compare& c, const ExprInfo& l, const ExprInfo& r);
  ExprInfo GenericCompositeType(const ast::Call& c, bool matrix);  // wp.types.vector/matrix(...)
  ExprInfo GenericCompositeValue(const ast::Call& c, const std::string& which);  // wp.vector/matrix/quaternion(...)
  std::optional<ExprInfo> CheckMatrixFromVectors(const ast::Call& c);  // wp.matrix_from_rows/cols
  ExprInfo IdentityCall(const ast::Expr* node, const std::string& bname, std::vector<CallArg>& args);
  ExprInfo ScalarBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range,
                        const ast::Expr* l, ExprInfo li, const ast::Expr* r, ExprInfo ri);
  ExprInfo TileBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range,
                      const ast::Expr* l, ExprInfo li, const ast::Expr* r, ExprInfo ri);

  // check_call.cpp
 public:
  ExprInfo CheckCall(const ast::Call& c);
  // `wp.tile_view(t, offset=(slice(a, b, c), ...))`, Warp's spelling of `t[a:b:c, ...]`: checks
  // (and records, for the lowering) that subscript; nullopt when `c` is not such a call.
  std::optional<ExprInfo> CheckSliceView(const ast::Call& c);
  // `f(*v)`: the call written out with v's components (check_starred.cpp).
  std::optional<ExprInfo> CheckStarredCall(const ast::Call& c);
  bool SpreadStarred(const ast::Expr& value, std::vector<ast::ExprPtr>& out);
  ExprInfo CallBuiltin(const Builtin& b, const ast::Expr* node, SourceRange callee_range,
                       std::vector<CallArg> args);
  ExprInfo CallUserFunc(int index, const ast::Expr* node, SourceRange callee_range, std::vector<CallArg> args);
  // The call once `bound` maps each parameter of `f` (an instance where the func is generic)
  // to its argument (-1: the default).
  ExprInfo CallUserFuncBound(int index, const FunctionInfo& f, const ast::Expr* node, std::vector<CallArg>& args,
                             const std::vector<int>& bound, bool ok);

 private:
  const ast::Module& ast_;
  diag::DiagnosticEngine& diags_;
  const CheckOptions& options_;
  CheckedModule& out_;
  TypeContext& types_;
  const SourceFile* file() const {
    if (decl_file_) return decl_file_;
    return fn_ && fn_->prelude_file ? fn_->prelude_file : ast_.file;
  }
  // The prelude (prelude.cpp): its funcs are appended to CheckedModule::funcs before any body
  // is checked (so no FunctionInfo moves while one is being checked) and declared by name.
  void AddPrelude();
  int PreludeSet(const std::string& name);  // index into CheckedModule::overloads, or -1
  int PreludeHelper(const std::string& name);  // a `_helper` of the prelude instance being checked
  int PreludeOverloads(const std::string& key, const std::vector<int>& funcs, bool in_place);
  std::map<std::string, std::vector<int>> prelude_names_;
  std::map<int, PreludeUnit*> prelude_units_;  // func index -> its text, parsed when declared
  std::map<std::string, int> prelude_sets_;
  std::set<int> in_place_sets_;  // overload sets whose calls store their result into argument 0
  int prelude_snapshot_ = -1;
  const SourceFile* decl_file_ = nullptr;
  const ast::AugAssign* aug_ = nullptr;  // a composite `+=` being checked: its CallInfo key

  std::map<std::string, ModuleEntry> scope_;
  // The module scope each func/kernel saw when defined (constants in source order); funcs,
  // kernels and structs defined later are found in scope_.
  std::vector<std::map<std::string, ModuleEntry>> snapshots_;
  std::vector<int> kernel_snapshot_, func_snapshot_;
  const std::map<std::string, ModuleEntry>* snapshot_ = nullptr;
  const ModuleEntry* LookupModule(const std::string& name) const;
  bool silent_ = false;     // module-level host expressions: fold without reporting
  diag::Diagnostic sink_;   // where silent reports go
  std::map<const LocalSymbol*, Provenance> local_prov_;
  std::map<const LocalSymbol*, bool> local_weak_;
  std::vector<const ast::FunctionDef*> func_defs_, kernel_defs_;
  std::vector<const ast::ClassDef*> struct_defs_;
  std::vector<int> func_state_;  // 0 unchecked, 1 checking, 2 done
  std::map<std::pair<int, std::vector<const Type*>>, int> func_instances_;  // (template, types) -> func

  // The function being checked.
  FunctionInfo* fn_ = nullptr;
  std::map<std::string, LocalSymbol*> locals_;
  std::map<std::string, std::vector<SourceRange>> assignments_;  // per name, in the body
  int loop_depth_ = 0;
  int body_depth_ = 0;  // nesting of the bodies being checked
  int body_id_ = 0, next_body_id_ = 0;  // the body being checked; ids are never reused
  // The unrolled loops being checked, outermost first: the first local created inside each,
  // and the depth of its copies' bodies.
  struct UnrollScope {
    size_t first_local = 0;
    int body_depth = 0;
  };
  std::vector<UnrollScope> unroll_scopes_;
  std::set<std::tuple<int, const SourceFile*, uint32_t, uint32_t, std::string>> unroll_reported_;
  std::vector<const ast::Expr*> varying_conds_;
  // The uniformity proof's view of loops and early exits: a `break`/`continue` under a
  // lane-varying condition makes the lanes leave the loop at different trips, so every tile
  // operation of that loop is under it; a `return` under one, every tile operation after it.
  struct LoopUniformity {
    std::vector<std::pair<const ast::Expr*, std::string>> tile_ops;  // in the body, not yet reported
    const ast::Stmt* exit = nullptr;        // the first varying break/continue/return in it
    const ast::Expr* exit_cond = nullptr;   // the varying condition it is under
  };
  std::vector<LoopUniformity> loop_uniformity_;
  const ast::Stmt* varying_return_ = nullptr;  // a `return` under a varying condition, earlier
  const ast::Expr* varying_return_cond_ = nullptr;
  // Why a local may differ between lanes: the root of its lane dependence, for E0302's notes.
  std::unordered_map<const LocalSymbol*, Provenance> varying_why_;
  void NoteVarying(diag::DiagnosticEngine::Builder& b, const ast::Expr* cond);
  std::optional<Provenance> VaryingOrigin(const ast::Expr* e);
  void ReportLoopExit(const LoopUniformity& l);
  void BeginLoopUniformity() { loop_uniformity_.emplace_back(); }
  void EndLoopUniformity();
  void NoteVaryingExit(const ast::Stmt& s);
  // Block-strided loops: locals that hold the lane, the block's size or a multiple of it, each
  // from its one assignment in the body; a loop whose trips these facts prove equal on every lane.
  enum class LaneFact { Lane, BlockDim, BlockDimMultiple };
  std::unordered_map<const LocalSymbol*, LaneFact> lane_facts_;
  void NoteLaneFact(const LocalSymbol* sym, const ast::Name& n, const ast::Expr* value, const ExprInfo& info);
  std::optional<LaneFact> FactOf(const ast::Expr* e);
  bool IsBlockStrided(const ast::For& s);
  std::vector<std::pair<const Type*, SourceRange>> returns_;
  const ast::Call* tid_call_ = nullptr;  // `wp.tid()` being unpacked by an assignment
  int tid_unpack_ = 0;
};

// One builtin call after its overload is chosen, as the table's rules and result rules see
// it: arguments by parameter constant (defaults filled in), facts earlier rules established,
// and the checker's services. Error() enforces that a rule reports only its own codes.
class CallContext {
 public:
  CallContext(Checker& c, const Builtin& b, const Overload& ov, std::vector<CallArg>& args,
              std::vector<int> param_arg, std::vector<int> extra, CallInfo& ci, const ast::Expr* node,
              SourceRange callee_range, std::string bname)
      : checker(c), types(c.types_), builtin(b), overload(ov), args(args), node(node),
        callee_range(callee_range), bname(std::move(bname)), ci_(ci), param_arg_(std::move(param_arg)),
        extra_(std::move(extra)) {}

  Checker& checker;
  TypeContext& types;
  const Builtin& builtin;
  const Overload& overload;
  std::vector<CallArg>& args;  // in call order
  const ast::Expr* node;
  SourceRange callee_range;
  std::string bname;  // how messages name the builtin: "`wp.tile_load`", "`+` on tiles"

  // The argument of `p`; the parameter must be bound (a required one, or checked by Has).
  CallArg& Arg(Param p);
  bool Has(Param p) const;  // an argument was passed for `p`
  const Type* TypeOf(Param p) { return Arg(p).info.type; }
  // The compile-time value of `p`, its default included; null for a runtime argument.
  const ConstValue* Const(Param p) const;
  void SetConst(Param p, ConstValue v);  // a rule's choice for a defaulted compile-time parameter
  SourceRange Range(Param p) const;  // the argument, else the callee
  std::string Quoted(Param p);       // "`x`": the argument's source text
  std::vector<CallArg*> Extra();     // variadic arguments past the last parameter
  // `shape` as extents (the row must have one); false when it is not all ints.
  bool ShapeDims(std::vector<int64_t>& dims) const;
  Storage StorageArg() const;        // `storage`, register when the row has none

  diag::DiagnosticEngine::Builder Error(diag::Code code, SourceRange r, std::string msg);
  void BeginRule(const RuleSpec* r) { rule_ = r; }

  // Checker internals the rules use.
  FunctionInfo* fn() { return checker.fn_; }
  CheckedModule& out() { return checker.out_; }
  void EnsureFuncChecked(int index) { checker.EnsureFuncChecked(index); }
  int TidUnpack() const { return node == checker.tid_call_ ? checker.tid_unpack_ : 1; }
  // The local variable (or parameter) of the function being checked that `name` binds; null
  // when there is none.
  LocalSymbol* Local(const std::string& name) {
    auto it = checker.locals_.find(name);
    return it == checker.locals_.end() ? nullptr : it->second;
  }

  // Facts established by rules for later rules and the result.
  const Type* map_elem = nullptr;   // TileMapArgs: f's result element
  const Type* common = nullptr;     // CommonNumericArgs: the arguments' type
  int64_t arange_len = 0;           // ArangeLength

 private:
  CallInfo& ci_;
  std::vector<int> param_arg_;  // per parameter: index into args, -1 = default
  std::vector<int> extra_;
  const RuleSpec* rule_ = nullptr;  // the rule running, null for result rules
};

}  // namespace tilec::sema
