// Typed views for C++ hosts: ArrayND<T, N> (Array1D<float>, Array2D<vec3f>, ...) over an
// untyped rt::Array whose dtype and ndim are checked once, at construction; ElementTraits that
// tie a C++ element type to the runtime's dtype; and the helpers that the typed launchers of
// `tilec compile --emit=header` expand to (argument checks at compile time, binding at load).
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "support/composite.h"
#include "tilec/array.h"
#include "tilec/error.h"
#include "tilec/launch.h"
#include "tilec/launch_options.h"
#include "tilec/module.h"
#include "tilec/tape.h"
#include "tilec/vec.h"

namespace tilec::rt {
// KernelArg::Of and Array::FromVector name 16-bit floats through their bit containers.
template <> constexpr ScalarType ScalarTypeOf<tilec::half>() { return ScalarType::Float16; }
template <> constexpr ScalarType ScalarTypeOf<tilec::bfloat16>() { return ScalarType::BFloat16; }
}  // namespace tilec::rt

namespace tilec {

// What the runtime calls a C++ element type. Undefined types have kDefined == false, so that a
// typed array of one fails with a static_assert rather than deep inside a template.
template <typename T, typename = void>
struct ElementTraits {
  static constexpr bool kDefined = false;
};

// Scalars: the C types whose ScalarTypeOf exists.
template <typename T>
struct ScalarElement {
  static constexpr bool kDefined = true;
  static constexpr bool kIsScalar = true;
  static rt::ArrayDType DType() { return rt::ScalarTypeOf<T>(); }
  static std::string Name() { return std::string(ScalarName(rt::ScalarTypeOf<T>())); }
  static bool Matches(const rt::ArrayDType& d) { return !d.is_struct() && d.scalar == rt::ScalarTypeOf<T>(); }
  static rt::KernelArg Arg(const T& v) { return rt::KernelArg::Of<T>(v); }
};
#define TILEC_SCALAR_ELEMENT_(T) \
  template <> struct ElementTraits<T> : ScalarElement<T> {};
TILEC_SCALAR_ELEMENT_(bool)
TILEC_SCALAR_ELEMENT_(int8_t)
TILEC_SCALAR_ELEMENT_(int16_t)
TILEC_SCALAR_ELEMENT_(int32_t)
TILEC_SCALAR_ELEMENT_(int64_t)
TILEC_SCALAR_ELEMENT_(uint8_t)
TILEC_SCALAR_ELEMENT_(uint16_t)
TILEC_SCALAR_ELEMENT_(uint32_t)
TILEC_SCALAR_ELEMENT_(uint64_t)
TILEC_SCALAR_ELEMENT_(half)
TILEC_SCALAR_ELEMENT_(bfloat16)
TILEC_SCALAR_ELEMENT_(float)
TILEC_SCALAR_ELEMENT_(double)
#undef TILEC_SCALAR_ELEMENT_

// Structs (Warp's composites and the generated @wp.struct PODs): `Derived` supplies Name()
// and Layout(). The runtime matches struct dtypes by name and size, as launches do.
template <typename T, typename Derived>
struct StructElement {
  static constexpr bool kDefined = true;
  static constexpr bool kIsScalar = false;
  static rt::ArrayDType DType() { return rt::ArrayDType::Struct(Derived::Layout()); }
  static bool Matches(const rt::ArrayDType& d) {
    return d.is_struct() && d.layout->name == Derived::Name() && d.layout->size == sizeof(T);
  }
  static rt::KernelArg Arg(const T& v) {
    std::vector<uint8_t> bytes(sizeof(T));
    std::memcpy(bytes.data(), &v, sizeof(T));
    return rt::KernelArg::Struct(Derived::Name(), std::move(bytes));
  }
};

template <typename T, typename Derived>
struct CompositeElement : StructElement<T, CompositeElement<T, Derived>> {
  static std::string Name() { return CompositeName(Derived::Kind()); }
  static rt::StructLayout Layout() { return rt::CompositeLayout(Derived::Kind()); }
};
template <typename T, int N>
struct ElementTraits<vec_t<T, N>> : CompositeElement<vec_t<T, N>, ElementTraits<vec_t<T, N>>> {
  static Composite Kind() { return Composite::Vector(N, rt::ScalarTypeOf<T>()); }
};
template <typename T, int R, int C>
struct ElementTraits<mat_t<T, R, C>> : CompositeElement<mat_t<T, R, C>, ElementTraits<mat_t<T, R, C>>> {
  static Composite Kind() { return Composite::Matrix(R, C, rt::ScalarTypeOf<T>()); }
};
template <typename T>
struct ElementTraits<quat_t<T>> : CompositeElement<quat_t<T>, ElementTraits<quat_t<T>>> {
  static Composite Kind() { return Composite::Quat(rt::ScalarTypeOf<T>()); }
};
template <typename T>
struct ElementTraits<transform_t<T>> : CompositeElement<transform_t<T>, ElementTraits<transform_t<T>>> {
  static Composite Kind() { return Composite::Transform(rt::ScalarTypeOf<T>()); }
};

// A typed view: an rt::Array known to hold T elements in N dimensions. Views share storage
// with the Array they were made from; the conversion back to rt::Array is free.
template <typename T, int N>
class ArrayND {
  static_assert(N >= 1 && N <= 4, "tilec::ArrayND: arrays have 1 to 4 dimensions");
  static_assert(ElementTraits<T>::kDefined,
                "tilec::ArrayND: T is not an element type (a scalar, a tilec::vec_t/mat_t/quat_t/"
                "transform_t or a struct of a generated kernel header)");

