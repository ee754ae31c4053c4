// The built-in `wp` module bound to the runtime: array constructors, devices, launches, the
// Tape, and the decorators that compile kernels (wp_kernels.cpp).
#include <cstring>

#include "compiler/compiler.h"
#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/wp_composite.h"
#include "host/interp/wp_generic.h"
#include "host/interp/np_records.h"
#include "host/ndarray/print.h"
#include "host/interp/wp_values.h"

namespace tilec::host {

namespace {

struct ScopedDeviceObj : Object {
  explicit ScopedDeviceObj(std::optional<rt::Device> device) : device(std::move(device)) {}
  std::string TypeName() const override { return "ScopedDevice"; }
  std::optional<Value> Enter(Interpreter&) override {
    saved = rt::GetDefaultDevice();
    if (device) rt::SetDefaultDevice(*device);
    return Value(shared_from_this());
  }
  void Exit(Interpreter&) override {
    if (saved) rt::SetDefaultDevice(*saved);
  }
  std::optional<rt::Device> device, saved;
};

}  // namespace

Value Wrap(rt::Array a) { return Value(std::make_shared<WpArrayObj>(std::move(a))); }

rt::Array& ArrayArg(const Value& v, const std::string& context) {
  auto* a = v.As<WpArrayObj>();
  if (!a) TypeError(context + ": expected a warp array, got " + TypeName(v));
  return a->a;
}

namespace {

rt::ArrayDType WpDTypeArg(const Value& v, const std::string& context) {
  if (auto* s = v.As<WpStructObj>()) {
    if (!s->layout) s->RaiseRejected(context);
    return rt::ArrayDType::Struct(*s->layout);
  }
  if (auto c = CompositeOfDType(v)) return rt::ArrayDType::Struct(rt::CompositeLayout(*c));
  return rt::ArrayDType(DTypeArg(v, true, context));
}

// `wp.tid()` and array indices in kernels are signed 32-bit, so no launch extent or array
// extent may reach 2^31 (Warp's own limits and messages).
constexpr int64_t kMaxExtent = (int64_t(1) << 31) - 1;

std::vector<int64_t> DimArg(const Value& v, const std::string& context) {
  Shape s = ShapeArg(v, context + " dim");
  if (s.empty() || s.size() > 4)
    ValueError(context + ": dim must have 1 to 4 entries, got " + std::to_string(s.size()));
  for (size_t d = 0; d < s.size(); ++d)
    if (s[d] > kMaxExtent)
      ValueError(context + ": cannot launch a kernel with extent " + std::to_string(s[d]) + " in dimension " +
                 std::to_string(d) + "; wp.tid() returns signed 32-bit coordinates and supports extents up to " +
                 std::to_string(kMaxExtent));
  return s;
}

Shape WpShapeArg(const Value& v, const std::string& context) {
  Shape s = ShapeArg(v, context);
  for (size_t d = 0; d < s.size(); ++d)
    if (s[d] > kMaxExtent)
      ValueError("Array shapes must not exceed the maximum representable value of a signed 32-bit integer, got " +
                 std::to_string(s[d]) + " in dimension " + std::to_string(d) + ".");
  return s;
}

// The composite an array dtype holds (vec3f, mat33f, ...); invalid for scalars and structs.

// A host vec/mat/quat/transform value (or a matching sequence) packed for parameter `p`.
std::optional<rt::KernelArg> CompositeParamArg(Interpreter& in, const rt::Kernel& k, const rt::ParamInfo& p,
                                               const Value& v) {
  if (p.kind != rt::ParamKind::Struct || !p.type.is_struct()) {
    return std::nullopt;
  }
  const rt::StructLayout& s = k.structs()[p.type.struct_index];
  Composite want = s.composite.valid() ? s.composite : CompositeFromName(s.name).value_or(Composite{});
  if (!want.valid()) return std::nullopt;
  auto* c = v.As<CompositeValueObj>();
  if (!c && !v.As<ListObj>() && !v.As<TupleObj>() && !v.As<NdArrayObj>()) return std::nullopt;
  NdArray flat = c ? c->a : ToNdArray(in, v, "launch()", want.scalar);
  if (flat.size() != want.length()) return std::nullopt;
  CompositeValueObj packed(want, flat);
  return rt::KernelArg::Struct(s.name, packed.Bytes());
}

// A struct's array field: a parameter after the struct's, named `s.x`, that the launch takes
// from the struct value rather than from the caller.
bool IsStructArrayParam(const rt::ParamInfo& p) { return p.name.find('.') != std::string::npos; }

// The parameters a launch's caller gives, by index.
std::vector<size_t> GivenParams(const rt::KernelSignature& sig) {
  std::vector<size_t> given;
  for (size_t i = 0; i < sig.params.size(); ++i)
    if (!IsStructArrayParam(sig.params[i])) given.push_back(i);
  return given;
}

std::vector<rt::KernelArg> LaunchArgs(Interpreter& in, const KernelObj& k, const ArgBinder& b, size_t in_idx,
                                      size_t out_idx, const std::string& fname) {
  std::vector<Value> values;
  for (size_t idx : {in_idx, out_idx}) {
    if (!b.Has(idx) || b.Get(idx).IsNone()) continue;
    std::vector<Value> items = IterateValue(in, b.Get(idx));
    values.insert(values.end(), items.begin(), items.end());
  }
  const auto& params = k.kernel.signature().params;
  const std::vector<size_t> given = GivenParams(k.kernel.signature());
  if (values.size() != given.size())
    TypeError(fname + "(): kernel `" + k.name + "` takes " + std::to_string(given.size()) +
              " argument" + (given.size() == 1 ? "" : "s") + " (inputs + outputs), got " +
              std::to_string(values.size()));
  std::vector<rt::KernelArg> args;
  for (size_t u = 0; u < values.size(); ++u) {
    const size_t i = given[u];
    const Value& v = values[u];
    if (auto ca = CompositeParamArg(in, k.kernel, params[i], v)) args.push_back(*ca);
    else if (auto* a = v.As<WpArrayObj>()) args.emplace_back(a->a);
    else if (v.IsNone()) args.emplace_back();
    else if (v.IsBool()) args.push_back(rt::KernelArg::Bool(v.b()));
    else if (v.IsInt()) args.push_back(rt::KernelArg::Int(v.i()));
    else if (v.IsFloat()) args.push_back(rt::KernelArg::Float(v.f()));
    else if (auto* nd = v.As<NdArrayObj>(); nd && nd->scalar) {
      Scalar s = nd->a.Item();
      if (IsFloat(nd->a.dtype())) args.push_back(rt::KernelArg::Typed(nd->a.dtype(), s.AsDouble()));
      else args.push_back(rt::KernelArg::TypedInt(nd->a.dtype(), s.AsInt()));
    } else if (auto* sv = v.As<StructValueObj>()) {
      // The runtime reports a mismatch with the parameter's struct type.
      args.push_back(rt::KernelArg::Struct(sv->layout->name, sv->Bytes()));
    } else if (auto* cv = v.As<CompositeValueObj>()) {
      // The runtime reports the mismatch with the parameter's type.
      args.push_back(rt::KernelArg::Struct(CompositeName(cv->c), cv->Bytes()));
    } else {
      TypeError(fname + "(): argument `" + params[i].name + "` of kernel `" + k.name + "` expects " +
                rt::ParamTypeName(params[i], k.kernel.structs()) + ", got " + TypeName(v) +
                (v.As<NdArrayObj>() ? " (wrap it with wp.array(...))" : ""));
    }
    // The struct's array fields (None where unset); the runtime checks each against its parameter.
    const auto* sv = v.As<StructValueObj>();
    for (size_t h = i + 1; h < params.size() && IsStructArrayParam(params[h]); ++h) {
      Value field = sv ? sv->ArrayField(params[h].name.substr(params[i].name.size() + 1)) : Value();
      if (auto* a = field.As<WpArrayObj>()) args.emplace_back(a->a);
      else args.emplace_back();
    }
  }
  return args;
}

// The kernel to launch on `device`: the variant for this launch's block_dim and kind (host
// code, or on a GPU PTX for the device's architecture), compiled on first use and kept. A plain
// launch (block_dim 0) takes the kernel as defined.
const rt::Kernel& KernelFor(KernelObj& k, const std::optional<rt::Device>& device, int block_dim,
                            const std::string& fname, bool hybrid = false) {
  rt::Device d = device ? *device : rt::GetDefaultDevice();
  KernelCompileRequest req = *k.request;
  req.block_dim = block_dim;
  req.hybrid_launch = hybrid;
  auto failed = [&](const KernelCompileResult& r, const std::string& what) {
    PyError e("tilec.CompileError", CompileErrorMessage("kernel `" + k.name + "` failed to compile for " + what, r.diagnostics));
    e.diagnostics = r.diagnostics;
    throw e;
  };
  if (!d.is_cuda()) {
    const rt::KernelSignature& sig = k.kernel.signature();
    if (!sig.tiled || block_dim == 0 || (sig.block_dim == block_dim && sig.hybrid == hybrid)) return k.kernel;
    auto key = std::make_pair(block_dim, hybrid);
    if (auto it = k.cpu_variants.find(key); it != k.cpu_variants.end()) return it->second;
    KernelCompileResult r = CompileKernel(req);
    if (!r.ok) failed(r, "block_dim " + std::to_string(block_dim));
    return k.cpu_variants.emplace(key, r.kernel).first->second;
  }
  rt::CheckDevice(d);
  int cc = rt::CudaComputeCapability(d);
  std::string arch = compiler::PtxArchFor(cc);
  if (arch.empty())
    RuntimeError(fname + "(): `" + d.Name() + "` has compute capability " + std::to_string(cc / 10) + "." +
                 std::to_string(cc % 10) + "; tilec generates code for sm_75 and newer");
  auto key = std::make_tuple(arch, block_dim, hybrid);
  if (auto it = k.gpu_variants.find(key); it != k.gpu_variants.end()) return it->second;
  KernelCompileResult r = CompileKernelPtx(req, arch, block_dim);
  if (!r.ok) failed(r, arch);
  return k.gpu_variants.emplace(key, r.kernel).first->second;
}

// A kernel that failed to compile raises its error where it is used.
KernelObj& Compiled(KernelObj& k) {
  if (k.compile_error) {
    PyError e(k.compile_error->type(), k.compile_error->message());
    e.diagnostics = k.compile_error->diagnostics;
    throw e;
  }
  return k;
}

// The kernel a launch runs: the one given, or for a generic kernel the instance for the types
// of the arguments (inputs, then outputs).
KernelObj& LaunchedKernel(Interpreter& in, const ArgBinder& b, const std::string& fname) {
  const Value& v = b.Get(0);
  auto* k = v.As<KernelObj>();
  if (!k) TypeError(fname + "(): expected a kernel (a function decorated with @wp.kernel), got " + TypeName(v));
  if (!k->generic) return Compiled(*k);
  std::vector<Value> values;
  for (size_t idx : {2, 3})
    if (b.Has(idx) && !b.Get(idx).IsNone())
      for (Value& item : IterateValue(in, b.Get(idx))) values.push_back(std::move(item));
  return Compiled(GenericInstanceForArgs(in, *k, values));
}

// wp.array(data, dtype=vec3): data of shape (..., 3) (or (..., R, C) / (..., R*C) for
// matrices), a list of host values, or anything NumPy converts; the array's shape is the
// leading part.
rt::Array CompositeArrayFromData(Interpreter& in, const Value& data, const Composite& c,
                                 const std::optional<Shape>& shape, std::optional<rt::Device> device,
                                 bool requires_grad) {
  NdArray nd = ToNdArray(in, data, "array", c.scalar);
  Shape elem = CompositeElemShape(c);
  Shape outer;
  auto ends_with = [&](const Shape& tail) {
    if (nd.ndim() < int(tail.size())) return false;
    for (size_t k = 0; k < tail.size(); ++k)
      if (nd.shape()[nd.ndim() - tail.size() + k] != tail[k]) return false;
    outer.assign(nd.shape().begin(), nd.shape().end() - tail.size());
    return true;
  };
  // Warp's reading of data without a shape: trailing axes of length 1 drop, and a last axis
  // that is a multiple of the element's length splits into elements ((N, 2k) is N x k vec2).
  Shape data_shape = nd.shape();
  if (!shape)
    while (data_shape.size() > 1 && data_shape.back() == 1) data_shape.pop_back();
  if (data_shape != nd.shape()) nd = nd.Reshape(data_shape);
  if (!ends_with(elem) && !ends_with({c.length()})) {
    if (!shape && nd.ndim() >= 1 && nd.shape().back() % c.length() == 0) {
      outer.assign(nd.shape().begin(), nd.shape().end() - 1);
      outer.push_back(nd.shape().back() / c.length());
    } else {
      if (!shape)
        ValueError("array(): data of shape " + ShapeString(nd.shape()) + " does not hold " + CompositeName(c) +
                   " elements (expected a trailing shape " + ShapeString(elem) + " or a last axis that is a multiple of " +
                   std::to_string(c.length()) + ")");
      outer.clear();
    }
  }
  if (shape) {
    int64_t n = 1;
    for (int64_t d : *shape) n *= d;
    if (n * c.length() != nd.size())
      ValueError("array(): data of shape " + ShapeString(nd.shape()) + " does not match shape " +
                 ShapeString(*shape) + " of " + CompositeName(c));
    outer = *shape;
  }
  if (outer.empty()) outer = {1};
  if (outer.size() > 4) ValueError("array(): warp arrays have at most 4 dimensions, got " + std::to_string(outer.size()));
  NdArray cc = nd.IsCContiguous() ? nd : nd.Copy();
  return rt::Array::FromHost(cc.data(), outer, rt::ArrayDType::Struct(rt::CompositeLayout(c)), device, requires_grad);
}

Value MakeArray(Interpreter& in, CallArgs& a) {
  ArgBinder b("array", a, {"data", "dtype", "shape", "requires_grad", "device", "ndim"}, 0);
  const int64_t ndim = b.Has(5) && !b.Get(5).IsNone() ? ToInt(b.Get(5), "array() ndim") : 0;
  if (ndim < 0 || ndim > 4) ValueError("array(): ndim must be 1 to 4, got " + std::to_string(ndim));
  std::optional<rt::Device> device = b.Has(4) ? DeviceArg(b.Get(4), "array()") : std::nullopt;
  bool requires_grad = b.Has(3) && Truth(b.Get(3));
  const bool no_data = !b.Has(0) || b.Get(0).IsNone(), no_shape = !b.Has(2) || b.Get(2).IsNone();
  // `wp.array(dtype=T, ndim=N)` alone is how Warp writes an array type for wp.overload: an empty
  // array, or with dtype Any the generic type.
  if (no_data && no_shape && b.Has(1) && IsTypingAny(b.Get(1)))
    return Value(std::make_shared<ArrayAnnotationObj>("array", ndim ? int(ndim) : 1, b.Get(1)));
  std::optional<rt::ArrayDType> dtype;
  if (b.Has(1) && !b.Get(1).IsNone()) dtype = WpDTypeArg(b.Get(1), "array()");
  std::optional<Shape> shape;
  if (!no_shape) shape = WpShapeArg(b.Get(2), "array");
  if (no_data) {
    if (!shape && dtype) shape = Shape(ndim ? size_t(ndim) : 1, 0);
    if (!shape) TypeError("array(): give `data` or `shape`");
    return Wrap(rt::Array::Zeros(*shape, dtype.value_or(rt::ArrayDType(ScalarType::Float32)), device, requires_grad));
  }
  Composite comp = dtype ? CompositeOf(*dtype) : Composite{};
  if (dtype && dtype->is_struct() && !comp.valid())
    return Wrap(StructArrayFromValues(in, b.Get(0), *dtype->layout, shape, device, requires_grad));
  if (comp.valid()) return Wrap(CompositeArrayFromData(in, b.Get(0), comp, shape, device, requires_grad));
  NdArray nd = ToNdArray(in, b.Get(0), "array", dtype ? std::optional<ScalarType>(dtype->scalar) : std::nullopt);
  if (nd.ndim() == 0) ValueError("array(): data must have at least one dimension, got a scalar");
  if (shape) {
    int64_t n = 1;
    for (int64_t d : *shape) n *= d;
    if (n != nd.size())
      ValueError("array(): data of shape " + ShapeString(nd.shape()) + " (" + std::to_string(nd.size()) +
                 " elements) does not match shape " + ShapeString(*shape) + " (" + std::to_string(n) + " elements)");
    nd = nd.Reshape(*shape);
  }
  if (nd.ndim() > 4) ValueError("array(): warp arrays have at most 4 dimensions, got " + std::to_string(nd.ndim()));
  if (ndim && nd.ndim() != ndim)
    ValueError("array(): data has " + std::to_string(nd.ndim()) + " dimensions, but ndim=" + std::to_string(ndim));
  NdArray c = nd.IsCContiguous() ? nd : nd.Copy();
  return Wrap(rt::Array::FromHost(c.data(), c.shape(), c.dtype(), device, requires_grad));
}

Value Filled(Interpreter& in, CallArgs& a, const std::string& name) {
  bool has_value = name == "full";
  std::vector<std::string> names = {"shape"};
  if (has_value) names.push_back("value");
  for (const char* n : {"dtype", "device", "requires_grad"}) names.push_back(n);
  ArgBinder b(name, a, names, has_value ? 2 : 1);
  size_t o = has_value ? 1 : 0;
  Shape shape = WpShapeArg(b.Get(0), name);
  if (shape.empty() || shape.size() > 4) ValueError(name + "(): shape must have 1 to 4 dimensions");
  rt::ArrayDType dtype(ScalarType::Float32);
  if (b.Has(o + 1) && !b.Get(o + 1).IsNone()) dtype = WpDTypeArg(b.Get(o + 1), name + "()");
  else if (auto* cv = has_value ? b.Get(1).As<CompositeValueObj>() : nullptr)
    dtype = rt::ArrayDType::Struct(rt::CompositeLayout(cv->c));
  else if (has_value && b.Get(1).IsIntLike()) dtype = rt::ArrayDType(b.Get(1).IsBool() ? ScalarType::Bool : ScalarType::Int32);
  auto device = b.Has(o + 2) ? DeviceArg(b.Get(o + 2), name + "()") : std::nullopt;
  bool rg = b.Has(o + 3) && Truth(b.Get(o + 3));
  rt::Array arr = name == "empty" ? rt::Array::Empty(shape, dtype, device, rg) : rt::Array::Zeros(shape, dtype, device, rg);
  if (Composite c = CompositeOf(dtype); c.valid()) {
    if (name == "ones") arr.FillBytes(CompositeFillBytes(in, c, Value::Int(1), name + "()").data());
    if (has_value) arr.FillBytes(CompositeFillBytes(in, c, b.Get(1), name + "() value").data());
    return Wrap(arr);
  }
  if (name == "ones") arr.Fill(1.0);
  if (has_value) arr.Fill(ToDouble(b.Get(1), "full() value"));
  return Wrap(arr);
}

// wp.full_like(src, value, device=None, requires_grad=None): src's shape and dtype, filled.
Value FullLike(Interpreter& in, CallArgs& a) {
  ArgBinder b("full_like", a, {"src", "value", "device", "requires_grad"}, 2);
  rt::Array& src = ArrayArg(b.Get(0), "full_like");
  auto device = b.Has(2) ? DeviceArg(b.Get(2), "full_like()") : std::optional<rt::Device>(src.device());
  bool rg = b.Has(3) && !b.Get(3).IsNone() ? Truth(b.Get(3)) : src.requires_grad();
  rt::Array arr = rt::Array::Zeros(src.shape(), src.dtype(), device, rg);
  if (Composite c = CompositeOf(src.dtype()); c.valid())
    arr.FillBytes(CompositeFillBytes(in, c, b.Get(1), "full_like() value").data());
  else
    arr.Fill(ToDouble(b.Get(1), "full_like() value"));
  return Wrap(arr);
}

// wp.from_numpy(arr, dtype=None, shape=None, device=None, requires_grad=False): wp.array's
// conversion under Warp's other parameter order.
Value FromNumpy(Interpreter& in, CallArgs& a) {
  ArgBinder b("from_numpy", a, {"arr", "dtype", "shape", "device", "requires_grad"}, 1);
  CallArgs forward;
  forward.pos.push_back(b.Get(0));
  const char* names[] = {"arr", "dtype", "shape", "device", "requires_grad"};
  for (size_t i = 1; i < 5; ++i)
    if (b.Has(i)) forward.kw.emplace_back(names[i], b.Get(i));
  return MakeArray(in, forward);
}

Value Like(Interpreter& in, CallArgs& a, const std::string& name) {
  ArgBinder b(name, a, {"src", "device", "requires_grad"}, 1);
  rt::Array& src = ArrayArg(b.Get(0), name);
  auto device = b.Has(1) ? DeviceArg(b.Get(1), name + "()") : std::optional<rt::Device>(src.device());
  bool rg = b.Has(2) ? Truth(b.Get(2)) : src.requires_grad();
  if (name == "clone") {
    rt::Array c = src.Clone(device);
    if (rg) c.set_requires_grad(true);
    return Wrap(c);
  }
  rt::Array arr = name == "empty_like" ? rt::Array::Empty(src.shape(), src.dtype(), device, rg)
                                       : rt::Array::Zeros(src.shape(), src.dtype(), device, rg);
  if (name == "ones_like") {
    if (Composite c = CompositeOf(src.dtype()); c.valid())
      arr.FillBytes(CompositeFillBytes(in, c, Value::Int(1), name + "()").data());
    else
      arr.Fill(1.0);
  }
  return Wrap(arr);
}

}  // namespace

std::optional<rt::Device> DeviceArg(const Value& v, const std::string& context) {
  if (v.IsNone()) return std::nullopt;
  rt::Device d;
  if (auto* dev = v.As<DeviceObj>()) d = dev->d;
  else if (auto* s = v.As<StrObj>()) d = rt::Device::Parse(s->s);
  else TypeError(context + ": device must be a string such as \"cpu\" or \"cuda:0\", got " + TypeName(v));
  rt::CheckDevice(d);
  return d;
}

std::string WpArrayObj::Str() const {
  Value self(std::const_pointer_cast<Object>(shared_from_this()));
  if (auto r = WpArrayToRecords(self)) return RecordsStr(*r);
  return NdStr(*WpArrayToNd(self), false);
}
std::string WpArrayObj::Repr() const { return Str(); }

std::optional<Value> WpArrayObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<WpArrayObj>(shared_from_this());
  if (name == "shape") return ShapeTuple(a.shape());
  if (name == "ndim") return Value::Int(a.ndim());
  if (name == "size") return Value::Int(a.size());
  if (name == "dtype") {
    if (Composite c = CompositeOf(a.dtype()); c.valid()) return CompositeTypeValue(c);
    if (a.dtype().is_struct()) {
      auto s = std::make_shared<WpStructObj>();
      s->name = a.dtype().Name();
      s->layout = *a.dtype().layout;
      return Value(s);
    }
    return Value(std::make_shared<DTypeObj>(a.dtype().scalar, DTypeObj::Flavor::WpType));
  }
  if (name == "device") return Value(std::make_shared<DeviceObj>(a.device()));
  if (name == "requires_grad") return Value::Bool(a.requires_grad());
  if (name == "grad") {
    rt::Array g = a.grad();
    return g.is_null() ? Value() : Wrap(g);
  }
  auto method = [&](std::function<Value(WpArrayObj&, CallArgs&)> f) {
    return Value(std::make_shared<BuiltinFn>(name, [self, f](Interpreter&, CallArgs& args) { return f(*self, args); }));
  };
  if (name == "numpy")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("numpy", args, {}, 0);
      Value self(std::static_pointer_cast<Object>(s.shared_from_this()));
      if (auto r = WpArrayToRecords(self)) return Value(std::make_shared<RecordArrayObj>(*r, false));
      return WrapNd(*WpArrayToNd(Value(std::static_pointer_cast<Object>(s.shared_from_this()))), false);
    });
  if (name == "zero_")
    return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& in, CallArgs& args) {
      ArgBinder b("zero_", args, {}, 0);
      rt::Array a = self->a;
      auto op = [a]() mutable { a.Zero(); };
      if (!RecordInCapture(in, op)) op();
      return Value();
    }));
  if (name == "fill_")
    return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& in, CallArgs& args) {
      ArgBinder b("fill_", args, {"value"}, 1);
      rt::Array a = self->a;
      std::function<void()> op;
      if (Composite c = CompositeOf(self->a.dtype()); c.valid()) {
        auto bytes = CompositeFillBytes(in, c, b.Get(0), "fill_() value");
        op = [a, bytes]() mutable { a.FillBytes(bytes.data()); };
      } else {
        const double v = ToDouble(b.Get(0), "fill_() value");
        op = [a, v]() mutable { a.Fill(v); };
      }
      if (!RecordInCapture(in, op)) op();
      return Value();
    }));
  // Warp's array.assign(src): a wp.array of the same dtype, or data converted to this array's
  // dtype (NumPy arrays, lists), copied in. A different element count is an error here where
  // Warp copies what fits.
  if (name == "assign")
    return Value(std::make_shared<BuiltinFn>(name, [self](Interpreter& in, CallArgs& args) {
      ArgBinder b("assign", args, {"src"}, 1);
      RefuseInCapture(in, "array.assign()");
      const Value& v = b.Get(0);
      rt::Array src;
      if (auto* w = v.As<WpArrayObj>()) {
        src = w->a;
        if (!(src.dtype() == self->a.dtype()))
          RuntimeError("Incompatible array data types: destination dtype=" + self->a.dtype().Name() +
                       ", source dtype=" + src.dtype().Name());
      } else if (Composite c = CompositeOf(self->a.dtype()); c.valid()) {
        src = CompositeArrayFromData(in, v, c, std::nullopt, rt::Device::Cpu(), false);
      } else {
        NdArray nd = ToNdArray(in, v, "assign", self->a.dtype().scalar);
        NdArray dense = nd.IsCContiguous() ? nd : nd.Copy();
        src = rt::Array::FromHost(dense.data(), dense.shape(), dense.dtype(), rt::Device::Cpu(), false);
      }
      if (src.size() != self->a.size())
        ValueError("assign(): the source has " + std::to_string(src.size()) + " elements, the array " +
                   std::to_string(self->a.size()));
      if (src.shape() == self->a.shape()) self->a.CopyFrom(src);
      else self->a.CopyFromHost(src.ToHostBytes().data());  // same count, another shape: row-major
      return Value();
    }));
  if (name == "strides") return ShapeTuple(a.strides());
  if (name == "ptr") return Value::Int(int64_t(reinterpret_cast<uintptr_t>(a.data())));
  if (name == "is_contiguous") return Value::Bool(a.is_contiguous());
  // Views as Warp makes them: reshape and flatten of contiguous arrays, transpose of any; each
  // shares data and gradient with the array. Warp's messages for what it refuses.
  if (name == "reshape")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("reshape", args, {"shape"}, 1);
      if (!s.a.is_contiguous()) RuntimeError("Reshaping non-contiguous arrays is unsupported.");
      std::vector<int64_t> shape;
      const Value& v = b.Get(0);
      if (auto* t = v.As<TupleObj>()) for (const Value& x : t->items) shape.push_back(ToInt(x, "reshape() shape"));
      else if (auto* l = v.As<ListObj>()) for (const Value& x : l->items) shape.push_back(ToInt(x, "reshape() shape"));
      else shape.push_back(ToInt(v, "reshape() shape"));
      if (shape.size() > 4)
        RuntimeError("Arrays may only have 4 dimensions maximum, trying to create array with " +
                     std::to_string(shape.size()) + " dims.");
      if (std::count(shape.begin(), shape.end(), -1) > 1) RuntimeError("Cannot infer shape if more than one index is -1.");
      int64_t known = 1;
      for (int64_t d : shape) known *= d == -1 ? 1 : d;
      std::vector<int64_t> want = shape;
      for (int64_t& d : want)
        if (d == -1) d = known == 0 ? 0 : s.a.size() / known;
      int64_t n = 1;
      for (int64_t d : want) n *= d;
      if (n != s.a.size() || std::any_of(want.begin(), want.end(), [](int64_t d) { return d < 0; }))
        RuntimeError("cannot reshape array of shape " + host::Repr(ShapeTuple(s.a.shape())) + " (size " +
                     std::to_string(s.a.size()) + ") into shape " + host::Repr(ShapeTuple(want)) + " (size " +
                     std::to_string(n) + ")");
      return Wrap(s.a.Reshape(want));
    });
  if (name == "flatten")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("flatten", args, {}, 0);
      if (s.a.ndim() == 1) return Value(std::static_pointer_cast<Object>(s.shared_from_this()));
      if (!s.a.is_contiguous()) RuntimeError("Flattening non-contiguous arrays is unsupported.");
      return Wrap(s.a.Reshape({s.a.size()}));
    });
  if (name == "transpose")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("transpose", args, {"axes"}, 0);
      if (s.a.ndim() == 1) return Value(std::static_pointer_cast<Object>(s.shared_from_this()));
      std::vector<int> axes;
      if (b.Has(0) && !b.Get(0).IsNone()) {
        std::vector<Value> items;
        if (auto* t = b.Get(0).As<TupleObj>()) items = t->items;
        else if (auto* l = b.Get(0).As<ListObj>()) items = l->items;
        else TypeError("transpose(): axes must be a tuple or list of ints");
        if (int(items.size()) != s.a.ndim()) RuntimeError("Length of parameter axes must be equal in length to array shape");
        std::vector<bool> seen(size_t(s.a.ndim()), false);
        for (const Value& x : items) {
          if (!x.IsIntLike()) RuntimeError("axis index " + host::Repr(x) + " is not of type int");
          int64_t ax = x.i();
          if (ax >= s.a.ndim()) RuntimeError("axis index " + std::to_string(ax) + " must be smaller than the number of axes in array");
          if (ax < 0 || seen[size_t(ax)]) ValueError("transpose(): axes must be a permutation of 0.." + std::to_string(s.a.ndim() - 1));
          seen[size_t(ax)] = true;
          axes.push_back(int(ax));
        }
      }
      return Wrap(s.a.Permute(axes));
    });
  if (name == "contiguous")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("contiguous", args, {}, 0);
      if (s.a.is_contiguous()) return Value(std::static_pointer_cast<Object>(s.shared_from_this()));
      rt::Array c = s.a.Clone();
      if (s.a.requires_grad()) {
        c.set_requires_grad(true);
        c.grad().CopyFrom(s.a.grad());
      }
      return Wrap(c);
    });
  if (name == "to")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("to", args, {"device", "requires_grad"}, 1);
      rt::Device d = *DeviceArg(b.Get(0), "to()");
      if (d == s.a.device()) return Value(std::static_pointer_cast<Object>(s.shared_from_this()));
      rt::Array c = s.a.Clone(d);
      if (b.Has(1) && !b.Get(1).IsNone() ? host::Truth(b.Get(1)) : s.a.requires_grad()) c.set_requires_grad(true);
      return Wrap(c);
    });
  if (name == "list")
    return method([](WpArrayObj& s, CallArgs& args) {
      ArgBinder b("list", args, {}, 0);
      return NestedToValue(WpArrayToNd(Value(std::static_pointer_cast<Object>(s.shared_from_this())))->ToList());
    });
  return std::nullopt;
}

