// Arrays: allocation, views and slicing with NumPy's rules, gradients shared between views,
// and copies of strided data between host buffers and any device.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "runtime/src/internal.h"
#include "support/half.h"
#include "tilec/array.h"
#include "tilec/error.h"

namespace tilec::rt {

struct Array::Storage {
  ArrayDType dtype;
  std::shared_ptr<Buffer> data;
  std::shared_ptr<Buffer> grad;  // same size and layout as data
};

// --- dtype --------------------------------------------------------------------------------

ArrayDType ArrayDType::Struct(StructLayout layout) {
  ArrayDType d;
  d.layout = std::make_shared<const StructLayout>(std::move(layout));
  return d;
}
size_t ArrayDType::size() const { return layout ? layout->size : ScalarSize(scalar); }
std::string ArrayDType::Name() const {
  return layout ? layout->name : std::string(ScalarName(scalar));
}
bool ArrayDType::operator==(const ArrayDType& o) const {
  if (is_struct() != o.is_struct()) return false;
  if (!is_struct()) return scalar == o.scalar;
  return layout->name == o.layout->name && layout->size == o.layout->size;
}

// --- construction -------------------------------------------------------------------------

namespace {

std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape, size_t elem) {
  std::vector<int64_t> s(shape.size());
  int64_t step = static_cast<int64_t>(elem);
  for (size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    step *= std::max<int64_t>(shape[i], 1);
  }
  return s;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

int64_t CheckedCount(const std::vector<int64_t>& shape) {
  if (shape.size() > TILEC_MAX_DIMS)
    throw Error("arrays have at most " + std::to_string(TILEC_MAX_DIMS) + " dimensions, got " +
                std::to_string(shape.size()));
  int64_t n = 1;
  for (int64_t e : shape) {
    if (e < 0) throw Error("array shape entries must be >= 0, got " + std::to_string(e));
    if (e != 0 && n > INT64_MAX / e) throw OutOfMemory("an array of shape " + ShapeText(shape) + " has more than 2^63 elements");
    n *= e;
  }
  return n;
}


// The byte size of `n` elements, refused where it overflows or exceeds the device's memory:
// a size that wrapped around would allocate a few bytes that kernels then index past.
size_t CheckedBytes(const std::vector<int64_t>& shape, int64_t n, const ArrayDType& dtype, const Device& device,
                    bool requires_grad) {
  int64_t esize = int64_t(dtype.size());
  int64_t copies = requires_grad ? 2 : 1;
  if (n > 0 && n > INT64_MAX / esize / copies)
    throw OutOfMemory("an array of shape " + ShapeText(shape) + " needs more than 2^63 bytes");
  uint64_t bytes = uint64_t(n) * uint64_t(esize);
  uint64_t capacity = DeviceMemoryBytes(device);
  if (capacity && bytes * uint64_t(copies) > capacity)
    throw OutOfMemory("an array of shape " + ShapeText(shape) + " needs " + std::to_string(bytes * uint64_t(copies)) +
                " bytes" + (requires_grad ? " with its gradient" : "") + ", more than the " + std::to_string(capacity) +
                " bytes of memory of `" + device.Name() + "`");
  return size_t(bytes);
}

// Visits the byte offset of every element in row-major order.
template <typename F>
void ForEachOffset(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, F f) {
  int nd = static_cast<int>(shape.size());
  for (int64_t e : shape)
    if (e == 0) return;
  std::vector<int64_t> idx(nd, 0);
  int64_t off = 0;
  for (;;) {
    f(off);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++idx[d] < shape[d]) {
        off += strides[d];
        break;
      }
      off -= strides[d] * (shape[d] - 1);
      idx[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

Array Array::Make(std::vector<int64_t> shape, ArrayDType dtype, Device device,
                  bool requires_grad, bool zero) {
  int64_t n = CheckedCount(shape);
  if (dtype.is_struct() && dtype.layout->size == 0)
    throw Error("struct `" + dtype.layout->name + "` has size 0");
  size_t bytes = CheckedBytes(shape, n, dtype, device, requires_grad);
  Array a;
  a.storage_ = std::make_shared<Storage>();
  a.storage_->dtype = std::move(dtype);
  a.storage_->data = AllocBuffer(bytes, device, zero);
  if (requires_grad) a.storage_->grad = AllocBuffer(bytes, device, true);
  a.strides_ = ContiguousStrides(shape, a.storage_->dtype.size());
  a.shape_ = std::move(shape);
  return a;
}

Array Array::Empty(std::vector<int64_t> shape, ArrayDType dtype, std::optional<Device> device,
                   bool requires_grad) {
  return Make(std::move(shape), std::move(dtype), device ? *device : GetDefaultDevice(),
              requires_grad, false);
}

Array Array::Zeros(std::vector<int64_t> shape, ArrayDType dtype, std::optional<Device> device,
                   bool requires_grad) {
  return Make(std::move(shape), std::move(dtype), device ? *device : GetDefaultDevice(),
              requires_grad, true);
}

Array Array::FromHost(const void* host_data, std::vector<int64_t> shape, ArrayDType dtype,
                      std::optional<Device> device, bool requires_grad) {
  Array a = Empty(std::move(shape), std::move(dtype), device, requires_grad);
  a.CopyFromHost(host_data);
  return a;
}

Array Array::Wrap(void* data, std::vector<int64_t> shape, std::vector<int64_t> byte_strides,
                  ArrayDType dtype, Device device, std::shared_ptr<void> keep_alive) {
  CheckedCount(shape);
  if (byte_strides.size() != shape.size())
    throw Error("`Wrap` needs one stride per dimension: got " +
                std::to_string(byte_strides.size()) + " strides for " +
                std::to_string(shape.size()) + " dimensions");
  CheckDevice(device);
  Array a;
  a.storage_ = std::make_shared<Storage>();
  a.storage_->dtype = std::move(dtype);
  auto buf = std::make_shared<Buffer>();
  buf->ptr = data;
  buf->device = device;
  buf->owned = false;
  buf->keep_alive = std::move(keep_alive);
  a.storage_->data = std::move(buf);
  a.shape_ = std::move(shape);
  a.strides_ = std::move(byte_strides);
  return a;
}

// --- properties ---------------------------------------------------------------------------

static void RequireArray(const void* storage, const char* what) {
  if (!storage) throw Error(std::string("`") + what + "` called on a null array");
}

const ArrayDType& Array::dtype() const {
  RequireArray(storage_.get(), "dtype");
  return storage_->dtype;
}
size_t Array::elem_size() const { return dtype().size(); }
int64_t Array::size() const {
  int64_t n = 1;
  for (int64_t e : shape_) n *= e;
  return n;
}
Device Array::device() const {
  RequireArray(storage_.get(), "device");
  return storage_->data->device;
}
void* Array::data() const {
  RequireArray(storage_.get(), "data");
  const auto& buf = is_grad_view_ ? storage_->grad : storage_->data;
  return static_cast<char*>(buf->ptr) + offset_;
}

bool Array::is_contiguous() const {
  if (is_null()) return false;
  int64_t expect = static_cast<int64_t>(elem_size());
  for (size_t i = shape_.size(); i-- > 0;) {
    if (shape_[i] == 0) return true;
    if (shape_[i] != 1 && strides_[i] != expect) return false;
    expect *= shape_[i];
  }
  return true;
}

bool Array::requires_grad() const { return storage_ && storage_->grad != nullptr && !is_grad_view_; }

void Array::set_requires_grad(bool on) {
  RequireArray(storage_.get(), "requires_grad");
  if (is_grad_view_) throw Error("a gradient array cannot itself require grad");
  if (!on) {
    storage_->grad.reset();
    return;
  }
  if (storage_->grad) return;
  if (!storage_->data->owned)
    throw Error("wrapped arrays cannot allocate a gradient; wrap one with `Wrap` instead");
  storage_->grad = AllocBuffer(storage_->data->bytes, storage_->data->device, true);
}

Array Array::grad() const {
  if (!requires_grad()) return Array();
  Array g = *this;
  g.is_grad_view_ = true;
  return g;
}

// --- slicing ------------------------------------------------------------------------------

Array Array::Slice(const std::vector<SliceSpec>& specs) const {
  RequireArray(storage_.get(), "slice");
  if (specs.size() > shape_.size())
    throw Error("too many indices for array: array is " + std::to_string(shape_.size()) +
                "-dimensional, but " + std::to_string(specs.size()) + " were indexed");
  Array v = *this;
  v.shape_.clear();
  v.strides_.clear();
  for (size_t d = 0; d < shape_.size(); ++d) {
    int64_t n = shape_[d], stride = strides_[d];
    if (d >= specs.size()) {
      v.shape_.push_back(n);
      v.strides_.push_back(stride);
      continue;
    }
    const SliceSpec& s = specs[d];
    if (s.is_index) {
      int64_t i = s.index < 0 ? s.index + n : s.index;
      if (i < 0 || i >= n)
        throw Error("index " + std::to_string(s.index) + " is out of bounds for axis " +
                    std::to_string(d) + " with size " + std::to_string(n));
      v.offset_ += i * stride;
      continue;
    }
    if (s.step == 0) throw Error("slice step cannot be zero");
    // Python's slice.indices(): clamp start/stop into range depending on the step's sign.
    int64_t step = s.step, start, stop;
    auto clamp = [&](std::optional<int64_t> x, int64_t dflt, int64_t lo, int64_t hi) {
      if (!x) return dflt;
      int64_t y = *x < 0 ? *x + n : *x;
      return std::clamp(y, lo, hi);
    };
    if (step > 0) {
      start = clamp(s.start, 0, 0, n);
      stop = clamp(s.stop, n, 0, n);
    } else {
      start = clamp(s.start, n - 1, -1, n - 1);
      stop = clamp(s.stop, -1, -1, n - 1);
    }
    int64_t len = 0;
    if (step > 0 && stop > start) len = (stop - start + step - 1) / step;
    if (step < 0 && start > stop) len = (start - stop + (-step) - 1) / (-step);
    if (len > 0) v.offset_ += start * stride;
    v.shape_.push_back(len);
    v.strides_.push_back(stride * step);
  }
  return v;
}

Array Array::Reshape(std::vector<int64_t> shape) const {
  RequireArray(storage_.get(), "reshape");
  if (!is_contiguous()) throw Error("reshaping a non-contiguous array is unsupported");
  int64_t known = 1;
  int inferred = -1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == -1) {
      if (inferred >= 0) throw Error("cannot infer a shape with more than one -1");
      inferred = int(d);
    } else if (shape[d] < 0) {
      throw Error("negative dimension " + std::to_string(shape[d]) + " in reshape");
    } else {
      known *= shape[d];
    }
  }
  if (inferred >= 0) shape[size_t(inferred)] = known == 0 ? 0 : size() / known;
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (n != size() || shape.empty())
    throw Error("cannot reshape an array of " + std::to_string(size()) + " elements into " +
                std::to_string(n));
  Array v = *this;
  v.shape_ = shape;
  v.strides_.assign(shape.size(), 0);
  int64_t stride = int64_t(elem_size());
  for (size_t d = shape.size(); d-- > 0;) {
    v.strides_[d] = stride;
    stride *= shape[d];
  }
  return v;
}

Array Array::Permute(const std::vector<int>& axes) const {
  RequireArray(storage_.get(), "transpose");
  std::vector<int> order = axes;
  if (order.empty())
    for (int d = ndim(); d-- > 0;) order.push_back(d);
  if (int(order.size()) != ndim()) throw Error("transpose needs one axis per dimension");
  std::vector<bool> seen(size_t(ndim()), false);
  Array v = *this;
  for (size_t d = 0; d < order.size(); ++d) {
    int a = order[d];
    if (a < 0 || a >= ndim() || seen[size_t(a)]) throw Error("transpose axes are not a permutation");
    seen[size_t(a)] = true;
    v.shape_[d] = shape_[size_t(a)];
    v.strides_[d] = strides_[size_t(a)];
  }
  return v;
}

// --- copies -------------------------------------------------------------------------------

namespace {

// The byte range [lo, hi) relative to element 0 that a strided view touches.
void Extent(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides, size_t elem,
            int64_t& lo, int64_t& hi) {
  lo = 0;
  hi = static_cast<int64_t>(elem);
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) {
      hi = lo;
      return;
    }
    int64_t span = strides[d] * (shape[d] - 1);
    if (span < 0) lo += span; else hi += span;
  }
}

}  // namespace

