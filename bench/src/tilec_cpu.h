// The tilec contestant of the CPU throughput benchmark: a kernel from an AOT shared object
// (`tilec compile --target=host -o K.so`), launched through the runtime on the CPU device.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

namespace tilec::bench {

struct RowsKernelCall {
  const float* x;
  int64_t x_rows;
  const int32_t* idx;
  int64_t n;  // index entries, a multiple of tile_m
  float* y;
  int64_t y_rows;
  int64_t width;
  int64_t tile_m;
  int block_dim;
};

// Loads `kernel` from `so_path` and returns a closure that launches it over n / tile_m block
// programs. On failure returns an empty function and sets `why`.
std::function<void()> MakeTilecRowsLaunch(const std::string& so_path, const std::string& kernel,
                                          const RowsKernelCall& call, std::string& why);

// A row-reduction kernel (x, y): x is rows x cols, y is `rows` floats (y_cols == 0) or
// rows x y_cols; launched over rows / tile_m block programs.
struct ReduceKernelCall {
  const float* x;
  int64_t rows, cols;
  float* y;
  int64_t y_cols;
  int64_t tile_m;
  int block_dim;
};

std::function<void()> MakeTilecReduceLaunch(const std::string& so_path, const std::string& kernel,
                                            const ReduceKernelCall& call, std::string& why);

// A kernel (x, y) over flat float arrays, launched tiled over `blocks` block programs of
// `block_dim` lanes: the per-lane and tile-only block sums of bench/kernels/lanes.tile.
struct FlatKernelCall {
  const float* x;
  int64_t x_len;
  float* y;
  int64_t y_len;
  int64_t blocks;
  int block_dim;
};

std::function<void()> MakeTilecFlatLaunch(const std::string& so_path, const std::string& kernel,
                                          const FlatKernelCall& call, std::string& why);

// A batched matrix product (a, b, c) of bench/kernels/matmul.tile: a, b and c are
// (batch * tile) x tile, block program i multiplying rows i*tile.. of a and b into c.
struct MatmulKernelCall {
  const float* a;
  const float* b;
  float* c;
  int64_t batch, tile;
  int block_dim;
};

std::function<void()> MakeTilecMatmulLaunch(const std::string& so_path, const std::string& kernel,
                                            const MatmulKernelCall& call, std::string& why);

}  // namespace tilec::bench