bool WpArrayObj::SetAttr(Interpreter&, const std::string& name, const Value& v) {
  if (name == "requires_grad") {
    a.set_requires_grad(host::Truth(v));
    return true;
  }
  // `a.grad = g`: every view of an array shares one gradient buffer, so assignment copies g's
  // values into it (Warp rebinds the attribute; reads through `a.grad` see the same values).
  if (name == "grad") {
    if (v.IsNone()) {
      a.set_requires_grad(false);
      return true;
    }
    auto* g = v.As<WpArrayObj>();
    if (!g) TypeError("array.grad must be a warp.array or None, not '" + host::TypeName(v) + "'");
    if (g->a.shape() != a.shape() || g->a.dtype() != a.dtype())
      ValueError("array.grad must have the array's shape and dtype");
    a.set_requires_grad(true);
    a.grad().CopyFrom(g->a);
    return true;
  }
  return false;
}

Value WpArrayObj::GetItem(Interpreter&, const Value& key) {
  std::vector<Value> keys;
  if (auto* t = key.As<TupleObj>()) keys = t->items;
  else keys.push_back(key);
  if (keys.size() > size_t(a.ndim()))
    IndexError("too many indices for array: array is " + std::to_string(a.ndim()) + "-dimensional, but " +
               std::to_string(keys.size()) + " were indexed");
  std::vector<rt::SliceSpec> specs;
  size_t ints = 0;
  for (const Value& k : keys) {
    if (auto* s = k.As<SliceObj>()) {
      auto opt = [](const Value& v) -> std::optional<int64_t> {
        if (v.IsNone()) return std::nullopt;
        return ToIndex(v, "slice");
      };
      int64_t step = s->step.IsNone() ? 1 : ToIndex(s->step, "slice");
      if (step == 0) ValueError("slice step cannot be zero");
      specs.push_back(rt::SliceSpec::Range(opt(s->lower), opt(s->upper), step));
    } else {
      int64_t i = ToIndex(k, "array");
      int64_t n = a.shape()[specs.size()];
      if (i < -n || i >= n)
        IndexError("index " + std::to_string(i) + " is out of bounds for axis " + std::to_string(specs.size()) +
                   " with size " + std::to_string(n));
      specs.push_back(rt::SliceSpec::Index(i));
      ++ints;
    }
  }
  if (ints == size_t(a.ndim())) {
    // Every axis indexed: read the element, as a NumPy scalar of the array's dtype (a host
    // vec/mat value for those dtypes).
    NdArray nd = *WpArrayToNd(Value(shared_from_this()));
    std::vector<IndexItem> items;
    for (const auto& s : specs) items.push_back(IndexItem::At(s.index));
    if (Composite c = CompositeOf(a.dtype()); c.valid()) return MakeCompositeValue(c, nd.Index(items));
    return WrapNd(nd.Index(items).Copy(), true);
  }
  return Wrap(a.Slice(specs));
}

