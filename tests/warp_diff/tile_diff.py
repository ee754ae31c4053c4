#!/usr/bin/env python3
"""Differential test of tilec against NVIDIA Warp 1.19 on the CPU: the tile API (not part of CI).

    python3 tests/warp_diff/tile_diff.py [--count 300] [--seed 1] [--jobs 4] [--per-file 8]

Generates `--count` tile kernels (seeded, reproducible). Each loads random input tiles from
arrays, applies one tile operation (element-wise, tile_map, reductions, scans, sort, shape
operations, views and slices, construction, random tiles, memory operations with offsets that
run out of bounds, tile_matmul, the Cholesky and triangular solvers, FFT), and stores the
result; shapes are drawn from small sizes that are not powers of two as often as ones that
are, and `block_dim` from 1 to 256. About half of the differentiable ones also run backward
on a `wp.Tape` with a random output gradient, and print the inputs' gradients. The inputs are
literals in the program text, so both runs see the same bits. Every program is run as

    build/tilec run prog.py
    $TILEC_WARP_PYTHON prog.py        (default build-bench/warp-venv/bin/python)

and the printed outputs are compared: bit-identical, within `--ulps` ulp, different, or an
error on one side (diffrun.py). The report (tests/warp_diff/TILE_REPORT.md unless --report)
gives the counts and, for every difference and error, the kernel and both outputs.
"""

import argparse
import os
import re
import sys

try:
    import numpy as np
except ImportError:  # the system Python may lack NumPy: rerun with the Warp venv's (warp itself stays unimported)
    _py = os.environ.get("TILEC_WARP_PYTHON") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                                                "build-bench", "warp-venv", "bin", "python")
    os.execv(_py, [_py] + sys.argv)

from diffrun import add_run_args, classify, count_table, generate, program_text, first_error_line, parse_vals, print_counts, run_all  # noqa: E402 (needs NumPy)

HERE = os.path.dirname(os.path.abspath(__file__))
SIZES = [1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 24, 31, 32]
BLOCK_DIMS = [1, 16, 32, 64, 128, 256]


class Kernel:
    """One generated kernel: its text, inputs (name, dtype key, values), scalar parameters,
    outputs (name, dtype key, shape), launch and whether it runs backward."""

    def __init__(self, idx, opname, prec):
        self.idx, self.opname, self.prec = idx, opname, prec
        self.ins, self.scalars, self.outs = [], [], []
        self.body, self.funcs = [], []
        self.block_dim, self.grad, self.seeds = 1, False, {}
        self.launch_dim = 1
        self.text = ""


# ---------------------------------------------------------------------------------------
# values and types


def wpt(key, prec):
    return {("F", "f"): "wp.float32", ("F", "d"): "wp.float64", ("I", "f"): "wp.int32", ("I", "d"): "wp.int32",
            ("V2", "f"): "wp.vec2f", ("V2", "d"): "wp.vec2d"}[(key, prec)]


def npt(key, prec):
    return "np.int32" if key == "I" else ("np.float32" if prec == "f" else "np.float64")


def rnd(rng, shape, kind, prec):
    """Random values of a kind: n (normal, scale 2), pos (0.5..2), nz (nonzero, |x| in 0.5..2),
    ties (a few repeated values), int (-20..20), small (int in 0..7)."""
    n = int(np.prod(shape)) if shape else 1
    if kind == "n":
        v = rng.normal(size=n) * 2.0
    elif kind == "pos":
        v = rng.uniform(0.5, 2.0, size=n)
    elif kind == "nz":
        v = rng.uniform(0.5, 2.0, size=n) * rng.choice([-1.0, 1.0], size=n)
    elif kind == "ties":
        v = rng.choice([-1.5, 0.0, 0.25, 3.0], size=n)
    elif kind == "int":
        v = rng.integers(-20, 21, size=n)
    elif kind == "small":
        v = rng.integers(0, 8, size=n)
    else:
        raise ValueError(kind)
    if kind in ("int", "small"):
        return np.asarray(v, dtype=np.int64).reshape(shape)
    v = v.astype(np.float32 if prec == "f" else np.float64)
    return v.astype(np.float64).reshape(shape)


def literal(a, key):
    def rec(x):
        if np.ndim(x) == 0:
            return str(int(x)) if key == "I" else repr(float(x))
        return "[" + ", ".join(rec(y) for y in x) + "]"
    return rec(np.asarray(a))


def shp(t):
    return "(" + ", ".join(str(d) for d in t) + ("," if len(t) == 1 else "") + ")"


def arr(shape, key):
    nd = len(shape) - (1 if key == "V2" else 0)
    return "wp.array%s(dtype=%%s)" % ("" if nd == 1 else "%dd" % nd)


# ---------------------------------------------------------------------------------------
# the operations: each adds inputs, outputs and body lines to a Kernel


