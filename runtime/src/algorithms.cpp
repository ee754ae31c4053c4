// Prefix sums, radix sorts, run-length encoding and reductions over whole arrays, on host
// copies of the elements: one implementation for every device, with a fixed order of
// accumulation, so the CPU and a GPU give the same bits.
#include "tilec/algorithms.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <string>

#include "tilec/error.h"

namespace tilec::rt {
namespace {

template <class T>
T Load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void Store(uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// Calls f(T{}) with the C++ type of a float32, float64, int32 or int64 scalar type.
template <class F>
void WithArithmetic(ScalarType s, const char* what, F&& f) {
  switch (s) {
    case ScalarType::Int32: f(int32_t{}); return;
    case ScalarType::Int64: f(int64_t{}); return;
    case ScalarType::Float32: f(float{}); return;
    case ScalarType::Float64: f(double{}); return;
    default: throw Error(std::string(what) + ": unsupported data type " + std::string(ScalarName(s)));
  }
}

std::pair<ScalarType, int> Components(const ArrayDType& dtype, const char* what) {
  std::optional<std::pair<ScalarType, int>> c = ElementComponents(dtype);
  if (!c) throw Error(std::string(what) + ": unsupported data type " + dtype.Name());
  return *c;
}

// The first `count` elements of a contiguous array, flat.
Array FlatPrefix(const Array& a, int64_t count, const char* what, const char* name) {
  if (!a.is_contiguous()) throw Error(std::string(what) + ": the " + name + " array must be contiguous");
  if (count > a.size())
    throw Error(std::string(what) + ": " + std::to_string(count) + " elements asked of a " + name + " array of " +
                std::to_string(a.size()));
  return a.Reshape({-1}).Slice({SliceSpec::Range(0, count)});
}

// An order-preserving unsigned form of a key: the sign bit flipped for signed ints, and for
// floats every bit of a negative number flipped.
uint64_t RadixForm(ScalarType s, const uint8_t* p) {
  switch (s) {
    case ScalarType::Int32: return Load<uint32_t>(p) ^ 0x80000000u;
    case ScalarType::UInt32: return Load<uint32_t>(p);
    case ScalarType::Int64: return Load<uint64_t>(p) ^ 0x8000000000000000ull;
    case ScalarType::UInt64: return Load<uint64_t>(p);
    case ScalarType::Float32: {
      uint32_t i = Load<uint32_t>(p);
      return i ^ ((i >> 31) ? 0xFFFFFFFFu : 0x80000000u);
    }
    case ScalarType::Float64: {
      uint64_t i = Load<uint64_t>(p);
      return i ^ ((i >> 63) ? ~0ull : 0x8000000000000000ull);
    }
    default: break;
  }
  throw Error("radix_sort_pairs: unsupported key type " + std::string(ScalarName(s)));
}

// Reorders `count` elements of `bytes` (each `size` bytes) by the permutation `order`.
std::vector<uint8_t> Permuted(const std::vector<uint8_t>& bytes, size_t size, const std::vector<size_t>& order) {
  std::vector<uint8_t> out(bytes.size());
  for (size_t k = 0; k < order.size(); ++k) std::memcpy(&out[k * size], &bytes[order[k] * size], size);
  return out;
}

// The element positions (C order) of each reduction: `count` along `axis` from every position
// of the other axes, or the first `count` elements when there is no axis.
std::vector<std::vector<int64_t>> ReductionRuns(const std::vector<int64_t>& shape, int64_t count,
                                                std::optional<int> axis, const char* what) {
  if (!axis) {
    int64_t size = 1;
    for (int64_t d : shape) size *= d;
    if (count > size) throw Error(std::string(what) + ": count " + std::to_string(count) + " exceeds the array's " +
                                  std::to_string(size) + " elements");
    std::vector<int64_t> run(static_cast<size_t>(count));
    std::iota(run.begin(), run.end(), 0);
    return {run};
  }
  const int ax = *axis;
  if (ax < 0 || ax >= int(shape.size())) throw Error(std::string(what) + ": axis out of range");
  if (count > shape[ax]) throw Error(std::string(what) + ": count " + std::to_string(count) + " exceeds axis " +
                                     std::to_string(ax) + "'s extent " + std::to_string(shape[ax]));
  int64_t inner = 1, outer = 1;
  for (size_t d = size_t(ax) + 1; d < shape.size(); ++d) inner *= shape[d];
  for (int d = 0; d < ax; ++d) outer *= shape[d];
  std::vector<std::vector<int64_t>> runs;
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<int64_t> run;
      for (int64_t j = 0; j < count; ++j) run.push_back((o * shape[ax] + j) * inner + i);
      runs.push_back(std::move(run));
    }
  return runs;
}

std::vector<int64_t> ReducedShape(const std::vector<int64_t>& shape, std::optional<int> axis) {
  if (!axis) return {1};
  std::vector<int64_t> out = shape;
  out[*axis] = 1;
  return out;
}

}  // namespace

std::optional<std::pair<ScalarType, int>> ElementComponents(const ArrayDType& dtype) {
  if (!dtype.is_struct()) return std::make_pair(dtype.scalar, 1);
  const Composite& c = dtype.layout->composite;
  if (!c.valid()) return std::nullopt;
  return std::make_pair(c.scalar, c.length());
}

void ArrayScan(const Array& in, const Array& out, bool inclusive) {
  if (in.size() != out.size()) throw Error("array_scan: the arrays hold different numbers of elements");
  if (!(in.dtype() == out.dtype())) throw Error("array_scan: the arrays' data types differ");
  auto [scalar, comps] = Components(in.dtype(), "array_scan");
  std::vector<uint8_t> src = in.ToHostBytes(), dst(src.size());
  WithArithmetic(scalar, "array_scan", [&](auto zero) {
    using T = decltype(zero);
    const size_t n = size_t(in.size());
    for (int c = 0; c < comps; ++c) {
      T sum = T(0);
      for (size_t i = 0; i < n; ++i) {
        const size_t at = (i * size_t(comps) + size_t(c)) * sizeof(T);
        const T v = Load<T>(&src[at]);
        if (inclusive) sum += v;
        Store<T>(&dst[at], sum);
        if (!inclusive) sum += v;
      }
    }
  });
  Array(out).CopyFromHost(dst.data());
}

void RadixSortPairs(const Array& keys, const Array& values, int64_t count, int begin_bit, int end_bit) {
  const int width = int(keys.elem_size()) * 8;
  if (begin_bit < 0 || begin_bit > end_bit || end_bit > width)
    throw Error("radix_sort_pairs: invalid bit range [" + std::to_string(begin_bit) + ", " + std::to_string(end_bit) +
                ") for " + std::to_string(width) + "-bit keys");
  if (values.elem_size() != 4 && values.elem_size() != 8)
    throw Error("radix_sort_pairs: values must be 4 or 8 bytes wide, not " + std::to_string(values.elem_size()));
  if (keys.dtype().is_struct()) throw Error("radix_sort_pairs: unsupported key type " + keys.dtype().Name());
  if (count <= 0 || begin_bit == end_bit) return;
  Array k = FlatPrefix(keys, count, "radix_sort_pairs", "keys");
  Array v = FlatPrefix(values, count, "radix_sort_pairs", "values");
  const ScalarType s = keys.dtype().scalar;
  const size_t ks = keys.elem_size(), vs = values.elem_size();
  std::vector<uint8_t> kb = k.ToHostBytes(), vb = v.ToHostBytes();
  const int bits = end_bit - begin_bit;
  const uint64_t mask = bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  std::vector<uint64_t> digit(static_cast<size_t>(count));
  for (size_t i = 0; i < digit.size(); ++i) digit[i] = (RadixForm(s, &kb[i * ks]) >> begin_bit) & mask;
  std::vector<size_t> order(digit.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return digit[a] < digit[b]; });
  k.CopyFromHost(Permuted(kb, ks, order).data());
  v.CopyFromHost(Permuted(vb, vs, order).data());
}

