// NumPy's seeding, bit generators and core distributions, reimplemented to give the same
// streams as NumPy 1.24: every operation, width and rejection test follows its C code, since
// any difference (a 32- for a 64-bit draw, a buffered byte) shifts all later values.
#include "host/ndarray/random.h"

#include <cmath>
#include <cstring>
#include <random>

namespace tilec::host::random {

namespace {


// SeedSequence's hash constants.
constexpr uint32_t kInitA = 0x43b0d7e5, kMultA = 0x931e8875;
constexpr uint32_t kInitB = 0x8b51f9dd, kMultB = 0x58f38ded;
constexpr uint32_t kMixMultL = 0xca01f9dd, kMixMultR = 0x4973f715;

uint32_t HashMix(uint32_t value, uint32_t& hash_const) {
  value ^= hash_const;
  hash_const *= kMultA;
  value *= hash_const;
  return value ^ (value >> 16);
}

uint32_t Mix(uint32_t x, uint32_t y) {
  uint32_t r = kMixMultL * x - kMixMultR * y;
  return r ^ (r >> 16);
}

constexpr unsigned __int128 kPcgMultiplier =
    (static_cast<unsigned __int128>(2549297995355413924ULL) << 64) | 4865540595714422341ULL;

// Smallest all-ones mask covering `max`.
uint64_t GenMask(uint64_t max) {
  uint64_t m = max;
  m |= m >> 1;
  m |= m >> 2;
  m |= m >> 4;
  m |= m >> 8;
  m |= m >> 16;
  m |= m >> 32;
  return m;
}

// The 32-bit buffer NumPy's fill loops share between draws of one call: 8- and 16-bit values
// (and bools, one bit at a time) are cut from a single 32-bit draw, low bits first.
struct Buffer {
  uint32_t buf = 0;
  int bcnt = 0;
  template <int kBits>
  uint32_t Take(BitGenerator& g) {
    if (bcnt == 0) {
      buf = g.Next32();
      bcnt = 32 / kBits - 1;
    } else {
      buf >>= kBits;
      --bcnt;
    }
    return buf;
  }
};

uint64_t MaskedU64(BitGenerator& g, uint64_t rng, uint64_t mask) {
  uint64_t v;
  while ((v = g.Next64() & mask) > rng) {}
  return v;
}

uint64_t LemireU64(BitGenerator& g, uint64_t rng) {
  const uint64_t excl = rng + 1;
  unsigned __int128 m = static_cast<unsigned __int128>(g.Next64()) * excl;
  uint64_t leftover = uint64_t(m);
  if (leftover < excl) {
    const uint64_t threshold = (UINT64_MAX - rng) % excl;
    while (leftover < threshold) {
      m = static_cast<unsigned __int128>(g.Next64()) * excl;
      leftover = uint64_t(m);
    }
  }
  return uint64_t(m >> 64);
}

uint32_t MaskedU32(BitGenerator& g, uint32_t rng, uint32_t mask) {
  uint32_t v;
  while ((v = g.Next32() & mask) > rng) {}
  return v;
}

uint32_t LemireU32(BitGenerator& g, uint32_t rng) {
  const uint32_t excl = rng + 1;
  uint64_t m = uint64_t(g.Next32()) * excl;
  uint32_t leftover = uint32_t(m);
  if (leftover < excl) {
    const uint32_t threshold = (UINT32_MAX - rng) % excl;
    while (leftover < threshold) {
      m = uint64_t(g.Next32()) * excl;
      leftover = uint32_t(m);
    }
  }
  return uint32_t(m >> 32);
}

// The 8- and 16-bit kernels: `kBits`-wide draws from the shared buffer.
template <int kBits>
uint32_t MaskedSmall(BitGenerator& g, Buffer& b, uint32_t rng, uint32_t mask) {
  constexpr uint32_t kAll = (1u << kBits) - 1;
  uint32_t v;
  while ((v = b.Take<kBits>(g) & kAll & mask) > rng) {}
  return v;
}

template <int kBits>
uint32_t LemireSmall(BitGenerator& g, Buffer& b, uint32_t rng) {
  constexpr uint32_t kAll = (1u << kBits) - 1;
  const uint32_t excl = rng + 1;
  uint32_t m = (b.Take<kBits>(g) & kAll) * excl;
  uint32_t leftover = m & kAll;
  if (leftover < excl) {
    const uint32_t threshold = (kAll - rng) % excl;
    while (leftover < threshold) {
      m = (b.Take<kBits>(g) & kAll) * excl;
      leftover = m & kAll;
    }
  }
  return m >> kBits;
}

template <class T>
void FillU64(BitGenerator& g, uint64_t off, uint64_t rng, bool masked, int64_t n, T* out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off);
  } else if (rng <= 0xFFFFFFFFull) {
    // In 32-bit range NumPy draws 32 bits at a time even for 64-bit output.
    if (rng == 0xFFFFFFFFull) {
      for (int64_t i = 0; i < n; ++i) out[i] = T(off + g.Next32());
    } else if (masked) {
      uint32_t mask = uint32_t(GenMask(rng));
      for (int64_t i = 0; i < n; ++i) out[i] = T(off + MaskedU32(g, uint32_t(rng), mask));
    } else {
      for (int64_t i = 0; i < n; ++i) out[i] = T(off + LemireU32(g, uint32_t(rng)));
    }
  } else if (rng == UINT64_MAX) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + g.Next64());
  } else if (masked) {
    uint64_t mask = GenMask(rng);
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + MaskedU64(g, rng, mask));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + LemireU64(g, rng));
  }
}