class Gen:
    def __init__(self, k, rng):
        self.k, self.rng = k, rng

    def size(self, lo=1, hi=32):
        return int(self.rng.choice([s for s in SIZES if lo <= s <= hi]))

    def inp(self, shape, kind="n", key="F", values=None):
        name = "a%d" % len(self.k.ins)
        v = values if values is not None else rnd(self.rng, shape, kind, self.k.prec)
        self.k.ins.append((name, key, np.asarray(v), tuple(shape)))
        return name

    def scalar(self, kind="nz"):
        name = "s%d" % len(self.k.scalars)
        self.k.scalars.append((name, float(rnd(self.rng, (1,), kind, self.k.prec)[0])))
        return name

    def scalar_int(self, value):
        name = "n%d" % len(self.k.scalars)
        self.k.scalars.append((name, int(value)))
        return name

    def out(self, shape, key="F"):
        name = "o%d" % len(self.k.outs)
        self.k.outs.append((name, key, tuple(shape)))
        return name

    def load(self, shape, kind="n", key="F", storage=None):
        a = self.inp(shape, kind, key)
        st = ", storage=\"%s\"" % storage if storage else ""
        if len(shape) == 1:
            return "wp.tile_load(%s, shape=%d%s)" % (a, shape[0], st)
        return "wp.tile_load(%s, shape=%s%s)" % (a, shp(shape[:2] if key == "V2" else shape), st)

    def line(self, s):
        self.k.body.append(s)

    def store(self, expr, shape, key="F"):
        o = self.out(shape, key)
        self.line("wp.tile_store(%s, %s)" % (o, expr))
        return o

    def shape2(self, hi=32):
        return (self.size(1, hi), self.size(1, hi))

    def shapes(self, hi=32):
        nd = int(self.rng.choice([1, 2, 2, 2, 3]))
        if nd == 3:
            return tuple(self.size(1, 8) for _ in range(3))
        return tuple(self.size(1, hi) for _ in range(nd))


def T(prec):
    return "wp.float32" if prec == "f" else "wp.float64"


def op_binary(g):
    s = g.shapes()
    o = g.rng.choice(["+", "-"])
    g.line("r = %s %s %s" % (g.load(s), o, g.load(s)))
    g.store("r", s)
    return "binary" + {"+": "_add", "-": "_sub"}[o], True


def op_map2(g):
    s = g.shapes()
    f = g.rng.choice(["wp.mul", "wp.div", "wp.add", "wp.sub", "wp.min", "wp.max", "wp.mod", "wp.floordiv"])
    b = g.load(s, "nz") if f in ("wp.div", "wp.mod", "wp.floordiv") else g.load(s)
    g.line("r = wp.tile_map(%s, %s, %s)" % (f, g.load(s), b))
    g.store("r", s)
    # Warp 1.19's float mod passes no gradient to b (builtin.h adj_mod); tilec's is -trunc(a / b).
    return "map_" + f[3:], f not in ("wp.min", "wp.max", "wp.mod")


def op_neg(g):
    s = g.shapes()
    g.line("r = -%s" % g.load(s))
    g.store("r", s)
    return "neg", True


def op_scale(g):
    s = g.shapes()
    sc = g.scalar()
    t = g.load(s)
    g.line("r = %s * %s" % ((t, sc) if g.rng.random() < 0.5 else (sc, t)))  # tile * scalar, scalar * tile
    g.store("r", s)
    return "scale", True


UNARY = [("sin", "n", True), ("cos", "n", True), ("exp", "n", True), ("tanh", "n", True), ("sqrt", "pos", True),
         ("log", "pos", True), ("abs", "nz", True), ("floor", "n", False), ("ceil", "n", False),
         ("atan", "n", True), ("round", "n", False), ("trunc", "n", False), ("log2", "pos", True),
         ("cbrt", "nz", True), ("erf", "n", True)]


def op_unary(g):
    s = g.shapes()
    f, kind, d = UNARY[g.rng.integers(len(UNARY))]
    g.line("r = wp.tile_map(wp.%s, %s)" % (f, g.load(s, kind)))
    g.store("r", s)
    return "map_" + f, d


def op_lambda(g):
    s = g.shapes()
    g.line("r = wp.tile_map(lambda x, y: x * y + wp.sin(x), %s, %s)" % (g.load(s), g.load(s)))
    g.store("r", s)
    return "map_lambda", True


def op_func(g):
    s = g.shapes()
    t = T(g.k.prec)
    fn = "f%d" % g.k.idx
    g.k.funcs.append("@wp.func\ndef %s(x: %s, y: %s, z: %s):\n    return x * y - z * %s(0.5)\n" % (fn, t, t, t, t))
    g.line("r = wp.tile_map(%s, %s, %s, %s)" % (fn, g.load(s), g.load(s), g.load(s)))
    g.store("r", s)
    return "map_func3", True


def op_map_scalar(g):
    s = g.shapes()
    sc = g.scalar()
    g.line("r = wp.tile_map(wp.mul, %s, %s)" % (g.load(s), sc))
    g.store("r", s)
    return "map_scalar_arg", True


def op_axpy(g):
    s = g.shapes()
    sc = g.scalar()
    g.line("x = %s" % g.load(s))
    g.line("y = %s" % g.load(s))
    g.line("wp.tile_axpy(%s, x, y)" % sc)
    g.store("y", s)
    return "axpy", True


