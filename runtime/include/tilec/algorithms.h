// Whole-array algorithms beside kernels, as Warp's `wp.utils` has them: prefix sums, stable
// radix sorts of key/value pairs (whole or by segments), run-length encoding, sums and inner
// products. They run on the host and give the same bits on every device (a device array is
// copied in and out). Each throws rt::Error for arrays it cannot take.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "tilec/array.h"

namespace tilec::rt {

// The scalar type and component count of an element type: a scalar is one component, Warp's
// vector-like types (vec3f, mat22d, ...) their length; nullopt for other structs.
std::optional<std::pair<ScalarType, int>> ElementComponents(const ArrayDType& dtype);

// `out` = the inclusive (or exclusive) prefix sums of `in`, in element order, per component,
// accumulated in the scalar type (int32, int64, float32 or float64). Same count and dtype.
void ArrayScan(const Array& in, const Array& out, bool inclusive);

// Sorts the first `count` elements of the flat, contiguous `keys` (int32, uint32, int64, uint64,
// float32, float64) with those of `values` (4- or 8-byte elements), stably, by bits
// [begin_bit, end_bit) of each key's order-preserving unsigned form (signed ints and floats as
// numbers, -0.0 before 0.0, NaNs by their bits).
void RadixSortPairs(const Array& keys, const Array& values, int64_t count, int begin_bit, int end_bit);

// Sorts each half-open range [first, second) of int32 `values` by its int32 or float32 `keys`,
// stably; ranges outside [0, count] or reversed are an error before anything is sorted.
void SegmentedSortPairs(const Array& keys, const Array& values, int64_t count,
                        const std::vector<std::pair<int64_t, int64_t>>& segments);

// Run-length encodes the first `count` int32 `values`: each run's value and length go to the
// front of `run_values` and `run_lengths`; returns the number of runs.
int64_t RunlengthEncode(const Array& values, const Array& run_values, const Array& run_lengths, int64_t count);

// Sum of the first `count` elements (axis unset: in element order; else along `axis`, one sum
// per position of the other axes) into `out`, per component, accumulated in order in the scalar
// type (float32 or float64). `out`: shape (1,) or `values`' shape with 1 at `axis`.
void ArraySum(const Array& values, const Array& out, int64_t count, std::optional<int> axis);
// Inner products of `a` and `b` (same shape and dtype) the same way: per element the sum of the
// components' products, added in order; `out` holds the scalar type.
void ArrayInner(const Array& a, const Array& b, const Array& out, int64_t count, std::optional<int> axis);

}  // namespace tilec::rt