void Array::CopyToHost(void* dst) const {
  RequireArray(storage_.get(), "copy");
  size_t elem = elem_size();
  size_t total = static_cast<size_t>(size()) * elem;
  if (total == 0) return;
  Device dev = device();
  if (is_contiguous()) {
    CopyDeviceToHost(dev, dst, data(), total);
    return;
  }
  int64_t lo, hi;
  Extent(shape_, strides_, elem, lo, hi);
  std::vector<uint8_t> span(static_cast<size_t>(hi - lo));
  CopyDeviceToHost(dev, span.data(), static_cast<char*>(data()) + lo, span.size());
  char* out = static_cast<char*>(dst);
  ForEachOffset(shape_, strides_, [&](int64_t off) {
    std::memcpy(out, span.data() + (off - lo), elem);
    out += elem;
  });
}

void Array::CopyFromHost(const void* src) {
  RequireArray(storage_.get(), "copy");
  size_t elem = elem_size();
  size_t total = static_cast<size_t>(size()) * elem;
  if (total == 0) return;
  Device dev = device();
  if (is_contiguous()) {
    CopyHostToDevice(dev, data(), src, total);
    return;
  }
  // Read-modify-write the covered span so that bytes between the view's elements survive.
  int64_t lo, hi;
  Extent(shape_, strides_, elem, lo, hi);
  std::vector<uint8_t> span(static_cast<size_t>(hi - lo));
  char* base = static_cast<char*>(data()) + lo;
  CopyDeviceToHost(dev, span.data(), base, span.size());
  const char* in = static_cast<const char*>(src);
  ForEachOffset(shape_, strides_, [&](int64_t off) {
    std::memcpy(span.data() + (off - lo), in, elem);
    in += elem;
  });
  CopyHostToDevice(dev, base, span.data(), span.size());
}

