// Basic indexing: integers, slices (Python's slice.indices rules), np.newaxis and `...`, each
// producing a view; and assignment through such a view with broadcasting (keys with index
// arrays go to ndarray_advanced.cpp).
#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

struct SliceBounds { int64_t start, step, length; };

SliceBounds ResolveSlice(const IndexItem& it, int64_t n) {
  int64_t step = it.step.value_or(1);
  if (step == 0) throw NdError("ValueError", "slice step cannot be zero");
  int64_t start, stop;
  if (step > 0) {
    start = it.start ? *it.start : 0;
    stop = it.stop ? *it.stop : n;
    if (start < 0) start = std::max<int64_t>(start + n, 0);
    if (stop < 0) stop = std::max<int64_t>(stop + n, 0);
    start = std::min(start, n);
    stop = std::min(stop, n);
    int64_t len = stop > start ? (stop - start + step - 1) / step : 0;
    return {start, step, len};
  }
  start = it.start ? *it.start : n - 1;
  stop = it.stop ? *it.stop : -1;
  if (it.start && start < 0) start = std::max<int64_t>(start + n, -1);
  if (it.stop && stop < 0) stop = std::max<int64_t>(stop + n, -1);
  start = std::min(start, n - 1);
  stop = std::min(stop, n - 1);
  int64_t len = start > stop ? (start - stop + (-step) - 1) / (-step) : 0;
  return {start, step, len};
}

}  // namespace

NdArray NdArray::Index(std::span<const IndexItem> items) const {
  int consumed = 0, ellipses = 0;
  for (const IndexItem& it : items) {
    if (it.kind == IndexItem::Kind::Int || it.kind == IndexItem::Kind::Slice) ++consumed;
    if (it.kind == IndexItem::Kind::Ellipsis) ++ellipses;
    if (it.kind == IndexItem::Kind::Array)
      throw NdError("IndexError", "internal: an index array reached basic indexing (use Select)");
  }
  if (ellipses > 1) throw NdError("IndexError", "an index can only have a single ellipsis ('...')");
  if (consumed > ndim()) {
    throw NdError("IndexError", "too many indices for array: array is " + std::to_string(ndim()) +
                                    "-dimensional, but " + std::to_string(consumed) +
                                    " were indexed");
  }
  Shape shape;
  std::vector<int64_t> strides;
  uint8_t* p = data_;
  int axis = 0;
  auto take_whole_axis = [&]() {
    shape.push_back(shape_[axis]);
    strides.push_back(strides_[axis]);
    ++axis;
  };
  for (const IndexItem& it : items) {
    switch (it.kind) {
      case IndexItem::Kind::Int: {
        int64_t n = shape_[axis];
        int64_t j = it.index < 0 ? it.index + n : it.index;
        if (j < 0 || j >= n) {
          throw NdError("IndexError", "index " + std::to_string(it.index) +
                                          " is out of bounds for axis " + std::to_string(axis) +
                                          " with size " + std::to_string(n));
        }
        p += j * strides_[axis];
        ++axis;
        break;
      }
      case IndexItem::Kind::Slice: {
        SliceBounds b = ResolveSlice(it, shape_[axis]);
        if (b.length > 0) p += b.start * strides_[axis];
        shape.push_back(b.length);
        strides.push_back(strides_[axis] * b.step);
        ++axis;
        break;
      }
      case IndexItem::Kind::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case IndexItem::Kind::Ellipsis: {
        int fill = ndim() - consumed;
        for (int k = 0; k < fill; ++k) take_whole_axis();
        break;
      }
      case IndexItem::Kind::Array: break;  // refused above
    }
  }
  while (axis < ndim()) take_whole_axis();
  return NdAccess::View(*this, shape, strides, p);
}

void NdArray::Assign(std::span<const IndexItem> items, const NdArray& value) {
  if (IsAdvanced(items)) return AssignAdvanced(*this, items, value);
  NdArray view = Index(items);
  // NumPy accepts a value with extra leading length-1 axes (x[0] = [[5]]).
  NdArray src = value;
  while (src.ndim() > view.ndim() && src.shape()[0] == 1) {
    IndexItem first = IndexItem::At(0);
    src = src.Index(std::span<const IndexItem>(&first, 1));
  }
  view.CopyFrom(src);
}

void NdArray::Assign(std::span<const IndexItem> items, const Scalar& value) {
  if (IsAdvanced(items)) return AssignAdvanced(*this, items, value);
  Index(items).Fill(value);
}

}  // namespace tilec::host
