// The host_cpp tutorial's program (README.md): runs the `tile_load_indexed` and
// `tile_atomic_add_indexed` pages' examples from C++ through typed launcher headers, on cuda:0
// when present (and the modules carry GPU code) else on the CPU, then their gradients on a Tape.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gather_kernels.h"   // generated: tilec_add_kernels(... HEADER gather_kernels.h)
#include "scatter_kernels.h"  // generated from scatter_add.tile
#include "tilec/runtime.h"

namespace rt = tilec::rt;
using tilec::Array1D;
using tilec::Array2D;
using tilec::vec3f;

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

static void Print(const Array2D<float>& a) {
  PrintMatrix(a.ToVector(), int(a.shape()[0]), int(a.shape()[1]));
}

// A module built without ARCHS holds host code only: it can run on the CPU alone.
static bool HasGpuCode(const rt::Module& m) { return !m.signature().gpu_images.empty(); }

int main(int argc, char** argv) {
  if (argc > 2) {
    std::fprintf(stderr, "usage: %s [cpu|cuda:N]\n", argv[0]);
    return 2;
  }
  try {
    rt::SetNoticeHandler(nullptr);  // no GPU is needed: stay quiet about a missing driver
    // tilec_add_kernels (CMakeLists.txt) builds one .so per .tile file and passes its path;
    // Load checks each module against the header it was generated with.
    auto gather = gather_kernels::Module::Load(TILEC_KERNELS_GATHER_EVEN_ROWS_PATH);
    auto scatter = scatter_kernels::Module::Load(TILEC_KERNELS_SCATTER_ADD_PATH);

    // GetDefaultDevice() is cuda:0 when a driver and a GPU are present, else cpu.
    rt::Device dev = argc == 2 ? rt::Device::Parse(argv[1]) : rt::GetDefaultDevice();
    if (argc == 1 && dev.is_cuda() &&
        !(HasGpuCode(gather.tilec_module()) && HasGpuCode(scatter.tilec_module())))
      dev = rt::Device::Cpu();
    rt::CheckDevice(dev);
    std::fprintf(stderr, "device: %s\n", dev.Name().c_str());
    // One block program of 4 lanes: wp.launch_tiled(..., dim=1, block_dim=4).
    const rt::LaunchOptions tiled = rt::LaunchOptions({1}, 4).on(dev);

    // Gather: rows 0 and 2 of a 4x4 array (the tile_load_indexed page).
    std::vector<float> xs(16);
    for (int i = 0; i < 16; ++i) xs[i] = float(i + 1);
    auto x = Array2D<float>::FromVector(xs, {4, 4}, dev);
    auto y = Array2D<float>::Zeros({2, 4}, dev);
    gather.gather_even_rows.launch(tiled, x, y);
    Print(y);

    // The same gather over wp.vec3 points (k, 2k, -1) at 5, 0, 7 (outside: zeros) and 2.
    std::vector<vec3f> pts;
    for (int k = 0; k < 6; ++k) pts.push_back(vec3f{{float(k), 2.0f * float(k), -1.0f}});
    auto points = Array1D<vec3f>::FromVector(pts, {6}, dev);
    auto idx = Array1D<int32_t>::FromVector({5, 0, 7, 2}, {4}, dev);
    auto out = Array1D<vec3f>::Zeros({4}, dev);
    gather.gather_points.launch(tiled, points, idx, out);
    std::vector<float> flat;
    for (const vec3f& v : out.ToVector()) flat.insert(flat.end(), {v[0], v[1], v[2]});
    PrintMatrix(flat, 4, 3);

    // Scatter-add: a 2x4 tile's rows added onto rows 0 and 2 of y = 0..15, the previous values
    // returned (the tile_atomic_add_indexed page).
    std::vector<float> acc(16);
    for (int i = 0; i < 16; ++i) acc[i] = float(i);
    auto src = Array2D<float>::FromVector(std::vector<float>(xs.begin(), xs.begin() + 8), {2, 4}, dev);
    auto dst = Array2D<float>::FromVector(acc, {4, 4}, dev);
    auto previous = Array2D<float>::Zeros({2, 4}, dev);
    scatter.accumulate_even_rows.launch(tiled, src, dst, previous);
    Print(dst);
    Print(previous);

    // Gradients: gather rows 0, 2 of a, scatter-add them onto rows 0, 2 of b, recorded on a
    // Tape; seeding b.grad with 0..15 and running the adjoints backwards brings rows 0 and 2
    // of that seed back to a.grad (the other rows of a were never read: zero).
    auto a = Array2D<float>::FromVector(xs, {4, 4}, dev, /*requires_grad=*/true);
    auto mid = Array2D<float>::Zeros({2, 4}, dev, /*requires_grad=*/true);
    auto b = Array2D<float>::Zeros({4, 4}, dev, /*requires_grad=*/true);
    auto prev = Array2D<float>::Zeros({2, 4}, dev);
    rt::Tape tape;
    {
      rt::Tape::Scope record(tape);
      gather.gather_even_rows.launch(tiled, a, mid);
      scatter.accumulate_even_rows.launch(tiled, mid, b, prev);
    }
    tape.Backward({{b.array(), Array2D<float>::FromVector(acc, {4, 4}, dev).array()}});
    Print(a.grad());
  } catch (const rt::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 4;
  }
  return 0;
}
