// A C++ host that uses only the generated typed header and the runtime: loads
// typed_kernels.so, runs a gather, a struct-and-scalar kernel, a struct with an array field and
// a tiled gather through the typed launchers, and checks each result against values computed
// here by plain loops.
// Prints the gather result; exits 1 on any difference.
#include <cmath>
#include <cstdio>
#include <vector>

#include "typed_kernels.h"

namespace rt = tilec::rt;

static int failures = 0;

static void Expect(bool ok, const char* what, int i, double got, double want) {
  if (ok) return;
  std::fprintf(stderr, "MISMATCH %s[%d]: got %g, expected %g\n", what, i, got, want);
  ++failures;
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s typed_kernels.so\n", argv[0]);
    return 2;
  }
  try {
    rt::SetNoticeHandler(nullptr);
    const rt::Device cpu = rt::Device::Cpu();
    typed_kernels::Module m = typed_kernels::Module::Load(argv[1]);

    // gather: y[i] = x[idx[i]] with a permutation that repeats and skips entries.
    std::vector<float> xs = {10.5f, -2.0f, 7.25f, 0.0f, 3.0f, 99.0f};
    std::vector<int32_t> is = {5, 0, 0, 3, 2, 4, 1};
    auto x = tilec::Array1D<float>::FromVector(xs, {6}, cpu);
    auto idx = tilec::Array1D<int32_t>::FromVector(is, {7}, cpu);
    auto y = tilec::Array1D<float>::Zeros({7}, cpu);
    m.gather.launch(rt::LaunchOptions({7}).on(cpu), x, idx, y);
    std::vector<float> got = y.ToVector();
    std::printf("gather:");
    for (size_t i = 0; i < got.size(); ++i) {
      std::printf(" %g", got[i]);
      Expect(got[i] == xs[is[i]], "gather", int(i), got[i], xs[is[i]]);
    }
    std::printf("\n");

    // affine_points: a struct with a vec3 field, a float and an int scalar (given as int
    // literals, which convert as Warp converts Python ints).
    std::vector<tilec::vec3f> ps = {{{1, 2, 3}}, {{-1, 0.5f, 4}}};
    auto p = tilec::Array1D<tilec::vec3f>::FromVector(ps, {2}, cpu);
    auto out = tilec::Array2D<float>::Zeros({2, 3}, cpu);
    typed_kernels::Affine a{2.0f, {{0.25f, -1.0f, 10.0f}}, 7};
    m.affine_points.launch(rt::LaunchOptions({2}).on(cpu), p, a, 0.5, 3, out);
    std::vector<float> o = out.ToVector();
    for (int i = 0; i < 2; ++i)
      for (int k = 0; k < 3; ++k) {
        float want = ps[i][k] * a.scale + a.shift[k] + 0.5f + 3.0f + float(a.count);
        Expect(std::fabs(o[i * 3 + k] - want) < 1e-5f, "affine_points", i * 3 + k, o[i * 3 + k], want);
      }

    // weigh: a struct with an array field, whose array is passed after the struct.
    std::vector<float> ws = {2.0f, -1.0f, 0.5f};
    auto wdata = tilec::Array1D<float>::FromVector(ws, {3}, cpu);
    auto wx = tilec::Array1D<float>::FromVector({1.0f, 4.0f, 8.0f}, {3}, cpu);
    auto wy = tilec::Array1D<float>::Zeros({3}, cpu);
    typed_kernels::Weights w{1.5f};
    m.weigh.launch(rt::LaunchOptions({3}).on(cpu), wx, w, wdata, wy);
    std::vector<float> wo = wy.ToVector();
    const float wx_host[3] = {1.0f, 4.0f, 8.0f};
    for (int i = 0; i < 3; ++i) {
      float want = wx_host[i] * ws[i] + 1.5f;
      Expect(wo[i] == want, "weigh", i, wo[i], want);
    }

    // gather_rows: a tiled kernel, one block program of 4 lanes gathering rows 3 and 1.
    std::vector<float> grid(5 * 4);
    for (int i = 0; i < 20; ++i) grid[i] = float(i * i) - 3.0f;
    auto g = tilec::Array2D<float>::FromVector(grid, {5, 4}, cpu);
    auto rows = tilec::Array1D<int32_t>::FromVector({3, 1}, {2}, cpu);
    auto picked = tilec::Array2D<float>::Zeros({2, 4}, cpu);
    m.gather_rows.launch(rt::LaunchOptions({1}, /*block_dim=*/4).on(cpu), g, rows, picked);
    std::vector<float> pr = picked.ToVector();
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 4; ++c) {
        int src = (r == 0 ? 3 : 1) * 4 + c;
        Expect(pr[r * 4 + c] == grid[src], "gather_rows", r * 4 + c, pr[r * 4 + c], grid[src]);
      }

    // The tiled kernel without block_dim is refused, in C++ terms.
    try {
      m.gather_rows.launch(rt::LaunchOptions({1}).on(cpu), g, rows, picked);
      std::fprintf(stderr, "MISMATCH: an untiled launch of gather_rows was accepted\n");
      ++failures;
    } catch (const rt::Error& e) {
      std::printf("untiled launch refused: %s\n", e.what());
    }
  } catch (const rt::Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
  if (failures) return 1;
  std::printf("typed launchers: all results match\n");
  return 0;
}