template <class T>
void FillU32(BitGenerator& g, uint32_t off, uint32_t rng, bool masked, int64_t n, T* out) {
  if (rng == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off);
  } else if (rng == 0xFFFFFFFFu) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + g.Next32());
  } else if (masked) {
    uint32_t mask = uint32_t(GenMask(rng));
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + MaskedU32(g, rng, mask));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + LemireU32(g, rng));
  }
}

template <int kBits, class T>
void FillSmall(BitGenerator& g, uint32_t off, uint32_t rng, bool masked, int64_t n, T* out) {
  constexpr uint32_t kAll = (1u << kBits) - 1;
  Buffer b;
  if (rng == 0) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off);
  } else if (rng == kAll) {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + (b.Take<kBits>(g) & kAll));
  } else if (masked) {
    uint32_t mask = uint32_t(GenMask(rng)) & kAll;
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + MaskedSmall<kBits>(g, b, rng, mask));
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = T(off + LemireSmall<kBits>(g, b, rng));
  }
}

}  // namespace

// ---------------------------------------------------------------- SeedSequence

std::vector<uint32_t> IntToWords(uint64_t n) {
  std::vector<uint32_t> w;
  if (n == 0) w.push_back(0);
  for (; n > 0; n >>= 32) w.push_back(uint32_t(n));
  return w;
}

SeedSequence::SeedSequence(std::span<const uint32_t> entropy) {
  constexpr size_t kPool = 4;
  uint32_t hash_const = kInitA;
  for (size_t i = 0; i < kPool; ++i)
    pool_[i] = HashMix(i < entropy.size() ? entropy[i] : 0u, hash_const);
  // Every pool word influences every other, then leftover entropy is folded into each.
  for (size_t src = 0; src < kPool; ++src)
    for (size_t dst = 0; dst < kPool; ++dst)
      if (src != dst) pool_[dst] = Mix(pool_[dst], HashMix(pool_[src], hash_const));
  for (size_t src = kPool; src < entropy.size(); ++src)
    for (size_t dst = 0; dst < kPool; ++dst) pool_[dst] = Mix(pool_[dst], HashMix(entropy[src], hash_const));
}

std::vector<uint32_t> SeedSequence::GenerateState32(size_t n_words) const {
  std::vector<uint32_t> out(n_words);
  uint32_t hash_const = kInitB;
  for (size_t i = 0; i < n_words; ++i) {
    uint32_t v = pool_[i % 4] ^ hash_const;
    hash_const *= kMultB;
    v *= hash_const;
    out[i] = v ^ (v >> 16);
  }
  return out;
}

std::vector<uint64_t> SeedSequence::GenerateState64(size_t n_words) const {
  std::vector<uint32_t> w = GenerateState32(2 * n_words);
  std::vector<uint64_t> out(n_words);
  for (size_t i = 0; i < n_words; ++i) out[i] = uint64_t(w[2 * i]) | (uint64_t(w[2 * i + 1]) << 32);
  return out;
}

// ---------------------------------------------------------------- PCG64

Pcg64::Pcg64(const SeedSequence& seq) {
  std::vector<uint64_t> v = seq.GenerateState64(4);
  unsigned __int128 initstate = (static_cast<unsigned __int128>(v[0]) << 64) | v[1];
  unsigned __int128 initseq = (static_cast<unsigned __int128>(v[2]) << 64) | v[3];
  state_ = 0;
  inc_ = (initseq << 1) | 1;
  Step();
  state_ += initstate;
  Step();
}

void Pcg64::Step() { state_ = state_ * kPcgMultiplier + inc_; }