def op_inplace(g):
    s = g.shapes()
    o = g.rng.choice(["+=", "-="])
    g.line("y = %s" % g.load(s))
    g.line("y %s %s" % (o, g.load(s)))
    g.store("y", s)
    return "inplace" + ("_add" if o == "+=" else "_sub"), True


def op_sum(g):
    s = g.shapes()
    if len(s) > 1 and g.rng.random() < 0.6:
        ax = int(g.rng.integers(len(s)))
        g.line("r = wp.tile_sum(%s, axis=%d)" % (g.load(s), ax))
        g.store("r", s[:ax] + s[ax + 1:])
        return "sum_axis", True
    g.line("r = wp.tile_sum(%s)" % g.load(s))
    g.store("r", (1,))
    return "sum", True


def op_minmax(g):
    s = g.shapes()
    f = g.rng.choice(["tile_max", "tile_min", "tile_argmax", "tile_argmin"])
    kind = g.rng.choice(["n", "ties"])
    key = "I" if g.rng.random() < 0.3 else "F"
    g.line("r = wp.%s(%s)" % (f, g.load(s, "int" if key == "I" else kind, key)))
    g.store("r", (1,), "I" if "arg" in f or key == "I" else "F")
    return f[5:] + ("_int" if key == "I" else ""), False


def op_reduce(g):
    s = g.shapes()
    f = g.rng.choice(["wp.add", "wp.mul", "wp.max", "wp.min", "lambda a, b: a + b * 0.5"])
    kind = "pos" if f == "wp.mul" else "n"
    if "lambda" in f and g.k.prec == "d":
        f = "lambda a, b: a + b * wp.float64(0.5)"
    if len(s) > 1 and g.rng.random() < 0.5:
        ax = int(g.rng.integers(len(s)))
        g.line("r = wp.tile_reduce(%s, %s, axis=%d)" % (f, g.load(s, kind), ax))
        g.store("r", s[:ax] + s[ax + 1:])
        return "reduce_axis_" + ("lambda" if "lambda" in f else f[3:]), False
    g.line("r = wp.tile_reduce(%s, %s)" % (f, g.load(s, kind)))
    g.store("r", (1,))
    return "reduce_" + ("lambda" if "lambda" in f else f[3:]), False


def op_dot(g):
    s = g.shapes()
    g.line("r = wp.tile_dot(%s, %s)" % (g.load(s), g.load(s)))
    g.store("r", (1,))
    return "dot", True


def op_scan(g):
    g.k.prec = "f"  # Warp's scans take float32, int32 and uint32 tiles (tilec's also float64)
    s = (g.size(),) if g.rng.random() < 0.7 else g.shape2(16)
    f = g.rng.choice(["tile_scan_inclusive", "tile_scan_exclusive", "tile_scan_max_inclusive", "tile_scan_min_inclusive"])
    key = "I" if g.rng.random() < 0.3 else "F"
    g.line("r = wp.%s(%s)" % (f, g.load(s, "int" if key == "I" else "n", key)))
    g.store("r", s, key)
    return f[5:] + ("_int" if key == "I" else "") + ("_2d" if len(s) > 1 else ""), False


def op_sort(g):
    g.k.prec = "f"  # Warp sorts float32 and integer keys (tilec also float64)
    n = g.size()
    key = "I" if g.rng.random() < 0.3 else "F"
    kind = "int" if key == "I" else g.rng.choice(["n", "ties"])
    g.line("k = %s" % g.load((n,), kind, key))
    g.line("v = %s" % g.load((n,), "small", "I"))
    g.line("wp.tile_sort(k, v)")
    g.store("k", (n,), key)
    g.store("v", (n,), "I")
    return "sort" + ("_int" if key == "I" else "_" + kind), False


def op_transpose(g):
    s = g.shape2()
    g.line("r = wp.tile_transpose(%s)" % g.load(s, storage="shared"))
    g.store("r", s[::-1])
    return "transpose", True


def op_broadcast(g):
    m, n = g.shape2()
    if g.rng.random() < 0.5:
        g.line("r = wp.tile_broadcast(%s, shape=(%d, %d))" % (g.load((1, n)), m, n))
    else:
        g.line("r = wp.tile_broadcast(%s, shape=(%d, %d))" % (g.load((m, 1)), m, n))
    g.store("r", (m, n))
    return "broadcast", True


def op_reshape(g):
    m, n = g.shape2(16)
    c = g.rng.integers(3)
    if c == 0:
        g.line("r = wp.tile_reshape(%s, shape=(%d,))" % (g.load((m, n)), m * n))
        g.store("r", (m * n,))
    elif c == 1:
        g.line("r = wp.tile_reshape(%s, shape=(-1, %d))" % (g.load((m, n)), m))
        g.store("r", (n, m))
    else:
        g.line("r = wp.tile_squeeze(%s)" % g.load((m, 1)))
        g.store("r", (m,))
    return ["reshape", "reshape_minus1", "squeeze"][c], True


