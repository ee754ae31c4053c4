// NumPy's random streams, bit for bit: SeedSequence, the PCG64 and MT19937 bit generators, and
// the draws Generator and RandomState build on them (bounded integers by Lemire's method or by
// masked rejection, the polar normal, shuffling intervals). No Python involved.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "support/dtype.h"

namespace tilec::host::random {

// numpy.random.SeedSequence with the default pool of four words and no spawn key.
class SeedSequence {
 public:
  // `entropy`: the seed as 32-bit words, lowest first (what NumPy's _coerce_to_uint32_array
  // makes of an int or a sequence of ints).
  explicit SeedSequence(std::span<const uint32_t> entropy);
  std::vector<uint32_t> GenerateState32(size_t n_words) const;
  // Pairs of 32-bit words read as little-endian 64-bit words, as NumPy does for uint64.
  std::vector<uint64_t> GenerateState64(size_t n_words) const;

 private:
  uint32_t pool_[4];
};

// A non-negative integer as NumPy splits it into 32-bit words (0 gives one word).
std::vector<uint32_t> IntToWords(uint64_t n);

// The C-level bit generator interface NumPy's distributions are written against.
class BitGenerator {
 public:
  virtual ~BitGenerator() = default;
  virtual uint64_t Next64() = 0;
  virtual uint32_t Next32() = 0;
  virtual double NextDouble() = 0;
};

// PCG64 (XSL-RR 128/64). Next32 hands out both halves of a 64-bit draw, low half first.
class Pcg64 final : public BitGenerator {
 public:
  explicit Pcg64(const SeedSequence& seq);
  uint64_t Next64() override;
  uint32_t Next32() override;
  double NextDouble() override { return double(Next64() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  void Step();
  unsigned __int128 state_ = 0, inc_ = 0;
  bool has_uint32_ = false;
  uint32_t uinteger_ = 0;
};

// MT19937 as RandomState uses it: a double is made of two 32-bit draws (27 + 26 bits).
class Mt19937 final : public BitGenerator {
 public:
  Mt19937() { Seed(5489u); }
  // RandomState.seed(int): Knuth's linear initialisation of the key.
  void Seed(uint32_t seed);
  // RandomState.seed(array): the reference init_by_array.
  void SeedByArray(std::span<const uint32_t> key);
  // RandomState.seed(None): a key from OS entropy through a SeedSequence, MSB forced.
  void SeedFromEntropy();
  uint64_t Next64() override;
  uint32_t Next32() override;
  double NextDouble() override;

 private:
  void Regenerate();
  uint32_t key_[624];
  int pos_ = 624;
};

// --- distributions (numpy/random/src/distributions) ---
float NextFloat(BitGenerator& g);  // 24 random bits in [0, 1)
// A uniform integer in [0, max] by masked rejection (Generator.shuffle, permutation).
uint64_t RandomInterval(BitGenerator& g, uint64_t max);
// A uniform integer in [off, off + rng] through 64-bit draws (Lemire unless `masked`); used
// by choice and its internal shuffles.
uint64_t BoundedUint64(BitGenerator& g, uint64_t off, uint64_t rng, bool masked);
// `count` integers in [off, off + rng] (arithmetic modulo the width of `dtype`) written as
// `dtype` to `out`: NumPy's random_bounded_<utype>_fill, including its per-call buffering of
// 32-bit draws for 8- and 16-bit types and bools. Signed types use their unsigned kernel.
void BoundedFill(BitGenerator& g, ScalarType dtype, uint64_t off, uint64_t rng, bool masked,
                 int64_t count, void* out);

// The same with a range per element (array-valued low/high), as NumPy's broadcast path
// draws them: one call per element, 8- and 16-bit types and bools sharing one buffer.
void BoundedFillEach(BitGenerator& g, ScalarType dtype, std::span<const uint64_t> off, std::span<const uint64_t> rng,
                     bool masked, void* out);

// Generator.standard_normal: NumPy's 256-layer ziggurat on 64-bit draws (float64) or 32-bit
// draws (float32), tables included (ziggurat.cpp).
double StandardNormal(BitGenerator& g);
float StandardNormalF(BitGenerator& g);
// Generator.normal: loc + scale * StandardNormal(g), rounded twice as NumPy does.
double Normal(BitGenerator& g, double loc, double scale);

// RandomState's normal: Marsaglia's polar method, the second value of each pair kept.
struct LegacyGauss {
  bool has_gauss = false;
  double gauss = 0.0;
  double Next(BitGenerator& g);
};

}  // namespace tilec::host::random