std::optional<Value> DeviceObj::GetAttr(Interpreter&, const std::string& name) {
  if (name == "is_cuda") return Value::Bool(d.is_cuda());
  if (name == "is_cpu") return Value::Bool(d.is_cpu());
  if (name == "alias") return MakeStr(d.Name());
  if (name == "ordinal") return Value::Int(d.is_cpu() ? -1 : d.ordinal);
  if (name == "name") return MakeStr(rt::DeviceDescription(d));
  return std::nullopt;
}

std::optional<Value> DeviceObj::CmpOp(Interpreter&, ast::CmpOp op, const Value& other, bool) {
  if (op != ast::CmpOp::Eq && op != ast::CmpOp::NotEq) return std::nullopt;
  bool eq = false;
  if (auto* o = other.As<DeviceObj>()) eq = o->d == d;
  else if (auto* s = other.As<StrObj>()) eq = s->s == d.Name() || (s->s == "cuda" && d == rt::Device::Cuda(0));
  return Value::Bool(op == ast::CmpOp::Eq ? eq : !eq);
}

std::optional<Value> TapeObj::Enter(Interpreter&) {
  tape->Begin();
  return Value(shared_from_this());
}

void TapeObj::Exit(Interpreter&) {
  if (tape->recording()) tape->End();
}

