// What `a.numpy()` gives for a `warp.array`: an ndarray (vectors and matrices as trailing
// axes) or, for other structs, a structured array with Warp's record layout; a view of the
// same memory on the CPU, a copy from a GPU.
#include <memory>

#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/np_records.h"
#include "host/interp/wp_composite.h"
#include "host/interp/wp_values.h"

namespace tilec::host {

std::optional<NdArray> WpArrayToNd(const Value& v) {
  auto* w = v.As<WpArrayObj>();
  if (!w) return std::nullopt;
  const rt::Array& a = w->a;
  if (Composite c = CompositeOf(a.dtype()); c.valid()) {
    // The element's components become trailing axes: (N, 3) for vec3, (N, 3, 3) for mat33.
    Shape shape = a.shape();
    std::vector<int64_t> strides = a.strides();
    Shape elem = CompositeElemShape(c);
    int64_t es = int64_t(ScalarSize(c.scalar));
    shape.insert(shape.end(), elem.begin(), elem.end());
    if (elem.size() == 2) strides.insert(strides.end(), {elem[1] * es, es});
    else strides.push_back(es);
    if (a.device().is_cpu()) {
      auto keep = std::make_shared<rt::Array>(a);
      return NdArray(c.scalar, shape, strides, a.data(), keep);
    }
    NdArray out = NdArray::Empty(shape, c.scalar);
    a.CopyToHost(out.data());
    return out;
  }
  if (a.dtype().is_struct()) TypeError("arrays of struct `" + a.dtype().Name() + "` convert to NumPy structured arrays, not to this");
  if (a.device().is_cpu()) {
    // On the CPU, numpy() is a view of the same memory, as in Warp.
    auto keep = std::make_shared<rt::Array>(a);
    return NdArray(a.dtype().scalar, a.shape(), a.strides(), a.data(), keep);
  }
  NdArray out = NdArray::Empty(a.shape(), a.dtype().scalar);
  a.CopyToHost(out.data());
  return out;
}

namespace {

// Warp's Struct.numpy_dtype(): fields at their C offsets, vector and matrix fields as
// subarrays of their scalar, nested structs as nested records.
std::shared_ptr<const RecordType> RecordTypeOf(const rt::StructLayout& s) {
  auto t = std::make_shared<RecordType>();
  t->itemsize = s.size;
  for (const rt::StructField& f : s.fields) {
    RecordField r;
    r.name = f.name;
    r.offset = f.offset;
    if (!f.type.is_struct()) {
      r.scalar = f.type.scalar;
    } else if (!f.layout) {
      TypeError("numpy(): the layout of field `" + f.name + "` of struct `" + s.name + "` is unknown");
    } else if (Composite c = f.layout->composite; c.valid()) {
      r.scalar = c.scalar;
      r.sub = CompositeElemShape(c);
    } else {
      r.record = RecordTypeOf(*f.layout);
    }
    t->fields.push_back(std::move(r));
  }
  return t;
}

}  // namespace

std::optional<RecordArray> WpArrayToRecords(const Value& v) {
  auto* w = v.As<WpArrayObj>();
  if (!w || !w->a.dtype().is_struct() || CompositeOf(w->a.dtype()).valid()) return std::nullopt;
  const rt::Array& a = w->a;
  std::shared_ptr<const RecordType> type = RecordTypeOf(*a.dtype().layout);
  if (a.device().is_cpu()) {
    auto keep = std::make_shared<rt::Array>(a);
    return RecordArray(type, a.shape(), a.strides(), static_cast<uint8_t*>(a.data()), keep);
  }
  auto bytes = std::make_shared<std::vector<uint8_t>>(size_t(a.size()) * size_t(type->itemsize));
  a.CopyToHost(bytes->data());
  return RecordArray(type, a.shape(), {}, bytes->data(), bytes);
}

}  // namespace tilec::host
