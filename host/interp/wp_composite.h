// Warp's vector-like types on the host (support/composite.h): the type objects (`wp.vec3`,
// `wp.mat33d`, `wp.types.vector(length=5, dtype=wp.float32)`, ...), their values (components
// held in the scalar type, printed as Warp 1.19 prints them), and host calls of Warp's
// vector-math builtins, which run as tiny kernels on the CPU device so that the host gets
// exactly the kernels' semantics.
#pragma once
#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "host/interp/value.h"
#include "host/ndarray/ndarray.h"
#include "support/composite.h"
#include "tilec/runtime.h"

namespace tilec::host {

// `wp.vec3f` and friends: a dtype for arrays and kernel parameters, and a constructor.
struct CompositeTypeObj : Object {
  explicit CompositeTypeObj(Composite c, bool generic = false) : c(c), generic(generic) {}
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override;
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  Composite c;
  bool generic;  // made by wp.types.vector / wp.types.matrix (Warp's local class vec_t / mat_t)
};

// A host value of a vector-like type.
struct CompositeValueObj : Object {
  // `flat`: the components in row-major order, any shape of c.length() elements; copied and
  // cast to c.scalar.
  CompositeValueObj(Composite c, const NdArray& flat, bool generic = false);
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool SetAttr(Interpreter& in, const std::string& name, const Value& v) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  std::optional<int64_t> Len() const override { return c.is_matrix() ? c.rows : c.length(); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;
  std::optional<Value> UnaryOp(Interpreter& in, ast::UnaryOp op) override;

  Value Component(int64_t flat) const;  // a Python float, int or bool
  void MatrixKeyCheck(const Value& key) const;  // KeyError for a tuple of 3 or more indices
  std::vector<uint8_t> Bytes() const;   // the packed layout (rt::CompositeLayout)
  Composite c;
  NdArray a;  // shape (length,), dtype c.scalar, C-contiguous, owned
  bool generic = false;
  std::map<std::string, Value> attrs;  // attributes a program set (`v.tag = 1`)
};

Value MakeCompositeValue(const Composite& c, const NdArray& flat, bool generic = false);
// One element of an array of `c`, from its packed bytes.
Value CompositeFromBytes(const Composite& c, const void* bytes);
// One element's bytes for an array (or struct field) of `c`: a host value, a sequence or a
// scalar (every component); ValueError naming `ctx` for a wrong count.
std::vector<uint8_t> CompositeFillBytes(Interpreter& in, const Composite& c, const Value& v, const std::string& ctx);
// The composite a dtype value names (`wp.vec3`, `wp.types.vector(...)`); nullopt otherwise.
std::optional<Composite> CompositeOfDType(const Value& v);
// The element shape an array of `c` adds to its NumPy form: (N,) or (R, C).
std::vector<int64_t> CompositeElemShape(const Composite& c);
// The vector or matrix an array's element is (invalid for scalars and other structs).
inline Composite CompositeOf(const rt::ArrayDType& d) { return d.is_struct() ? d.layout->composite : Composite{}; }
// The type object for a composite (as `a.dtype` of an array of it gives).
Value CompositeTypeValue(const Composite& c);

// Adds the type names (`vec3`, `vec3f`, ..., `spatial_matrixd`), `wp.types` and the host-callable
// vector-math builtins to the warp module.
void DefineWarpComposites(ModuleObj& wp);
// The host-callable vector-math builtins as `wp` members (after the kernel builtins' table).
void AddHostCallableBuiltins(ModuleObj& wp);
// Names of Warp's vector-math kernel builtins that host code may call.
const std::vector<std::string>& HostCallableBuiltinNames();
// `wp.<name>(args...)` evaluated by a one-thread kernel on the CPU (compiled once per name and
// argument types). Python floats are float32, ints int32.
Value HostBuiltinCall(Interpreter& in, const std::string& name, const CallArgs& args);
// `a <op> b` with the kernels' semantics (matrix and quaternion products); nullopt when the
// kernel language does not type it.
std::optional<Value> HostKernelBinary(Interpreter& in, const std::string& op, const Value& a, const Value& b);
// True when any argument is a host composite value.
bool AnyComposite(const CallArgs& args);

}  // namespace tilec::host
