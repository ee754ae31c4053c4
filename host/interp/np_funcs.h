// Entry points that add groups of functions to the `np` module from their own files: the
// shape functions and np.finfo (np_shape.cpp), the ufunc objects (np_ufuncs.cpp), and the
// set, einsum and dtype-hierarchy functions (np_unique_einsum.cpp).
#pragma once
#include "host/interp/value.h"

namespace tilec::host {

// np.tile, np.repeat, np.roll, np.flip, np.expand_dims, np.broadcast_to, np.outer, np.copy,
// np.empty_like, np.asfortranarray, np.ndim, np.prod, np.count_nonzero,
// np.diag_indices_from and np.finfo.
void DefineNumpyShapeFunctions(ModuleObj& np);
// np.add, np.minimum, np.maximum, np.fmin, np.fmax, np.bitwise_and, np.isnan, np.isfinite
// and np.isinf as numpy.ufunc objects (with .at and .accumulate where NumPy users need them).
void DefineNumpyUfuncs(ModuleObj& np);
// np.unique, np.einsum, np.ndindex, np.issubdtype with np.integer, np.floating, ..., and
// np.linalg.matrix_power (np_unique_einsum.cpp; after np.linalg is defined).
void DefineNumpySetsAndEinsum(ModuleObj& np);

}  // namespace tilec::host
