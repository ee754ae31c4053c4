// Warp's vector-like types in kernels (vec, mat, quat, transform, spatial): the struct each one
// is, its constructors, component reads, operators and the generic vector-math builtins. The
// result is a CallInfo of Kind::Composite that lowering expands component by component.
#include <algorithm>

#include "frontend/ast/clone.h"
#include "frontend/sema/checker.h"

namespace tilec::sema {

using diag::Code;

namespace {

// Warp's names for the builtins typed here; the scalar rows of the same name (min, max, abs)
// hand over when an argument is a composite.
struct CompositeFn {
  const char* name;
  CompositeOp op;
  int arity;
};
constexpr CompositeFn kFns[] = {
    {"dot", CompositeOp::Dot, 2},        {"cross", CompositeOp::Cross, 2},
    {"length", CompositeOp::Length, 1},  {"length_sq", CompositeOp::LengthSq, 1},
    {"normalize", CompositeOp::Normalize, 1}, {"outer", CompositeOp::Outer, 2},
    {"transpose", CompositeOp::Transpose, 1}, {"trace", CompositeOp::Trace, 1},
    {"diag", CompositeOp::Diag, 1},      {"get_diag", CompositeOp::GetDiag, 1},
    {"cw_mul", CompositeOp::CwMul, 2},   {"cw_div", CompositeOp::CwDiv, 2},
    {"min", CompositeOp::Min, 2},        {"max", CompositeOp::Max, 2},
    {"abs", CompositeOp::Abs, 1},        {"mul", CompositeOp::MatMul, 2},
    {"add", CompositeOp::Add, 2},        {"sub", CompositeOp::Sub, 2},
    {"neg", CompositeOp::Neg, 1},        {"identity", CompositeOp::Identity, 2},
    {"bit_and", CompositeOp::BitAnd, 2}, {"bit_or", CompositeOp::BitOr, 2},
    {"bit_xor", CompositeOp::BitXor, 2}, {"lshift", CompositeOp::Shl, 2},
    {"rshift", CompositeOp::Shr, 2},     {"invert", CompositeOp::BitNot, 1},
};


}  // namespace

std::string_view CompositeOpName(CompositeOp op) {
  switch (op) {
    case CompositeOp::Construct: return "construct";
    case CompositeOp::Fill: return "fill";
    case CompositeOp::Component: return "component";
    case CompositeOp::Row: return "row";
    case CompositeOp::Part: return "part";
    case CompositeOp::Add: return "add";
    case CompositeOp::Sub: return "sub";
    case CompositeOp::Neg: return "neg";
    case CompositeOp::Scale: return "scale";
    case CompositeOp::Divide: return "divide";
    case CompositeOp::MatMul: return "matmul";
    case CompositeOp::QuatMul: return "quat_mul";
    case CompositeOp::Equal: return "equal";
    case CompositeOp::NotEqual: return "not_equal";
    case CompositeOp::Dot: return "dot";
    case CompositeOp::Cross: return "cross";
    case CompositeOp::Length: return "length";
    case CompositeOp::LengthSq: return "length_sq";
    case CompositeOp::Normalize: return "normalize";
    case CompositeOp::Outer: return "outer";
    case CompositeOp::Transpose: return "transpose";
    case CompositeOp::Trace: return "trace";
    case CompositeOp::Diag: return "diag";
    case CompositeOp::GetDiag: return "get_diag";
    case CompositeOp::CwMul: return "cw_mul";
    case CompositeOp::CwDiv: return "cw_div";
    case CompositeOp::Min: return "min";
    case CompositeOp::Max: return "max";
    case CompositeOp::Abs: return "abs";
    case CompositeOp::MinComponent: return "min_component";
    case CompositeOp::MaxComponent: return "max_component";
    case CompositeOp::ScalarDivide: return "scalar_divide";
    case CompositeOp::BitAnd: return "bit_and";
    case CompositeOp::BitOr: return "bit_or";
    case CompositeOp::BitXor: return "bit_xor";
    case CompositeOp::Shl: return "lshift";
    case CompositeOp::Shr: return "rshift";
    case CompositeOp::BitNot: return "invert";
    case CompositeOp::Identity: return "identity";
  }
  return "?";
}

int CompositeFnIndex(const std::string& name) {
  for (const CompositeFn& f : kFns)
    if (name == f.name) return int(f.op);
  return -1;
}

int Checker::CompositeStruct(const Composite& c) {
  for (size_t i = 0; i < out_.structs.size(); ++i)
    if (out_.structs[i].composite == c) return int(i);
  int index = int(out_.structs.size());
  StructInfo si;
  si.name = CompositeName(c);
  si.composite = c;
  uint32_t es = uint32_t(ScalarSize(c.scalar));
  for (int i = 0; i < c.length(); ++i) {
    FieldInfo f;
    f.name = CompositeFieldName(c, i);
    f.type = types_.Scalar(c.scalar);
    f.offset = uint32_t(i) * es;
    f.size = f.align = es;
    si.fields.push_back(f);
  }
  si.size = es * uint32_t(c.length());
  si.align = es;
  out_.structs.push_back(std::move(si));
  types_.SetStructName(index, out_.structs[index].name);
  return index;
}

const Type* Checker::CompositeType(const Composite& c) {
  int index = CompositeStruct(c);
  return types_.Struct(index, out_.structs[index].name);
}

const Composite* Checker::CompositeOf(const Type* t) const {
  if (!t || t->kind != TypeKind::Struct) return nullptr;
  const Composite& c = out_.structs[t->struct_index].composite;
  return c.valid() ? &c : nullptr;
}

ExprInfo Checker::CompositeResult(const ast::Expr* node, CallInfo ci, const Type* type,
                                  const std::vector<ExprInfo>& operands) {
  ci.kind = CallInfo::Kind::Composite;
  if (aug_) out_.aug_call[aug_] = std::move(ci);
  else out_.call_info[node] = std::move(ci);
  ExprInfo r;
  r.type = type;
  for (const ExprInfo& o : operands) r.uniform &= o.uniform;
  r.provenance = Provenance{"`" + Text(node) + "` is computed at run time", node->range, true};
  return r;
}

// A scalar operand of a composite operation: a weak literal takes the component type, a typed
// scalar must already have it (Warp does not convert implicitly either).
bool Checker::CompositeScalarOperand(const ast::Expr* e, ExprInfo& info, ScalarType s, const std::string& what) {
  if (!info.type->IsScalar()) return false;
  const Type* want = types_.Scalar(s);
  if (info.type == want) return true;
  if (info.weak && Convert(e, info, want)) return true;
  Error(Code::OperandTypeMismatch, e->range,
        what + " needs a `" + std::string(ScalarName(s)) + "` scalar, found `" + TypeName(info.type) +
            "`; convert it explicitly, e.g. `wp." + std::string(ScalarName(s)) + "(...)`");
  return false;
}

ExprInfo Checker::CompositeCtor(const ast::Call& c, const Type* t, std::vector<CallArg>& args) {
  const Composite& k = *CompositeOf(t);
  std::string name = "`" + TypeName(t) + "`";
  for (const CallArg& a : args)
    if (!a.keyword.empty()) {
      Error(Code::UnknownKeyword, a.name_range, name + " takes its components positionally");
      return Poison();
    }
  CallInfo ci;
  std::vector<ExprInfo> infos;
  for (CallArg& a : args) {
    ci.args.push_back(a.expr);
    infos.push_back(a.info);
  }
  if (args.empty()) return CompositeResult(&c, ci, t, infos);
  ScalarType s = k.scalar;
  // Constructors convert their numbers (wp.vec3(1, 2, 3), wp.vec3f(wp.float64(x))): lowering
  // casts typed ones; a literal takes the component type here, so it is never rounded twice.
  auto convert_scalar = [&](CallArg& a) {
    if (!a.info.type->IsNumeric() && !a.info.weak) return false;
    if (a.info.weak) Convert(a.expr, a.info, types_.Scalar(s));
    return true;
  };
  if (args.size() == 1 && args[0].info.type->IsScalar()) {
    if (!convert_scalar(args[0])) {
      Error(Code::CompositeArgs, args[0].range, name + " takes numbers, found `" + TypeName(args[0].info.type) + "`");
      return Poison();
    }
    ci.composite = k.length() == 1 ? CompositeOp::Construct : CompositeOp::Fill;
    return FoldModuleComposite(CompositeResult(&c, ci, t, infos), t, args);
  }
  int total = 0;
  for (CallArg& a : args)
    if (a.info.type->IsError()) return Poison();  // reported where it arose
  for (CallArg& a : args) {
    if (const Composite* ak = CompositeOf(a.info.type)) {
      if (k.is_matrix() && args.size() > 1) {
        Error(Code::CompositeArgs, a.range,
              name + " takes its components as scalars (Warp builds matrices from vectors with "
                     "`wp.matrix_from_rows` or `wp.matrix_from_cols`)");
        return Poison();
      }
      total += ak->length();
    } else if (a.info.type->IsScalar() && convert_scalar(a)) {
      total += 1;
    } else {
      Error(Code::CompositeArgs, a.range, name + " takes numbers or vectors, found `" + TypeName(a.info.type) + "`");
      return Poison();
    }
  }
  if (total != k.length()) {
    Error(Code::CompositeArgs, c.range,
          name + " has " + std::to_string(k.length()) + " components but the arguments give " +
              std::to_string(total));
    return Poison();
  }
  ci.composite = CompositeOp::Construct;
  return FoldModuleComposite(CompositeResult(&c, ci, t, infos), t, args);
}

// A constructor of numbers (or of constant vectors) at module scope is a module constant, which
// kernels read as a compile-time value (Warp captures any value-type global). In a function body
// it stays a runtime value: a local assigned from it may have components assigned later.
ExprInfo Checker::FoldModuleComposite(ExprInfo r, const Type* t, const std::vector<CallArg>& args) {
  if (fn_ || r.type != t) return r;
  const Composite& k = *CompositeOf(t);
  std::vector<ConstValue> comps;
  for (const CallArg& a : args) {
    if (!a.info.value) return r;
    if (a.info.value->kind == ConstValue::Kind::Composite) {
      for (const ConstValue& e : a.info.value->elems) comps.push_back(e);
    } else if (a.info.value->IsNumber()) {
      comps.push_back(*a.info.value);
    } else {
      return r;
    }
  }
  if (comps.size() == 1) comps.assign(size_t(k.length()), comps[0]);
  if (int(comps.size()) != k.length()) return r;
  // Each component as the component type holds it (an int vector truncates, a bool one tests).
  for (ConstValue& e : comps) {
    if (IsFloat(k.scalar)) e = InScalarType(e, k.scalar);
    else if (k.scalar == ScalarType::Bool) e = ConstValue::MakeBool(e.Truthy());
    else e = ConstValue::MakeInt(e.AsInt());
  }
  r.value = ConstValue::MakeComposite(t, std::move(comps));
  r.provenance.reset();
  return r;
}

// Components of a constant vector or matrix read with constant indices (`C[1]`, `M[0, 1]`,
// `M[0]`, `C.x`, `X.p`) are constants too.
static void FoldComponents(ExprInfo& r, const ExprInfo& base, int64_t first, int64_t count, int64_t step = 1) {
  if (!base.value || base.value->kind != ConstValue::Kind::Composite) return;
  const int64_t last = first + (count - 1) * step, n = int64_t(base.value->elems.size());
  if (first < 0 || first >= n || last < 0 || last >= n) return;
  if (r.type->IsScalar()) {
    r.value = base.value->elems[size_t(first)];
  } else {
    std::vector<ConstValue> part;
    for (int64_t j = 0; j < count; ++j) part.push_back(base.value->elems[size_t(first + j * step)]);
    r.value = ConstValue::MakeComposite(r.type, std::move(part));
  }
  r.weak = false;
  r.provenance.reset();
}

ExprInfo Checker::CompositeAttribute(const ast::Attribute& a, const ExprInfo& base) {
  const Composite& k = *CompositeOf(base.type);
  CallInfo ci;
  ci.args = {a.value.get()};
  if (k.kind == CompositeKind::Transform && (a.attr == "p" || a.attr == "q")) {
    ci.composite = CompositeOp::Part;
    ci.index = a.attr == "p" ? 0 : 3;
    ci.count = a.attr == "p" ? 3 : 4;
    const Type* t = a.attr == "p" ? CompositeType(Composite::Vector(3, k.scalar)) : CompositeType(Composite::Quat(k.scalar));
    ExprInfo r = CompositeResult(&a, ci, t, {base});
    FoldComponents(r, base, ci.index, ci.count);
    return r;
  }
  int i = a.attr.size() == 1 ? SwizzleIndex(a.attr[0]) : -1;
  bool xyzw = (k.kind == CompositeKind::Vector && k.rows <= 4) || k.kind == CompositeKind::Quaternion;
  if (i < 0 || !xyzw || i >= k.length()) {
    Error(Code::UnknownAttribute, a.attr_range,
          "`" + TypeName(base.type) + "` has no attribute `" + a.attr + "`" +
              (k.kind == CompositeKind::Transform ? " (expected `p` or `q`)"
               : xyzw ? " (expected one of `" + std::string("xyzw").substr(0, size_t(k.length())) + "`)"
                      : " (index its components, e.g. `v[0]`)"));
    return Poison();
  }
  ci.composite = CompositeOp::Component;
  ci.index = i;
  ExprInfo r = CompositeResult(&a, ci, types_.Scalar(k.scalar), {base});
  FoldComponents(r, base, i, 1);
  return r;
}

ExprInfo Checker::VectorSlice(const ast::Subscript& s, const ExprInfo& base, const ast::Slice& sl) {
  const Composite& k = *CompositeOf(base.type);
  const int64_t n = k.length();
  // Python's slice of n items, its bounds and step compile-time ints (Warp's vector slices).
  std::optional<int64_t> parts[3];
  const ast::Expr* exprs[3] = {sl.lower.get(), sl.upper.get(), sl.step.get()};
  for (int p = 0; p < 3; ++p) {
    if (!exprs[p]) continue;
    ExprInfo pi = CheckExpr(exprs[p]);
    if (pi.type->IsError()) return Poison();
    if (!pi.value || pi.value->kind != ConstValue::Kind::Int) {
      Error(Code::NotConstant, exprs[p]->range,
            "a slice of `" + TypeName(base.type) + "` needs compile-time integer bounds, found `" + Text(exprs[p]) + "`");
      return Poison();
    }
    parts[p] = pi.value->i;
  }
  const int64_t step = parts[2].value_or(1);
  if (step == 0) {
    Error(Code::BadIndex, exprs[2]->range, "slice step cannot be zero");
    return Poison();
  }
  // Python's slice.indices(n): bounds clamped to [0, n] going forwards, [-1, n - 1] backwards.
  auto bound = [&](std::optional<int64_t> v, bool upper) {
    if (!v) return step > 0 ? (upper ? n : 0) : (upper ? int64_t(-1) : n - 1);
    int64_t x = *v < 0 ? *v + n : *v;
    return step > 0 ? std::clamp<int64_t>(x, 0, n) : std::clamp<int64_t>(x, -1, n - 1);
  };
  const int64_t lo = bound(parts[0], false), hi = bound(parts[1], true);
  const int64_t count = step > 0 ? (hi > lo ? (hi - lo + step - 1) / step : 0) : (lo > hi ? (lo - hi - step - 1) / -step : 0);
  if (count == 0) {
    Error(Code::BadIndex, s.index->range,
          "the slice `" + Text(s.index.get()) + "` of `" + TypeName(base.type) + "` holds no components");
    return Poison();
  }
  CallInfo ci;
  ci.composite = CompositeOp::Part;
  ci.args = {s.value.get()};
  ci.index = lo;
  ci.count = count;
  ci.step = step;
  ExprInfo r = CompositeResult(&s, ci, CompositeType(Composite::Vector(int(count), k.scalar)), {base});
  FoldComponents(r, base, ci.index, ci.count, ci.step);
  return r;
}

ExprInfo Checker::CompositeSubscript(const ast::Subscript& s, const ExprInfo& base,
                                     const std::vector<const ast::Expr*>& idx, std::vector<ExprInfo>& infos) {
  const Composite& k = *CompositeOf(base.type);
  std::string tname = "`" + TypeName(base.type) + "`";
  int want = k.is_matrix() ? 2 : 1;
  if (int(idx.size()) > want || idx.empty()) {
    Error(Code::BadIndex, s.index->range,
          tname + " takes " + (k.is_matrix() ? "one or two indices (`m[i]` a row, `m[i, j]` an element)" : "one index"));
    return Poison();
  }
  std::vector<int64_t> consts;
  bool all_const = true;
  for (size_t d = 0; d < idx.size(); ++d) {
    ExprInfo& ii = infos[d];
    if (!ii.type->IsInt() && !Convert(idx[d], ii, types_.Int32())) {
      Error(Code::BadIndex, idx[d]->range, "a component index must be an integer, found `" + TypeName(ii.type) + "`");
      return Poison();
    }
    int64_t extent = k.is_matrix() ? (d == 0 ? k.rows : k.cols) : k.length();
    if (ii.value) {
      int64_t v = ii.value->AsInt();
      if (v < -extent || v >= extent) {
        Error(Code::BadIndex, idx[d]->range,
              "index " + std::to_string(v) + " is out of range for " + tname + " (" + std::to_string(extent) +
                  (d == 0 && k.is_matrix() ? " rows)" : k.is_matrix() ? " columns)" : " components)"));
        return Poison();
      }
      consts.push_back(v < 0 ? v + extent : v);
    } else {
      all_const = false;
    }
  }
  CallInfo ci;
  ci.args = {s.value.get()};
  std::vector<ExprInfo> ops = {base};
  for (size_t d = 0; d < idx.size(); ++d) ops.push_back(infos[d]);
  bool row = k.is_matrix() && idx.size() == 1;
  ci.composite = row ? CompositeOp::Row : CompositeOp::Component;
  if (all_const) {
    ci.index = row ? consts[0] : (k.is_matrix() ? consts[0] * k.cols + consts[1] : consts[0]);
  } else {
    for (const ast::Expr* e : idx) ci.args.push_back(e);
  }
  const Type* t = row ? CompositeType(Composite::Vector(k.cols, k.scalar)) : types_.Scalar(k.scalar);
  ExprInfo r = CompositeResult(&s, ci, t, ops);
  if (all_const) FoldComponents(r, base, row ? ci.index * k.cols : ci.index, row ? k.cols : 1);
  return r;
}

// Element-wise arithmetic on float constants at module scope (`D = C * 2.0`, `E = C + D`,
// `-C`) folds to a constant, each component rounded once to the component type, as Warp's host
// vector arithmetic computes it. Products of matrices and other builtins stay host code.
static std::optional<ConstValue> FoldElementwise(CompositeOp op, const Type* t, const Composite& k,
                                                 const std::vector<const ExprInfo*>& in) {
  if (!IsFloat(k.scalar)) return std::nullopt;
  for (const ExprInfo* e : in)
    if (!e->value || (e->value->kind != ConstValue::Kind::Composite && !e->value->IsNumber())) return std::nullopt;
  auto comp = [&](const ExprInfo* e, size_t i) {
    const ConstValue& v = *e->value;
    return InScalarType(v.kind == ConstValue::Kind::Composite ? v.elems[i] : v, k.scalar).AsDouble();
  };
  std::vector<ConstValue> out;
  for (size_t i = 0; i < size_t(k.length()); ++i) {
    const double x = comp(in[0], i);
    double r;
    if (op == CompositeOp::Neg) r = -x;
    else if (op == CompositeOp::Add) r = x + comp(in[1], i);
    else if (op == CompositeOp::Sub) r = x - comp(in[1], i);
    else if (op == CompositeOp::Scale) r = x * comp(in[1], i);
    else if (op == CompositeOp::Divide || op == CompositeOp::ScalarDivide) r = x / comp(in[1], i);
    else return std::nullopt;
    out.push_back(InScalarType(ConstValue::MakeFloat(r), k.scalar));
  }
  return ConstValue::MakeComposite(t, std::move(out));
}

ExprInfo Checker::FoldModuleElementwise(ExprInfo r, CompositeOp op, const std::vector<const ExprInfo*>& in) {
  const Composite* k = CompositeOf(r.type);
  if (fn_ || !k || r.type->IsError()) return r;
  if (std::optional<ConstValue> v = FoldElementwise(op, r.type, *k, in)) {
    r.value = std::move(v);
    r.provenance.reset();
  }
  return r;
}

ExprInfo Checker::CompositeUnary(const ast::Unary& u, const ExprInfo& v) {
  if (u.op == ast::UnaryOp::Pos) return v;
  if (const Composite* k = CompositeOf(v.type); u.op == ast::UnaryOp::Invert && k && IsInteger(k->scalar)) {
    // ~v: Warp's bitwise not of each component of an integer vector or matrix.
    CallInfo ci;
    ci.composite = CompositeOp::BitNot;
    ci.args = {u.operand.get()};
    return CompositeResult(&u, ci, v.type, {v});
  }
  if (u.op != ast::UnaryOp::Neg) {
    Error(Code::InvalidOperand, u.range,
          std::string("unary `") + ast::Spelling(u.op) + "` is not defined for `" + TypeName(v.type) + "`");
    return Poison();
  }
  CallInfo ci;
  ci.composite = CompositeOp::Neg;
  ci.args = {u.operand.get()};
  return FoldModuleElementwise(CompositeResult(&u, ci, v.type, {v}), CompositeOp::Neg, {&v});
}

ExprInfo Checker::CompositeBinary(const ast::Expr* node, ast::BinaryOp op, SourceRange op_range, const ast::Expr* l,
                                  ExprInfo li, const ast::Expr* r, ExprInfo ri) {
  const Composite* lk = CompositeOf(li.type);
  const Composite* rk = CompositeOf(ri.type);
  std::string sp = ast::Spelling(op);
  auto undefined = [&]() {
    Error(Code::InvalidOperand, op_range,
          "`" + sp + "` is not defined for `" + TypeName(li.type) + "` and `" + TypeName(ri.type) + "`");
    return Poison();
  };
  CallInfo ci;
  // The bitwise operators: two values of one integer vector or matrix type, component by
  // component (Warp's bit_and, bit_or, bit_xor, lshift and rshift).
  std::optional<CompositeOp> bitwise;
  switch (op) {
    case ast::BinaryOp::BitAnd: bitwise = CompositeOp::BitAnd; break;
    case ast::BinaryOp::BitOr: bitwise = CompositeOp::BitOr; break;
    case ast::BinaryOp::BitXor: bitwise = CompositeOp::BitXor; break;
    case ast::BinaryOp::LShift: bitwise = CompositeOp::Shl; break;
    case ast::BinaryOp::RShift: bitwise = CompositeOp::Shr; break;
    default: break;
  }
  if (bitwise) {
    if (!lk || !rk || li.type != ri.type || !IsInteger(lk->scalar)) return undefined();
    ci.composite = *bitwise;
    ci.args = {l, r};
    return CompositeResult(node, ci, li.type, {li, ri});
  }
  if ((op == ast::BinaryOp::Add || op == ast::BinaryOp::Sub) && lk && rk) {
    if (li.type != ri.type) return undefined();
    ci.composite = op == ast::BinaryOp::Add ? CompositeOp::Add : CompositeOp::Sub;
    ci.args = {l, r};
    CompositeOp cop = ci.composite;
    return FoldModuleElementwise(CompositeResult(node, ci, li.type, {li, ri}), cop, {&li, &ri});
  }
  if (op == ast::BinaryOp::Mul && lk && rk) {
    if (lk->scalar != rk->scalar) return undefined();
    if (lk->kind == CompositeKind::Quaternion && rk->kind == CompositeKind::Quaternion) {
      ci.composite = CompositeOp::QuatMul;
      ci.args = {l, r};
      return CompositeResult(node, ci, li.type, {li, ri});
    }
    if (lk->kind == CompositeKind::Transform && rk->kind == CompositeKind::Transform) {
      // Warp's transform product is transform_multiply, a prelude function.
      std::vector<CallArg> args = {{l, li, "", l->range, {}}, {r, ri, "", r->range, {}}};
      return CallPrelude("transform_multiply", node, op_range, args);
    }
    const Type* t = nullptr;
    if (lk->is_matrix() && rk->is_matrix() && lk->cols == rk->rows)
      t = CompositeType(Composite::Matrix(lk->rows, rk->cols, lk->scalar));
    else if (lk->is_matrix() && rk->is_vector_like() && lk->cols == rk->length())
      t = CompositeType(Composite::Vector(lk->rows, lk->scalar));
    else if (lk->is_vector_like() && rk->is_matrix() && lk->length() == rk->rows)
      t = CompositeType(Composite::Vector(rk->cols, lk->scalar));
    if (!t) return undefined();
    ci.composite = CompositeOp::MatMul;
    ci.args = {l, r};
    return CompositeResult(node, ci, t, {li, ri});
  }
  if (op == ast::BinaryOp::Div && !lk && rk && (rk->is_vector_like() || rk->is_matrix()) && li.type->IsScalar()) {
    // s / v: Warp's component-wise division of a scalar by a vector or matrix.
    if (!CompositeScalarOperand(l, li, rk->scalar, "`/` with `" + TypeName(ri.type) + "`")) return Poison();
    ci.composite = CompositeOp::ScalarDivide;
    ci.args = {l, r};
    return FoldModuleElementwise(CompositeResult(node, ci, ri.type, {li, ri}), CompositeOp::ScalarDivide, {&li, &ri});
  }
  if ((op == ast::BinaryOp::Mul && (lk || rk)) || (op == ast::BinaryOp::Div && lk && !rk)) {
    bool comp_left = lk != nullptr;
    const ast::Expr* ce = comp_left ? l : r;
    const ast::Expr* se = comp_left ? r : l;
    ExprInfo& cinfo = comp_left ? li : ri;
    ExprInfo& sinfo = comp_left ? ri : li;
    if (!sinfo.type->IsScalar()) return undefined();
    if (!CompositeScalarOperand(se, sinfo, (lk ? lk : rk)->scalar, "`" + sp + "` with `" + TypeName(cinfo.type) + "`"))
      return Poison();
    ci.composite = op == ast::BinaryOp::Mul ? CompositeOp::Scale : CompositeOp::Divide;
    ci.args = {ce, se};
    CompositeOp cop = ci.composite;
    return FoldModuleElementwise(CompositeResult(node, ci, cinfo.type, {cinfo, sinfo}), cop, {&cinfo, &sinfo});
  }
  return undefined();
}

ExprInfo Checker::GenericCompositeType(const ast::Call& c, bool matrix) {
  std::string name = matrix ? "`wp.types.matrix`" : "`wp.types.vector`";
  const char* size_kw = matrix ? "shape" : "length";
  std::optional<ConstValue> size, dtype;
  for (size_t i = 0; i < c.args.size(); ++i) {
    ExprInfo v = CheckExpr(c.args[i].get());
    (i == 0 ? size : dtype) = v.value;
  }
  for (const ast::Keyword& kw : c.keywords) {
    ExprInfo v = CheckExpr(kw.value.get());
    if (kw.name == size_kw) size = v.value;
    else if (kw.name == "dtype") dtype = v.value;
    else {
      Error(Code::UnknownKeyword, kw.name_range, name + " takes `" + size_kw + "` and `dtype`");
      return Poison();
    }
  }
  auto dim = [](const ConstValue& v) { return v.kind == ConstValue::Kind::Int && v.i >= 1 && v.i <= 64 ? int(v.i) : 0; };
  int rows = 0, cols = 1;
  if (size && !matrix) rows = dim(*size);
  if (size && matrix && size->kind == ConstValue::Kind::Tuple && size->elems.size() == 2) {
    rows = dim(size->elems[0]);
    cols = dim(size->elems[1]);
  }
  ScalarType s = ScalarType::Float32;
  bool dtype_ok = !dtype || (dtype->kind == ConstValue::Kind::Type && dtype->type->IsNumeric());
  if (dtype && dtype_ok) s = dtype->type->scalar;
  if (rows == 0 || cols == 0 || !dtype_ok) {
    Error(Code::CompositeArgs, c.range,
          name + " needs `" + size_kw + "` (" + (matrix ? "a constant (rows, cols)" : "a constant length") +
              ") and a numeric `dtype`");
    return Poison();
  }
  const Type* t = CompositeType(matrix ? Composite::Matrix(rows, cols, s) : Composite::Vector(rows, s));
  return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
}

// wp.vector(*values, length=, dtype=), wp.matrix(*values, shape=, dtype=) and
// wp.quaternion(*values, dtype=): Warp's generic constructors, whose type comes from the
// keywords or else from the first value (a literal: float32 or int32). No values: zeros; one
// number with a length or shape: filled. They then build as the named type's constructor.
ExprInfo Checker::GenericCompositeValue(const ast::Call& c, const std::string& which) {
  const std::string name = "`wp." + which + "`";
  const bool matrix = which == "matrix", quat = which == "quaternion";
  std::vector<CallArg> values;
  for (const ast::ExprPtr& a : c.args) values.push_back(CallArg{a.get(), CheckExpr(a.get()), "", a->range, {}});
  std::optional<ConstValue> size, dtype;
  bool has_size = false;
  for (const ast::Keyword& kw : c.keywords) {
    ExprInfo v = CheckExpr(kw.value.get());
    if (kw.name == "dtype") {
      dtype = v.value;
    } else if (!quat && kw.name == (matrix ? "shape" : "length")) {
      size = v.value;
      has_size = true;
    } else {
      Error(Code::UnknownKeyword, kw.name_range,
            name + " takes its values and " + (quat ? "`dtype`" : matrix ? "`shape` and `dtype`" : "`length` and `dtype`"));
      return Poison();
    }
  }
  for (const CallArg& a : values) {
    if (a.info.type->IsError()) return Poison();
    const bool vector_part = quat && values.size() == 2 && &a == &values[0] && CompositeOf(a.info.type);
    if (!a.info.type->IsScalar() && !vector_part) {
      Error(Code::CompositeArgs, a.range, name + " takes numbers, found `" + TypeName(a.info.type) + "`");
      return Poison();
    }
  }
  ScalarType s = ScalarType::Float32;
  if (dtype) {
    if (dtype->kind != ConstValue::Kind::Type || !dtype->type->IsNumeric()) {
      Error(Code::CompositeArgs, c.range, name + " needs a numeric `dtype`");
      return Poison();
    }
    s = dtype->type->scalar;
  } else if (!values.empty()) {
    const Type* first = values[0].info.type;
    if (const Composite* k = CompositeOf(first)) s = k->scalar;
    else if (values[0].info.weak) s = first->IsFloatScalar() ? ScalarType::Float32 : ScalarType::Int32;
    else s = first->scalar;
  }
  auto dim = [](const ConstValue& v) { return v.kind == ConstValue::Kind::Int && v.i >= 1 && v.i <= 64 ? int(v.i) : 0; };
  Composite k;
  if (quat) {
    k = Composite::Quat(s);
  } else if (matrix) {
    int rows = 0, cols = 0;
    if (size && size->kind == ConstValue::Kind::Tuple && size->elems.size() == 2) {
      rows = dim(size->elems[0]);
      cols = dim(size->elems[1]);
    }
    if (rows == 0 || cols == 0) {
      Error(Code::CompositeArgs, c.range, name + " needs `shape`, a constant (rows, cols)");
      return Poison();
    }
    k = Composite::Matrix(rows, cols, s);
  } else {
    int n = has_size ? (size ? dim(*size) : 0) : int(values.size());
    if (n == 0) {
      Error(Code::CompositeArgs, c.range, name + " needs values or `length`, a constant from 1 to 64");
      return Poison();
    }
    k = Composite::Vector(n, s);
  }
  if (!IsFloat(k.scalar) && !k.is_vector_like()) {
    Error(Code::CompositeArgs, c.range, name + " of `" + std::string(ScalarName(s)) + "` values is not a Warp type");
    return Poison();
  }
  return CompositeCtor(c, CompositeType(k), values);
}

ExprInfo Checker::IdentityCall(const ast::Expr* node, const std::string& bname, std::vector<CallArg>& args) {
  const CallArg* n = nullptr;
  const CallArg* dtype = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& kw = args[i].keyword;
    if ((kw.empty() && i == 0) || kw == "n") n = &args[i];
    else if ((kw.empty() && i == 1) || kw == "dtype") dtype = &args[i];
    else {
      Error(Code::UnknownKeyword, args[i].keyword.empty() ? args[i].range : args[i].name_range,
            bname + " takes `n` and `dtype`");
      return Poison();
    }
  }
  if (!n || !n->info.value || n->info.value->kind != ConstValue::Kind::Int || n->info.value->i < 1 || n->info.value->i > 9) {
    Error(Code::CompositeArgs, n ? n->range : node->range, bname + " needs `n`, a constant size from 1 to 9");
    return Poison();
  }
  ScalarType s = ScalarType::Float32;
  if (dtype) {
    if (!dtype->info.value || dtype->info.value->kind != ConstValue::Kind::Type || !dtype->info.value->type->IsFloatScalar()) {
      Error(Code::CompositeArgs, dtype->range, bname + " needs `dtype`, a float type");
      return Poison();
    }
    s = dtype->info.value->type->scalar;
  }
  CallInfo ci;
  ci.composite = CompositeOp::Identity;
  ci.index = n->info.value->i;
  return CompositeResult(node, ci, CompositeType(Composite::Matrix(int(ci.index), int(ci.index), s)), {});
}

