// Typed n-d arrays (0 to 4 dims) on a device: shared storage, shape, byte strides, an optional
// gradient buffer shared by every view, NumPy-style slicing (steps, negative strides) and
// copies between host memory and any device. An Array is a cheap handle; views share storage.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "support/dtype.h"
#include "tilec/abi.h"
#include "tilec/device.h"
#include "tilec/signature.h"

namespace tilec::rt {

// An array's element type: a scalar, or a struct given by its layout. `type.struct_index` is
// meaningless inside an Array (the layout is carried instead) and is kept at -1.
struct ArrayDType {
  ScalarType scalar = ScalarType::Float32;
  std::shared_ptr<const StructLayout> layout;  // set for struct elements

  ArrayDType() = default;
  ArrayDType(ScalarType s) : scalar(s) {}  // NOLINT: a scalar converts implicitly
  static ArrayDType Struct(StructLayout layout);
  bool is_struct() const { return layout != nullptr; }
  size_t size() const;
  std::string Name() const;  // "float32" or the struct name
  bool operator==(const ArrayDType& other) const;
};

// One entry of a subscript: an index (drops the dimension) or a Python slice.
struct SliceSpec {
  bool is_index = false;
  int64_t index = 0;
  std::optional<int64_t> start, stop;
  int64_t step = 1;

  static SliceSpec Index(int64_t i) { SliceSpec s; s.is_index = true; s.index = i; return s; }
  static SliceSpec All() { return SliceSpec{}; }
  static SliceSpec Range(std::optional<int64_t> start, std::optional<int64_t> stop,
                         int64_t step = 1) {
    SliceSpec s; s.start = start; s.stop = stop; s.step = step; return s;
  }
};

class Array {
 public:
  Array() = default;  // the null array (None)

  static Array Empty(std::vector<int64_t> shape, ArrayDType dtype,
                     std::optional<Device> device = std::nullopt, bool requires_grad = false);
  static Array Zeros(std::vector<int64_t> shape, ArrayDType dtype,
                     std::optional<Device> device = std::nullopt, bool requires_grad = false);
  // Copies `shape`'s worth of C-contiguous host elements from `host_data`.
  static Array FromHost(const void* host_data, std::vector<int64_t> shape, ArrayDType dtype,
                        std::optional<Device> device = std::nullopt, bool requires_grad = false);
  // Wraps memory the caller owns; `keep_alive` is held as long as any view lives.
  static Array Wrap(void* data, std::vector<int64_t> shape, std::vector<int64_t> byte_strides,
                    ArrayDType dtype, Device device, std::shared_ptr<void> keep_alive = nullptr);

  template <typename T>
  static Array FromVector(const std::vector<T>& values, std::vector<int64_t> shape,
                          std::optional<Device> device = std::nullopt, bool requires_grad = false);

  bool is_null() const { return storage_ == nullptr; }
  explicit operator bool() const { return !is_null(); }

  const ArrayDType& dtype() const;
  size_t elem_size() const;
  int ndim() const { return static_cast<int>(shape_.size()); }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }  // bytes
  int64_t size() const;  // number of elements
  Device device() const;
  void* data() const;  // address of element (0, ..., 0); a device address on CUDA
  bool is_contiguous() const;  // C-contiguous, as NumPy's flags['C_CONTIGUOUS']
  bool same_storage(const Array& other) const { return storage_ == other.storage_; }

  // Gradients: the buffer is shared by every view of the same storage.
  bool requires_grad() const;
  void set_requires_grad(bool on);  // allocates a zeroed grad on first use
  Array grad() const;               // the same view of the grad buffer; null when none

  // NumPy basic indexing: fewer specs than dims leave the rest whole.
  Array Slice(const std::vector<SliceSpec>& specs) const;
  Array operator[](int64_t i) const { return Slice({SliceSpec::Index(i)}); }
  // The same C-contiguous elements in another shape (one entry may be -1, inferred), and the
  // axes permuted (empty `axes`: reversed). Both are views sharing data and gradient.
  Array Reshape(std::vector<int64_t> shape) const;
  Array Permute(const std::vector<int>& axes) const;

  // Host transfers use C-contiguous host buffers of size() * elem_size() bytes.
  void CopyToHost(void* dst) const;
  void CopyFromHost(const void* src);
  void CopyFrom(const Array& src);  // same shape and dtype, any devices
  Array Clone(std::optional<Device> device = std::nullopt) const;  // contiguous copy
  std::vector<uint8_t> ToHostBytes() const;
  template <typename T>
  std::vector<T> ToVector() const;

  void Zero();
  void FillBytes(const void* element);  // one element's bytes
  void Fill(double value);              // scalar dtypes only, converted as by a cast

  tilec_array ToAbi() const;  // requires ndim >= 1

 private:
  struct Storage;
  std::shared_ptr<Storage> storage_;
  int64_t offset_ = 0;  // bytes from the buffer start to element (0, ..., 0)
  std::vector<int64_t> shape_, strides_;
  bool is_grad_view_ = false;

  static Array Make(std::vector<int64_t> shape, ArrayDType dtype, Device device,
                    bool requires_grad, bool zero);
  void CheckTyped(ScalarType t, size_t size) const;
};

// The ScalarType that a C++ type stores (float -> Float32, uint16_t -> UInt16, ...).
template <typename T> constexpr ScalarType ScalarTypeOf();
template <> constexpr ScalarType ScalarTypeOf<bool>() { return ScalarType::Bool; }
template <> constexpr ScalarType ScalarTypeOf<int8_t>() { return ScalarType::Int8; }
template <> constexpr ScalarType ScalarTypeOf<int16_t>() { return ScalarType::Int16; }
template <> constexpr ScalarType ScalarTypeOf<int32_t>() { return ScalarType::Int32; }
template <> constexpr ScalarType ScalarTypeOf<int64_t>() { return ScalarType::Int64; }
template <> constexpr ScalarType ScalarTypeOf<uint8_t>() { return ScalarType::UInt8; }
template <> constexpr ScalarType ScalarTypeOf<uint16_t>() { return ScalarType::UInt16; }
template <> constexpr ScalarType ScalarTypeOf<uint32_t>() { return ScalarType::UInt32; }
template <> constexpr ScalarType ScalarTypeOf<uint64_t>() { return ScalarType::UInt64; }
template <> constexpr ScalarType ScalarTypeOf<float>() { return ScalarType::Float32; }
template <> constexpr ScalarType ScalarTypeOf<double>() { return ScalarType::Float64; }

template <typename T>
Array Array::FromVector(const std::vector<T>& values, std::vector<int64_t> shape,
                        std::optional<Device> device, bool requires_grad) {
  static_assert(!std::is_same_v<T, bool>, "use FromHost for bool arrays");
  Array a = Empty(std::move(shape), ScalarTypeOf<T>(), device, requires_grad);
  a.CheckTyped(ScalarTypeOf<T>(), values.size());
  a.CopyFromHost(values.data());
  return a;
}

template <typename T>
std::vector<T> Array::ToVector() const {
  static_assert(!std::is_same_v<T, bool>, "use ToHostBytes for bool arrays");
  CheckTyped(ScalarTypeOf<T>(), static_cast<size_t>(size()));
  std::vector<T> out(static_cast<size_t>(size()));
  CopyToHost(out.data());
  return out;
}

}  // namespace tilec::rt
