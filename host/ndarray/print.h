// NumPy 1.24 text forms of arrays and scalars with default print options (precision 8,
// floatmode 'maxprec', threshold 1000, edgeitems 3, linewidth 75), and Python's float repr.
#pragma once
#include <string>

#include "host/ndarray/ndarray.h"
#include "host/ndarray/records.h"

namespace tilec::host {

// str(a), which print(a) writes: `[1. 2.]`, `[[1 2]\n [3 4]]`, `[]`; a 0-d array prints as
// its scalar.
std::string ArrayStr(const NdArray& a);
// repr(a): `array([1., 2.], dtype=float32)`, `array([], shape=(0, 3), dtype=float64)`.
std::string ArrayRepr(const NdArray& a);
// The same for structured arrays: `[(1., 2) (3., 4)]`, `array([(1., 2)], dtype=[('a', '<f4'),
// ('b', '<i4')])`; a 0-d one prints as its record (np.void): `(1., 2)`.
std::string RecordsStr(const RecordArray& a);
std::string RecordsRepr(const RecordArray& a);
// str (and, in NumPy 1.24, repr) of a NumPy scalar of dtype `t`: np.float32(0.1) -> `0.1`,
// np.float64(1e16) -> `1e+16`, np.bool_(True) -> `True`.
std::string NumpyScalarStr(const Scalar& value, ScalarType t);
// Complex arrays held as their parts (a float32 or float64 array whose last axis is (re, im)):
// str `[1.+2.j 0.-1.j]`, repr `array([1.+2.j], dtype=complex64)`; parts of shape (2,) print
// as the scalar, `(1+2j)`.
std::string ComplexArrayStr(const NdArray& parts);
std::string ComplexArrayRepr(const NdArray& parts);
std::string ComplexScalarStr(double re, double im, ScalarType t);
// Python's repr(float) (also its str): `0.1`, `1.0`, `1e+16`, `1e-05`, `inf`, `nan`.
std::string FormatPythonFloat(double v);

}  // namespace tilec::host