 public:
  using value_type = T;
  static constexpr int kNdim = N;
  using Shape = std::array<int64_t, N>;

  ArrayND() = default;  // the null array
  // Throws rt::Error unless `array` is null or holds T elements in N dimensions.
  explicit ArrayND(rt::Array array) : array_(std::move(array)) {
    if (array_.is_null()) return;
    if (array_.ndim() != N || !ElementTraits<T>::Matches(array_.dtype()))
      throw rt::Error("tilec::ArrayND: cannot view array(dtype=" + array_.dtype().Name() + ", ndim=" +
                      std::to_string(array_.ndim()) + ") as array(dtype=" + ElementTraits<T>::Name() +
                      ", ndim=" + std::to_string(N) + ")");
  }

  static ArrayND Empty(const Shape& shape, std::optional<rt::Device> device = std::nullopt,
                       bool requires_grad = false) {
    return ArrayND(rt::Array::Empty(Vec(shape), ElementTraits<T>::DType(), device, requires_grad));
  }
  static ArrayND Zeros(const Shape& shape, std::optional<rt::Device> device = std::nullopt,
                       bool requires_grad = false) {
    return ArrayND(rt::Array::Zeros(Vec(shape), ElementTraits<T>::DType(), device, requires_grad));
  }
  // Copies C-ordered host values; `values` must hold exactly the shape's element count.
  static ArrayND FromVector(const std::vector<T>& values, const Shape& shape,
                            std::optional<rt::Device> device = std::nullopt, bool requires_grad = false) {
    static_assert(!std::is_same_v<T, bool>, "tilec::ArrayND: use FromHost for bool arrays");
    int64_t count = 1;
    for (int64_t e : shape) count *= e;
    if (count != static_cast<int64_t>(values.size()))
      throw rt::Error("tilec::ArrayND::FromVector: " + std::to_string(values.size()) +
                      " values for a shape of " + std::to_string(count) + " elements");
    return FromHost(values.data(), shape, device, requires_grad);
  }
  static ArrayND FromHost(const T* data, const Shape& shape, std::optional<rt::Device> device = std::nullopt,
                          bool requires_grad = false) {
    return ArrayND(rt::Array::FromHost(data, Vec(shape), ElementTraits<T>::DType(), device, requires_grad));
  }

  std::vector<T> ToVector() const {
    static_assert(!std::is_same_v<T, bool>, "tilec::ArrayND: use array().ToHostBytes() for bool arrays");
    std::vector<T> out(static_cast<size_t>(array_.size()));
    array_.CopyToHost(out.data());
    return out;
  }

  // Overwrites every element from C-ordered host values (size() of them). The handle is
  // const, its elements are not: views share storage, as rt::Array's do.
  void CopyFromHost(const T* data) const {
    rt::Array view = array_;
    view.CopyFromHost(data);
  }

  bool is_null() const { return array_.is_null(); }
  const rt::Array& array() const { return array_; }
  operator const rt::Array&() const { return array_; }  // NOLINT: typed to untyped is always safe
  Shape shape() const {
    Shape s{};
    for (int i = 0; i < N; ++i) s[i] = array_.shape()[i];
    return s;
  }
  int64_t size() const { return array_.size(); }
  rt::Device device() const { return array_.device(); }
  T* data() const { return static_cast<T*>(array_.data()); }  // a device address on CUDA
  ArrayND grad() const { return ArrayND(array_.grad()); }

