// The sema rules and result rules that builtin rows refer to (defined in builtin_rules.cpp).
// A row lists them by address; adding a builtin that reuses them touches no checker code.
#pragma once
#include "frontend/sema/builtins.h"

namespace tilec::sema::rules {

// ---- rules, each with the code(s) it reports
extern const RuleSpec ShapeValid;          // `shape`: 1-4 positive extents                 E0214
extern const RuleSpec StorageValid;        // "register" or "shared"                        E0209
extern const RuleSpec ShapeRankEqArray;    // len(shape) == a.ndim                          E0204
extern const RuleSpec OffsetRankEqArray;   // len(offset) == a.ndim                         E0205
extern const RuleSpec TileRankEqArray;     // t.ndim == a.ndim                              E0206
extern const RuleSpec DTypeEq;             // a.dtype == t.dtype                            E0207
extern const RuleSpec AtomicDType;         // t's element type supports atomic add          E0208
extern const RuleSpec AxisInRange;         // 0 <= axis < a.ndim                            E0200
extern const RuleSpec IndexTile;           // 1-D, int32, len == shape[axis]      E0201-E0203
extern const RuleSpec ArangeLength;        // the Python range length is positive           E0210
extern const RuleSpec ScalarDType;         // dtype is not a struct                         E0217
extern const RuleSpec OnesScalarDType;     // the same, pointing at tile_full               E0217
extern const RuleSpec FullValue;           // tile_full's value converts to dtype           E0106
extern const RuleSpec TilesSameShape;      // elementwise: equal shapes                     E0211
extern const RuleSpec TilesSameDType;      // elementwise: equal dtypes                     E0212
extern const RuleSpec TilesScaleCompatible; // `*`, `/`: equal dtypes, or a scalar and a vector/matrix of it E0213, E0212
extern const RuleSpec ScalarMatchesTile;   // tile * scalar: scalar converts to the dtype   E0212
extern const RuleSpec NumericTile;         // a non-struct, non-bool element        E0217, E0213
extern const RuleSpec ArithElemTile;       // a numeric scalar, vector or matrix element  E0217, E0213
extern const RuleSpec FieldwiseElemTile;   // ArithElemTile, or any @wp.struct element (fields)  E0217, E0213
extern const RuleSpec ReduceElemTile;      // tile_reduce: `a` the same (the combiner decides) E0217, E0213
extern const RuleSpec OrderedElemTile;     // `a` holds an ordered scalar (no struct, bool) E0217, E0213
extern const RuleSpec Tile2D;              // `a` is 2-D                                    E0218
extern const RuleSpec TileAxisInRange;     // 0 <= axis < a.ndim, `a` a tile                E0200
extern const RuleSpec ReduceCombiner;      // tile_reduce's `op`: wp.add/mul/min/max/bit_* for a's dtype E0219
extern const RuleSpec ScanDType;           // scans: numeric elements (not bool or structs)  E0220
extern const RuleSpec BroadcastShape;      // `shape` 1-4 positive, a broadcasts to it  E0214, E0221
extern const RuleSpec ReshapeShape;        // `shape` (one -1 allowed) holds t's elements E0214, E0222
extern const RuleSpec SqueezeAxes;         // each `axis` in range and of extent 1   E0200, E0223, E0214
extern const RuleSpec TileIndexCount;      // t[i, j]: one int index per dimension, inside  E0215 E0226
extern const RuleSpec TileMapArgs;         // tile_map: f's arity, tiles of one shape E0216, E0211
extern const RuleSpec IntElemTile;         // bitwise tile operators: integer elements      E0217, E0213
extern const RuleSpec DotOperands;         // tile_dot: `a` and `b` of one shape and dtype  E0211, E0212
extern const RuleSpec AxpyArgs;            // tile_axpy: src/dest match, alpha converts, dest a variable
                                           //                                        E0211, E0212, E0224
extern const RuleSpec ViewArgs;            // tile_view: offsets in range, shape fits            E0226
extern const RuleSpec AssignArgs;          // tile_assign: src fits in dst at offset, dst a variable
                                           //                                              E0226, E0224
extern const RuleSpec SortArgs;            // tile_sort: keys numeric, values of its shape, both variables
                                           //                                              E0228, E0224
extern const RuleSpec MatmulArgs;          // tile_matmul: float 2-D tiles (M,K) (K,N) (M,N), out a variable
                                           //                                  E0230, E0224, E0106
extern const RuleSpec DiagAddArgs;         // tile_diag_add: `a` square numeric, `d` (N,) of its dtype   E0231
extern const RuleSpec LinalgArgs;          // cholesky/solves: square float32/64 matrix, y (M,) or (M, R) of its dtype
                                           //                                                     E0231
extern const RuleSpec FftArgs;             // tile_fft/ifft: a register tile of vec2f/vec2d, 2-D or more,
                                           // a variable                                  E0233, E0224
extern const RuleSpec InPlaceLinalgTarget; // the _inplace solvers: the tile they overwrite is a variable  E0224
extern const RuleSpec FillModeValid;       // `fill_mode` is "lower" or "upper"                      E0232
extern const RuleSpec ExtractIndexCount;   // tile_extract: one index per dimension, inside E0215 E0226
extern const RuleSpec AstypeTypes;         // tile_astype: numeric tile and dtype           E0217, E0213
extern const RuleSpec AtomicIndexRank;     // wp.atomic_add: ndim indices, v of a's dtype
extern const RuleSpec NearArgs;            // wp.expect_near: floats or float composites of one type, a float tolerance
extern const RuleSpec ExpectArgs;          // wp.expect_eq: numbers, bools, vectors or matrices of one type
extern const RuleSpec WhereArgs;           // wp.where: cond bool or integer, both values of one type
                                           // (scalar, vector, matrix or struct)       E0106, E0111
extern const RuleSpec CommonNumericArgs;   // min/max/pow/clamp arguments of one type       E0111
extern const RuleSpec AtomicRmwArgs;       // atomic_sub/min/...: ndim indices, a dtype the kind takes,
                                           // compare and value of it              E0113, E0130, E0106
extern const RuleSpec TupleArg;            // len: the argument is a tuple                  E0131
extern const RuleSpec LaneValue;           // wp.tile's `x`, tile_from_thread's `value`: scalar or struct E0106
extern const RuleSpec StackKeywords;       // tile_stack: `capacity` and `dtype` by keyword    E0103
extern const RuleSpec StackCapacity;       // tile_stack: `capacity` > 0                       E0303
extern const RuleSpec StackDType;          // tile_stack: a 32- or 64-bit int or float dtype   E0213
extern const RuleSpec StackVariable;       // push/pop/clear: `s` a variable (updated in place) E0224
extern const RuleSpec StackValue;          // push: `value` converts to the stack's dtype      E0212
extern const RuleSpec UntileShape;         // untile: (B,), (M, B) or (M, N, B) of scalars for M, N > 1 E0211, E0213
extern const RuleSpec ScatterArgs;         // scatters: an index per dim of `a`, value of its dtype, `a` a
                                           // variable (promoted to shared), add: arithmetic E0215, E0212, E0213, E0224
extern const RuleSpec RandRange;           // tile_randi/randf: min < max (randi: int32)          E0303

}  // namespace tilec::sema::rules

