// NumPy's shape functions: np.tile, np.repeat, np.roll, np.flip, np.expand_dims, np.outer and
// np.asfortranarray. Tile, repeat and roll are one gather each (every output index maps to a
// source index per axis); flip and expand_dims are views, as in NumPy.
#include <algorithm>
#include <cstring>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

// out[i0, ..., in] = a[maps[0][i0], ..., maps[n][in]] for the C-ordered output of `shape`.
NdArray Gather(const NdArray& a, const Shape& shape, const std::vector<std::vector<int64_t>>& maps) {
  NdArray out = NdArray::Empty(shape, a.dtype());
  const int nd = int(shape.size());
  // Byte offsets per axis, so that each element costs one sum of nd table entries.
  std::vector<std::vector<int64_t>> offsets(nd);
  for (int k = 0; k < nd; ++k) {
    offsets[k].resize(maps[k].size());
    for (size_t i = 0; i < maps[k].size(); ++i) offsets[k][i] = maps[k][i] * a.strides()[k];
  }
  const uint8_t* src = NdAccess::Data(a);
  uint8_t* dst = NdAccess::Data(out);
  const size_t n = out.itemsize();
  std::vector<int64_t> index(nd, 0);
  for (int64_t flat = 0, total = out.size(); flat < total; ++flat) {
    int64_t off = 0;
    for (int k = 0; k < nd; ++k) off += offsets[k][index[k]];
    std::memcpy(dst + flat * int64_t(n), src + off, n);
    for (int k = nd - 1; k >= 0 && ++index[k] == shape[k]; --k) index[k] = 0;
  }
  return out;
}

std::vector<int64_t> Identity(int64_t n) {
  std::vector<int64_t> m(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) m[size_t(i)] = i;
  return m;
}

[[noreturn]] void NegativeDimensions() { throw NdError("ValueError", "negative dimensions are not allowed"); }

