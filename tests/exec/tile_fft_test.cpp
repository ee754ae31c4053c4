// tile_fft and tile_ifft from source on vec2f and vec2d tiles: power-of-two sizes (radix 2) and
// others (the direct sum), one batch and several, 2-D and 3-D tiles. Reference: the DFT summed
// in long double; the transforms must agree with it within a bound that grows with N, give
// the same bits for every block_dim, and an fft then ifft must give N times the input.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <string>
#include <vector>

#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

template <typename T>
struct C2 {
  T re, im;
  bool operator==(const C2&) const = default;
};

std::string Replace(std::string s, const std::string& key, const std::string& v) {
  for (size_t p; (p = s.find(key)) != std::string::npos;) s.replace(p, key.size(), v);
  return s;
}

// The unnormalized DFT of every row of n elements, sign -1 (forward) or +1 (inverse).
template <typename T>
std::vector<std::complex<long double>> Dft(const std::vector<C2<T>>& x, int64_t n, int sign) {
  std::vector<std::complex<long double>> out(x.size());
  const long double pi = std::numbers::pi_v<long double>;
  for (size_t row = 0; row < x.size(); row += size_t(n))
    for (int64_t k = 0; k < n; ++k) {
      std::complex<long double> acc = 0;
      for (int64_t j = 0; j < n; ++j) {
        long double theta = sign * 2 * pi * static_cast<long double>((k * j) % n) / static_cast<long double>(n);
        acc += std::complex<long double>(x[row + size_t(j)].re, x[row + size_t(j)].im) *
               std::complex<long double>(std::cos(theta), std::sin(theta));
      }
      out[row + size_t(k)] = acc;
    }
  return out;
}

template <typename T>
void Fft(const std::string& vec, const std::vector<int64_t>& shape) {
  std::string dims, zeros;
  for (size_t d = 0; d < shape.size(); ++d) {
    dims += (d ? ", " : "") + std::to_string(shape[d]);
    zeros += d ? ", 0" : "0";
  }
  const std::string arr = "wp.array" + std::to_string(shape.size()) + "d[" + vec + "]";
  std::string src = R"(
@wp.kernel
def k(x: {A}, f: {A}, g: {A}, back: {A}):
    t = wp.tile_load(x, shape=({S}))
    wp.tile_fft(t)
    wp.tile_store(f, t)
    u = wp.tile_load(x, shape=({S}))
    wp.tile_ifft(inout=u)
    wp.tile_store(g, u)
    wp.tile_ifft(t)
    wp.tile_store(back, t)
)";
  src = Replace(Replace(src, "{A}", arr), "{S}", dims + (shape.size() == 1 ? "," : ""));
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  const int64_t n = shape.back();
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  std::vector<C2<T>> x(static_cast<size_t>(count));
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = {T(double(int(i * 7) % 11 - 5) * 0.25), T(double(int(i * 5) % 9 - 4) * 0.375)};
  const auto fwd = Dft(x, n, -1), inv = Dft(x, n, +1);
  double scale = 0;  // the largest |x| in a row, summed over the row: a bound on every |X[k]|
  for (size_t row = 0; row < x.size(); row += size_t(n)) {
    double s = 0;
    for (int64_t j = 0; j < n; ++j) s += std::hypot(double(x[row + size_t(j)].re), double(x[row + size_t(j)].im));
    scale = std::max(scale, s);
  }
  const double eps = std::numeric_limits<T>::epsilon();
  const double tol = 4 * eps * scale * (1 + std::log2(double(n)) + (std::has_single_bit(uint64_t(n)) ? 0 : double(n)));
  std::vector<C2<T>> first_f, first_g, first_back;
  for (int bd : {1, 3, 32}) {
    std::vector<C2<T>> xc = x, f(x.size(), {T(-7), T(-7)}), g = f, back = f;
    tilec_array X = View(xc.data(), shape), F = View(f.data(), shape), G = View(g.data(), shape),
                B = View(back.data(), shape);
    Launch(c.Entry("k"), {&X, &F, &G, &B}, {1}, bd);
    const std::string what = vec + " " + dims + " bd=" + std::to_string(bd);
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(double(f[i].re), double(fwd[i].real()), tol) << what << " fft re @" << i;
      EXPECT_NEAR(double(f[i].im), double(fwd[i].imag()), tol) << what << " fft im @" << i;
      EXPECT_NEAR(double(g[i].re), double(inv[i].real()), tol) << what << " ifft re @" << i;
      EXPECT_NEAR(double(g[i].im), double(inv[i].imag()), tol) << what << " ifft im @" << i;
      EXPECT_NEAR(double(back[i].re), double(n) * double(x[i].re), 2 * n * tol) << what << " ifft(fft) re @" << i;
      EXPECT_NEAR(double(back[i].im), double(n) * double(x[i].im), 2 * n * tol) << what << " ifft(fft) im @" << i;
    }
    EXPECT_EQ(xc, x) << what << ": the input array is not modified";
    if (first_f.empty()) {
      first_f = f, first_g = g, first_back = back;
    } else {
      EXPECT_EQ(f, first_f) << what << ": fft differs from block_dim 1";
      EXPECT_EQ(g, first_g) << what << ": ifft differs from block_dim 1";
      EXPECT_EQ(back, first_back) << what << ": ifft(fft) differs from block_dim 1";
    }
  }
}