def op_view(g):
    m, n = g.shape2()
    i = int(g.rng.integers(m))
    j = int(g.rng.integers(n))
    c = g.rng.integers(4)
    g.line("t = %s" % g.load((m, n), storage="shared"))
    if c == 0:
        g.line("r = wp.tile_view(t, offset=(%d,))" % i)
        g.store("r", (n,))
        return "view_row", False
    if c == 1:
        a, b = int(g.rng.integers(1, m - i + 1)), int(g.rng.integers(1, n - j + 1))
        g.line("r = wp.tile_view(t, offset=(%d, %d), shape=(%d, %d))" % (i, j, a, b))
        g.store("r", (a, b))
        return "view_rect", False
    if c == 2:
        g.line("r = t[%d:, ::-1]" % i)
        g.store("r", (m - i, n))
        return "slice_rev", False
    step = int(g.rng.integers(1, 4))
    g.line("r = t[:, %d::%d]" % (j, step))
    g.store("r", (m, len(range(j, n, step))))
    return "slice_step", False


def op_extract(g):
    m, n = g.shape2()
    i, j = int(g.rng.integers(-m, m)), int(g.rng.integers(-n, n))
    o = g.out((1,))
    g.line("t = %s" % g.load((m, n)))
    g.line("x = t[%d, %d]" % (i, j))
    g.line("%s[0] = x" % o)
    return "extract" + ("_neg" if i < 0 or j < 0 else ""), False


def op_assign(g):
    m, n = g.shape2()
    a, b = g.size(1, m), g.size(1, n)
    i, j = int(g.rng.integers(m - a + 1)), int(g.rng.integers(n - b + 1))
    g.line("t = %s" % g.load((m, n), storage="shared"))
    g.line("wp.tile_assign(t, %s, offset=(%d, %d))" % (g.load((a, b)), i, j))
    g.store("t", (m, n))
    return "assign", False


def op_astype(g):
    s = g.shapes()
    c = g.rng.integers(3)
    if c == 0:
        g.line("r = wp.tile_astype(%s, dtype=wp.int32)" % g.load(s))
        g.store("r", s, "I")
        return "astype_f_to_i", False
    if c == 1:
        g.line("r = wp.tile_astype(%s, dtype=%s)" % (g.load(s, "int", "I"), T(g.k.prec)))
        g.store("r", s)
        return "astype_i_to_f", False
    other = "wp.float64" if g.k.prec == "f" else "wp.float32"
    g.line("r = wp.tile_astype(wp.tile_astype(%s, dtype=%s), dtype=%s)" % (g.load(s), other, T(g.k.prec)))
    g.store("r", s)
    return "astype_roundtrip", True


def op_construct(g):
    c = g.rng.integers(4)
    t = T(g.k.prec)
    if c == 0:
        start, step = int(g.rng.integers(-5, 5)), int(g.rng.choice([1, 2, 3, -1, -2]))
        stop = start + step * g.size(1, 24)
        g.line("r = wp.tile_arange(%d, %d, %d, dtype=%s)" % (start, stop, step, t))
        g.store("r", (len(range(start, stop, step)),))
        return "arange", False
    if c == 1:
        s = g.shapes()
        v = float(rnd(g.rng, (1,), "n", g.k.prec)[0])
        g.line("r = wp.tile_full(shape=%s, value=%s(%r), dtype=%s) + %s" % (shp(s), t, v, t, g.load(s)))
        g.store("r", s)
        return "full_plus", False
    if c == 2:
        s = g.shapes()
        g.line("r = wp.tile_ones(shape=%s, dtype=%s) - %s" % (shp(s), t, g.load(s)))
        g.store("r", s)
        return "ones_minus", False
    n = g.size(1, 24)
    g.line("r = wp.tile_arange(%d, dtype=%s) * %s(0.5)" % (n, t, t))
    g.store("r", (n,))
    return "arange_stop", False


def op_load_offset(g):
    m, n = g.shape2(16)
    am, an = g.size(1, 24), g.size(1, 24)
    a = g.inp((am, an))
    oi, oj = int(g.rng.integers(0, am + 1)), int(g.rng.integers(0, an + 1))
    g.line("t = wp.tile_load(%s, shape=(%d, %d), offset=(%d, %d))" % (a, m, n, oi, oj))
    g.store("t", (m, n))
    return "load_offset_oob", True


def op_store_offset(g):
    m, n = g.shape2(16)
    om, on = g.size(1, 24), g.size(1, 24)
    oi, oj = int(g.rng.integers(0, om + 1)), int(g.rng.integers(0, on + 1))
    o = g.out((om, on))
    g.line("t = %s" % g.load((m, n)))
    g.line("wp.tile_store(%s, t, offset=(%d, %d))" % (o, oi, oj))
    return "store_offset_oob", True


def op_atomic(g):
    m, n = g.shape2(16)
    nblocks = int(g.rng.integers(1, 4))
    g.k.launch_dim = nblocks
    o = g.out((m, n))
    p = g.out((nblocks, m, n))
    g.line("i = wp.tid()")
    g.line("t = %s" % g.load((m, n), "int" if g.k.prec == "d" else "small"))
    if nblocks == 1:  # across blocks the previous values depend on the order of the blocks
        g.line("prev = wp.tile_atomic_add(%s, t)" % o)
        g.line("wp.tile_store(%s[i], prev)" % p)
    else:
        g.line("wp.tile_atomic_add(%s, t)" % o)
    return "atomic_add", False


