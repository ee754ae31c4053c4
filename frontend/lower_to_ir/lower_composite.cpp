// Vector-like values (vec, mat, quat, transform, spatial) in Tile IR: structs of scalar fields,
// so every operation is its components' scalar ops between field_get and field_set. Sums run
// left to right from the first product, in Warp's order, so results round as Warp's do; and
// every op used has an adjoint, so the reverse pass needs nothing of its own.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

using ir::OpCode;
using sema::CompositeOp;

const Composite& Lowerer::CompositeOfValue(ir::Value* v) { return m_.structs()[v->type().elem.struct_index].composite; }

std::vector<ir::Value*> Lowerer::Components(ir::Value* v) {
  if (!v->type().is_struct()) return {v};
  std::vector<ir::Value*> out;
  int n = int(m_.structs()[v->type().elem.struct_index].fields.size());
  for (int i = 0; i < n; ++i) out.push_back(b_.FieldGet(v, i));
  return out;
}

ir::Value* Lowerer::BuildComposite(const ir::Type& t, const std::vector<ir::Value*>& comps) {
  ir::Value* v = b_.ZeroOf(t);
  const ir::StructDef& sd = m_.structs()[t.elem.struct_index];
  for (size_t i = 0; i < comps.size() && i < sd.fields.size(); ++i)
    v = b_.FieldSet(v, int(i), Convert(comps[i], ir::Type::Scalar(sd.composite.scalar)));
  return v;
}

namespace {
// a0*b0 + a1*b1 + ...: Warp's dot and matrix products, in this order.
ir::Value* SumOfProducts(ir::Builder& b, const std::vector<ir::Value*>& a, const std::vector<ir::Value*>& c) {
  ir::Value* acc = b.Binary(OpCode::Mul, a[0], c[0]);
  for (size_t k = 1; k < a.size(); ++k) acc = b.Binary(OpCode::Add, acc, b.Binary(OpCode::Mul, a[k], c[k]));
  return acc;
}
}  // namespace

// Component `index` (an int32 value) of `comps`: a chain of selects, so a loop variable can index
// a vector without memory. An index outside reads the last component.
ir::Value* Lowerer::SelectComponent(const std::vector<ir::Value*>& comps, ir::Value* index) {
  index = Convert(index, ir::Type::Scalar(ScalarType::Int32));
  ir::Value* r = comps.back();
  for (int k = int(comps.size()) - 2; k >= 0; --k)
    r = b_.Select(b_.Cmp(ir::CmpPred::Eq, index, b_.ConstInt(ScalarType::Int32, k)), comps[k], r);
  return r;
}

// The flat component index of a Component access: `index`, or computed from the runtime
// index values (one for a vector, row and column for a matrix).
ir::Value* Lowerer::CompositeIndex(int64_t index, const std::vector<ir::Value*>& idx, const Composite& k) {
  if (index >= 0) return b_.ConstInt(ScalarType::Int32, index);
  ir::Type i32 = ir::Type::Scalar(ScalarType::Int32);
  ir::Value* i = Convert(idx[0], i32);
  if (idx.size() > 1)
    i = b_.Binary(OpCode::Add, b_.Binary(OpCode::Mul, i, b_.ConstInt(ScalarType::Int32, k.cols)), Convert(idx[1], i32));
  return i;
}

sema::CompositeOp ComponentwiseOp(ir::OpCode op) {
  if (op == OpCode::Sub) return CompositeOp::Sub;
  if (op == OpCode::BitAnd) return CompositeOp::BitAnd;
  if (op == OpCode::BitOr) return CompositeOp::BitOr;
  if (op == OpCode::BitXor) return CompositeOp::BitXor;
  return CompositeOp::Add;
}

ir::Value* Lowerer::CompositeValue(const ast::Expr* e, const sema::CallInfo& ci) {
  ir::Type rt = IrType(cm_.TypeOf(e));
  std::vector<ir::Value*> x;
  for (const ast::Expr* a : ci.args) x.push_back(Expr(a));
  if (ir::Value* r = CompositeOfValues(ci.composite, x, rt, ci.index, ci.count, ci.step)) return r;
  Unsupported(e->range, "this vector operation");
  return ZeroValue(rt);
}

