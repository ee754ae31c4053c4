// NdArray storage, factories (np.zeros, np.arange, np.array, ...), element access and the
// shape-changing views (reshape, T, broadcast_to), copies and tolist.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

std::shared_ptr<uint8_t[]> Allocate(int64_t nbytes) {
  return std::shared_ptr<uint8_t[]>(new uint8_t[std::max<int64_t>(nbytes, 1)]());
}

void CheckShape(const Shape& shape) {
  for (int64_t d : shape)
    if (d < 0) throw NdError("ValueError", "negative dimensions are not allowed");
}

int64_t NormalizeIndex(int64_t i, int64_t n, int axis) {
  int64_t j = i < 0 ? i + n : i;
  if (j < 0 || j >= n)
    throw NdError("IndexError", "index " + std::to_string(i) + " is out of bounds for axis " +
                                    std::to_string(axis) + " with size " + std::to_string(n));
  return j;
}

}  // namespace

std::string DtypeName(ScalarType t) { return std::string(ScalarName(t)); }

std::string ShapeString(const Shape& shape) {
  std::string s = "(";
  for (size_t k = 0; k < shape.size(); ++k) {
    if (k) s += ", ";
    s += std::to_string(shape[k]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

// NumPy's error messages write shapes without spaces: `(2,3)`.
static std::string CompactShape(const Shape& shape) {
  std::string s = ShapeString(shape);
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

Nested Nested::FromScalar(const Scalar& s) {
  Nested n;
  switch (s.kind) {
    case Scalar::Kind::Bool: n.kind = Kind::Bool; break;
    case Scalar::Kind::Int: n.kind = Kind::Int; break;
    case Scalar::Kind::UInt: n.kind = Kind::UInt; break;
    case Scalar::Kind::Float: n.kind = Kind::Float; break;
  }
  n.scalar = s;
  return n;
}

Nested Nested::List(std::vector<Nested> items) {
  Nested n;
  n.kind = Kind::List;
  n.items = std::move(items);
  return n;
}

Nested Nested::Array(const NdArray& a) {
  Nested n;
  n.kind = Kind::Array;
  n.array = std::make_shared<const NdArray>(a);
  return n;
}

IndexItem IndexItem::Range(std::optional<int64_t> start, std::optional<int64_t> stop,
                           std::optional<int64_t> step) {
  IndexItem it;
  it.kind = Kind::Slice;
  it.start = start;
  it.stop = stop;
  it.step = step;
  return it;
}

NdArray::NdArray() : NdArray(Zeros({}, ScalarType::Float64)) {}

NdArray::NdArray(ScalarType dtype, Shape shape, std::vector<int64_t> byte_strides, void* data,
                 std::shared_ptr<void> keep_alive)
    : dtype_(dtype), shape_(std::move(shape)), strides_(std::move(byte_strides)),
      data_(static_cast<uint8_t*>(data)), owner_(std::move(keep_alive)) {
  CheckShape(shape_);
  if (strides_.empty() && !shape_.empty()) strides_ = ContiguousStrides(shape_, ScalarSize(dtype_));
  if (strides_.size() != shape_.size())
    throw NdError("ValueError", "strides must have one entry per dimension");
  if (!owner_) owner_ = std::shared_ptr<void>(data_, [](void*) {});
}

NdArray NdArray::Empty(const Shape& shape, ScalarType dtype) {
  CheckShape(shape);
  auto buffer = Allocate(ShapeSize(shape) * static_cast<int64_t>(ScalarSize(dtype)));
  uint8_t* data = buffer.get();
  return NdArray(dtype, shape, ContiguousStrides(shape, ScalarSize(dtype)), data,
                 std::shared_ptr<void>(buffer, data));
}

NdArray NdArray::Zeros(const Shape& shape, ScalarType dtype) { return Empty(shape, dtype); }

NdArray NdArray::Ones(const Shape& shape, ScalarType dtype) {
  NdArray a = Empty(shape, dtype);
  a.Fill(Scalar::Int(1));
  return a;
}

namespace {
ScalarType DefaultDtype(const Scalar& s) {
  switch (s.kind) {
    case Scalar::Kind::Bool: return ScalarType::Bool;
    case Scalar::Kind::Int: return ScalarType::Int64;
    case Scalar::Kind::UInt: return ScalarType::UInt64;
    case Scalar::Kind::Float: return ScalarType::Float64;
  }
  return ScalarType::Float64;
}
}  // namespace

NdArray NdArray::Full(const Shape& shape, const Scalar& value, std::optional<ScalarType> dtype) {
  NdArray a = Empty(shape, dtype.value_or(DefaultDtype(value)));
  a.Fill(value);
  return a;
}

NdArray NdArray::FromScalar(const Scalar& value) { return Full({}, value); }
NdArray NdArray::FromScalar(const Scalar& value, ScalarType dtype) { return Full({}, value, dtype); }

int64_t NdArray::size() const { return ShapeSize(shape_); }

bool NdArray::IsCContiguous() const {
  int64_t expect = static_cast<int64_t>(itemsize());
  for (size_t k = shape_.size(); k-- > 0;) {
    if (shape_[k] == 0) return true;
    if (shape_[k] != 1 && strides_[k] != expect) return false;
    expect *= shape_[k];
  }
  return true;
}

uint8_t* NdArray::ElementPtr(std::span<const int64_t> index) const {
  if (index.size() != shape_.size())
    throw NdError("IndexError", "expected " + std::to_string(shape_.size()) + " indices, got " +
                                    std::to_string(index.size()));
  uint8_t* p = data_;
  for (size_t k = 0; k < index.size(); ++k)
    p += NormalizeIndex(index[k], shape_[k], static_cast<int>(k)) * strides_[k];
  return p;
}

uint8_t* NdArray::FlatPtr(int64_t flat) const {
  int64_t n = size();
  if (flat < 0 || flat >= n)
    throw NdError("IndexError", "index " + std::to_string(flat) + " is out of bounds for size " +
                                    std::to_string(n));
  uint8_t* p = data_;
  for (size_t k = shape_.size(); k-- > 0;) {
    p += (flat % shape_[k]) * strides_[k];
    flat /= shape_[k];
  }
  return p;
}

Scalar NdArray::Get(std::span<const int64_t> index) const {
  return LoadScalar(ElementPtr(index), dtype_);
}
void NdArray::Set(std::span<const int64_t> index, const Scalar& value) {
  StoreScalar(ElementPtr(index), dtype_, value);
}
Scalar NdArray::GetFlat(int64_t flat) const { return LoadScalar(FlatPtr(flat), dtype_); }
void NdArray::SetFlat(int64_t flat, const Scalar& value) {
  StoreScalar(FlatPtr(flat), dtype_, value);
}

Scalar NdArray::Item() const {
  if (size() != 1)
    throw NdError("ValueError", "can only convert an array of size 1 to a Python scalar");
  return GetFlat(0);
}

void NdArray::Fill(const Scalar& value) {
  std::vector<uint8_t> bytes(itemsize());
  StoreScalar(bytes.data(), dtype_, value);
  size_t n = bytes.size();
  ForEachStrided(shape_, {strides_}, [&](const int64_t* off) {
    std::memcpy(data_ + off[0], bytes.data(), n);
  });
}

void NdArray::CopyFrom(const NdArray& value) {
  NdArray src = value.BroadcastTo(shape_);
  if (SharesBufferWith(value)) src = src.Copy();  // overlapping views: read everything first
  uint8_t* dst_base = data_;
  uint8_t* src_base = src.data_;
  ScalarType st = src.dtype_, dt = dtype_;
  size_t n = itemsize();
  ForEachStrided(shape_, {strides_, src.strides_}, [&](const int64_t* off) {
    if (st == dt)
      std::memcpy(dst_base + off[0], src_base + off[1], n);
    else
      StoreScalar(dst_base + off[0], dt, LoadScalar(src_base + off[1], st));
  });
}

NdArray NdArray::AsType(ScalarType dtype) const {
  NdArray out = Empty(shape_, dtype);
  out.CopyFrom(*this);
  return out;
}

NdArray NdArray::Copy() const { return AsType(dtype_); }

NdArray NdArray::Reshape(const Shape& shape) const {
  Shape target = shape;
  int unknown = -1;
  int64_t known = 1;
  for (size_t k = 0; k < target.size(); ++k) {
    if (target[k] == -1) {
      if (unknown >= 0) throw NdError("ValueError", "can only specify one unknown dimension");
      unknown = static_cast<int>(k);
    } else if (target[k] < 0) {
      throw NdError("ValueError", "negative dimensions not allowed");
    } else {
      known *= target[k];
    }
  }
  int64_t n = size();
  if (unknown >= 0 && known != 0 && n % known == 0) target[unknown] = n / known;
  if (ShapeSize(target) != n || (unknown >= 0 && target[unknown] < 0)) {
    std::string spelled = "(";
    for (size_t k = 0; k < shape.size(); ++k)
      spelled += (k ? "," : "") + (shape[k] == -1 ? std::string("newaxis") : std::to_string(shape[k]));
    spelled += shape.size() == 1 ? ",)" : ")";
    throw NdError("ValueError",
                  "cannot reshape array of size " + std::to_string(n) + " into shape " + spelled);
  }
  NdArray base = IsCContiguous() ? *this : Copy();
  return NdAccess::View(base, target, ContiguousStrides(target, itemsize()), base.data_);
}

NdArray NdArray::Transpose() const {
  Shape shape(shape_.rbegin(), shape_.rend());
  std::vector<int64_t> strides(strides_.rbegin(), strides_.rend());
  return NdAccess::View(*this, shape, strides, data_);
}

Shape BroadcastShapes(const Shape& a, const Shape& b) {
  size_t nd = std::max(a.size(), b.size());
  Shape out(nd);
  for (size_t k = 0; k < nd; ++k) {
    int64_t da = k < nd - a.size() ? 1 : a[k - (nd - a.size())];
    int64_t db = k < nd - b.size() ? 1 : b[k - (nd - b.size())];
    if (da != db && da != 1 && db != 1) {
      throw NdError("ValueError", "operands could not be broadcast together with shapes " +
                                      CompactShape(a) + " " + CompactShape(b) + " ");
    }
    out[k] = da == 1 ? db : da;
  }
  return out;
}

NdArray NdArray::BroadcastTo(const Shape& shape) const {
  if (shape == shape_) return *this;
  size_t nd = shape.size();
  bool ok = shape_.size() <= nd;
  std::vector<int64_t> strides(nd, 0);
  for (size_t k = 0; ok && k < shape_.size(); ++k) {
    size_t j = nd - shape_.size() + k;
    if (shape_[k] == shape[j]) strides[j] = strides_[k];
    else if (shape_[k] != 1) ok = false;
  }
  if (!ok) {
    throw NdError("ValueError", "could not broadcast input array from shape " +
                                    CompactShape(shape_) + " into shape " + CompactShape(shape));
  }
  return NdAccess::View(*this, shape, strides, data_);
}

namespace {
Nested ToListAt(const NdArray& a, const uint8_t* p, size_t axis) {
  if (axis == a.shape().size()) return Nested::FromScalar(LoadScalar(p, a.dtype()));
  std::vector<Nested> items;
  items.reserve(a.shape()[axis]);
  for (int64_t i = 0; i < a.shape()[axis]; ++i)
    items.push_back(ToListAt(a, p + i * a.strides()[axis], axis + 1));
  return Nested::List(std::move(items));
}
}  // namespace

Nested NdArray::ToList() const { return ToListAt(*this, data_, 0); }

// --- np.array ---

namespace {

struct NestedScan {
  Shape shape;
  bool shape_set = false;
  std::optional<ScalarType> dtype;
  bool ragged = false;
  size_t ragged_depth = 0;
};

void Scan(const Nested& v, size_t depth, Shape& prefix, NestedScan& scan) {
  Shape here = prefix;
  if (v.kind == Nested::Kind::List) {
    here.push_back(static_cast<int64_t>(v.items.size()));
    if (!v.items.empty()) {
      for (const Nested& item : v.items) Scan(item, depth + 1, here, scan);
      return;
    }
  } else if (v.kind == Nested::Kind::Array) {
    for (int64_t d : v.array->shape()) here.push_back(d);
  }
  ScalarType leaf = v.kind == Nested::Kind::Array ? v.array->dtype()
                    : v.kind == Nested::Kind::List ? ScalarType::Float64
                                                   : DefaultDtype(v.scalar);
  // An empty list adds no element, so it only decides the dtype when nothing else does.
  if (v.kind != Nested::Kind::List)
    scan.dtype = scan.dtype ? PromoteTypes(*scan.dtype, leaf) : leaf;
  if (!scan.shape_set) {
    scan.shape = here;
    scan.shape_set = true;
  } else if (scan.shape != here && !scan.ragged) {
    scan.ragged = true;
    size_t common = 0;
    while (common < here.size() && common < scan.shape.size() && here[common] == scan.shape[common])
      ++common;
    scan.ragged_depth = common;
  }
}

void FillFrom(const Nested& v, NdArray& out, int64_t& flat) {
  switch (v.kind) {
    case Nested::Kind::List:
      for (const Nested& item : v.items) FillFrom(item, out, flat);
      return;
    case Nested::Kind::Array: {
      const NdArray& a = *v.array;
      for (int64_t i = 0, n = a.size(); i < n; ++i) out.SetFlat(flat++, a.GetFlat(i));
      return;
    }
    default:
      out.SetFlat(flat++, v.scalar);
  }
}

}  // namespace

NdArray NdArray::FromNested(const Nested& value, std::optional<ScalarType> dtype) {
  NestedScan scan;
  Shape prefix;
  Scan(value, 0, prefix, scan);
  if (scan.ragged) {
    Shape common(scan.shape.begin(), scan.shape.begin() + scan.ragged_depth);
    throw NdError("ValueError",
                  "setting an array element with a sequence. The requested array has an "
                  "inhomogeneous shape after " + std::to_string(scan.ragged_depth) +
                      " dimensions. The detected shape was " + ShapeString(common) +
                      " + inhomogeneous part.");
  }
  NdArray out = Empty(scan.shape, dtype.value_or(scan.dtype.value_or(ScalarType::Float64)));
  int64_t flat = 0;
  FillFrom(value, out, flat);
  return out;
}

// --- np.arange / np.linspace ---

NdArray NdArray::Arange(const Scalar& start, const Scalar& stop, const Scalar& step,
                        std::optional<ScalarType> dtype) {
  bool any_float = start.kind == Scalar::Kind::Float || stop.kind == Scalar::Kind::Float ||
                   step.kind == Scalar::Kind::Float;
  ScalarType dt = dtype.value_or(any_float ? ScalarType::Float64 : ScalarType::Int64);
  if (step.AsDouble() == 0.0) throw NdError("ZeroDivisionError", "division by zero");
  double len_d = std::ceil((stop.AsDouble() - start.AsDouble()) / step.AsDouble());
  if (!any_float) {
    // Exact integer length, as Python ints divide.
    int64_t a = start.AsInt(), b = stop.AsInt(), s = step.AsInt();
    int64_t span = b - a;
    len_d = static_cast<double>(s > 0 ? (span + s - 1) / s : (span + s + 1) / s);
    if ((s > 0 && span <= 0) || (s < 0 && span >= 0)) len_d = 0;
  }
  if (std::isnan(len_d)) throw NdError("ValueError", "arange: cannot compute length");
  int64_t len = len_d > 0 ? static_cast<int64_t>(len_d) : 0;
  NdArray out = Empty({len}, dt);
  if (len == 0) return out;
  // NumPy stores start and start+step, then fills start + i*delta in the dtype itself.
  Scalar second = any_float ? Scalar::Float(start.AsDouble() + step.AsDouble())
                            : Scalar::Int(start.AsInt() + step.AsInt());
  out.SetFlat(0, start);
  if (len == 1) return out;
  out.SetFlat(1, second);
  Scalar v0 = out.GetFlat(0), v1 = out.GetFlat(1);
  for (int64_t i = 2; i < len; ++i) {
    if (IsFloat(dt)) {
      if (dt == ScalarType::Float64) {
        double delta = v1.f - v0.f;
        out.SetFlat(i, Scalar::Float(v0.f + static_cast<double>(i) * delta));
      } else {
        float delta = static_cast<float>(v1.f) - static_cast<float>(v0.f);
        float v = static_cast<float>(v0.f) + static_cast<float>(i) * delta;
        out.SetFlat(i, Scalar::Float(v));
      }
    } else if (dt == ScalarType::Bool) {
      throw NdError("TypeError", "arange() is only supported for booleans when the result has "
                                 "at most length 2.");
    } else {
      uint64_t delta = v1.AsUInt() - v0.AsUInt();
      out.SetFlat(i, Scalar::Int(static_cast<int64_t>(v0.AsUInt() + static_cast<uint64_t>(i) * delta)));
    }
  }
  return out;
}

NdArray NdArray::Linspace(double start, double stop, int64_t num, bool endpoint,
                          std::optional<ScalarType> dtype) {
  if (num < 0)
    throw NdError("ValueError", "Number of samples, " + std::to_string(num) +
                                    ", must be non-negative.");
  int64_t div = endpoint ? num - 1 : num;
  double delta = stop - start;
  NdArray y = Empty({num}, ScalarType::Float64);
  double* d = reinterpret_cast<double*>(y.data_);
  double step = div > 0 ? delta / div : NAN;
  for (int64_t i = 0; i < num; ++i) {
    double fi = static_cast<double>(i);
    if (div > 0 && step == 0) d[i] = fi / static_cast<double>(div) * delta + start;
    else if (div > 0) d[i] = fi * step + start;
    else d[i] = fi * delta + start;
  }
  if (endpoint && num > 1) d[num - 1] = stop;
  ScalarType dt = dtype.value_or(ScalarType::Float64);
  if (IsInteger(dt))
    for (int64_t i = 0; i < num; ++i) d[i] = std::floor(d[i]);
  return dt == ScalarType::Float64 ? y : y.AsType(dt);
}

}  // namespace tilec::host