void Array::CopyFrom(const Array& src) {
  RequireArray(storage_.get(), "copy");
  RequireArray(src.storage_.get(), "copy");
  if (src.shape_ != shape_ || !(src.dtype() == dtype()))
    throw Error("cannot copy an array of dtype `" + src.dtype().Name() + "` and " +
                std::to_string(src.ndim()) + " dims into one of dtype `" + dtype().Name() +
                "` and " + std::to_string(ndim()) + " dims with another shape");
  size_t total = static_cast<size_t>(size()) * elem_size();
  if (device() == src.device() && is_contiguous() && src.is_contiguous()) {
    CopyDeviceToDevice(device(), data(), src.data(), total);
    return;
  }
  std::vector<uint8_t> tmp = src.ToHostBytes();
  CopyFromHost(tmp.data());
}

std::vector<uint8_t> Array::ToHostBytes() const {
  std::vector<uint8_t> out(static_cast<size_t>(size()) * elem_size());
  CopyToHost(out.data());
  return out;
}

Array Array::Clone(std::optional<Device> device) const {
  RequireArray(storage_.get(), "clone");
  Array c = Empty(shape_, dtype(), device ? *device : this->device(), requires_grad());
  c.CopyFrom(*this);
  return c;
}

void Array::Zero() {
  RequireArray(storage_.get(), "zero_");
  if (is_contiguous()) {
    ZeroDeviceMemory(device(), data(), static_cast<size_t>(size()) * elem_size());
    return;
  }
  std::vector<uint8_t> zeros(static_cast<size_t>(size()) * elem_size(), 0);
  CopyFromHost(zeros.data());
}