// tape.backward()'s checks in Python's words, made before the runtime's, which speak C++
// (Tape::Backward, requires_grad = true); raised as RuntimeError like the runtime's errors.
static void CheckBackwardLoss(const rt::Array& loss) {
  if (!loss.requires_grad())
    throw rt::Error("`backward`: `loss` does not require grad (create it with requires_grad=True)");
  if (loss.size() != 1)
    throw rt::Error("`backward`: `loss` must hold exactly one element, it has " + std::to_string(loss.size()));
  if (loss.dtype().is_struct() || !IsFloat(loss.dtype().scalar))
    throw rt::Error("`backward`: `loss` must have a float dtype, not `" + loss.dtype().Name() + "`");
}
static void CheckBackwardGrad(const rt::Array& array, const rt::Array& seed) {
  if (!array.requires_grad())
    throw rt::Error("`backward`: the array given a gradient does not require grad "
                    "(create it with requires_grad=True)");
  if (seed.shape() != array.shape() || !(seed.dtype() == array.dtype()))
    throw rt::Error("`backward`: the gradient must have the array's shape and dtype `" + array.dtype().Name() + "`");
}

// What `wp.launch_tiled(..., record_cmd=True)` returns: the launch, made once, run by each
// call of its `launch()` with the arguments it was given.
struct RecordedLaunchObj : Object {
  RecordedLaunchObj(std::string kernel, std::function<void()> run) : kernel(std::move(kernel)), run(std::move(run)) {}
  std::string TypeName() const override { return "warp.Launch"; }
  std::string Repr() const override { return "<warp.Launch of kernel `" + kernel + "`>"; }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name != "launch") return std::nullopt;
    auto self = std::static_pointer_cast<RecordedLaunchObj>(shared_from_this());
    return Value(std::make_shared<BuiltinFn>("launch", [self](Interpreter& in, CallArgs& args) {
      ArgBinder b("launch", args, {"stream"}, 0);
      if (!RecordInCapture(in, self->run)) self->run();
      return Value();
    }));
  }
  std::string kernel;
  std::function<void()> run;
};

