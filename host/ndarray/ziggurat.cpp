// Generator.standard_normal's ziggurat (NumPy's random_standard_normal and its float32 twin),
// with the 256-layer tables rebuilt at first use by the construction NumPy's tables came from,
// so that every draw, rejection and tail sample is NumPy's bit for bit.
#include <array>
#include <cmath>
#include <cstdint>

#include "host/ndarray/random.h"

namespace tilec::host::random {

namespace {

constexpr int kLayers = 256;
// The base layer's right edge and the common area of the layers (Marsaglia and Tsang's r and v
// for 256 layers, as NumPy's construction writes them).
constexpr double kR = 3.6541528853610087963519472518;
constexpr double kInvR = 0.27366123732975827203338247596;
constexpr double kArea = 0.0049286732339746519;
// NumPy's tables were computed on a platform whose exp(-x²/2), at the 218th step of the
// recurrence below, returned the double just above the correctly rounded one (the exact value
// lies 0.498 ulp below it, where glibc rounds down). Every later layer inherits that rounding,
// so it is reproduced here; NumPy's streams (tests/unit/interp/random_test.cpp) fail without it.
constexpr int kRoundedUpStep = 218;

double Pdf(double x) { return std::exp(-0.5 * x * x); }

struct Tables {
  // Per layer i: the acceptance bound on the draw's magnitude bits (ki), the scale from bits
  // to x (wi) and the density at the layer's edge (fi), for 52-bit (double) and 23-bit draws.
  std::array<uint64_t, kLayers> ki_double;
  std::array<double, kLayers> wi_double, fi_double;
  std::array<uint32_t, kLayers> ki_float;
  std::array<float, kLayers> wi_float, fi_float;

  Tables() {
    // Edges from the tail inwards: each layer has area kArea, x[255] = 0; then reversed so
    // that layer 0 is the base (with the tail) and layer 255 the top.
    std::array<double, kLayers> down{};
    down[0] = kR;
    for (int i = 1; i < kLayers - 1; ++i) {
      double density = Pdf(down[i - 1]);
      if (i == kRoundedUpStep) density = std::nextafter(density, INFINITY);
      down[i] = std::sqrt(-2 * std::log(density + kArea / down[i - 1]));
    }
    std::array<double, kLayers> x{};
    for (int i = 0; i < kLayers; ++i) x[size_t(i)] = down[size_t(kLayers - 1 - i)];
    const double d_scale = 0x1p52, f_scale = 0x1p23;
    // The rounding is NumPy's np.round: to nearest, ties to even (the default mode).
    ki_double[0] = uint64_t(std::nearbyint(kR * Pdf(kR) / kArea * d_scale));
    ki_float[0] = uint32_t(std::nearbyint(kR * Pdf(kR) / kArea * f_scale));
    wi_double[0] = kArea / Pdf(kR) / d_scale;
    wi_float[0] = float(kArea / Pdf(kR) / f_scale);
    for (int i = 1; i < kLayers; ++i) {
      const double ratio = x[size_t(i - 1)] / x[size_t(i)];
      ki_double[size_t(i)] = uint64_t(std::nearbyint(ratio * d_scale));
      ki_float[size_t(i)] = uint32_t(std::nearbyint(ratio * f_scale));
      wi_double[size_t(i)] = x[size_t(i)] / d_scale;
      wi_float[size_t(i)] = float(x[size_t(i)] / f_scale);
    }
    for (int i = 0; i < kLayers; ++i) {
      fi_double[size_t(i)] = Pdf(x[size_t(i)]);
      fi_float[size_t(i)] = float(fi_double[size_t(i)]);
    }
  }
};

const Tables& Zig() {
  static const Tables tables;
  return tables;
}

}  // namespace

// The file is built with -ffp-contract=off: NumPy's `(f[i-1] - f[i]) * u + f[i]` rounds twice.
double StandardNormal(BitGenerator& g) {
  const Tables& t = Zig();
  for (;;) {
    uint64_t r = g.Next64();
    const int idx = int(r & 0xff);
    r >>= 8;
    const bool negative = r & 1;
    const uint64_t rabs = (r >> 1) & 0x000fffffffffffffull;
    double x = double(rabs) * t.wi_double[size_t(idx)];
    if (negative) x = -x;
    if (rabs < t.ki_double[size_t(idx)]) return x;
    if (idx == 0) {
      // The tail beyond kR, by Marsaglia's exponential rejection; 1 - U keeps log away from 0.
      for (;;) {
        const double xx = -kInvR * std::log1p(-g.NextDouble());
        const double yy = -std::log1p(-g.NextDouble());
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kR + xx) : kR + xx;
      }
    }
    if ((t.fi_double[size_t(idx - 1)] - t.fi_double[size_t(idx)]) * g.NextDouble() + t.fi_double[size_t(idx)] <
        std::exp(-0.5 * x * x))
      return x;
  }
}

float StandardNormalF(BitGenerator& g) {
  const Tables& t = Zig();
  constexpr float kRf = float(kR), kInvRf = float(kInvR);
  for (;;) {
    const uint32_t r = g.Next32();
    const int idx = int(r & 0xff);
    const bool negative = (r >> 8) & 1;
    const uint32_t rabs = (r >> 9) & 0x007fffffu;
    float x = float(rabs) * t.wi_float[size_t(idx)];
    if (negative) x = -x;
    if (rabs < t.ki_float[size_t(idx)]) return x;
    if (idx == 0) {
      for (;;) {
        const float xx = -kInvRf * std::log1p(-NextFloat(g));
        const float yy = -std::log1p(-NextFloat(g));
        if (yy + yy > xx * xx) return ((rabs >> 8) & 1) ? -(kRf + xx) : kRf + xx;
      }
    }
    // The comparison is in double, as NumPy's `exp(-0.5 * x * x)` promotes it.
    const float lower = (t.fi_float[size_t(idx - 1)] - t.fi_float[size_t(idx)]) * NextFloat(g) + t.fi_float[size_t(idx)];
    if (double(lower) < std::exp(-0.5 * double(x) * double(x))) return x;
  }
}

double Normal(BitGenerator& g, double loc, double scale) { return loc + scale * StandardNormal(g); }

}  // namespace tilec::host::random