ExprInfo Checker::CompositeCompare(const ast::Compare& c, const ExprInfo& l, const ExprInfo& r) {
  if (c.ops.size() != 1 || (c.ops[0] != ast::CmpOp::Eq && c.ops[0] != ast::CmpOp::NotEq) || l.type != r.type) {
    Error(Code::InvalidOperand, c.range,
          "only `==` and `!=` compare `" + TypeName(l.type) + "` values, and only with the same type (found `" +
              TypeName(r.type) + "`)");
    return Poison();
  }
  CallInfo ci;
  ci.composite = c.ops[0] == ast::CmpOp::Eq ? CompositeOp::Equal : CompositeOp::NotEqual;
  ci.args = {c.left.get(), c.comparators[0].get()};
  return CompositeResult(&c, ci, types_.Bool(), {l, r});
}

ExprInfo Checker::CompositeCall(CompositeOp op, const ast::Expr* node, const std::string& fname,
                                std::vector<CallArg>& args) {
  int arity = 0;
  for (const CompositeFn& f : kFns)
    if (f.op == op) arity = f.arity;
  std::string bname = "`wp." + fname + "`";
  if (op == CompositeOp::Identity) return IdentityCall(node, bname, args);
  if ((op == CompositeOp::Min || op == CompositeOp::Max) && args.size() == 1 && args[0].keyword.empty()) {
    // wp.min(v) / wp.max(v): the smallest or largest component.
    const Composite* k = CompositeOf(args[0].info.type);
    if (!k || !k->is_vector_like()) {
      Error(Code::CompositeArgs, node->range, bname + " of one argument takes a vector, found `" + TypeName(args[0].info.type) + "`");
      return Poison();
    }
    CallInfo ci;
    ci.composite = op == CompositeOp::Min ? CompositeOp::MinComponent : CompositeOp::MaxComponent;
    ci.args = {args[0].expr};
    return CompositeResult(node, ci, types_.Scalar(k->scalar), {args[0].info});
  }
  if (int(args.size()) != arity) {
    Error(Code::CompositeArgs, node->range,
          bname + " takes " + std::to_string(arity) + " argument" + (arity == 1 ? "" : "s") + ", got " +
              std::to_string(args.size()));
    return Poison();
  }
  for (const CallArg& a : args)
    if (!a.keyword.empty()) {
      Error(Code::UnknownKeyword, a.name_range, bname + " takes its arguments positionally");
      return Poison();
    }
  std::vector<ExprInfo> infos;
  CallInfo ci;
  ci.composite = op;
  for (CallArg& a : args) {
    infos.push_back(a.info);
    ci.args.push_back(a.expr);
  }
  const Composite* a = CompositeOf(args[0].info.type);
  const Composite* b = arity > 1 ? CompositeOf(args[1].info.type) : nullptr;
  auto bad = [&](const std::string& what) {
    std::string found;
    for (size_t i = 0; i < args.size(); ++i) found += (i ? "`, `" : "") + TypeName(args[i].info.type);
    Error(Code::CompositeArgs, node->range, bname + " takes " + what + ", found `" + found + "`");
    return Poison();
  };
  bool same = a && (arity == 1 || args[0].info.type == args[1].info.type);
  switch (op) {
    case CompositeOp::Dot:
      if (!same || !a->is_vector_like()) return bad("two vectors of one type");
      return CompositeResult(node, ci, types_.Scalar(a->scalar), infos);
    case CompositeOp::Cross:
      if (!same || a->kind != CompositeKind::Vector || a->rows != 3) return bad("two 3-vectors of one type");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::Length:
    case CompositeOp::LengthSq:
      if (!a || !a->is_vector_like() || (op == CompositeOp::Length && !IsFloat(a->scalar)))
        return bad(op == CompositeOp::Length ? "a floating-point vector" : "a vector");
      return CompositeResult(node, ci, types_.Scalar(a->scalar), infos);
    case CompositeOp::Normalize:
      if (!a || !a->is_vector_like() || !IsFloat(a->scalar)) return bad("a floating-point vector or quaternion");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::Outer:
      if (!a || !b || !a->is_vector_like() || !b->is_vector_like() || a->scalar != b->scalar)
        return bad("two vectors of one scalar type");
      return CompositeResult(node, ci, CompositeType(Composite::Matrix(a->length(), b->length(), a->scalar)), infos);
    case CompositeOp::Transpose:
      if (!a || !a->is_matrix()) return bad("a matrix");
      return CompositeResult(node, ci, CompositeType(Composite::Matrix(a->cols, a->rows, a->scalar)), infos);
    case CompositeOp::Trace:
    case CompositeOp::GetDiag:
      if (!a || !a->is_matrix() || a->rows != a->cols) return bad("a square matrix");
      return CompositeResult(node, ci,
                             op == CompositeOp::Trace ? types_.Scalar(a->scalar)
                                                      : CompositeType(Composite::Vector(a->rows, a->scalar)),
                             infos);
    case CompositeOp::Diag:
      if (!a || a->kind != CompositeKind::Vector && a->kind != CompositeKind::SpatialVector) return bad("a vector");
      return CompositeResult(node, ci, CompositeType(Composite::Matrix(a->length(), a->length(), a->scalar)), infos);
    case CompositeOp::CwMul:
    case CompositeOp::CwDiv:
    case CompositeOp::Min:
    case CompositeOp::Max:
    case CompositeOp::Add:
    case CompositeOp::Sub:
      if (!same) return bad("two values of one vector or matrix type");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::Abs:
    case CompositeOp::Neg:
      if (!a) return bad("a vector or matrix");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::BitAnd:
    case CompositeOp::BitOr:
    case CompositeOp::BitXor:
    case CompositeOp::Shl:
    case CompositeOp::Shr:
      if (!same || !IsInteger(a->scalar)) return bad("two values of one integer vector or matrix type");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::BitNot:
      if (!a || !IsInteger(a->scalar)) return bad("an integer vector or matrix");
      return CompositeResult(node, ci, args[0].info.type, infos);
    case CompositeOp::MatMul: {
      // wp.mul(a, b): the `*` operator's rules.
      return CompositeBinary(node, ast::BinaryOp::Mul, node->range, args[0].expr, args[0].info, args[1].expr,
                             args[1].info);
    }
    case CompositeOp::MinComponent:
    case CompositeOp::MaxComponent:
    case CompositeOp::ScalarDivide:
    case CompositeOp::Identity:
    case CompositeOp::Construct:
    case CompositeOp::Fill:
    case CompositeOp::Component:
    case CompositeOp::Row:
    case CompositeOp::Part:
    case CompositeOp::Scale:
    case CompositeOp::Divide:
    case CompositeOp::QuatMul:
    case CompositeOp::Equal:
    case CompositeOp::NotEqual:
      break;
  }
  return bad("arguments it accepts");
}

