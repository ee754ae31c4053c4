// Launches tilec kernels (rows, reductions, flat block sums, batched matmuls) through the public runtime API:
// Module::Load, Array::Wrap over the benchmark's buffers, LaunchTiled on the CPU device.
#include "bench/src/tilec_cpu.h"

#include <exception>
#include <functional>
#include <vector>

#include "tilec/runtime.h"

namespace tilec::bench {

namespace {

// Loads `kernel` from `so_path`, builds its arguments on the CPU device with `make_args`, checks
// the tiled launch over `dim` once, and returns it (empty, with `why` set, on any error).
std::function<void()> TiledLaunch(const std::string& so_path, const std::string& kernel,
                                  const std::function<std::vector<rt::KernelArg>(const rt::Device&)>& make_args,
                                  std::vector<int64_t> dim, int block_dim, std::string& why) {
  try {
    rt::Module module = rt::Module::Load(so_path);
    rt::Kernel k = module.GetKernel(kernel);
    const rt::Device cpu = rt::Device::Cpu();
    std::vector<rt::KernelArg> args = make_args(cpu);
    rt::ValidateLaunch(k, dim, args, block_dim, cpu);
    return [k, dim, args, block_dim, cpu] { rt::LaunchTiled(k, dim, args, block_dim, cpu); };
  } catch (const std::exception& e) {
    why = e.what();
    return {};
  }
}

}  // namespace

std::function<void()> MakeTilecRowsLaunch(const std::string& so_path, const std::string& kernel,
                                          const RowsKernelCall& call, std::string& why) {
  auto args = [&call](const rt::Device& cpu) {
    const int64_t row = call.width * static_cast<int64_t>(sizeof(float));
    rt::Array x = rt::Array::Wrap(const_cast<float*>(call.x), {call.x_rows, call.width},
                                  {row, sizeof(float)}, ScalarType::Float32, cpu);
    rt::Array idx = rt::Array::Wrap(const_cast<int32_t*>(call.idx), {call.n}, {sizeof(int32_t)},
                                    ScalarType::Int32, cpu);
    rt::Array y = rt::Array::Wrap(call.y, {call.y_rows, call.width}, {row, sizeof(float)},
                                  ScalarType::Float32, cpu);
    return std::vector<rt::KernelArg>{x, idx, y};
  };
  return TiledLaunch(so_path, kernel, args, {call.n / call.tile_m}, call.block_dim, why);
}

std::function<void()> MakeTilecReduceLaunch(const std::string& so_path, const std::string& kernel,
                                            const ReduceKernelCall& call, std::string& why) {
  auto args = [&call](const rt::Device& cpu) {
    const int64_t f = sizeof(float);
    rt::Array x = rt::Array::Wrap(const_cast<float*>(call.x), {call.rows, call.cols}, {call.cols * f, f},
                                  ScalarType::Float32, cpu);
    rt::Array y = call.y_cols > 0
                      ? rt::Array::Wrap(call.y, {call.rows, call.y_cols}, {call.y_cols * f, f}, ScalarType::Float32, cpu)
                      : rt::Array::Wrap(call.y, {call.rows}, {f}, ScalarType::Float32, cpu);
    return std::vector<rt::KernelArg>{x, y};
  };
  return TiledLaunch(so_path, kernel, args, {call.rows / call.tile_m}, call.block_dim, why);
}

std::function<void()> MakeTilecFlatLaunch(const std::string& so_path, const std::string& kernel,
                                          const FlatKernelCall& call, std::string& why) {
  auto args = [&call](const rt::Device& cpu) {
    const int64_t f = sizeof(float);
    rt::Array x = rt::Array::Wrap(const_cast<float*>(call.x), {call.x_len}, {f}, ScalarType::Float32, cpu);
    rt::Array y = rt::Array::Wrap(call.y, {call.y_len}, {f}, ScalarType::Float32, cpu);
    return std::vector<rt::KernelArg>{x, y};
  };
  return TiledLaunch(so_path, kernel, args, {call.blocks}, call.block_dim, why);
}

std::function<void()> MakeTilecMatmulLaunch(const std::string& so_path, const std::string& kernel,
                                            const MatmulKernelCall& call, std::string& why) {
  auto args = [&call](const rt::Device& cpu) {
    const int64_t f = sizeof(float), rows = call.batch * call.tile;
    auto wrap = [&](const float* p) {
      return rt::Array::Wrap(const_cast<float*>(p), {rows, call.tile}, {call.tile * f, f}, ScalarType::Float32, cpu);
    };
    return std::vector<rt::KernelArg>{wrap(call.a), wrap(call.b), wrap(call.c)};
  };
  return TiledLaunch(so_path, kernel, args, {call.batch}, call.block_dim, why);
}

}  // namespace tilec::bench