uint64_t Pcg64::Next64() {
  Step();
  uint64_t hi = uint64_t(state_ >> 64), lo = uint64_t(state_);
  unsigned rot = unsigned(state_ >> 122);
  uint64_t x = hi ^ lo;
  return (x >> rot) | (x << ((64 - rot) & 63));
}

uint32_t Pcg64::Next32() {
  if (has_uint32_) {
    has_uint32_ = false;
    return uinteger_;
  }
  uint64_t next = Next64();
  has_uint32_ = true;
  uinteger_ = uint32_t(next >> 32);
  return uint32_t(next);
}

// ---------------------------------------------------------------- MT19937

void Mt19937::Seed(uint32_t seed) {
  for (int pos = 0; pos < 624; ++pos) {
    key_[pos] = seed;
    seed = 1812433253u * (seed ^ (seed >> 30)) + uint32_t(pos) + 1;
  }
  pos_ = 624;
}

void Mt19937::SeedByArray(std::span<const uint32_t> init_key) {
  Seed(19650218u);
  const int n = 624, len = int(init_key.size());
  int i = 1, j = 0;
  for (int k = n > len ? n : len; k; --k) {
    key_[i] = (key_[i] ^ ((key_[i - 1] ^ (key_[i - 1] >> 30)) * 1664525u)) + init_key[j] + uint32_t(j);
    ++i;
    ++j;
    if (i >= n) {
      key_[0] = key_[n - 1];
      i = 1;
    }
    if (j >= len) j = 0;
  }
  for (int k = n - 1; k; --k) {
    key_[i] = (key_[i] ^ ((key_[i - 1] ^ (key_[i - 1] >> 30)) * 1566083941u)) - uint32_t(i);
    ++i;
    if (i >= n) {
      key_[0] = key_[n - 1];
      i = 1;
    }
  }
  key_[0] = 0x80000000u;  // a non-zero state whatever the key
  pos_ = 624;
}

void Mt19937::SeedFromEntropy() {
  std::random_device rd;
  uint32_t words[4] = {rd(), rd(), rd(), rd()};
  std::vector<uint32_t> v = SeedSequence(words).GenerateState32(624);
  key_[0] = 0x80000000u;
  for (int i = 1; i < 624; ++i) key_[i] = v[i];
  pos_ = 624;
}

void Mt19937::Regenerate() {
  constexpr int kN = 624, kM = 397;
  constexpr uint32_t kMatrixA = 0x9908b0dfu, kUpper = 0x80000000u, kLower = 0x7fffffffu;
  auto twist = [&](int i, int next, int far) {
    uint32_t y = (key_[i] & kUpper) | (key_[next] & kLower);
    key_[i] = key_[far] ^ (y >> 1) ^ ((0u - (y & 1u)) & kMatrixA);
  };
  int i = 0;
  for (; i < kN - kM; ++i) twist(i, i + 1, i + kM);
  for (; i < kN - 1; ++i) twist(i, i + 1, i + kM - kN);
  twist(kN - 1, 0, kM - 1);
  pos_ = 0;
}

