// Mixed-radix Cooley-Tukey over the smallest prime factor, with a direct transform for prime
// lengths: O(n log n) for smooth sizes, exact twiddles from one table per length.
#include "host/ndarray/fft.h"

#include <cmath>
#include <complex>
#include <vector>

#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

using C = std::complex<double>;

// `w[k]` is exp(sign * 2πi k / N) for the top-level length N; a sub-transform of length n
// reads every (N / n)-th entry.
void Transform(std::vector<C>& x, const std::vector<C>& w, size_t stride) {
  const size_t n = x.size();
  if (n <= 1) return;
  const size_t top = w.size();
  size_t p = 2;
  while (p * p <= n && n % p != 0) ++p;
  if (n % p != 0) p = n;
  std::vector<C> out(n);
  if (p == n) {
    for (size_t k = 0; k < n; ++k) {
      C s = 0;
      for (size_t j = 0; j < n; ++j) s += x[j] * w[(j * k % n) * stride % top];
      out[k] = s;
    }
  } else {
    const size_t m = n / p;
    std::vector<std::vector<C>> sub(p, std::vector<C>(m));
    for (size_t r = 0; r < p; ++r) {
      for (size_t j = 0; j < m; ++j) sub[r][j] = x[r + p * j];
      Transform(sub[r], w, stride * p);
    }
    for (size_t q = 0; q < p; ++q)
      for (size_t k = 0; k < m; ++k) {
        const size_t idx = k + m * q;
        C s = 0;
        for (size_t r = 0; r < p; ++r) s += sub[r][k] * w[(r * idx % n) * stride % top];
        out[idx] = s;
      }
  }
  x.swap(out);
}

// cos and sin of 2πk/n, reduced to the first octant so that quarter turns are exact (0, ±1)
// and symmetric angles get symmetric values.
std::pair<double, double> UnitCircle(int64_t k, int64_t n) {
  const int64_t q = 4 * k / n, rem = 4 * k - q * n;
  double c0, s0;
  if (rem == 0) {
    c0 = 1;
    s0 = 0;
  } else if (2 * rem <= n) {
    const double a = M_PI / 2 * double(rem) / double(n);
    c0 = std::cos(a);
    s0 = std::sin(a);
  } else {
    const double a = M_PI / 2 * double(n - rem) / double(n);
    c0 = std::sin(a);
    s0 = std::cos(a);
  }
  switch (q) {
    case 0: return {c0, s0};
    case 1: return {-s0, c0};
    case 2: return {-c0, -s0};
    default: return {s0, -c0};
  }
}

}  // namespace

NdArray Fft(const NdArray& parts, int axis, std::optional<int64_t> n, bool inverse, FftNorm norm) {
  const int cdim = parts.ndim() - 1;
  const int ax = NormalizeAxis(axis, cdim);
  const int64_t len_in = parts.shape()[ax];
  const int64_t len = n.value_or(len_in);
  if (len < 1) throw NdError("ValueError", "Invalid number of FFT data points (" + std::to_string(len) + ") specified.");
  Shape out_shape = parts.shape();
  out_shape[ax] = len;
  NdArray out = NdArray::Zeros(out_shape, ScalarType::Float64);
  std::vector<C> w(len);
  const double sign = inverse ? 1.0 : -1.0;
  for (int64_t k = 0; k < len; ++k) {
    const auto [c, s] = UnitCircle(k, len);
    w[k] = C(c, sign * s);
  }
  double scale = 1.0;
  if (norm == FftNorm::Ortho) scale = 1.0 / std::sqrt(double(len));
  else if ((norm == FftNorm::Backward) == inverse) scale = 1.0 / double(len);
  // One transform per line along `ax`: walk every index of the other complex axes.
  Shape outer = out_shape;
  outer.pop_back();
  outer[ax] = 1;
  const int64_t lines = ShapeSize(outer);
  std::vector<int64_t> idx(parts.ndim(), 0);
  std::vector<C> line(len);
  for (int64_t l = 0; l < lines; ++l) {
    int64_t rem = l;
    for (int d = cdim - 1; d >= 0; --d) {
      idx[d] = rem % outer[d];
      rem /= outer[d];
    }
    for (int64_t j = 0; j < len; ++j) {
      if (j >= len_in) { line[j] = 0; continue; }
      idx[ax] = j;
      idx[cdim] = 0;
      const double re = parts.GetDouble(idx);
      idx[cdim] = 1;
      line[j] = C(re, parts.GetDouble(idx));
    }
    Transform(line, w, 1);
    for (int64_t j = 0; j < len; ++j) {
      idx[ax] = j;
      idx[cdim] = 0;
      out.Set(idx, Scalar::Float(line[j].real() * scale));
      idx[cdim] = 1;
      out.Set(idx, Scalar::Float(line[j].imag() * scale));
    }
  }
  return out;
}

}  // namespace tilec::host