def op_rand(g):
    g.k.prec = "f"  # tile_randf's tiles are float32
    s = g.shapes(16)
    seed = int(g.rng.integers(0, 1 << 20))
    g.line("rng = wp.rand_init(%d)" % seed)
    if g.rng.random() < 0.5:
        g.line("r = wp.tile_randf(%s, rng)" % shp(s))
        g.store("r", s)
        return "randf", False
    g.line("r = wp.tile_randi(%s, rng, -50, 50)" % shp(s))
    g.store("r", s, "I")
    return "randi", False


def op_bitwise(g):
    s = g.shapes()
    o = g.rng.choice(["&", "|", "^"])
    g.line("r = %s %s %s" % (g.load(s, "int", "I"), o, g.load(s, "int", "I")))
    g.store("r", s, "I")
    return "bit_" + {"&": "and", "|": "or", "^": "xor"}[o], False


def op_matmul(g):
    m, k, n = g.size(1, 24), g.size(1, 24), g.size(1, 24)
    if g.rng.random() < 0.5:
        g.line("c = wp.tile_matmul(%s, %s)" % (g.load((m, k)), g.load((k, n))))
        g.store("c", (m, n))
        return "matmul", True
    al, be = g.scalar(), g.scalar()
    g.line("c = %s" % g.load((m, n)))
    g.line("wp.tile_matmul(%s, %s, c, alpha=%s, beta=%s)" % (g.load((m, k)), g.load((k, n)), al, be))
    g.store("c", (m, n))
    return "matmul_acc", True


def spd(g, n):
    x = rnd(g.rng, (n, n), "n", g.k.prec) * 0.5
    a = x @ x.T + n * np.eye(n)
    return a.astype(np.float32 if g.k.prec == "f" else np.float64).astype(np.float64)


def op_cholesky(g):
    n = g.size(1, 16)
    a = g.inp((n, n), values=spd(g, n))
    g.line("A = wp.tile_load(%s, shape=(%d, %d))" % (a, n, n))
    c = g.rng.integers(3)
    if c == 0:
        g.line("L = wp.tile_cholesky(A)")
        g.store("L", (n, n))
        return "cholesky", False
    rhs = (n,) if g.rng.random() < 0.5 else (n, g.size(1, 8))
    g.line("L = wp.tile_cholesky(A)")
    g.line("x = wp.tile_cholesky_solve(L, %s)" % g.load(rhs))
    g.store("x", rhs)
    return "cholesky_solve" + ("_2d" if len(rhs) == 2 else ""), False


def op_trisolve(g):
    n = g.size(1, 16)
    l = np.tril(rnd(g.rng, (n, n), "n", g.k.prec) * 0.25)
    l[np.diag_indices(n)] = rnd(g.rng, (n,), "nz", g.k.prec)
    upper = g.rng.random() < 0.5
    a = g.inp((n, n), values=(l.T if upper else l))
    rhs = (n,) if g.rng.random() < 0.5 else (n, g.size(1, 8))
    g.line("M = wp.tile_load(%s, shape=(%d, %d))" % (a, n, n))
    g.line("x = wp.tile_%s_solve(M, %s)" % ("upper" if upper else "lower", g.load(rhs)))
    g.store("x", rhs)
    return ("upper" if upper else "lower") + "_solve" + ("_2d" if len(rhs) == 2 else ""), not upper


def op_diag_add(g):
    n = g.size(1, 24)
    g.line("A = %s" % g.load((n, n), storage="shared"))
    g.line("r = wp.tile_diag_add(A, %s)" % g.load((n,)))
    g.store("r", (n, n))
    return "diag_add", False


def op_fft(g):
    b, n = g.size(1, 4), int(g.rng.choice([2, 4, 8, 16, 32, 64]))
    f = g.rng.choice(["tile_fft", "tile_ifft"])
    g.line("t = %s" % g.load((b, n, 2), key="V2"))
    g.line("wp.%s(t)" % f)
    g.store("t", (b, n, 2), "V2")
    return f[5:], True


def op_chain(g):
    """Two to four differentiable steps on one tile, so adjoints meet: element-wise maps,
    products with other inputs, transposes, an axis sum broadcast back, a matmul; half the
    time summed at the end."""
    m, n = g.shape2(16)
    g.line("t = %s" % g.load((m, n)))
    shape = (m, n)
    names = []
    for step in range(int(g.rng.integers(2, 5))):
        c = int(g.rng.integers(6))
        if c == 0:
            f = g.rng.choice(["wp.sin", "wp.cos", "wp.tanh"])
            g.line("t = wp.tile_map(%s, t)" % f)
            names.append(f[3:])
        elif c == 1:
            o = g.rng.choice(["+", "-"])
            g.line("t = t %s %s" % (o, g.load(shape)))
            names.append("add" if o == "+" else "sub")
        elif c == 2:
            g.line("t = wp.tile_map(wp.mul, t, %s)" % g.load(shape))
            names.append("mul")
        elif c == 3:
            g.line("t = wp.tile_transpose(t)")
            shape = shape[::-1]
            names.append("T")
        elif c == 4:
            ax = int(g.rng.integers(2))
            red = (1, shape[1]) if ax == 0 else (shape[0], 1)
            g.line("t = wp.tile_broadcast(wp.tile_reshape(wp.tile_sum(t, axis=%d), shape=(%d, %d)), shape=(%d, %d))"
                   % (ax, red[0], red[1], shape[0], shape[1]))
            names.append("sumbcast")
        else:
            k = g.size(1, 16)
            g.line("t = wp.tile_matmul(t, %s)" % g.load((shape[1], k)))
            shape = (shape[0], k)
            names.append("matmul")
    if g.rng.random() < 0.5:
        g.line("s = wp.tile_sum(t)")
        g.store("s", (1,))
        names.append("sum")
    else:
        g.store("t", shape)
    g.k.chain = "-".join(names)
    return "chain", True


