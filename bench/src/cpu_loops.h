// The hand-written C++ peers of the CPU throughput benchmark: a STREAM-style copy (the memory
// limit), a row gather and an atomic row scatter-add, all split over the same worker pool.
// Rows are `width` floats, row-major and contiguous; every index is bounds-checked.
#pragma once
#include <cstdint>

#include "bench/src/bench_util.h"

namespace tilec::bench {

void CopyFloats(ThreadPool& pool, const float* src, float* dst, int64_t n);
void GatherRows(ThreadPool& pool, const float* x, int64_t x_rows, const int32_t* idx, int64_t n,
                float* y, int64_t width);
void ScatterAddRows(ThreadPool& pool, const float* x, const int32_t* idx, int64_t n, float* y,
                    int64_t y_rows, int64_t width);

}  // namespace tilec::bench