ir::Value* Lowerer::CompositeOfValues(sema::CompositeOp op, const std::vector<ir::Value*>& x, const ir::Type& rt,
                                      int64_t index, int64_t count, int64_t step) {
  auto operand = [&](size_t i) { return x[i]; };
  auto map2 = [&](OpCode o) {
    std::vector<ir::Value*> a = Components(operand(0)), c = Components(operand(1)), r;
    for (size_t k = 0; k < a.size(); ++k) r.push_back(b_.Binary(o, a[k], c[k]));
    return BuildComposite(rt, r);
  };
  auto map1 = [&](OpCode o) {
    std::vector<ir::Value*> a = Components(operand(0)), r;
    for (ir::Value* v : a) r.push_back(b_.Unary(o, v));
    return BuildComposite(rt, r);
  };
  switch (op) {
    case CompositeOp::Construct: {
      std::vector<ir::Value*> comps;
      for (ir::Value* a : x)
        for (ir::Value* c : Components(a)) comps.push_back(c);
      return BuildComposite(rt, comps);
    }
    case CompositeOp::Fill: {
      ir::Value* s = Convert(operand(0), ir::Type::Scalar(m_.structs()[rt.elem.struct_index].composite.scalar));
      int n = m_.structs()[rt.elem.struct_index].composite.length();
      return BuildComposite(rt, std::vector<ir::Value*>(size_t(n), s));
    }
    case CompositeOp::Component: {
      ir::Value* base = operand(0);
      if (index >= 0) return b_.FieldGet(base, int(index));
      return SelectComponent(Components(base), CompositeIndex(index, {x.begin() + 1, x.end()}, CompositeOfValue(base)));
    }
    case CompositeOp::Row: {
      ir::Value* base = operand(0);
      const Composite& k = CompositeOfValue(base);
      std::vector<ir::Value*> all = Components(base), row;
      if (index >= 0) {
        for (int j = 0; j < k.cols; ++j) row.push_back(all[size_t(index * k.cols + j)]);
      } else {
        ir::Value* r = Convert(x[1], ir::Type::Scalar(ScalarType::Int32));
        for (int j = 0; j < k.cols; ++j) {
          std::vector<ir::Value*> col;
          for (int i = 0; i < k.rows; ++i) col.push_back(all[size_t(i * k.cols + j)]);
          row.push_back(SelectComponent(col, r));
        }
      }
      return BuildComposite(rt, row);
    }
    case CompositeOp::Part: {
      std::vector<ir::Value*> all = Components(operand(0)), part;
      for (int64_t j = 0; j < count; ++j) part.push_back(all[size_t(index + j * step)]);
      return BuildComposite(rt, part);
    }
    case CompositeOp::Add:
      if (x.size() == 1) return operand(0);
      return map2(OpCode::Add);
    case CompositeOp::Sub: return map2(OpCode::Sub);
    case CompositeOp::CwMul: return map2(OpCode::Mul);
    case CompositeOp::CwDiv: return map2(OpCode::Div);
    case CompositeOp::Min: return map2(OpCode::Min);
    case CompositeOp::Max: return map2(OpCode::Max);
    case CompositeOp::Neg: return map1(OpCode::Neg);
    case CompositeOp::BitAnd: return map2(OpCode::BitAnd);
    case CompositeOp::BitOr: return map2(OpCode::BitOr);
    case CompositeOp::BitXor: return map2(OpCode::BitXor);
    case CompositeOp::Shl: return map2(OpCode::Shl);
    case CompositeOp::Shr: return map2(OpCode::Shr);
    case CompositeOp::BitNot: return map1(OpCode::BitNot);
    case CompositeOp::Abs: return map1(OpCode::Abs);
    case CompositeOp::Scale:
    case CompositeOp::Divide: {
      ir::Value* v = operand(0);
      ir::Value* s = Convert(operand(1), ir::Type::Scalar(CompositeOfValue(v).scalar));
      std::vector<ir::Value*> r;
      for (ir::Value* x : Components(v))
        r.push_back(op == CompositeOp::Scale ? b_.Binary(OpCode::Mul, x, s) : b_.Binary(OpCode::Div, x, s));
      return BuildComposite(rt, r);
    }
    case CompositeOp::MatMul: {
      ir::Value* a = operand(0);
      ir::Value* c = operand(1);
      const Composite& ka = CompositeOfValue(a);
      const Composite& kc = CompositeOfValue(c);
      std::vector<ir::Value*> ac = Components(a), cc = Components(c), r;
      // A vector is a column on the right and a row on the left. Warp sums a product of two
      // float32/64 matrices with fused multiply-adds from zero (its muladd), the other
      // products with separate ones from the first product.
      int m = ka.is_matrix() ? ka.rows : 1, inner = ka.is_matrix() ? ka.cols : ka.length();
      int n = kc.is_matrix() ? kc.cols : 1;
      bool fused = ka.is_matrix() && kc.is_matrix() && (ka.scalar == ScalarType::Float32 || ka.scalar == ScalarType::Float64);
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
          std::vector<ir::Value*> x, y;
          for (int k = 0; k < inner; ++k) {
            x.push_back(ac[size_t(i * inner + k)]);
            y.push_back(cc[size_t(k * n + j)]);
          }
          if (!fused) {
            r.push_back(SumOfProducts(b_, x, y));
            continue;
          }
          ir::Value* sum = b_.ConstFloat(ka.scalar, 0.0);
          for (int k = 0; k < inner; ++k) sum = b_.Fma(x[size_t(k)], y[size_t(k)], sum);
          r.push_back(sum);
        }
      return BuildComposite(rt, r);
    }
    case CompositeOp::QuatMul: {
      std::vector<ir::Value*> a = Components(operand(0)), c = Components(operand(1));
      auto mul = [&](ir::Value* x, ir::Value* y) { return b_.Binary(OpCode::Mul, x, y); };
      auto add = [&](ir::Value* x, ir::Value* y) { return b_.Binary(OpCode::Add, x, y); };
      auto sub = [&](ir::Value* x, ir::Value* y) { return b_.Binary(OpCode::Sub, x, y); };
      ir::Value *ax = a[0], *ay = a[1], *az = a[2], *aw = a[3], *bx = c[0], *by = c[1], *bz = c[2], *bw = c[3];
      // Warp's quat mul, term for term.
      return BuildComposite(rt, {sub(add(add(mul(aw, bx), mul(bw, ax)), mul(ay, bz)), mul(by, az)),
                                 sub(add(add(mul(aw, by), mul(bw, ay)), mul(az, bx)), mul(bz, ax)),
                                 sub(add(add(mul(aw, bz), mul(bw, az)), mul(ax, by)), mul(bx, ay)),
                                 sub(sub(sub(mul(aw, bw), mul(ax, bx)), mul(ay, by)), mul(az, bz))});
    }
    case CompositeOp::Equal:
    case CompositeOp::NotEqual: {
      std::vector<ir::Value*> a = Components(operand(0)), c = Components(operand(1));
      ir::Value* all = nullptr;
      for (size_t k = 0; k < a.size(); ++k) {
        ir::Value* eq = b_.Cmp(ir::CmpPred::Eq, a[k], c[k]);
        all = all ? b_.Logic(OpCode::And, all, eq) : eq;
      }
      return op == CompositeOp::Equal ? all : b_.Unary(OpCode::Not, all);
    }
    case CompositeOp::Dot: return SumOfProducts(b_, Components(operand(0)), Components(operand(1)));
    case CompositeOp::LengthSq: {
      std::vector<ir::Value*> a = Components(operand(0));
      return SumOfProducts(b_, a, a);
    }
    case CompositeOp::Length: {
      std::vector<ir::Value*> a = Components(operand(0));
      return b_.Unary(OpCode::Sqrt, SumOfProducts(b_, a, a));
    }
    case CompositeOp::Normalize: {
      // Warp's: v / length(v) when the length is above zero, else the zero vector; a
      // quaternion is multiplied by 1 / length and a zero one becomes the identity.
      ir::Value* v = operand(0);
      const Composite& k = CompositeOfValue(v);
      std::vector<ir::Value*> a = Components(v);
      ir::Value* l = b_.Unary(OpCode::Sqrt, SumOfProducts(b_, a, a));
      ScalarType s = k.scalar;
      bool quat = k.kind == CompositeKind::Quaternion;
      ir::Value* pos = b_.Cmp(ir::CmpPred::Gt, l, b_.ConstFloat(s, 0.0));
      ir::Value* inv = quat ? b_.Binary(OpCode::Div, b_.ConstFloat(s, 1.0), l) : nullptr;
      std::vector<ir::Value*> r;
      for (size_t i = 0; i < a.size(); ++i) {
        ir::Value* fallback = b_.ConstFloat(s, quat && i == 3 ? 1.0 : 0.0);
        ir::Value* scaled = quat ? b_.Binary(OpCode::Mul, a[i], inv) : b_.Binary(OpCode::Div, a[i], l);
        r.push_back(b_.Select(pos, scaled, fallback));
      }
      return BuildComposite(rt, r);
    }
    case CompositeOp::MinComponent:
    case CompositeOp::MaxComponent: {
      std::vector<ir::Value*> a = Components(operand(0));
      OpCode m = op == CompositeOp::MinComponent ? OpCode::Min : OpCode::Max;
      ir::Value* acc = a[0];
      for (size_t i = 1; i < a.size(); ++i) acc = b_.Binary(m, acc, a[i]);
      return acc;
    }
    case CompositeOp::ScalarDivide: {
      ir::Value* v = operand(1);
      ir::Value* sv = Convert(operand(0), ir::Type::Scalar(CompositeOfValue(v).scalar));
      std::vector<ir::Value*> r;
      for (ir::Value* x : Components(v)) r.push_back(b_.Binary(OpCode::Div, sv, x));
      return BuildComposite(rt, r);
    }
    case CompositeOp::Identity: {
      const Composite& k = m_.structs()[rt.elem.struct_index].composite;
      std::vector<ir::Value*> r;
      for (int i = 0; i < k.rows; ++i)
        for (int j = 0; j < k.cols; ++j) r.push_back(b_.ConstFloat(k.scalar, i == j ? 1.0 : 0.0));
      return BuildComposite(rt, r);
    }
    case CompositeOp::Cross: {
      std::vector<ir::Value*> a = Components(operand(0)), c = Components(operand(1));
      auto term = [&](int i, int j) {
        return b_.Binary(OpCode::Sub, b_.Binary(OpCode::Mul, a[size_t(i)], c[size_t(j)]),
                         b_.Binary(OpCode::Mul, a[size_t(j)], c[size_t(i)]));
      };
      return BuildComposite(rt, {term(1, 2), term(2, 0), term(0, 1)});
    }
    case CompositeOp::Outer: {
      std::vector<ir::Value*> a = Components(operand(0)), c = Components(operand(1)), r;
      for (ir::Value* x : a)
        for (ir::Value* y : c) r.push_back(b_.Binary(OpCode::Mul, x, y));
      return BuildComposite(rt, r);
    }
    case CompositeOp::Transpose: {
      ir::Value* m = operand(0);
      const Composite& k = CompositeOfValue(m);
      std::vector<ir::Value*> a = Components(m), r;
      for (int j = 0; j < k.cols; ++j)
        for (int i = 0; i < k.rows; ++i) r.push_back(a[size_t(i * k.cols + j)]);
      return BuildComposite(rt, r);
    }
    case CompositeOp::Trace:
    case CompositeOp::GetDiag: {
      ir::Value* m = operand(0);
      const Composite& k = CompositeOfValue(m);
      std::vector<ir::Value*> a = Components(m), d;
      for (int i = 0; i < k.rows; ++i) d.push_back(a[size_t(i * k.cols + i)]);
      if (op == CompositeOp::GetDiag) return BuildComposite(rt, d);
      ir::Value* acc = d[0];
      for (size_t i = 1; i < d.size(); ++i) acc = b_.Binary(OpCode::Add, acc, d[i]);
      return acc;
    }
    case CompositeOp::Diag: {
      std::vector<ir::Value*> a = Components(operand(0));
      size_t n = a.size();
      ir::Value* zero = ZeroValue(a[0]->type());
      std::vector<ir::Value*> r(n * n, zero);
      for (size_t i = 0; i < n; ++i) r[i * n + i] = a[i];
      return BuildComposite(rt, r);
    }
  }
  return nullptr;
}

