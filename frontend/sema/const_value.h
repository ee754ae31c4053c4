// Compile-time values and the reason a value is not one. Constant evaluation folds literals,
// module constants and arithmetic/comparisons on them (LANGUAGE.md §3); a runtime value carries
// a Provenance that diagnostics show as a note ("`k` is a kernel parameter declared at line 3").
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ast/ast.h"
#include "support/dtype.h"
#include "support/source.h"

namespace tilec::sema {

struct Type;

struct ConstValue {
  // Composite: a module-level vector, matrix, quaternion or transform (`C = wp.constant(wp.vec3(
  // 1.0, 2.0, 3.0))`): `type` is its struct type, `elems` its components (numbers, row-major).
  enum class Kind : uint8_t { None, Bool, Int, Float, String, Tuple, Type, Composite };
  Kind kind = Kind::None;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<ConstValue> elems;
  const Type* type = nullptr;  // Kind::Type: a dtype (scalar or struct) used as a value; Kind::Composite: its type

  static ConstValue MakeBool(bool v);
  static ConstValue MakeInt(int64_t v);
  static ConstValue MakeFloat(double v);
  static ConstValue MakeString(std::string v);
  static ConstValue MakeTuple(std::vector<ConstValue> v);
  static ConstValue MakeType(const Type* t);
  static ConstValue MakeComposite(const Type* t, std::vector<ConstValue> components);

  bool IsNumber() const { return kind == Kind::Bool || kind == Kind::Int || kind == Kind::Float; }
  double AsDouble() const { return kind == Kind::Float ? f : kind == Kind::Int ? double(i) : double(b); }
  int64_t AsInt() const { return kind == Kind::Int ? i : kind == Kind::Bool ? int64_t(b) : int64_t(f); }
  bool Truthy() const;
  bool operator==(const ConstValue& o) const;
};

// A number as a value of scalar type `t` holds it: float types round to their width (a
// folded `wp.float32(0.1)` is 0.100000001490116..., as at run time); other values unchanged.
ConstValue InScalarType(const ConstValue& v, ScalarType t);

// Python-style spelling: `4`, `2.5`, `True`, `'shared'`, `(2, 4)`, `float32`.
std::string FormatConst(const ConstValue& v);

// Why a value is known only at run time. `message` is a full sentence fragment naming the
// source ("`n` comes from `x.shape[0]`, known only at launch"); `range` is where it comes from.
struct Provenance {
  std::string message;
  SourceRange range;
  bool has_range = false;
};

// How a constant operator folds: as the host's Python computes it (module level), or as the
// kernel computes it at run time (Warp's C semantics).
enum class FoldRules { Python, Kernel };

// Folds a binary/unary/compare operator on two constants. Python: true division gives a float,
// `//` and `%` floor. Kernel: integer `/` and `%` truncate toward zero, float `%` is C's fmod
// and a float division by zero gives inf or NaN. Returns nullopt and sets `error` when the
// operation is undefined (an integer division by zero) or unsupported on these operands.
std::optional<ConstValue> FoldBinary(ast::BinaryOp op, const ConstValue& a, const ConstValue& b,
                                     std::string& error, FoldRules rules = FoldRules::Python);
std::optional<ConstValue> FoldUnary(ast::UnaryOp op, const ConstValue& a, std::string& error);
std::optional<ConstValue> FoldCompare(ast::CmpOp op, const ConstValue& a, const ConstValue& b);

}  // namespace tilec::sema
