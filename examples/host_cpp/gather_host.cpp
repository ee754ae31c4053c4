// Runs the `tile_load_indexed` page's example from C++: loads an AOT kernels.so with the
// tilec runtime, gathers the even rows of a 4x4 array on the CPU and prints them as NumPy does;
// then gathers wp.vec3 points, passing an array whose element type is the runtime's vec3f.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "tilec/runtime.h"

namespace rt = tilec::rt;

// NumPy's layout for small float matrices with integral values: "[[ 1.  2.]\n [ 9. 10.]]".
static void PrintMatrix(const std::vector<float>& v, int rows, int cols) {
  int width = 0;
  for (float x : v) width = std::max(width, std::snprintf(nullptr, 0, "%.0f.", x));
  std::printf("[");
  for (int r = 0; r < rows; ++r) {
    std::printf(r == 0 ? "[" : " [");
    for (int c = 0; c < cols; ++c) {
      char cell[64];
      std::snprintf(cell, sizeof cell, "%.0f.", v[r * cols + c]);
      std::printf("%s%*s", c ? " " : "", width, cell);
    }
    std::printf(r + 1 == rows ? "]" : "]\n");
  }
  std::printf("]\n");
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s KERNELS.so\n", argv[0]);
    return 2;
  }
  try {
    rt::SetNoticeHandler(nullptr);  // no GPU is needed: stay quiet about a missing driver
    rt::Module module = rt::Module::Load(argv[1]);
    rt::Kernel gather = module.GetKernel("gather_even_rows");

    std::vector<float> xs(16);
    for (int i = 0; i < 16; ++i) xs[i] = float(i + 1);
    rt::Device cpu = rt::Device::Cpu();
    rt::Array x = rt::Array::FromVector(xs, {4, 4}, cpu);
    rt::Array y = rt::Array::Zeros({2, 4}, tilec::ScalarType::Float32, cpu);
    rt::LaunchTiled(gather, {1}, {x, y}, /*block_dim=*/4, cpu);
    PrintMatrix(y.ToVector<float>(), 2, 4);

    // Six points (k, 2k, -1) gathered at 5, 0, 7 (outside: zeros) and 2.
    struct Vec3 { float x, y, z; };
    std::vector<Vec3> pts;
    for (int k = 0; k < 6; ++k) pts.push_back({float(k), 2.0f * float(k), -1.0f});
    rt::ArrayDType vec3 = rt::ArrayDType::Struct(rt::CompositeLayout(tilec::Composite::Vector(3, tilec::ScalarType::Float32)));
    rt::Array points = rt::Array::FromHost(pts.data(), {6}, vec3, cpu);
    rt::Array idx = rt::Array::FromVector(std::vector<int32_t>{5, 0, 7, 2}, {4}, cpu);
    rt::Array out = rt::Array::Zeros({4}, vec3, cpu);
    rt::LaunchTiled(module.GetKernel("gather_points"), {1}, {points, idx, out}, /*block_dim=*/4, cpu);
    std::vector<Vec3> got(4);
    out.CopyToHost(got.data());
    std::vector<float> flat;
    for (const Vec3& v : got) flat.insert(flat.end(), {v.x, v.y, v.z});
    PrintMatrix(flat, 4, 3);
  } catch (const rt::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 4;
  }
  return 0;
}