TEST(TileFft, PowerOfTwoVec2f) {
  for (auto s : std::vector<std::vector<int64_t>>{{2, 4}, {1, 1}, {1, 2}, {3, 8}, {2, 16}, {1, 64}, {2, 256}})
    Fft<float>("wp.vec2f", s);
}
TEST(TileFft, PowerOfTwoVec2d) {
  for (auto s : std::vector<std::vector<int64_t>>{{2, 4}, {1, 32}, {4, 128}}) Fft<double>("wp.vec2d", s);
}
TEST(TileFft, OtherSizesUseTheDirectSum) {
  for (auto s : std::vector<std::vector<int64_t>>{{2, 3}, {1, 5}, {3, 12}, {1, 100}}) Fft<float>("wp.vec2f", s);
  for (auto s : std::vector<std::vector<int64_t>>{{2, 6}, {1, 7}}) Fft<double>("wp.vec2d", s);
}
TEST(TileFft, ThreeDimensionalTilesBatchTheLeadingDimensions) {
  Fft<float>("wp.vec2f", {2, 3, 8});
  Fft<double>("wp.vec2d", {2, 2, 6});
}

// Warp's documented example: real ramps transform to the familiar spectra, exactly (every
// twiddle of N = 4 is 1, -1, i or -i).
TEST(TileFft, DocumentedRamps) {
  auto c = CompileText(R"(
@wp.kernel
def spectrum(x: wp.array2d[wp.vec2f]):
    x_tile = wp.tile_load(x, shape=(2, 4))
    wp.tile_fft(x_tile)
    wp.tile_store(x, x_tile)
)");
  ASSERT_TRUE(c.module);
  for (int bd : {1, 2, 32}) {
    std::vector<C2<float>> x = {{1, 0}, {2, 0}, {3, 0}, {4, 0}, {4, 0}, {3, 0}, {2, 0}, {1, 0}};
    tilec_array X = View(x.data(), {2, 4});
    Launch(c.Entry("spectrum"), {&X}, {1}, bd);
    std::vector<C2<float>> want = {{10, 0}, {-2, 2}, {-2, 0}, {-2, -2}, {10, 0}, {2, -2}, {2, 0}, {2, 2}};
    for (size_t i = 0; i < x.size(); ++i) {
      EXPECT_NEAR(x[i].re, want[i].re, 1e-6) << "bd=" << bd << " @" << i;
      EXPECT_NEAR(x[i].im, want[i].im, 1e-6) << "bd=" << bd << " @" << i;
    }
  }
}

}  // namespace
}  // namespace tilec