namespace {

// `tape.gradients[a]`: the gradient the tape's adjoints accumulate into for array `a`, which
// is `a.grad` (Warp's dict holds the same arrays).
struct TapeGradientsObj : Object {
  std::string TypeName() const override { return "dict"; }
  std::string Repr() const override { return "<tape gradients>"; }
  Value GetItem(Interpreter& in, const Value& key) override {
    if (!key.As<WpArrayObj>()) Raise("KeyError", host::Repr(key));
    Value g = in.GetAttr(key, "grad");
    if (g.IsNone()) Raise("KeyError", "the array does not require grad, so the tape holds no gradient for it");
    return g;
  }
};

}  // namespace

std::optional<Value> TapeObj::GetAttr(Interpreter& in, const std::string& name) {
  auto self = std::static_pointer_cast<TapeObj>(shared_from_this());
  if (name == "gradients") return Value(std::make_shared<TapeGradientsObj>());
  auto method = [&](std::function<Value(TapeObj&, Interpreter&, CallArgs&)> f) {
    return Value(std::make_shared<BuiltinFn>(name, [self, f](Interpreter& i, CallArgs& args) { return f(*self, i, args); }));
  };
  if (name == "backward")
    return method([](TapeObj& t, Interpreter& in, CallArgs& args) {
      ArgBinder b("backward", args, {"loss", "grads"}, 0);
      RefuseInCapture(in, "Tape.backward()");
      if (b.Has(0) && !b.Get(0).IsNone()) {
        rt::Array& loss = ArrayArg(b.Get(0), "backward() loss");
        CheckBackwardLoss(loss);
        t.tape->BackwardLoss(loss);
      } else if (b.Has(1) && !b.Get(1).IsNone()) {
        auto* d = b.Get(1).As<DictObj>();
        if (!d) TypeError("backward(): grads must be a dict {array: gradient}, got " + host::TypeName(b.Get(1)));
        std::vector<std::pair<rt::Array, rt::Array>> grads;
        for (auto& [k, v] : d->items) {
          rt::Array& arr = ArrayArg(k, "backward() grads key");
          rt::Array g;
          if (auto* w = v.As<WpArrayObj>()) g = w->a;
          else if (Composite comp = CompositeOf(arr.dtype()); comp.valid()) {
            g = CompositeArrayFromData(in, v, comp, arr.shape(), arr.device(), false);
          } else {
            NdArray nd = ToNdArray(in, v, "backward() grads value", arr.dtype().scalar);
            NdArray c = nd.Copy();
            g = rt::Array::FromHost(c.data(), c.shape(), c.dtype(), arr.device());
          }
          grads.emplace_back(arr, g);
        }
        for (const auto& [arr, g] : grads) CheckBackwardGrad(arr, g);
        t.tape->Backward(grads);
      } else {
        // Warp's backward() with neither: the grads the arrays already hold are the seeds.
        t.tape->RunAdjoints();
      }
      return Value();
    });
  if (name == "zero" || name == "reset")
    return method([name](TapeObj& t, Interpreter& in, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      RefuseInCapture(in, "Tape." + name + "()");
      if (name == "zero") t.tape->Zero();
      else t.tape->Reset();
      return Value();
    });
  return std::nullopt;
}

