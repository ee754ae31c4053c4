// NumPy's text forms for interpreter values, from host/ndarray's printer: NumPy scalars print
// as their scalar (1.24 rules), arrays as str/repr of the array.
#include "host/interp/array_values.h"
#include "host/ndarray/print.h"

namespace tilec::host {

std::string NdStr(const NdArray& a, bool scalar) {
  return scalar ? NumpyScalarStr(a.Item(), a.dtype()) : ArrayStr(a);
}

std::string NdRepr(const NdArray& a, bool scalar) {
  return scalar ? NumpyScalarStr(a.Item(), a.dtype()) : ArrayRepr(a);
}

}  // namespace tilec::host
