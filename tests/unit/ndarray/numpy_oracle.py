# Test oracle for the ndarray printer: builds a deterministic set of arrays (every dtype, 0-d to
# 4-D, special and extreme values, summarized and wrapped ones) and writes each array's raw
# bytes with NumPy's str() and repr(), plus Python float reprs and NumPy scalar strs.
# With `ops` it instead writes element-wise operations and reductions on small operands of every
# dtype (0-d operands standing for Python scalars) with NumPy's result or exception type.
# Usage: numpy_oracle.py [print|ops] OUT_FILE   (needs NumPy 1.x; the C++ test compares)
import struct
import sys

import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64"]
FLOATS = ["float16", "float32", "float64"]
INTS = [d for d in DTYPES if d not in FLOATS and d != "bool"]

SHAPES = [(), (1,), (5,), (7,), (2, 3), (3, 1), (4, 4), (2, 3, 4), (3, 2, 2), (2, 2, 2, 3),
          (1, 2, 1, 3), (0,), (0, 3), (2, 0, 2), (13,), (6, 7), (1, 25)]
BIG_SHAPES = [(1001,), (2000,), (40, 30), (11, 10, 10), (3, 500), (4, 5, 6, 9), (1, 1, 1200),
              (500, 3)]


def float_family(rng, dtype, family, n):
    info = np.finfo(dtype)
    if family == "normal":
        v = rng.standard_normal(n)
    elif family == "integral":
        v = rng.integers(-1000, 1000, n).astype(np.float64)
    elif family == "uniform":
        v = rng.random(n)
    elif family == "scaled":
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-12, 20, n)
    elif family == "tiny":
        v = rng.standard_normal(n) * 1e-6
    elif family == "huge":
        v = rng.standard_normal(n) * 1e9
    elif family == "specials":
        pool = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.5, 0.1, 1e-5, 123.456]
        v = np.array([pool[i] for i in rng.integers(0, len(pool), n)], dtype=np.float64)
    elif family == "nonfinite":
        pool = [np.nan, np.inf, -np.inf]
        v = np.array([pool[i] for i in rng.integers(0, 3, n)], dtype=np.float64)
    elif family == "thresholds":
        pool = [1e8, 99999999.0, 1e-4, 0.0001000001, 1000.0, 1.0, 0.001, 1e3, 5e-5, 7.0,
                float(info.max), float(info.tiny), 2.0 ** -24, 65504.0, 0.5, 1e16, 1e15]
        v = np.array([pool[i] for i in rng.integers(0, len(pool), n)], dtype=np.float64)
    elif family == "bits":
        width = np.dtype(dtype).itemsize
        raw = rng.integers(0, 256, n * width, dtype=np.uint8)
        return np.frombuffer(raw.tobytes(), dtype=dtype).copy()
    elif family == "digits":
        # Values with long decimal expansions, to exercise the 8-digit cut and rounding.
        v = rng.integers(1, 10 ** 9, n) / 10.0 ** rng.integers(0, 9, n)
    else:
        raise ValueError(family)
    with np.errstate(over="ignore", invalid="ignore"):
        return v.astype(dtype)


FLOAT_FAMILIES = ["normal", "integral", "uniform", "scaled", "tiny", "huge", "specials",
                  "nonfinite", "thresholds", "bits", "digits"]


def int_family(rng, dtype, family, n):
    info = np.iinfo(dtype)
    if family == "small":
        lo = max(int(info.min), -20)
        return rng.integers(lo, 21, n).astype(dtype)
    if family == "full":
        return rng.integers(int(info.min), int(info.max), n, dtype=dtype, endpoint=True)
    if family == "extremes":
        pool = np.array([info.min, info.max, 0, 1], dtype=dtype)
        return pool[rng.integers(0, 4, n)]
    raise ValueError(family)


INT_FAMILIES = ["small", "full", "extremes"]


def make(rng, dtype, family, shape):
    n = int(np.prod(shape)) if shape else 1
    if dtype == "bool":
        v = rng.integers(0, 2, n).astype(bool)
    elif dtype in FLOATS:
        v = float_family(rng, dtype, family, n)
    else:
        v = int_family(rng, dtype, family, n)
    return np.array(v.reshape(shape), order="C")


def cases():
    rng = np.random.default_rng(20240601)
    for dtype in DTYPES:
        families = FLOAT_FAMILIES if dtype in FLOATS else INT_FAMILIES if dtype in INTS else ["b"]
        for family in families:
            for shape in SHAPES:
                yield make(rng, dtype, family, shape)
            for shape in BIG_SHAPES[: (8 if family in ("normal", "full", "b", "specials") else 2)]:
                yield make(rng, dtype, family, shape)
    # Wide rows that wrap, long mixes, repeated single values.
    for dtype in FLOATS:
        for width in (10, 13, 20, 37, 80):
            yield make(rng, dtype, "scaled", (width,))
            yield make(rng, dtype, "normal", (3, width))
            yield make(rng, dtype, "specials", (2, 2, width))
    for value in [0.0, -0.0, 1.0, 0.5, 1e-300, 5e-324, 1.7976931348623157e308, 1 / 3, 2 / 3,
                  123456789.0, 0.1 + 0.2, 1e22, 9.999999999999999e-05, 12345.6789]:
        for dtype in FLOATS:
            with np.errstate(over="ignore"):
                yield np.array(value, dtype=dtype)
                yield np.array([value, 1.0], dtype=dtype)
    yield np.arange(10000, dtype=np.int64).reshape(100, 100)
    yield np.linspace(0, 1, 1500)
    yield np.full((2, 3), np.nan)
    yield np.full((4,), -np.inf, dtype=np.float32)
    yield np.zeros((2, 2, 2), dtype=np.float16)