namespace tilec::sema::results {

extern const ResultSpec Void;
extern const ResultSpec TileFromShapeDType;  // tile_zeros/ones/full: shape, dtype, storage
extern const ResultSpec TileArange;          // shape from the range length, dtype, storage
extern const ResultSpec TileFromArrayShape;  // tile_load(_indexed): a's dtype, shape, storage
extern const ResultSpec TileLikeT;           // shape, dtype and storage of `t`
extern const ResultSpec OneElementOfT;       // tile_sum: shape (1,) of t's dtype, register
extern const ResultSpec OneScalarOfA;        // tile_dot: shape (1,) of a's scalar (component) type
extern const ResultSpec OneElementOfA;       // tile_max/min: shape (1,) of a's dtype, register
extern const ResultSpec ReducedAlongAxis;    // a's shape less `axis` ((1,) for 1-D), register
extern const ResultSpec RegisterLikeA;       // scans: a's shape and dtype, register
extern const ResultSpec BroadcastTo;         // `shape`, a's dtype, register
extern const ResultSpec ReshapedT;           // `shape` with -1 resolved, t's dtype, register
extern const ResultSpec SqueezedT;           // t's shape less its (selected) unit extents, register
extern const ResultSpec TransposeOfA;        // (M, N) -> (N, M), register
extern const ResultSpec TileMap;             // f's result per element, shape of `a`, register
extern const ResultSpec TileElement;         // t[i, j]: the element type
extern const ResultSpec TileArith;           // register tile, shape and dtype of the tile operand
extern const ResultSpec TileOfDType;         // tile_astype: `dtype`, t's shape, register
extern const ResultSpec OneInt32;            // argmin/argmax: shape (1,) of int32, register
extern const ResultSpec MatmulOfAB;         // tile_matmul(a, b): (M, N) of a's dtype, register
extern const ResultSpec LinalgResult;       // linear algebra: `y`'s type, else the matrix's, shared
extern const ResultSpec ViewOfT;            // tile_view: the kept extents, or `shape`, register
extern const ResultSpec ElementOfA;          // tile_extract: a's element type
extern const ResultSpec Tid;                 // int32, or a tuple of int32 when unpacked
extern const ResultSpec ArrayElement;        // wp.atomic_add: the array's element type
extern const ResultSpec SameAsFirst;         // sqrt, exp, ...: type of the first argument
extern const ResultSpec Abs;                 // SameAsFirst, folded when constant
extern const ResultSpec CommonNumeric;       // pow, clamp, where: the arguments' common type
extern const ResultSpec CommonMin;           // min: CommonNumeric, folded when constant
extern const ResultSpec CommonMax;           // max: likewise
extern const ResultSpec CastTarget;          // casts: replaced by the caller
extern const ResultSpec Range;
extern const ResultSpec LaneId;              // a lane-varying int32
extern const ResultSpec Bool;                // isnan, isinf, isfinite
extern const ResultSpec Int32;               // bit_count
extern const ResultSpec StaticValue;         // wp.static: the argument's type and constant value
extern const ResultSpec TupleLength;         // len: an int32 constant
extern const ResultSpec BlockDim;            // wp.block_dim(): a uniform int32
extern const ResultSpec TileOfLanes;         // wp.tile: (B,) of x's type, or its components (M, B)/(M, N, B)
extern const ResultSpec Untiled;             // untile: a lane-varying element, vector or matrix
extern const ResultSpec TileFromThread;      // `shape` of value's type, `storage`
extern const ResultSpec RandiTile;           // `shape` of int32, `storage`
extern const ResultSpec RandfTile;           // `shape` of float32, `storage`
extern const ResultSpec TileStack;           // an empty tile stack of `capacity` `dtype` elements
extern const ResultSpec StackSlot;           // push: each lane's slot, an int32 (lane-varying)
extern const ResultSpec StackPop;            // pop: (element, slot), lane-varying
extern const ResultSpec StackCount;          // count: the stack's int32 count

}  // namespace tilec::sema::results