// wp.matrix_from_rows(r0, r1, ...): the matrix whose rows are the vectors, their components
// spliced row-major (a Construct); wp.matrix_from_cols(...) is its transpose, checked as
// `wp.transpose(wp.matrix_from_rows(...))`.
std::optional<ExprInfo> Checker::CheckMatrixFromVectors(const ast::Call& c) {
  const auto* fa = c.func->As<ast::Attribute>();
  const auto* base = fa ? fa->value->As<ast::Name>() : nullptr;
  if (!fn_ || !base || (fa->attr != "matrix_from_rows" && fa->attr != "matrix_from_cols")) return std::nullopt;
  auto it = scope_.find(base->id);
  if (it == scope_.end() || it->second.kind != ModuleEntry::Kind::Module || it->second.module != ModuleId::Warp)
    return std::nullopt;
  const std::string name = "`wp." + fa->attr + "`";
  if (!c.keywords.empty()) {
    Error(Code::UnknownKeyword, c.keywords[0].name_range, name + " takes its vectors positionally");
    return Poison();
  }
  if (fa->attr == "matrix_from_cols") {
    auto rows = std::make_unique<ast::Call>(c.range);
    rows->func = std::make_unique<ast::Attribute>(fa->range, ast::Clone(*fa->value), "matrix_from_rows", fa->attr_range);
    for (const ast::ExprPtr& a : c.args) rows->args.push_back(ast::Clone(*a));
    auto t = std::make_unique<ast::Call>(c.range);
    t->func = std::make_unique<ast::Attribute>(fa->range, ast::Clone(*fa->value), "transpose", fa->attr_range);
    t->args.push_back(std::move(rows));
    ExprInfo info = CheckExpr(t.get());
    out_.rewritten[&c] = std::move(t);
    return info;
  }
  if (c.args.empty()) {
    Error(Code::CompositeArgs, c.range, name + " needs at least one vector");
    return Poison();
  }
  CallInfo ci;
  std::vector<ExprInfo> infos;
  const Composite* first = nullptr;
  for (const ast::ExprPtr& a : c.args) {
    ExprInfo x = CheckExpr(a.get());
    if (x.type->IsError()) return Poison();
    const Composite* k = CompositeOf(x.type);
    if (!k || k->kind != CompositeKind::Vector) {
      Error(Code::CompositeArgs, a->range, name + " takes vectors, found `" + TypeName(x.type) + "`");
      return Poison();
    }
    if (first && !(*k == *first)) {
      Error(Code::CompositeArgs, a->range,
            name + " takes vectors of one type: `" + CompositeName(*first) + "` and `" + CompositeName(*k) + "`");
      return Poison();
    }
    first = first ? first : k;
    ci.args.push_back(a.get());
    infos.push_back(x);
  }
  ci.composite = CompositeOp::Construct;
  const Type* t = CompositeType(Composite::Matrix(int(c.args.size()), first->length(), first->scalar));
  return CompositeResult(&c, ci, t, infos);
}

// A type or function of the `wp` namespace by its name (`float16`, `vec3`, `length`).
std::optional<ExprInfo> Checker::WarpMember(const std::string& name) {
  if (name != "int" && name != "float" && name != "bool_")
    if (std::optional<ScalarType> s = ScalarFromName(name)) {
      const Type* t = types_.Scalar(*s);
      return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
    }
  if (std::optional<Composite> c = CompositeFromName(name)) {
    const Type* t = CompositeType(*c);
    return ConstInfo(ConstValue::MakeType(t), types_.TypeRef(t), false);
  }
  const Builtin* b = FindBuiltin("wp", name);
  if (b && (!b->test_only || options_.enable_test_builtins))
    return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Builtin, BuiltinIndex(b)}), false);
  if (int op = CompositeFnIndex(name); op >= 0)
    return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Composite, op}), false);
  if (int set = PreludeSet(name); set >= 0)
    return ConstInfo(ConstValue{}, types_.Function({CalleeKind::Overloads, set}), false);
  return std::nullopt;
}

}  // namespace tilec::sema