void Array::FillBytes(const void* element) {
  RequireArray(storage_.get(), "fill_");
  size_t elem = elem_size();
  std::vector<uint8_t> buf(static_cast<size_t>(size()) * elem);
  for (size_t i = 0; i < buf.size(); i += elem) std::memcpy(buf.data() + i, element, elem);
  CopyFromHost(buf.data());
}

void Array::Fill(double value) {
  if (dtype().is_struct())
    throw Error("`fill_` with a number needs a scalar dtype, not struct `" + dtype().Name() + "`");
  uint8_t bytes[8] = {};
  auto put = [&](auto v) { std::memcpy(bytes, &v, sizeof(v)); };
  switch (dtype().scalar) {
    case ScalarType::Bool: put(uint8_t(value != 0)); break;
    case ScalarType::Int8: put(int8_t(value)); break;
    case ScalarType::Int16: put(int16_t(value)); break;
    case ScalarType::Int32: put(int32_t(value)); break;
    case ScalarType::Int64: put(int64_t(value)); break;
    case ScalarType::UInt8: put(uint8_t(value)); break;
    case ScalarType::UInt16: put(uint16_t(value)); break;
    case ScalarType::UInt32: put(uint32_t(value)); break;
    case ScalarType::UInt64: put(uint64_t(value)); break;
    case ScalarType::Float16: put(FloatToHalf(float(value))); break;
    case ScalarType::BFloat16: put(FloatToBFloat16(float(value))); break;
    case ScalarType::Float32: put(float(value)); break;
    case ScalarType::Float64: put(value); break;
  }
  FillBytes(bytes);
}

tilec_array Array::ToAbi() const {
  RequireArray(storage_.get(), "ToAbi");
  tilec_array a{};
  a.data = data();
  Array g = grad();
  a.grad = g.is_null() ? nullptr : g.data();
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    bool used = d < ndim();
    a.shape[d] = used ? shape_[d] : 1;
    a.strides[d] = used ? strides_[d] : 0;
  }
  return a;
}

void Array::CheckTyped(ScalarType t, size_t count) const {
  RequireArray(storage_.get(), "typed access");
  if (dtype().is_struct() || dtype().scalar != t)
    throw Error("array has dtype `" + dtype().Name() + "`, not `" +
                std::string(ScalarName(t)) + "`");
  if (count != static_cast<size_t>(size()))
    throw Error("array has " + std::to_string(size()) + " elements, not " + std::to_string(count));
}

}  // namespace tilec::rt