def op_loop(g):
    """A runtime loop carrying a tile: acc += a loaded tile per step, or a GEMM over k steps."""
    steps = int(g.rng.integers(1, 5))
    n = g.scalar_int(steps)
    if g.rng.random() < 0.5:
        m, c = g.shape2(16)
        a = g.inp((steps * m, c))
        g.line("acc = wp.tile_zeros(shape=(%d, %d), dtype=%s)" % (m, c, T(g.k.prec)))
        g.line("for s in range(%s):" % n)
        g.line("    acc += wp.tile_load(%s, shape=(%d, %d), offset=(s * %d, 0))" % (a, m, c, m))
        g.store("acc", (m, c))
        return "loop_add", True
    m, kt, c = g.size(1, 16), g.size(1, 8), g.size(1, 16)
    a, b = g.inp((m, steps * kt)), g.inp((steps * kt, c))
    storage = ', storage="shared"' if g.rng.random() < 0.5 else ""
    g.line("acc = wp.tile_zeros(shape=(%d, %d), dtype=%s%s)" % (m, c, T(g.k.prec), storage))
    g.line("for s in range(%s):" % n)
    g.line("    ta = wp.tile_load(%s, shape=(%d, %d), offset=(0, s * %d))" % (a, m, kt, kt))
    g.line("    tb = wp.tile_load(%s, shape=(%d, %d), offset=(s * %d, 0))" % (b, kt, c, kt))
    g.line("    wp.tile_matmul(ta, tb, acc)")
    g.store("acc", (m, c))
    return "loop_gemm", True


def op_elem_inplace(g):
    """Element updates of a tile: t[i, j] += s, t[i, j] -= s, t[i, j] = s (negative indices too)."""
    m, n = g.shape2()
    g.line("t = %s" % g.load((m, n)))
    for _ in range(int(g.rng.integers(1, 4))):
        i, j = int(g.rng.integers(-m, m)), int(g.rng.integers(-n, n))
        op = g.rng.choice(["+=", "-=", "="])
        g.line("t[%d, %d] %s %s" % (i, j, op, g.scalar()))
    g.store("t", (m, n))
    return "elem_inplace", True


OPS = [op_chain, op_chain, op_loop, op_elem_inplace, op_binary, op_map2, op_neg, op_scale, op_unary, op_lambda, op_func, op_map_scalar, op_axpy, op_inplace,
       op_sum, op_minmax, op_reduce, op_dot, op_scan, op_sort, op_transpose, op_broadcast, op_reshape, op_view,
       op_extract, op_assign, op_astype, op_construct, op_load_offset, op_store_offset, op_atomic, op_rand,
       op_bitwise, op_matmul, op_cholesky, op_trisolve, op_diag_add, op_fft]


# ---------------------------------------------------------------------------------------
# program text


def gen_kernel(idx, rng, opfn):
    k = Kernel(idx, "", "f" if rng.random() < 0.6 else "d")
    g = Gen(k, rng)
    k.opname, differentiable = opfn(g)
    k.block_dim = int(rng.choice(BLOCK_DIMS))
    if k.opname.startswith("rand"):
        # Warp's CPU device runs one lane per block and tile_randf's draws depend on the lane
        # count (its page: "not portable across block_dim values"); tilec's follow Warp's GPU rule
        # for every device, which is Warp's CPU stream at block_dim 1.
        k.block_dim = 1
    if k.opname == "elem_inplace":
        # `t[i, j] += s` is applied by every lane (Warp's per-lane atomic, docs/semantics.md), so
        # a block adds it block_dim times on Warp's GPU and on tilec's devices, once on Warp's
        # CPU device, which runs one lane per block; at block_dim 1 the rules agree.
        k.block_dim = 1
    k.grad = differentiable and rng.random() < 0.5
    params = ["%s: %s" % (n, arr(s, key) % wpt(key, k.prec)) for n, key, _, s in k.ins]
    params += ["%s: %s" % (n, "int" if isinstance(v, int) else T(k.prec)) for n, v in k.scalars]
    params += ["%s: %s" % (n, arr(s, key) % wpt(key, k.prec)) for n, key, s in k.outs]
    deco = "@wp.kernel" if k.grad else "@wp.kernel(enable_backward=False)"
    lines = [deco, "def k%d(%s):" % (idx, ", ".join(params))] + ["    " + l for l in k.body]
    k.text = "".join(f + "\n" for f in k.funcs) + "\n".join(lines) + "\n"
    if k.grad:
        for n, key, s in k.outs:
            k.seeds[n] = rnd(rng, s, "n", k.prec)
    return k


