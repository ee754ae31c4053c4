// Decimal digit generation for floats of every dtype, as NumPy's Dragon4 and Python's repr
// produce them: shortest round-trip digits for the value's own precision, or the exact value
// correctly rounded when a precision cap cuts them. Used by print.cpp.
#pragma once
#include <string>

#include "support/dtype.h"

namespace tilec::host {

// A finite float as text pieces: sign, integer digits, fraction digits, and the exponent when
// written in scientific form (then int_part is one digit).
struct FloatText {
  bool negative = false;
  std::string int_part;
  std::string frac_part;
  int exponent = 0;
};

// Positional digits of `v` for dtype `t`, as Dragon4's unique mode generates them: the shortest
// round-trip digits, but with `precision` >= 0 at most that many fraction digits and with
// `min_digits` >= 0 at least that many (both then the exact value correctly rounded; note that
// min_digits 0 keeps every integer digit). Trailing fraction zeros are dropped.
FloatText PositionalDigits(double v, ScalarType t, int precision, int min_digits = -1);
// Scientific digits with the same rules applied to the mantissa's fraction digits.
FloatText ScientificDigits(double v, ScalarType t, int precision, int min_digits = -1);

}  // namespace tilec::host