Value WpFuncObj::Call(Interpreter& in, CallArgs& args) {
  if (!fn.IsObj()) TypeError("`" + name + "` is a @wp.func: it can be called only from kernels and other @wp.func functions");
  return fn.obj()->Call(in, args);
}

// ---------------------------------------------------------------- the module

std::shared_ptr<WpState> MakeWpState() { return std::make_shared<WpState>(); }

// wp.array and wp.array1d..4d: constructors that a subscript turns into an annotation.
struct ArrayConstructorObj : BuiltinFn {
  using BuiltinFn::BuiltinFn;
  Value GetItem(Interpreter&, const Value& key) override {
    return Value(std::make_shared<ArrayAnnotationObj>(name, name == "array" ? 1 : name[5] - '0', key));
  }
};

// adjoint=True (launch and launch_tiled): the kernel's adjoint, which reads and adds to each
// array's own grad; the adj_inputs/adj_outputs given (binder slots 7 and 8) must be those grads
// (None for an argument without one).
static Value LaunchAdjointOf(Interpreter& in, const ArgBinder& b, KernelObj& k, const rt::Kernel& kernel,
                      const std::vector<int64_t>& dim, const std::vector<rt::KernelArg>& args, int block_dim,
                      std::optional<rt::Device> device, bool hybrid, const std::string& fname) {
  std::vector<Value> adj;
  for (size_t idx : {size_t(7), size_t(8)})
    if (b.Has(idx) && !b.Get(idx).IsNone()) {
      const Value& list = b.Get(idx);
      const std::vector<Value>* items = list.As<ListObj>() ? &list.As<ListObj>()->items
                                        : list.As<TupleObj>() ? &list.As<TupleObj>()->items
                                                              : nullptr;
      if (!items) TypeError(fname + "(): adj_inputs and adj_outputs must be lists");
      adj.insert(adj.end(), items->begin(), items->end());
    }
  // adj[u] is the adjoint of the u-th argument given; a struct's arrays are not given.
  const std::vector<size_t> given = GivenParams(k.kernel.signature());
  for (size_t u = 0; u < adj.size() && u < given.size(); ++u) {
    const size_t i = given[u];
    if (adj[u].IsNone() || !adj[u].As<WpArrayObj>()) continue;
    const rt::Array* arr = args[i].kind() == rt::KernelArg::Kind::Array ? &args[i].array() : nullptr;
    const rt::Array& g = ArrayArg(adj[u], fname + "() adj_inputs");
    if (!arr || !arr->requires_grad() || arr->grad().data() != g.data())
      ValueError(fname + "(): adjoint launches take each array's own grad as its adjoint; argument " +
                 std::to_string(u) + " of `" + k.name + "` is given another array");
  }
  rt::RecordedLaunch r;
  r.kernel = kernel;
  r.dim = dim;
  r.args = args;
  r.block_dim = block_dim;
  r.hybrid = hybrid;
  r.device = device ? *device : rt::GetDefaultDevice();
  auto adjoint = [r, keep = b.Get(0)] { rt::LaunchAdjoint(r); };
  if (!RecordInCapture(in, adjoint)) adjoint();
  return Value();
}