std::string ShapeTupleString(std::span<const int64_t> s) {
  std::string o = "(";
  for (size_t k = 0; k < s.size(); ++k) o += (k ? ", " : "") + std::to_string(s[k]);
  return o + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

std::vector<int> NormalizeAxes(std::span<const int> axes, int ndim) {
  std::vector<int> out;
  for (int ax : axes) {
    int k = NormalizeAxis(ax, ndim);
    for (int seen : out)
      if (seen == k) throw NdError("ValueError", "repeated axis");
    out.push_back(k);
  }
  return out;
}

NdArray Tile(const NdArray& a, const Shape& reps) {
  for (int64_t r : reps)
    if (r < 0) NegativeDimensions();
  const size_t nd = std::max(reps.size(), size_t(a.ndim()));
  Shape r(nd - reps.size(), 1), base(nd - size_t(a.ndim()), 1);
  r.insert(r.end(), reps.begin(), reps.end());
  base.insert(base.end(), a.shape().begin(), a.shape().end());
  NdArray x = a.Reshape(base);
  Shape shape(nd);
  std::vector<std::vector<int64_t>> maps(nd);
  for (size_t k = 0; k < nd; ++k) {
    shape[k] = base[k] * r[k];
    for (int64_t i = 0; i < shape[k]; ++i) maps[k].push_back(i % base[k]);
  }
  return Gather(x, shape, maps);
}

NdArray Repeat(const NdArray& a, std::span<const int64_t> repeats, std::optional<int> axis) {
  NdArray x = a;
  int ax = 0;
  if (!axis || (a.ndim() == 0 && (*axis == 0 || *axis == -1))) x = a.Reshape({-1});
  else ax = NormalizeAxis(*axis, a.ndim());
  const int64_t n = x.shape()[ax];
  if (repeats.size() != 1 && int64_t(repeats.size()) != n)
    throw NdError("ValueError", "operands could not be broadcast together with shape (" + std::to_string(n) +
                                    ",) (" + std::to_string(repeats.size()) + ",)");
  std::vector<std::vector<int64_t>> maps;
  Shape shape = x.shape();
  for (int k = 0; k < x.ndim(); ++k) maps.push_back(Identity(shape[k]));
  std::vector<int64_t>& m = maps[ax];
  m.clear();
  for (int64_t i = 0; i < n; ++i) {
    int64_t r = repeats[repeats.size() == 1 ? 0 : size_t(i)];
    if (r < 0) NegativeDimensions();
    m.insert(m.end(), size_t(r), i);
  }
  shape[ax] = int64_t(m.size());
  return Gather(x, shape, maps);
}

NdArray Roll(const NdArray& a, std::span<const int64_t> shifts, std::span<const int> axes) {
  if (axes.empty()) {
    const int zero = 0;
    return Roll(a.Reshape({-1}), shifts, std::span<const int>(&zero, 1)).Reshape(a.shape());
  }
  // The shift and axis sequences broadcast against each other, as np.broadcast does.
  const size_t ns = shifts.size(), na = axes.size();
  if (ns == 0) return a.Copy();
  if (ns != na && ns != 1 && na != 1) {
    throw NdError("ValueError",
                  "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between arg 0 with "
                  "shape " + ShapeTupleString(std::vector<int64_t>{int64_t(ns)}) + " and arg 1 with shape " +
                      ShapeTupleString(std::vector<int64_t>{int64_t(na)}) + ".");
  }
  std::vector<int64_t> total(size_t(a.ndim()), 0);
  for (size_t k = 0; k < std::max(ns, na); ++k)
    total[size_t(NormalizeAxis(axes[na == 1 ? 0 : k], a.ndim()))] += shifts[ns == 1 ? 0 : k];
  std::vector<std::vector<int64_t>> maps;
  for (int k = 0; k < a.ndim(); ++k) {
    const int64_t n = a.shape()[k];
    std::vector<int64_t> m(static_cast<size_t>(n));
    if (n > 0) {
      const int64_t s = ((total[k] % n) + n) % n;
      for (int64_t i = 0; i < n; ++i) m[size_t(i)] = (i - s + n) % n;
    }
    maps.push_back(std::move(m));
  }
  return Gather(a, a.shape(), maps);
}

NdArray Flip(const NdArray& a, const std::optional<std::vector<int>>& axes) {
  std::vector<IndexItem> items(size_t(a.ndim()), IndexItem::All());
  std::vector<int> which;
  if (axes) which = NormalizeAxes(*axes, a.ndim());
  else
    for (int k = 0; k < a.ndim(); ++k) which.push_back(k);
  for (int k : which) items[size_t(k)] = IndexItem::Range(std::nullopt, std::nullopt, -1);
  return a.Index(items);
}

NdArray ExpandDims(const NdArray& a, std::span<const int> axes) {
  const int nd = a.ndim() + int(axes.size());
  std::vector<int> where = NormalizeAxes(axes, nd);
  Shape shape;
  std::vector<int64_t> strides;
  for (int k = 0, src = 0; k < nd; ++k) {
    if (std::find(where.begin(), where.end(), k) != where.end()) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[size_t(src)]);
      strides.push_back(a.strides()[size_t(src)]);
      ++src;
    }
  }
  return NdAccess::View(a, shape, strides, NdAccess::Data(a));
}

NdArray Outer(const NdArray& a, const NdArray& b) {
  return Binary(BinaryOp::Mul, a.Reshape({-1, 1}), b.Reshape({1, -1}));
}

bool IsFContiguous(const NdArray& a) {
  int64_t expect = int64_t(a.itemsize());
  for (int k = 0; k < a.ndim(); ++k) {
    if (a.shape()[k] == 0) return true;
    if (a.shape()[k] != 1 && a.strides()[k] != expect) return false;
    expect *= a.shape()[k];
  }
  return true;
}

NdArray AsFortran(const NdArray& a) {
  NdArray x = a.ndim() == 0 ? a.Reshape({1}) : a;
  if (IsFContiguous(x)) return x;
  // The transpose of a C-ordered array of the reversed shape is Fortran-ordered.
  Shape reversed(x.shape().rbegin(), x.shape().rend());
  NdArray out = NdArray::Empty(reversed, x.dtype()).Transpose();
  out.CopyFrom(x);
  return out;
}

NdArray PermuteAxes(const NdArray& a, std::span<const int> axes) {
  if (int(axes.size()) != a.ndim()) throw NdError("ValueError", "axes don't match array");
  std::vector<bool> seen(size_t(a.ndim()), false);
  Shape shape;
  std::vector<int64_t> strides;
  for (int ax : axes) {
    const int k = NormalizeAxis(ax, a.ndim());
    if (seen[size_t(k)]) throw NdError("ValueError", "repeated axis in transpose");
    seen[size_t(k)] = true;
    shape.push_back(a.shape()[size_t(k)]);
    strides.push_back(a.strides()[size_t(k)]);
  }
  return NdArray(a.dtype(), shape, strides, a.data(), a.owner());
}

}  // namespace tilec::host