void SegmentedSortPairs(const Array& keys, const Array& values, int64_t count,
                        const std::vector<std::pair<int64_t, int64_t>>& segments) {
  if (keys.dtype().is_struct() || (keys.dtype().scalar != ScalarType::Int32 && keys.dtype().scalar != ScalarType::Float32))
    throw Error("segmented_sort_pairs: unsupported key type " + keys.dtype().Name());
  if (values.dtype().is_struct() || values.dtype().scalar != ScalarType::Int32)
    throw Error("segmented_sort_pairs: unsupported value type " + values.dtype().Name());
  for (size_t i = 0; i < segments.size(); ++i) {
    auto [start, end] = segments[i];
    if (start < 0 || end < start || end > count)
      throw Error("Warp sort error: Invalid segment range at index " + std::to_string(i) + ": [" +
                  std::to_string(start) + ", " + std::to_string(end) + ") for count " + std::to_string(count));
  }
  if (count <= 0) return;
  Array k = FlatPrefix(keys, count, "segmented_sort_pairs", "keys");
  Array v = FlatPrefix(values, count, "segmented_sort_pairs", "values");
  std::vector<uint8_t> kb = k.ToHostBytes(), vb = v.ToHostBytes();
  const ScalarType s = keys.dtype().scalar;
  std::vector<size_t> order(static_cast<size_t>(count));
  std::iota(order.begin(), order.end(), 0);
  for (auto [start, end] : segments)
    std::stable_sort(order.begin() + start, order.begin() + end, [&](size_t a, size_t b) {
      return RadixForm(s, &kb[a * 4]) < RadixForm(s, &kb[b * 4]);
    });
  k.CopyFromHost(Permuted(kb, 4, order).data());
  v.CopyFromHost(Permuted(vb, 4, order).data());
}

