// wp.copy between arrays, and its place on the tape: where both arrays have gradients the
// copy carries the gradient region too, and the tape's backward adds the destination region's
// gradient into the source's and clears it (Warp's adjoint of a copy).
#include "host/interp/args.h"
#include "host/interp/interpreter.h"
#include "host/interp/wp_values.h"
#include "tilec/tape.h"

namespace tilec::host {

namespace {

using Region = std::function<rt::Array(const rt::Array&)>;

// The scalar type of every component of `t` (a float scalar, or a vector or matrix of one),
// or nullopt when its elements cannot be added component by component.
std::optional<ScalarType> AddableComponents(const rt::ArrayDType& t) {
  auto is_float = [](ScalarType s) { return s == ScalarType::Float32 || s == ScalarType::Float64; };
  if (!t.is_struct()) return is_float(t.scalar) ? std::optional(t.scalar) : std::nullopt;
  if (!t.layout->composite.valid() || t.layout->fields.empty()) return std::nullopt;
  const rt::ElemType first = t.layout->fields[0].type;
  for (const rt::StructField& f : t.layout->fields)
    if (f.type.is_struct() || !(f.type == first)) return std::nullopt;
  return is_float(first.scalar) ? std::optional(first.scalar) : std::nullopt;
}

template <typename T>
void AddComponents(std::vector<uint8_t>& acc, const std::vector<uint8_t>& add) {
  T* a = reinterpret_cast<T*>(acc.data());
  const T* b = reinterpret_cast<const T*>(add.data());
  for (size_t k = 0; k < acc.size() / sizeof(T); ++k) a[k] += b[k];
}

// src_grad += dest_grad, then dest_grad = 0; between other element types the source's
// gradient is overwritten (Warp's fallback for types it cannot add).
void CopyAdjoint(rt::Array src_grad, rt::Array dest_grad) {
  std::optional<ScalarType> c = AddableComponents(src_grad.dtype());
  if (!c || !(src_grad.dtype() == dest_grad.dtype())) {
    src_grad.CopyFromHost(dest_grad.ToHostBytes().data());
    return;
  }
  std::vector<uint8_t> acc = src_grad.ToHostBytes();
  const std::vector<uint8_t> add = dest_grad.ToHostBytes();
  if (*c == ScalarType::Float32) AddComponents<float>(acc, add);
  else AddComponents<double>(acc, add);
  src_grad.CopyFromHost(acc.data());
  dest_grad.Zero();
}

void CopyGradients(const rt::Array& src, const rt::Array& dest, const Region& src_region,
                   const Region& dest_region = {}) {
  if (!src.requires_grad() || !dest.requires_grad()) return;
  rt::Array sg = src_region(src.grad()), dg = (dest_region ? dest_region : src_region)(dest.grad());
  if (sg.dtype() == dg.dtype()) dg.CopyFrom(sg);
  else dg.CopyFromHost(sg.ToHostBytes().data());
  rt::Tape* tape = rt::Tape::Current();
  if (!tape) return;
  rt::RecordedLaunch r;
  r.args = {dest, src};
  r.host_backward = [sg, dg] { CopyAdjoint(sg, dg); };
  tape->Record(std::move(r));
}

}  // namespace

// wp.copy(dest, src, dest_offset=0, src_offset=0, count=0): `count` elements (all of src when
// 0) from src's flat position src_offset to dest's dest_offset, as raw elements of one size;
// between devices, and between strided views when neither offset nor count is given or both
// arrays are 1-D. Warp's checks and messages.
Value CopyArrays(Interpreter& in, CallArgs& a) {
  ArgBinder b("copy", a, {"dest", "src", "dest_offset", "src_offset", "count"}, 2);
  RefuseInCapture(in, "wp.copy()");
  if (!b.Get(0).As<WpArrayObj>() || !b.Get(1).As<WpArrayObj>()) RuntimeError("Copy source and destination must be arrays");
  rt::Array dest = b.Get(0).As<WpArrayObj>()->a, src = b.Get(1).As<WpArrayObj>()->a;
  auto index = [&](size_t i) -> int64_t {
    if (!b.Has(i)) return 0;
    const Value& v = b.Get(i);
    if (!v.IsIntLike()) RuntimeError("Copy src_offset, dest_offset, and count must be integers");
    return v.i();
  };
  const int64_t dest_offset = index(2), src_offset = index(3);
  int64_t count = index(4);
  if (src_offset < 0) RuntimeError("Source offset must be non-negative, got " + std::to_string(src_offset));
  if (dest_offset < 0) RuntimeError("Destination offset must be non-negative, got " + std::to_string(dest_offset));
  if (count < 0) RuntimeError("Copy count must be non-negative, got " + std::to_string(count));
  const bool whole = count == 0 && src_offset == 0 && dest_offset == 0;
  if (count == 0) count = src.size();
  if (count == 0) return Value();
  const int64_t es = int64_t(src.elem_size());
  if (dest.elem_size() != src.elem_size())
    RuntimeError("Incompatible array data types: destination dtype=" + dest.dtype().Name() +
                 ", source dtype=" + src.dtype().Name());
  if (!src.is_contiguous() || !dest.is_contiguous()) {
    if (whole && src.shape() == dest.shape() && src.dtype() == dest.dtype()) {
      dest.CopyFrom(src);
      CopyGradients(src, dest, [](const rt::Array& x) { return x; });
      return Value();
    }
    if (src.ndim() != 1 || dest.ndim() != 1)
      RuntimeError("copy(): offsets and counts between non-contiguous arrays need 1-D arrays");
  }
  if (src_offset + count > src.size())
    RuntimeError("Trying to copy source buffer with size (" + std::to_string(count * es) + ") from offset (" +
                 std::to_string(src_offset * es) + ") is larger than source size (" + std::to_string(src.size() * es) + ")");
  if (dest_offset + count > dest.size())
    RuntimeError("Trying to copy source buffer with size (" + std::to_string(count * es) + ") to offset (" +
                 std::to_string(dest_offset * es) + ") is larger than destination size (" +
                 std::to_string(dest.size() * es) + ")");
  auto region = [](int64_t offset, int64_t count) {
    return [offset, count](const rt::Array& x) {
      return (x.ndim() == 1 ? x : x.Reshape({x.size()})).Slice({rt::SliceSpec::Range(offset, offset + count)});
    };
  };
  rt::Array from = region(src_offset, count)(src), to = region(dest_offset, count)(dest);
  if (from.dtype() == to.dtype()) to.CopyFrom(from);
  else to.CopyFromHost(from.ToHostBytes().data());  // same element size: the raw elements
  CopyGradients(src, dest, region(src_offset, count), region(dest_offset, count));
  return Value();
}


}  // namespace tilec::host