 private:
  static std::vector<int64_t> Vec(const Shape& s) { return std::vector<int64_t>(s.begin(), s.end()); }
  rt::Array array_;
};

template <typename T> using Array1D = ArrayND<T, 1>;
template <typename T> using Array2D = ArrayND<T, 2>;
template <typename T> using Array3D = ArrayND<T, 3>;
template <typename T> using Array4D = ArrayND<T, 4>;

// What generated launchers expand to; not meant to be called by hand.
namespace typed {

template <typename P> struct IsArray : std::false_type {};
template <typename T, int N> struct IsArray<ArrayND<T, N>> : std::true_type {};

// Whether an argument of C++ type A may be passed for a parameter of C++ type P: the exact
// typed array or struct; for numbers, Warp's rules: anything numeric becomes a float,
// integers (and bool) an integer, only bool a bool.
template <typename P, typename A>
constexpr bool Accepts() {
  using D = std::remove_cvref_t<A>;
  if constexpr (std::is_same_v<D, P>) return true;
  else if constexpr (std::is_same_v<P, bool>) return false;
  else if constexpr (std::is_integral_v<P>) return std::is_integral_v<D>;
  else if constexpr (std::is_floating_point_v<P> || std::is_same_v<P, half> || std::is_same_v<P, bfloat16>)
    return std::is_arithmetic_v<D>;
  else return false;
}

// The KernelArg for parameter P from an accepted argument; integers that do not fit P are an
// rt::Error naming the kernel and the parameter (the conversion would change the value).
template <typename P, typename A>
rt::KernelArg ToArg(const A& a, const char* kernel, const char* param) {
  using D = std::remove_cvref_t<A>;
  if constexpr (IsArray<P>::value) {
    return rt::KernelArg(a.array());
  } else if constexpr (std::is_same_v<D, P>) {
    return ElementTraits<P>::Arg(a);
  } else if constexpr (std::is_integral_v<P> && std::is_same_v<D, bool>) {
    return rt::KernelArg::Of<P>(static_cast<P>(a ? 1 : 0));
  } else if constexpr (std::is_integral_v<P>) {
    if (!std::in_range<P>(a))
      throw rt::Error(std::string("kernel `") + kernel + "`, parameter `" + param + "`: " + std::to_string(a) +
                      " does not fit `" + ElementTraits<P>::Name() + "`");
    return rt::KernelArg::Of<P>(static_cast<P>(a));
  } else if constexpr (std::is_same_v<P, half> || std::is_same_v<P, bfloat16>) {
    return rt::KernelArg::Typed(rt::ScalarTypeOf<P>(), static_cast<double>(a));
  } else {
    return rt::KernelArg::Of<P>(static_cast<P>(a));
  }
}

// One parameter as the header was generated for it: its name, ParamTypeName, and the size of
// its struct (value or element), 0 for scalars.
struct ParamSpec {
  const char* name;
  const char* type;
  size_t struct_size;
};

// The kernel `name` of `module`, checked against the parameters the header was generated for,
// so that a header and a shared object from different sources fail at load, not in a launch.
inline rt::Kernel BindKernel(const rt::Module& module, const char* header, const char* name,
                             std::initializer_list<ParamSpec> params) {
  if (!module.HasKernel(name))
    throw rt::Error(std::string(header) + ": the module has no kernel `" + name +
                    "`; regenerate the header from the source of the module");
  rt::Kernel k = module.GetKernel(name);
  const auto& got = k.signature().params;
  auto mismatch = [&](const std::string& what) {
    return rt::Error(std::string(header) + ": kernel `" + name + "` " + what +
                     "; regenerate the header from the source of the module");
  };
  if (got.size() != params.size())
    throw mismatch("takes " + std::to_string(got.size()) + " parameters in the module, " +
                   std::to_string(params.size()) + " in the header");
  size_t i = 0;
  for (const ParamSpec& want : params) {
    const rt::ParamInfo& p = got[i++];
    std::string type = rt::ParamTypeName(p, k.structs());
    if (p.name != want.name || type != want.type)
      throw mismatch("has parameter `" + p.name + ": " + type + "` in the module, `" + want.name + ": " +
                     want.type + "` in the header");
    if (p.type.is_struct() && k.structs()[p.type.struct_index].size != want.struct_size)
      throw mismatch("parameter `" + p.name + "`: struct `" + k.structs()[p.type.struct_index].name + "` has " +
                     std::to_string(k.structs()[p.type.struct_index].size) + " bytes in the module, " +
                     std::to_string(want.struct_size) + " in the header");
  }
  return k;
}

// The adjoint launch of a typed launcher: the same arguments as the forward launch; gradients
// flow through each array's grad (Tape::Backward does this for recorded launches).
inline void LaunchAdjoint(const rt::Kernel& kernel, const rt::LaunchOptions& options,
                          std::vector<rt::KernelArg> args) {
  rt::RecordedLaunch r;
  r.kernel = kernel;
  r.dim = options.dim;
  r.args = std::move(args);
  r.block_dim = options.block_dim;
  r.device = options.device ? *options.device : rt::GetDefaultDevice();
  r.hybrid = kernel.signature().tiled && kernel.signature().hybrid;
  r.stream = options.stream;
  rt::LaunchAdjoint(r);
}

}  // namespace typed
}  // namespace tilec