int64_t RunlengthEncode(const Array& values, const Array& run_values, const Array& run_lengths, int64_t count) {
  for (const Array* a : {&values, &run_values, &run_lengths})
    if (a->dtype().is_struct() || a->dtype().scalar != ScalarType::Int32)
      throw Error("runlength_encode: the arrays must hold int32, not " + a->dtype().Name());
  if (count <= 0) return 0;
  if (run_values.size() < count || run_lengths.size() < count)
    throw Error("runlength_encode: the output arrays must hold at least " + std::to_string(count) + " elements");
  Array in = FlatPrefix(values, count, "runlength_encode", "values");
  std::vector<int32_t> v(static_cast<size_t>(count)), runs, lengths;
  in.CopyToHost(v.data());
  for (int32_t x : v) {
    if (!runs.empty() && runs.back() == x) {
      ++lengths.back();
    } else {
      runs.push_back(x);
      lengths.push_back(1);
    }
  }
  const int64_t n = int64_t(runs.size());
  run_values.Reshape({-1}).Slice({SliceSpec::Range(0, n)}).CopyFromHost(runs.data());
  run_lengths.Reshape({-1}).Slice({SliceSpec::Range(0, n)}).CopyFromHost(lengths.data());
  return n;
}

void ArraySum(const Array& values, const Array& out, int64_t count, std::optional<int> axis) {
  auto [scalar, comps] = Components(values.dtype(), "array_sum");
  if (scalar != ScalarType::Float32 && scalar != ScalarType::Float64)
    throw Error("array_sum: unsupported data type " + values.dtype().Name());
  if (!(out.dtype() == values.dtype()) || out.shape() != ReducedShape(values.shape(), axis))
    throw Error("array_sum: the out array must have the values' data type and the reduced shape");
  std::vector<std::vector<int64_t>> runs = ReductionRuns(values.shape(), count, axis, "array_sum");
  std::vector<uint8_t> src = values.ToHostBytes(), dst(size_t(out.size()) * out.elem_size());
  WithArithmetic(scalar, "array_sum", [&](auto zero) {
    using T = decltype(zero);
    for (size_t r = 0; r < runs.size(); ++r)
      for (int c = 0; c < comps; ++c) {
        T sum = T(0);
        for (int64_t e : runs[r]) sum += Load<T>(&src[(size_t(e) * size_t(comps) + size_t(c)) * sizeof(T)]);
        Store<T>(&dst[(r * size_t(comps) + size_t(c)) * sizeof(T)], sum);
      }
  });
  Array(out).CopyFromHost(dst.data());
}

void ArrayInner(const Array& a, const Array& b, const Array& out, int64_t count, std::optional<int> axis) {
  if (a.shape() != b.shape() || !(a.dtype() == b.dtype()))
    throw Error("array_inner: the arrays differ in shape or data type");
  auto [scalar, comps] = Components(a.dtype(), "array_inner");
  if (scalar != ScalarType::Float32 && scalar != ScalarType::Float64)
    throw Error("array_inner: unsupported data type " + a.dtype().Name());
  if (out.dtype().is_struct() || out.dtype().scalar != scalar || out.shape() != ReducedShape(a.shape(), axis))
    throw Error("array_inner: the out array must hold the scalar type in the reduced shape");
  std::vector<std::vector<int64_t>> runs = ReductionRuns(a.shape(), count, axis, "array_inner");
  std::vector<uint8_t> x = a.ToHostBytes(), y = b.ToHostBytes(), dst(size_t(out.size()) * out.elem_size());
  WithArithmetic(scalar, "array_inner", [&](auto zero) {
    using T = decltype(zero);
    for (size_t r = 0; r < runs.size(); ++r) {
      T dot = T(0);
      for (int64_t e : runs[r])
        for (int c = 0; c < comps; ++c) {
          const size_t at = (size_t(e) * size_t(comps) + size_t(c)) * sizeof(T);
          dot += Load<T>(&x[at]) * Load<T>(&y[at]);
        }
      Store<T>(&dst[r * sizeof(T)], dot);
    }
  });
  Array(out).CopyFromHost(dst.data());
}

}  // namespace tilec::rt