ir::Value* Lowerer::CompositeWithPart(const sema::CallInfo& ci, ir::Value* base, ir::Value* v) {
  const Composite& k = CompositeOfValue(base);
  ScalarType s = k.scalar;
  std::vector<ir::Value*> all = Components(base);
  std::vector<ir::Value*> parts = Components(v);
  for (ir::Value*& p : parts) p = Convert(p, ir::Type::Scalar(s));
  if (ci.composite == CompositeOp::Component) {
      if (ci.index >= 0) {
        all[size_t(ci.index)] = parts[0];
      } else {
        std::vector<ir::Value*> iv;
        for (size_t a = 1; a < ci.args.size(); ++a) iv.push_back(Expr(ci.args[a]));
        ir::Value* idx = CompositeIndex(ci.index, iv, k);
        for (size_t i = 0; i < all.size(); ++i)
          all[i] = b_.Select(b_.Cmp(ir::CmpPred::Eq, idx, b_.ConstInt(ScalarType::Int32, int64_t(i))), parts[0], all[i]);
      }
  } else if (ci.composite == CompositeOp::Row) {
      ir::Value* r = ci.index >= 0 ? nullptr : Convert(Expr(ci.args[1]), ir::Type::Scalar(ScalarType::Int32));
      for (int i = 0; i < k.rows; ++i)
        for (int j = 0; j < k.cols; ++j) {
          size_t f = size_t(i * k.cols + j);
          if (!r) {
            if (i == ci.index) all[f] = parts[size_t(j)];
          } else {
            all[f] = b_.Select(b_.Cmp(ir::CmpPred::Eq, r, b_.ConstInt(ScalarType::Int32, i)), parts[size_t(j)], all[f]);
          }
        }
  } else if (ci.composite == CompositeOp::Part) {
      for (int64_t i = 0; i < ci.count; ++i) all[size_t(ci.index + i)] = parts[size_t(i)];
  } else {
    return base;  // the checker records only these three as assignment targets
  }
  return BuildComposite(base->type(), all);
}

}  // namespace tilec::lower
