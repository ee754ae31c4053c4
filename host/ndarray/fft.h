// np.fft's one-dimensional transforms on complex arrays held as their parts: a float array
// whose last axis (length 2) is (real, imaginary). Any length, in float64 as NumPy 1.24 does.
#pragma once
#include <optional>
#include <string>

#include "host/ndarray/ndarray.h"

namespace tilec::host {

enum class FftNorm : uint8_t { Backward, Ortho, Forward };

// np.fft.fft / np.fft.ifft of `parts` along complex axis `axis` (negative counts from the end),
// cropped or zero-padded to `n` when given. The result is complex128 parts (float64).
NdArray Fft(const NdArray& parts, int axis, std::optional<int64_t> n, bool inverse, FftNorm norm);

}  // namespace tilec::host