uint32_t Mt19937::Next32() {
  if (pos_ == 624) Regenerate();
  uint32_t y = key_[pos_++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680u;
  y ^= (y << 15) & 0xefc60000u;
  y ^= y >> 18;
  return y;
}

uint64_t Mt19937::Next64() {
  uint64_t hi = Next32();
  return (hi << 32) | Next32();
}

double Mt19937::NextDouble() {
  int32_t a = int32_t(Next32() >> 5);
  int32_t b = int32_t(Next32() >> 6);
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// ---------------------------------------------------------------- distributions

float NextFloat(BitGenerator& g) { return float(g.Next32() >> 8) * (1.0f / 16777216.0f); }

uint64_t RandomInterval(BitGenerator& g, uint64_t max) {
  if (max == 0) return 0;
  uint64_t mask = GenMask(max), v;
  if (max <= 0xffffffffull) {
    while ((v = g.Next32() & mask) > max) {}
  } else {
    while ((v = g.Next64() & mask) > max) {}
  }
  return v;
}

uint64_t BoundedUint64(BitGenerator& g, uint64_t off, uint64_t rng, bool masked) {
  uint64_t out;
  FillU64(g, off, rng, masked, 1, &out);
  return out;
}

void BoundedFill(BitGenerator& g, ScalarType dtype, uint64_t off, uint64_t rng, bool masked, int64_t count,
                 void* out) {
  switch (dtype) {
    case ScalarType::Int64: FillU64(g, off, rng, masked, count, static_cast<int64_t*>(out)); return;
    case ScalarType::UInt64: FillU64(g, off, rng, masked, count, static_cast<uint64_t*>(out)); return;
    case ScalarType::Int32: FillU32(g, uint32_t(off), uint32_t(rng), masked, count, static_cast<int32_t*>(out)); return;
    case ScalarType::UInt32: FillU32(g, uint32_t(off), uint32_t(rng), masked, count, static_cast<uint32_t*>(out)); return;
    case ScalarType::Int16:
      FillSmall<16>(g, uint16_t(off), uint16_t(rng), masked, count, static_cast<int16_t*>(out));
      return;
    case ScalarType::UInt16:
      FillSmall<16>(g, uint16_t(off), uint16_t(rng), masked, count, static_cast<uint16_t*>(out));
      return;
    case ScalarType::Int8: FillSmall<8>(g, uint8_t(off), uint8_t(rng), masked, count, static_cast<int8_t*>(out)); return;
    case ScalarType::UInt8: FillSmall<8>(g, uint8_t(off), uint8_t(rng), masked, count, static_cast<uint8_t*>(out)); return;
    case ScalarType::Bool: {
      // One bit per value, 32 to a draw; a zero range draws nothing.
      Buffer b;
      bool* o = static_cast<bool*>(out);
      for (int64_t i = 0; i < count; ++i) o[i] = rng == 0 ? off != 0 : (b.Take<1>(g) & 1u) != 0;
      return;
    }
    default: return;
  }
}

namespace {

// One value of random_buffered_bounded_<utype> for the 8- and 16-bit types.
template <int kBits>
uint32_t BoundedSmallOne(BitGenerator& g, Buffer& b, uint32_t off, uint32_t rng, bool masked) {
  constexpr uint32_t kAll = (1u << kBits) - 1;
  if (rng == 0) return off;
  if (rng == kAll) return off + (b.Take<kBits>(g) & kAll);
  if (masked) return off + MaskedSmall<kBits>(g, b, rng, uint32_t(GenMask(rng)) & kAll);
  return off + LemireSmall<kBits>(g, b, rng);
}

}  // namespace

void BoundedFillEach(BitGenerator& g, ScalarType dtype, std::span<const uint64_t> off, std::span<const uint64_t> rng,
                     bool masked, void* out) {
  Buffer b;
  for (size_t i = 0; i < off.size(); ++i) {
    switch (dtype) {
      case ScalarType::Int64: FillU64(g, off[i], rng[i], masked, 1, static_cast<int64_t*>(out) + i); break;
      case ScalarType::UInt64: FillU64(g, off[i], rng[i], masked, 1, static_cast<uint64_t*>(out) + i); break;
      case ScalarType::Int32:
        FillU32(g, uint32_t(off[i]), uint32_t(rng[i]), masked, 1, static_cast<int32_t*>(out) + i);
        break;
      case ScalarType::UInt32:
        FillU32(g, uint32_t(off[i]), uint32_t(rng[i]), masked, 1, static_cast<uint32_t*>(out) + i);
        break;
      case ScalarType::Int16:
        static_cast<int16_t*>(out)[i] = int16_t(BoundedSmallOne<16>(g, b, uint16_t(off[i]), uint16_t(rng[i]), masked));
        break;
      case ScalarType::UInt16:
        static_cast<uint16_t*>(out)[i] = uint16_t(BoundedSmallOne<16>(g, b, uint16_t(off[i]), uint16_t(rng[i]), masked));
        break;
      case ScalarType::Int8:
        static_cast<int8_t*>(out)[i] = int8_t(BoundedSmallOne<8>(g, b, uint8_t(off[i]), uint8_t(rng[i]), masked));
        break;
      case ScalarType::UInt8:
        static_cast<uint8_t*>(out)[i] = uint8_t(BoundedSmallOne<8>(g, b, uint8_t(off[i]), uint8_t(rng[i]), masked));
        break;
      case ScalarType::Bool:
        static_cast<bool*>(out)[i] = rng[i] == 0 ? off[i] != 0 : (b.Take<1>(g) & 1u) != 0;
        break;
      default: return;
    }
  }
}

double LegacyGauss::Next(BitGenerator& g) {
  if (has_gauss) {
    has_gauss = false;
    double v = gauss;
    gauss = 0.0;
    return v;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * g.NextDouble() - 1.0;
    x2 = 2.0 * g.NextDouble() - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (r2 >= 1.0 || r2 == 0.0);
  double f = std::sqrt(-2.0 * std::log(r2) / r2);
  gauss = f * x1;
  has_gauss = true;
  return f * x2;
}

}  // namespace tilec::host::random
