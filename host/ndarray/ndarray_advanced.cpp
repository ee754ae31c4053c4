// Advanced indexing (integer-array and boolean keys: x[[1, 3]], x[mask], y[:, [0, 2]]) and its
// assignment form. A key becomes a basic view plus broadcast index arrays, and from those one
// byte offset per selected element, which both reading and writing walk in C order.
#include <algorithm>
#include <cstring>

#include "host/ndarray/elements.h"

namespace tilec::host {

IndexItem IndexItem::Take(const NdArray& indices) {
  IndexItem it;
  it.kind = Kind::Array;
  it.array = std::make_shared<const NdArray>(indices);
  return it;
}

bool NdArray::IsAdvanced(std::span<const IndexItem> items) {
  return std::any_of(items.begin(), items.end(),
                     [](const IndexItem& it) { return it.kind == IndexItem::Kind::Array; });
}

namespace {

std::string Compact(const Shape& shape) {
  std::string s = ShapeString(shape);
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  return s;
}

[[noreturn]] void Throw(const char* type, const std::string& message) { throw NdError(type, message); }

// One index array of the key, already turned into int64 positions along `view_axis`.
struct IndexArray {
  NdArray indices;
  int view_axis;   // -1 for a 0-d boolean, which selects all or nothing and consumes no axis
  int array_axis;  // the indexed array's axis, which NumPy's bounds message names
  bool from_key;   // an array in the key (an integer item is not, and NumPy's messages omit it)
};

struct Selection {
  NdArray view;                  // the key's basic part, advanced axes kept whole
  Shape shape;                   // shape of x[key]
  std::vector<int64_t> offsets;  // byte offset from view's data of each element of x[key]
  // The key is one boolean array as deep as x: NumPy assigns through it by its own rules.
  bool whole_mask = false;
};

Selection Resolve(const NdArray& a, std::span<const IndexItem> items) {
  const Shape& shape = a.shape();
  const int nd = a.ndim();
  int consumed = 0, ellipses = 0;
  for (const IndexItem& it : items) {
    switch (it.kind) {
      case IndexItem::Kind::Int:
      case IndexItem::Kind::Slice: ++consumed; break;
      case IndexItem::Kind::NewAxis: break;
      case IndexItem::Kind::Ellipsis: ++ellipses; break;
      case IndexItem::Kind::Array: {
        ScalarType t = it.array->dtype();
        if (t == ScalarType::Bool) consumed += it.array->ndim();
        else if (IsInteger(t)) ++consumed;
        else Throw("IndexError", "arrays used as indices must be of integer (or boolean) type");
        break;
      }
    }
  }
  if (ellipses > 1) Throw("IndexError", "an index can only have a single ellipsis ('...')");
  if (consumed > nd) {
    Throw("IndexError", "too many indices for array: array is " + std::to_string(nd) + "-dimensional, but " +
                            std::to_string(consumed) + " were indexed");
  }

  // Each advanced item keeps its axes whole in the basic view; the index arrays pick from them.
  std::vector<IndexItem> basic;
  std::vector<IndexArray> arrays;
  int axis = 0, view_ndim = 0, insert_at = 0;
  int last_advanced = -1;
  bool adjacent = true;
  for (size_t k = 0; k < items.size(); ++k) {
    const IndexItem& it = items[k];
    bool advanced = it.kind == IndexItem::Kind::Int || it.kind == IndexItem::Kind::Array;
    if (advanced) {
      if (last_advanced < 0) insert_at = view_ndim;
      else if (last_advanced != int(k) - 1) adjacent = false;
      last_advanced = int(k);
    }
    switch (it.kind) {
      case IndexItem::Kind::Int:
        arrays.push_back({NdArray::FromScalar(Scalar::Int(it.index), ScalarType::Int64), view_ndim++, axis++, false});
        basic.push_back(IndexItem::All());
        break;
      case IndexItem::Kind::Slice:
        basic.push_back(it);
        ++view_ndim;
        ++axis;
        break;
      case IndexItem::Kind::NewAxis:
        basic.push_back(it);
        ++view_ndim;
        break;
      case IndexItem::Kind::Ellipsis:
        basic.push_back(it);
        view_ndim += nd - consumed;
        axis += nd - consumed;
        break;
      case IndexItem::Kind::Array: {
        const NdArray& idx = *it.array;
        if (idx.dtype() != ScalarType::Bool) {
          arrays.push_back({idx, view_ndim++, axis++, true});
          basic.push_back(IndexItem::All());
          break;
        }
        for (int j = 0; j < idx.ndim(); ++j)
          if (idx.shape()[j] != shape[axis + j]) {
            Throw("IndexError", "boolean index did not match indexed array along dimension " +
                                    std::to_string(axis + j) + "; dimension is " + std::to_string(shape[axis + j]) +
                                    " but corresponding boolean dimension is " + std::to_string(idx.shape()[j]));
          }
        if (idx.ndim() == 0) {
          // NumPy reads x[True] as a new length-1 axis and x[False] as a length-0 one.
          arrays.push_back({NdArray::Zeros({idx.Item().AsBool() ? 1 : 0}, ScalarType::Int64), -1, -1, true});
          break;
        }
        for (NdArray& part : NonZero(idx)) {
          arrays.push_back({std::move(part), view_ndim++, axis++, true});
          basic.push_back(IndexItem::All());
        }
        break;
      }
    }
  }

  Selection sel;
  sel.view = a.Index(basic);
  sel.whole_mask = items.size() == 1 && items[0].kind == IndexItem::Kind::Array &&
                   items[0].array->dtype() == ScalarType::Bool && nd > 0 && items[0].array->ndim() == nd;

  Shape bshape;
  try {
    for (const IndexArray& ia : arrays) bshape = BroadcastShapes(bshape, ia.indices.shape());
  } catch (const NdError&) {
    std::string shapes;
    for (const IndexArray& ia : arrays)
      if (ia.from_key) shapes += Compact(ia.indices.shape()) + " ";
    Throw("IndexError", "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
  }

  // Bounds are checked before broadcasting, so an index repeated by broadcasting reports once.
  const int64_t nb = ShapeSize(bshape);
  std::vector<int64_t> picked(nb, 0);
  for (IndexArray& ia : arrays) {
    if (ia.view_axis < 0) continue;
    const int64_t n = sel.view.shape()[ia.view_axis];
    const int64_t count = ia.indices.size();
    NdArray wrapped = NdArray::Empty(ia.indices.shape(), ScalarType::Int64);
    auto* out = reinterpret_cast<int64_t*>(NdAccess::Data(wrapped));
    for (int64_t q = 0; q < count; ++q) {
      int64_t v = ia.indices.GetFlat(q).AsInt();
      if (v < -n || v >= n) {
        Throw("IndexError", "index " + std::to_string(v) + " is out of bounds for axis " +
                                std::to_string(ia.array_axis) + " with size " + std::to_string(n));
      }
      out[q] = v < 0 ? v + n : v;
    }
    NdArray spread = wrapped.BroadcastTo(bshape);
    const uint8_t* base = NdAccess::Data(spread);
    const int64_t stride = sel.view.strides()[ia.view_axis];
    int64_t q = 0;
    ForEachStrided(bshape, {spread.strides()}, [&](const int64_t* off) {
      int64_t v;
      std::memcpy(&v, base + off[0], sizeof v);
      picked[q++] += v * stride;
    });
  }

  // The view's other axes surround the broadcast block where the advanced items stood, or
  // follow it when something separated those items (NumPy's rule).
  std::vector<bool> is_index_axis(sel.view.ndim(), false);
  for (const IndexArray& ia : arrays)
    if (ia.view_axis >= 0) is_index_axis[ia.view_axis] = true;
  Shape before, after;
  std::vector<int64_t> before_strides, after_strides;
  int seen = 0;
  for (int d = 0; d < sel.view.ndim(); ++d) {
    if (is_index_axis[d]) continue;
    bool first = adjacent && seen < insert_at;
    (first ? before : after).push_back(sel.view.shape()[d]);
    (first ? before_strides : after_strides).push_back(sel.view.strides()[d]);
    ++seen;
  }
  sel.shape = before;
  sel.shape.insert(sel.shape.end(), bshape.begin(), bshape.end());
  sel.shape.insert(sel.shape.end(), after.begin(), after.end());

  std::vector<int64_t> inner;
  ForEachStrided(after, {after_strides}, [&](const int64_t* off) { inner.push_back(off[0]); });
  sel.offsets.reserve(ShapeSize(sel.shape));
  ForEachStrided(before, {before_strides}, [&](const int64_t* off) {
    for (int64_t p : picked)
      for (int64_t i : inner) sel.offsets.push_back(off[0] + p + i);
  });
  return sel;
}

}  // namespace

NdArray NdArray::Select(std::span<const IndexItem> items) const {
  if (!IsAdvanced(items)) return Index(items);
  Selection sel = Resolve(*this, items);
  NdArray out = Empty(sel.shape, dtype_);
  const uint8_t* src = NdAccess::Data(sel.view);
  uint8_t* dst = NdAccess::Data(out);
  const size_t n = itemsize();
  for (size_t k = 0; k < sel.offsets.size(); ++k) std::memcpy(dst + k * n, src + sel.offsets[k], n);
  return out;
}

void AssignAdvanced(const NdArray& target, std::span<const IndexItem> items, const NdArray& value) {
  Selection sel = Resolve(target, items);
  const int64_t count = ShapeSize(sel.shape);
  if (sel.whole_mask) {
    if (value.ndim() > 1) {
      Throw("TypeError", "NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has " +
                             std::to_string(value.ndim()) + " dimensions");
    }
    if (value.ndim() == 1 && value.size() != 1 && value.size() != count) {
      Throw("ValueError", "NumPy boolean array indexing assignment cannot assign " + std::to_string(value.size()) +
                              " input values to the " + std::to_string(count) +
                              " output values where the mask is true");
    }
  }
  // As with basic assignment, extra leading length-1 axes of the value are dropped.
  NdArray src = value;
  while (src.ndim() > int(sel.shape.size()) && src.shape()[0] == 1) {
    IndexItem first = IndexItem::At(0);
    src = src.Index(std::span<const IndexItem>(&first, 1));
  }
  try {
    src = src.BroadcastTo(sel.shape);
  } catch (const NdError&) {
    Throw("ValueError", "shape mismatch: value array of shape " + Compact(value.shape()) +
                            " could not be broadcast to indexing result of shape " + Compact(sel.shape));
  }
  uint8_t* base = NdAccess::Data(sel.view);
  const size_t n = target.itemsize();
  if (src.dtype() == target.dtype()) {
    // NumPy reads each value element just before writing its target, with no copy made when
    // the value overlaps the target (x[[1, 0]] = x[:2] leaves both zero); this does the same.
    const uint8_t* from = NdAccess::Data(src);
    size_t k = 0;
    ForEachStrided(sel.shape, {src.strides()}, [&](const int64_t* off) {
      std::memmove(base + sel.offsets[k++], from + off[0], n);
    });
    return;
  }
  NdArray converted = NdArray::Empty(sel.shape, target.dtype());
  converted.CopyFrom(src);
  const uint8_t* from = NdAccess::Data(converted);
  for (size_t k = 0; k < sel.offsets.size(); ++k) std::memcpy(base + sel.offsets[k], from + k * n, n);
}

void AssignAdvanced(const NdArray& target, std::span<const IndexItem> items, const Scalar& value) {
  Selection sel = Resolve(target, items);
  std::vector<uint8_t> bytes(target.itemsize());
  StoreScalar(bytes.data(), target.dtype(), value);
  uint8_t* base = NdAccess::Data(sel.view);
  for (int64_t off : sel.offsets) std::memcpy(base + off, bytes.data(), bytes.size());
}

}  // namespace tilec::host