def host_lines(k):
    L = []
    rg = ", requires_grad=True" if k.grad else ""
    for n, key, v, s in k.ins:
        L.append("%s = wp.array(np.array(%s, dtype=%s), dtype=%s%s)" % (n, literal(v, key), npt(key, k.prec), wpt(key, k.prec),
                                                                        rg if key != "I" else ""))
    for n, key, s in k.outs:
        dims = s[:-1] if key == "V2" else s
        L.append("%s = wp.zeros(%s, dtype=%s%s)" % (n, shp(dims), wpt(key, k.prec), rg if key != "I" else ""))
    args = ", ".join([n for n, *_ in k.ins] + [repr(v) for _, v in k.scalars])
    outs = ", ".join(n for n, *_ in k.outs)
    launch = "wp.launch_tiled(k%d, dim=[%d], inputs=[%s], outputs=[%s], block_dim=%d)" % (k.idx, k.launch_dim, args, outs, k.block_dim)
    printed = ["%s.numpy().tolist()" % n for n, *_ in k.outs]
    if k.grad:
        L += ["tape%d = wp.Tape()" % k.idx, "with tape%d:" % k.idx, "    " + launch]
        grads = ", ".join("%s: wp.array(np.array(%s, dtype=%s), dtype=%s)" % (n, literal(k.seeds[n], key), npt(key, k.prec), wpt(key, k.prec))
                          for n, key, s in k.outs)
        L.append("tape%d.backward(grads={%s})" % (k.idx, grads))
        printed += ["%s.grad.numpy().tolist()" % n for n, key, *_ in k.ins if key != "I"]
    else:
        L.append(launch)
    L.append('print("R %d", %s)' % (k.idx, ", ".join(printed)))
    return L


def program(kernels):
    return program_text(kernels, host_lines)


# ---------------------------------------------------------------------------------------
# report

CLASSES = ["identical", "sign of zero", "within N ulp", "rounding", "different", "tilec error", "warp error", "both error"]


# What each class of difference is, read from Warp's native headers (site-packages/warp/native)
# and docs/semantics.md: (operation regex, class regex, text). The first match wins.
ORDER = ("tilec combines a reduction's elements in one order on every device (32 partials, then a "
         "tree; docs/semantics.md), so CPU and GPU agree bit for bit; Warp's CPU device folds them "
         "left to right (tile_reduce.h), its GPU in a warp-shuffle tree.")
EXPLANATIONS = [
    (r"sum.*|reduce_.*|dot", "within N ulp|rounding", ORDER),
    (r"broadcast|matmul.*|map_scalar_arg|scale", "within N ulp|rounding",
     "The gradient of a broadcast or scalar operand is a reduction over the tile: " + ORDER),
    (r"chain|loop_gemm", "within N ulp|rounding",
     "The chain sums (a tile_sum, a matmul, or the gradient of a broadcast or of a matmul's "
     "operand): " + ORDER),
    (r"i?fft", "within N ulp|rounding",
     "tilec's twiddles are float64 cos/sin of the exact ratio m/N rounded to the element type "
     "(docs/semantics.md), on every device; Warp's CPU path multiplies the twiddle up by a "
     "recurrence (tile_fft.h, `w *= wm`), its GPU path calls cos/sin per butterfly."),
    (r"map_(erf|log|log2|cbrt|sqrt|tanh|atan|exp|sin|cos)", "within N ulp|rounding",
     "Math functions: tilec's libm-free implementations and Warp's calls into the C library "
     "differ in the last bits on some inputs (docs/math.rst gives tilec's accuracy)."),
    (r"sort.*", "different",
     "tile_sort is stable in tilec on every device (docs/semantics.md); Warp's is not, so values "
     "of equal keys may come out in another order. The keys agree."),
    (r"map_lambda|reduce.*lambda", "warp error",
     "Warp 1.19 rejects lambdas in kernels (`Construct ast.Lambda not supported`); tilec "
     "accepts one as tile_map's function (docs/tile_map.rst)."),
    (r"reduce.*lambda", "both error",
     "Both reject a lambda as tile_reduce's operator (Warp: `Construct ast.Lambda not supported`; "
     "tilec E0016 names tile_map as the one place a lambda goes); a @wp.func is the way in both."),
    (r"squeeze", "both error",
     "Both reject squeezing a (1, 1) tile to no dimensions."),
    (r"scan.*|sort.*", "warp error",
     "Warp 1.19's scans take float32/int32/uint32 tiles and its sort float32 and integer keys; "
     "tilec also takes float64."),
    (r"cholesky.*|.*_solve.*", "within N ulp|rounding",
     "The adjoint of the solvers (Murray 2016 in Warp, the solves' own adjoints in tilec) "
     "rounds in another order."),
]


def explain(k, cls):
    for opre, clsre, text in EXPLANATIONS:
        if re.fullmatch(opre, k.opname) and re.fullmatch(clsre, cls):
            return text
    return "UNEXPLAINED"