def python_floats():
    rng = np.random.default_rng(7)
    values = [0.0, -0.0, 1.0, 0.1, 1e16, 1e15, 1e-4, 1e-5, 1.5e-5, 123456789012345678.0,
              float("inf"), float("-inf"), float("nan"), 5e-324, 1.7976931348623157e308,
              0.1 + 0.2, 2.5, 100.0, 1e22, 9007199254740993.0]
    values += list(rng.standard_normal(200) * 10.0 ** rng.integers(-20, 25, 200))
    raw = rng.integers(0, 2 ** 63, 200, dtype=np.uint64)
    values += [float(x) for x in raw.view(np.float64) if np.isfinite(x)]
    return values


def block(tag, text):
    data = text.encode()
    return b"%s %d\n" % (tag, len(data)) + data + b"\n"


def describe(a):
    a = np.array(a, order="C")
    dims = " ".join(str(d) for d in a.shape)
    return b"%s %d %s %s" % (a.dtype.name.encode(), a.ndim, dims.encode(),
                             (a.tobytes().hex() or "-").encode())


def operands():
    out = []
    for dtype in DTYPES:
        if dtype == "bool":
            out.append(np.array([True, False, True], dtype=dtype))
        elif dtype in FLOATS:
            out.append(np.array([-1.5, 0.0, 2.25], dtype=dtype))
        elif dtype.startswith("u"):
            out.append(np.array([3, 0, 7], dtype=dtype))
        else:
            out.append(np.array([-3, 0, 7], dtype=dtype))
    out.append(np.array([[2], [-5]], dtype=np.int32))
    out.append(np.array([[0.5], [np.nan]], dtype=np.float32))
    # 0-d operands: what Python scalars become, and 0-d arrays of other dtypes.
    for v in [5, 300, -1, 100000, 2 ** 40]:
        out.append(np.array(v, dtype=np.int64))
    for v in [0.5, -2.0, 1e300, np.inf]:
        out.append(np.array(v, dtype=np.float64))
    out.append(np.array(True))
    out.append(np.array(3, dtype=np.int8))
    out.append(np.array(1.5, dtype=np.float32))
    return out


BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
          "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "eq": np.equal,
          "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
          "ge": np.greater_equal, "and": np.bitwise_and, "or": np.bitwise_or,
          "xor": np.bitwise_xor}
UNARY = {"neg": np.negative, "abs": np.absolute, "sqrt": np.sqrt, "exp": np.exp,
         "invert": np.invert, "sum": np.sum, "sum0": lambda a: np.sum(a, axis=0),
         "sumlast": lambda a: np.sum(a, axis=-1)}


def result_line(fn):
    try:
        with np.errstate(all="ignore"):
            r = np.asarray(fn())
        return b"= " + describe(r) + b"\n"
    except Exception as e:  # the exception type is what the C++ side must raise
        return b"! " + type(e).__name__.encode() + b"\n"


def write_ops(path):
    out = bytearray()
    ops = operands()
    count = 0
    for name, fn in UNARY.items():
        for a in ops:
            out += b"U %s %s\n" % (name.encode(), describe(a))
            out += result_line(lambda: fn(a))
            count += 1
    for name, fn in BINARY.items():
        for a in ops:
            for b in ops:
                out += b"B %s %s %s\n" % (name.encode(), describe(a), describe(b))
                out += result_line(lambda: fn(a, b))
                count += 1
    with open(path, "wb") as f:
        f.write(bytes(out))
    print("wrote %d operations" % count)


def main():
    if sys.argv[1] == "ops":
        write_ops(sys.argv[2])
        return
    if sys.argv[1] == "print":
        sys.argv.pop(1)
    out = bytearray()
    count = 0
    for a in cases():
        dims = " ".join(str(d) for d in a.shape)
        out += b"A %s %d %s %s\n" % (a.dtype.name.encode(), a.ndim, dims.encode(),
                                     (a.tobytes().hex() or "-").encode())
        out += block(b"S", str(a))
        out += block(b"R", repr(a))
        count += 1
    for v in python_floats():
        out += b"P %s\n" % struct.pack("<d", v).hex().encode()
        out += block(b"S", repr(v))
    with open(sys.argv[1], "wb") as f:
        f.write(bytes(out))
    print("wrote %d arrays" % count)


if __name__ == "__main__":
    main()