Value MakeWarpModule(Interpreter& in) {
  auto m = std::make_shared<ModuleObj>("warp");
  for (int k = 0; k < kNumScalarTypes; ++k) {
    ScalarType t = static_cast<ScalarType>(k);
    m->attrs[std::string(ScalarName(t))] = Value(std::make_shared<DTypeObj>(t, DTypeObj::Flavor::WpType));
  }
  m->attrs["array"] = Value(std::make_shared<ArrayConstructorObj>("array", MakeArray));
  // wp.array1d(data, dtype=...) ... wp.array4d: wp.array with that many dimensions.
  for (int n = 1; n <= 4; ++n) {
    const std::string name = "array" + std::to_string(n) + "d";
    m->attrs[name] = Value(std::make_shared<ArrayConstructorObj>(name, [n](Interpreter& in, CallArgs& a) {
      for (auto& [k, v] : a.kw)
        if (k == "ndim") TypeError("array" + std::to_string(n) + "d(): got an unexpected keyword argument 'ndim'");
      a.kw.push_back({"ndim", Value::Int(n)});
      return MakeArray(in, a);
    }));
  }
  for (const char* n : {"zeros", "ones", "empty", "full"}) {
    std::string name = n;
    m->Def(name, [name](Interpreter& in, CallArgs& a) { return Filled(in, a, name); });
  }
  for (const char* n : {"zeros_like", "ones_like", "empty_like", "clone"}) {
    std::string name = n;
    m->Def(name, [name](Interpreter& in, CallArgs& a) { return Like(in, a, name); });
  }
  m->Def("full_like", FullLike);
  m->Def("from_numpy", FromNumpy);
  m->Def("copy", CopyArrays);
  m->Def("launch", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("launch", a,
                {"kernel", "dim", "inputs", "outputs", "device", "block_dim", "record_cmd", "adj_inputs", "adj_outputs",
                 "adjoint"},
                2);
    KernelObj& k = LaunchedKernel(in, b, "launch");
    auto dim = DimArg(b.Get(1), "launch()");
    auto args = LaunchArgs(in, k, b, 2, 3, "launch");
    auto device = b.Has(4) ? DeviceArg(b.Get(4), "launch()") : std::nullopt;
    const bool adjoint = b.Has(9) && Truth(b.Get(9));
    std::function<void()> run;
    if (k.kernel.signature().tiled) {
      // Warp's hybrid launch: one thread per index of dim, in blocks of block_dim threads
      // (Warp's default 256); a last block the threads do not fill has inactive lanes.
      int64_t block_dim = b.Has(5) ? ToInt(b.Get(5), "launch() block_dim") : 256;
      if (block_dim < 1 || block_dim > 1024)
        ValueError("launch(): block_dim must be between 1 and 1024, got " + std::to_string(block_dim));
      const rt::Kernel* kernel = &KernelFor(k, device, int(block_dim), "launch", true);
      if (adjoint) return LaunchAdjointOf(in, b, k, *kernel, dim, args, int(block_dim), device, true, "launch");
      run = [kernel, dim, args, block_dim, device, keep = b.Get(0)] {
        rt::LaunchHybrid(*kernel, dim, args, int(block_dim), device);
      };
    } else {
      const rt::Kernel* kernel = &KernelFor(k, device, 0, "launch");
      if (adjoint) return LaunchAdjointOf(in, b, k, *kernel, dim, args, 0, device, false, "launch");
      run = [kernel, dim, args, device, keep = b.Get(0)] { rt::Launch(*kernel, dim, args, device); };
    }
    // record_cmd=True: the launch is made, not run, and runs at each `cmd.launch()`.
    if (b.Has(6) && Truth(b.Get(6))) return Value(std::make_shared<RecordedLaunchObj>(k.name, run));
    if (!RecordInCapture(in, run)) run();
    return Value();
  });
  m->Def("launch_tiled", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("launch_tiled", a,
                {"kernel", "dim", "inputs", "outputs", "device", "block_dim", "record_cmd", "adj_inputs", "adj_outputs",
                 "adjoint"},
                2);
    KernelObj& k = LaunchedKernel(in, b, "launch_tiled");
    auto dim = DimArg(b.Get(1), "launch_tiled()");
    auto args = LaunchArgs(in, k, b, 2, 3, "launch_tiled");
    auto device = b.Has(4) ? DeviceArg(b.Get(4), "launch_tiled()") : std::nullopt;
    int64_t block_dim = b.Has(5) ? ToInt(b.Get(5), "launch_tiled() block_dim") : 256;
    if (block_dim < 1 || block_dim > 1024)
      ValueError("launch_tiled(): block_dim must be between 1 and 1024, got " + std::to_string(block_dim));
    const rt::Kernel* kernel = &KernelFor(k, device, int(block_dim), "launch_tiled");
    if (b.Has(9) && Truth(b.Get(9)))
      return LaunchAdjointOf(in, b, k, *kernel, dim, args, int(block_dim), device, false, "launch_tiled");
    auto run = [kernel, dim, args, block_dim, device, keep = b.Get(0)] {
      rt::LaunchTiled(*kernel, dim, args, int(block_dim), device);
    };
    // record_cmd=True: the launch is made, not run, and runs at each `cmd.launch()`.
    if (b.Has(6) && Truth(b.Get(6))) return Value(std::make_shared<RecordedLaunchObj>(k.name, run));
    if (!RecordInCapture(in, run)) run();
    return Value();
  });
  m->attrs["Tape"] = Value(std::make_shared<PyTypeObj>("Tape", [](Interpreter&, CallArgs& a) {
    ArgBinder b("Tape", a, {}, 0);
    return Value(std::make_shared<TapeObj>());
  }));
  m->Def("synchronize", [](Interpreter&, CallArgs& a) {
    ArgBinder b("synchronize", a, {}, 0);
    rt::Synchronize();
    return Value();
  });
  m->Def("synchronize_device", [](Interpreter&, CallArgs& a) {
    ArgBinder b("synchronize_device", a, {"device"}, 0);
    rt::Synchronize(b.Has(0) ? DeviceArg(b.Get(0), "synchronize_device()") : std::nullopt);
    return Value();
  });
  m->Def("get_device", [](Interpreter&, CallArgs& a) {
    ArgBinder b("get_device", a, {"ident"}, 0);
    auto d = b.Has(0) ? DeviceArg(b.Get(0), "get_device()") : std::nullopt;
    return Value(std::make_shared<DeviceObj>(d.value_or(rt::GetDefaultDevice())));
  });
  m->Def("get_preferred_device", [](Interpreter&, CallArgs& a) {
    ArgBinder b("get_preferred_device", a, {}, 0);
    return Value(std::make_shared<DeviceObj>(rt::GetDefaultDevice()));
  });
  m->Def("set_device", [](Interpreter&, CallArgs& a) {
    ArgBinder b("set_device", a, {"ident"}, 1);
    auto d = DeviceArg(b.Get(0), "set_device()");
    if (d) rt::SetDefaultDevice(*d);
    return Value();
  });
  // `with wp.ScopedDevice(d):` makes d the default device inside the block (None: the
  // current default), then restores the one before.
  m->Def("ScopedDevice", [](Interpreter&, CallArgs& a) {
    ArgBinder b("ScopedDevice", a, {"device"}, 1);
    return Value(std::make_shared<ScopedDeviceObj>(DeviceArg(b.Get(0), "ScopedDevice()")));
  });
  m->Def("is_cpu_available", [](Interpreter&, CallArgs& a) {
    ArgBinder b("is_cpu_available", a, {}, 0);
    return Value::Bool(true);
  });
  m->Def("is_cuda_available", [](Interpreter&, CallArgs& a) {
    ArgBinder b("is_cuda_available", a, {}, 0);
    return Value::Bool(rt::IsCudaAvailable());
  });
  m->Def("get_cuda_device_count", [](Interpreter&, CallArgs& a) {
    ArgBinder b("get_cuda_device_count", a, {}, 0);
    return Value::Int(rt::CudaDeviceCount());
  });
  m->Def("init", [](Interpreter&, CallArgs& a) {
    ArgBinder b("init", a, {}, 0);
    return Value();
  });
  m->Def("constant", [](Interpreter&, CallArgs& a) {
    ArgBinder b("constant", a, {"x"}, 1);
    Value v = b.Get(0);
    // A NumPy scalar (np.int32(7)) is its number: kernels read constants as literals.
    if (v.IsObj())
      if (std::optional<Value> s = v.obj()->AsScalar()) v = *s;
    if (!v.IsNumber() && !v.As<CompositeValueObj>()) TypeError("Invalid constant type: <class '" + TypeName(v) + "'>");
    return v;
  });
  DefineWarpDecorators(*m);
  DefineWarpCompat(*m);
  DefineWarpUtils(*m);
  DefineWarpCapture(*m);
  DefineWarpConfigAndTimer(in, *m);
  DefineWarpComposites(*m);
  AddKernelBuiltins(*m);
  AddHostCallableBuiltins(*m);
  return Value(m);
}

}  // namespace tilec::host