def write_report(a, rows, secs):
    L = ["# tilec vs Warp 1.19 on the CPU: tile kernels", ""]
    L.append("Generated by `tests/warp_diff/tile_diff.py --count %d --seed %d --per-file %d --ulps %d` (%s with %d "
             "jobs). Outputs, and input gradients where a kernel runs backward, are compared as printed float "
             "reprs (bitwise), then in ulp of the kernel's precision." % (a.count, a.seed, a.per_file, a.ulps,
                                                                       "outputs reused" if a.compare_only else "%.0f s" % secs, a.jobs))
    L += count_table(rows, CLASSES, lambda c: c.replace("N", str(a.ulps)))
    ops = {}
    for r in rows:
        ops.setdefault(r[0].opname, []).append(r[1])
    L += ["Operations covered: %d (%s)." % (len(ops), ", ".join(sorted(ops))), ""]
    L += ["Backward runs: %d of %d kernels." % (sum(1 for r in rows if r[0].grad), len(rows)), ""]
    bad = [r for r in rows if r[1] != "identical"]
    by = {}
    for r in bad:
        by.setdefault(explain(r[0], r[1]), []).append(r)
    L += ["## Classes of difference", "", "| kernels | operations | explanation |", "|---|---|---|"]
    for text, rs in sorted(by.items(), key=lambda t: -len(t[1])):
        L.append("| %d | %s | %s |" % (len(rs), ", ".join(sorted({"`%s` (%s)" % (r[0].opname, r[1]) for r in rs})), text))
    L += ["", "## Every difference and error", ""]
    if not bad:
        L.append("None.")
    for k, c, info, ts, ws, terr, werr, path in sorted(bad, key=lambda r: (r[1], r[0].opname, r[0].idx)):
        head = "%s: `%s`, kernel k%d (%s, block_dim %d%s, %s)" % (c, k.opname, k.idx, "float32" if k.prec == "f" else "float64",
                                                                  k.block_dim, ", backward" if k.grad else "", os.path.basename(path))
        if info and info[0] is not None:
            head += ": max %d ulp, max abs diff %.3g, max rel diff %.3g" % tuple(info)
        L += ["### " + head, "", "Explanation: " + explain(k, c), "", "```python", k.text.rstrip(), "```", ""]
        if terr:
            L += ["tilec (exit %s): `%s`" % (terr[0], first_error_line(terr[1])), ""]
        elif ts is not None:
            L += ["tilec: `%s`" % ts[:1200], ""]
        if werr:
            L += ["Warp (exit %s): `%s`" % (werr[0], first_error_line(werr[1])), ""]
        elif ws is not None:
            L += ["Warp:  `%s`" % ws[:1200], ""]
    with open(a.report, "w") as f:
        f.write("\n".join(L) + "\n")


def rounding(prec, ts, ws):
    """Whether every output differs from Warp's by no more than an order-of-operations rounding:
    max |tilec - Warp| within 2^-17 (float32) or 2^-45 (float64) of the output's largest
    magnitude, each printed output on its own."""
    tol = 2.0 ** -17 if prec == "f" else 2.0 ** -45
    try:
        outs_t, outs_w = split_outputs(ts), split_outputs(ws)
        if len(outs_t) != len(outs_w):
            return False
        for a, b in zip(outs_t, outs_w):
            x, y = np.array(parse_vals(a), dtype=np.float64), np.array(parse_vals(b), dtype=np.float64)
            if x.shape != y.shape or not np.all(np.isfinite(x) == np.isfinite(y)):
                return False
            fin = np.isfinite(x)
            if np.any(x[~fin] != y[~fin]):
                return False
            scale = np.max(np.abs(y[fin])) if np.any(fin) else 0.0
            if np.any(np.abs(x[fin] - y[fin]) > tol * scale):
                return False
        return True
    except Exception:
        return False


def split_outputs(s):
    """The printed outputs of one R line: top-level bracketed lists."""
    out, depth, cur = [], 0, ""
    for ch in s:
        depth += ch == "["
        depth -= ch == "]"
        cur += ch
        if depth == 0 and ch == "]":
            out.append(cur.strip())
            cur = ""
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--per-file", type=int, default=8)
    ap.add_argument("--ulps", type=int, default=2, help="differences up to this many ulp are their own class")
    ap.add_argument("--only", help="regex: generate all, run only kernels whose operation matches")
    add_run_args(ap, "/tmp/tile_diff_work", os.path.join(HERE, "TILE_REPORT.md"))
    a = ap.parse_args()
    kernels = generate(a.count, a.seed, OPS, gen_kernel)
    if a.only:
        kernels = [k for k in kernels if re.search(a.only, k.opname)]
    results, secs = run_all(a, kernels, program)
    rows = []
    for k in kernels:
        cls, info = classify(k, results[k.idx], a.ulps)
        if cls.startswith("within"):
            cls = "within N ulp"
        elif cls == "different" and rounding(k.prec, results[k.idx][0], results[k.idx][1]):
            cls = "rounding"
        rows.append((k, cls, info) + tuple(results[k.idx]))
    write_report(a, rows, secs)
    print_counts(rows, a.report)

if __name__ == "__main__":
    main()
