// Shortest round-trip digits (std::to_chars for float32/float64, a bounded search for the
// 16-bit floats) and correctly rounded cut digits (printf's exact conversion).
#include "host/ndarray/float_format.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "host/ndarray/elements.h"
#include "support/half.h"

namespace tilec::host {

namespace {

// Digits d1 d2 ... dn (no trailing zeros, "0" for zero) and exponent e: value = d1.d2... * 10^e.
struct Decimal {
  std::string digits;
  int exponent = 0;
};

// Parses "d.ddde+XX" (or "de+XX") as written by to_chars / printf in scientific form.
Decimal ParseScientific(const char* s) {
  Decimal d;
  const char* p = s;
  if (*p == '-') ++p;
  for (; *p && *p != 'e'; ++p)
    if (*p != '.') d.digits += *p;
  if (*p == 'e') d.exponent = std::atoi(p + 1);
  while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
  if (d.digits == "0") d.exponent = 0;
  return d;
}

Decimal RoundedSignificant(double a, int nsig) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", nsig - 1, a);
  return ParseScientific(buf);
}

// For the 16-bit types: the fewest significant digits whose decimal lies inside the rounding
// interval of `a` (its ends count when the mantissa is even, as round-half-even reads them back),
// picking the candidate nearest to `a`.
Decimal ShortestSmallFloat(double a, ScalarType t) {
  uint16_t bits = t == ScalarType::Float16 ? DoubleToHalfBits(a)
                                           : FloatToBFloat16(static_cast<float>(a));
  auto value_of = [&](uint16_t b) {
    return t == ScalarType::Float16 ? double(HalfToFloat(b)) : double(BFloat16ToFloat(b));
  };
  double up = value_of(static_cast<uint16_t>(bits + 1));
  double down = (bits & 0x7fff) == 0 ? -value_of(static_cast<uint16_t>(bits + 1))
                                     : value_of(static_cast<uint16_t>(bits - 1));
  double hi = (a + up) / 2, lo = (a + down) / 2;  // exact: few significant bits
  if (std::isinf(up)) hi = a + (a - down) / 2;
  bool even = (bits & 1) == 0;
  auto inside = [&](double x) { return even ? (x >= lo && x <= hi) : (x > lo && x < hi); };
  for (int n = 1; n <= 17; ++n) {
    Decimal nearest = RoundedSignificant(a, n);
    // Evaluate the nearest candidate and its neighbour one unit in the last place away.
    auto eval = [&](const std::string& digits, int exponent) {
      std::string s = digits.substr(0, 1) + "." + digits.substr(1) + "e" + std::to_string(exponent);
      return std::strtod(s.c_str(), nullptr);
    };
    std::string padded = nearest.digits;
    padded.resize(n, '0');
    double v = eval(padded, nearest.exponent);
    if (inside(v)) return nearest;
    // The other neighbour: step one unit of the n-th digit towards `a`.
    double unit = std::pow(10.0, nearest.exponent - (n - 1));
    double other = v < a ? v + unit : v - unit;
    if (inside(other)) return RoundedSignificant(other, n);
  }
  return RoundedSignificant(a, 17);
}

Decimal Shortest(double a, ScalarType t) {
  if (a == 0) return {"0", 0};
  char buf[64];
  if (t == ScalarType::Float64) {
    auto r = std::to_chars(buf, buf + sizeof buf - 1, a, std::chars_format::scientific);
    *r.ptr = 0;
    return ParseScientific(buf);
  }
  if (t == ScalarType::Float32) {
    auto r = std::to_chars(buf, buf + sizeof buf - 1, static_cast<float>(a),
                           std::chars_format::scientific);
    *r.ptr = 0;
    return ParseScientific(buf);
  }
  return ShortestSmallFloat(a, t);
}

FloatText FromDecimal(const Decimal& d, bool negative) {
  FloatText t;
  t.negative = negative;
  t.exponent = d.exponent;
  if (d.digits == "0") {
    t.int_part = "0";
    return t;
  }
  int e = d.exponent;
  int n = static_cast<int>(d.digits.size());
  if (e >= 0) {
    if (e + 1 >= n) {
      t.int_part = d.digits + std::string(e + 1 - n, '0');
    } else {
      t.int_part = d.digits.substr(0, e + 1);
      t.frac_part = d.digits.substr(e + 1);
    }
  } else {
    t.int_part = "0";
    t.frac_part = std::string(-e - 1, '0') + d.digits;
  }
  return t;
}

}  // namespace

namespace {
// Dragon4's digit count: the shortest's count, cut to `precision`, raised to `min_digits`.
int DigitCount(int shortest, int precision, int min_digits) {
  int n = shortest;
  if (precision >= 0 && n > precision) n = precision;
  if (min_digits >= 0 && n < min_digits) n = min_digits;
  return n;
}
}  // namespace

FloatText PositionalDigits(double v, ScalarType t, int precision, int min_digits) {
  bool negative = std::signbit(v);
  double a = std::fabs(v);
  Decimal d = Shortest(a, t);
  int nfrac = static_cast<int>(d.digits.size()) - 1 - d.exponent;
  int n = DigitCount(nfrac, precision, min_digits);
  if (n == nfrac || d.digits == "0" || n < 0) return FromDecimal(d, negative);
  std::vector<char> buf(static_cast<size_t>(n) + 400);
  std::snprintf(buf.data(), buf.size(), "%.*f", n, a);
  FloatText text;
  text.negative = negative;
  std::string s = buf.data();
  size_t dot = s.find('.');
  text.int_part = s.substr(0, dot);
  text.frac_part = dot == std::string::npos ? "" : s.substr(dot + 1);
  while (!text.frac_part.empty() && text.frac_part.back() == '0') text.frac_part.pop_back();
  return text;
}

FloatText ScientificDigits(double v, ScalarType t, int precision, int min_digits) {
  bool negative = std::signbit(v);
  double a = std::fabs(v);
  Decimal d = Shortest(a, t);
  int nfrac = static_cast<int>(d.digits.size()) - 1;
  int n = DigitCount(nfrac, precision, min_digits);
  if (n != nfrac && d.digits != "0") d = RoundedSignificant(a, n + 1);
  FloatText text;
  text.negative = negative;
  text.int_part = d.digits.substr(0, 1);
  text.frac_part = d.digits.substr(1);
  text.exponent = d.exponent;
  return text;
}

}  // namespace tilec::host
