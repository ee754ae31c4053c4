// The hand-written C++ peers of the CPU throughput benchmark: a STREAM-style copy (the memory
// limit), a row gather, an atomic row scatter-add and the FMA peak, all split over the same
// worker pool.
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
// The FMA peak: `chunks` pieces of independent vector FMAs (the widest this compiler targets,
// -march=native) spread over the pool; returns the floating-point operations done (2 per lane
// of each FMA). `isa` names the vectors used.
double FmaPeakWork(ThreadPool& pool, int64_t chunks, int64_t iters_per_chunk);
const char* FmaPeakIsa();

}  // namespace tilec::bench
