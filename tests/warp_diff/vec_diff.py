#!/usr/bin/env python3
"""Differential test of tilec against NVIDIA Warp 1.19 on the CPU: vector, matrix, quaternion,
transform and spatial types and the builtins over them (not part of CI).

    python3 tests/warp_diff/vec_diff.py [--count 400] [--seed 1] [--jobs 2] [--per-file 10]

Generates `--count` kernels (seeded, reproducible), `--per-file` of them to a program file. Each
kernel computes one operation (an operator, a constructor, a component read or write, or a
builtin) whose arguments are kernel inputs or, now and then, small expressions over inputs, on
4 random elements. The inputs are written into the program text as literals (float32 values
exactly representable), so both runs see identical inputs. Each program file is run twice:

    build/tilec run prog.py
    build-bench/warp-venv/bin/python prog.py      (with WARP_CACHE_PATH in the work directory)

and the `R <kernel> ...` lines of stdout are compared: bit-identical (the printed lists are
Python float reprs of the stored float32/float64 values, so equal text is equal bits), within
2 ulp, different, tilec error, Warp error. A program where either side fails or misses a
kernel's line is rerun one kernel per file, so every error belongs to one kernel. The report
goes to tests/warp_diff/REPORT.md (override with --report) with the counts and, for every
difference and every error, the kernel text, both outputs and the explanation from
EXPLANATIONS below (verified against Warp's native headers, see README.md).

This script does not import warp; it needs only NumPy (under a Python without NumPy it reruns
itself with the venv's Python).
"""

import argparse
import os
import re
import sys

HERE0 = os.path.dirname(os.path.abspath(__file__))
try:
    import numpy as np
except ImportError:  # the system Python may lack NumPy: rerun with the Warp venv's (warp itself stays unimported)
    _py = os.environ.get("TILEC_WARP_PYTHON", os.path.join(HERE0, "..", "..", "build-bench", "warp-venv", "bin", "python"))
    os.execv(_py, [_py] + sys.argv)

from diffrun import add_run_args, classify, count_table, generate, program_text, first_error_line, print_counts, run_all  # noqa: E402 (needs NumPy)

HERE = os.path.dirname(os.path.abspath(__file__))
N = 4  # elements (threads) per launch

# ---------------------------------------------------------------------------------------
# types

# key -> (float32 name, float64 name, numpy element shape)
TYPES = {
    "S": ("wp.float32", "wp.float64", ()),
    "V2": ("wp.vec2", "wp.vec2d", (2,)),
    "V3": ("wp.vec3", "wp.vec3d", (3,)),
    "V4": ("wp.vec4", "wp.vec4d", (4,)),
    "M22": ("wp.mat22", "wp.mat22d", (2, 2)),
    "M33": ("wp.mat33", "wp.mat33d", (3, 3)),
    "M44": ("wp.mat44", "wp.mat44d", (4, 4)),
    "Q": ("wp.quat", "wp.quatd", (4,)),
    "T": ("wp.transform", "wp.transformd", (7,)),
    "SV": ("wp.spatial_vector", "wp.spatial_vectord", (6,)),
    "SM": ("wp.spatial_matrix", "wp.spatial_matrixd", (6, 6)),
    "I": ("wp.int32", "wp.int32", ()),
}

# input kinds: a kind names the type it has and how its values are drawn
KIND_TYPE = {
    "S": "S", "t01": "S", "ang": "S", "pos": "S", "eps": "S",
    "V2": "V2", "V3": "V3", "V4": "V4", "M22": "M22", "M33": "M33", "M44": "M44",
    "Q": "Q", "T": "T", "SV": "SV", "axis": "V3", "uq": "Q", "rot": "M33", "sym": "M33",
    "tri": "V3", "nz2": "V2", "nz3": "V3", "nz4": "V4",
    "I2": "I", "I3": "I", "I4": "I", "I6": "I",
}


def tname(key, prec):
    return TYPES[key][0 if prec == "f" else 1]


def unit(rng, d):
    v = rng.normal(size=d)
    return v / np.linalg.norm(v)


def rot33(q):
    x, y, z, w = q
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def draw(kind, rng, j):
    """One value of an input kind (element j of the launch); float64 numpy."""
    special = j == 0 and rng.random() < 0.25  # element 0 is now and then a special value
    if kind == "S":
        return np.float64(rng.choice([0.0, 1.0, -2.0, 0.5]) if special else rng.normal() * 2.0)
    if kind == "t01":
        return np.float64(rng.choice([0.0, 1.0, 0.5]) if special else rng.random())
    if kind == "ang":
        return np.float64(rng.uniform(-np.pi, np.pi))
    if kind == "pos":
        return np.float64(rng.uniform(0.25, 4.0))
    if kind == "eps":
        return np.float64(1.0e-6)
    if kind in ("V2", "V3", "V4", "SV"):
        d = {"V2": 2, "V3": 3, "V4": 4, "SV": 6}[kind]
        return np.zeros(d) if special else rng.normal(size=d) * 2.0
    if kind in ("nz2", "nz3", "nz4"):  # divisors: magnitudes in [0.5, 3]
        d = int(kind[2])
        return rng.uniform(0.5, 3.0, size=d) * rng.choice([-1.0, 1.0], size=d)
    if kind == "tri":
        return rng.uniform(-1.0, 1.0, size=3)
    if kind == "axis":
        return np.eye(3)[rng.integers(3)] if special else unit(rng, 3)
    if kind in ("M22", "M33", "M44"):
        d = int(kind[1])
        if special:
            return rng.choice([np.eye(d), np.zeros((d, d))]) if rng.random() < 0.5 else np.eye(d) * 2.0
        return rng.normal(size=(d, d)) * 2.0
    if kind == "sym":
        a = rng.normal(size=(3, 3)) * 2.0
        return np.diag([3.0, -1.0, 2.0]) if special else a + a.T
    if kind == "Q":
        return np.zeros(4) if special else rng.normal(size=4) * 1.5
    if kind == "uq":
        return np.array([0.0, 0.0, 0.0, 1.0]) if special else unit(rng, 4)
    if kind == "rot":
        return np.eye(3) if special else rot33(unit(rng, 4))
    if kind == "T":
        return np.concatenate([rng.normal(size=3) * 3.0, unit(rng, 4)])
    if kind in ("I2", "I3", "I4", "I6"):
        return np.int64(rng.integers(int(kind[1])))
    raise KeyError(kind)


# ---------------------------------------------------------------------------------------
# operations: (name, argument kinds, result type keys, template, float32 only)
#
# In a template %0, %1, ... are the arguments, $S, $V3, ... the type names of the kernel's
# precision, $c(1.5) a scalar constant of that precision. The last line is the result: one
# expression, or several joined by ", " for several outputs; earlier lines are statements.

OPS = []


def op(name, args, res, tmpl, f32_only=False):
    OPS.append((name, args.split(), res.split(), tmpl, f32_only))


VECS = ["V2", "V3", "V4"]
MATS = ["M22", "M33", "M44"]

# constructors
op("ctor_vec2", "S S", "V2", "$V2(%0, %1)")
op("ctor_vec3", "S S S", "V3", "$V3(%0, %1, %2)")
op("ctor_vec4", "S S S S", "V4", "$V4(%0, %1, %2, %3)")
op("ctor_vec3_fill", "S", "V3", "$V3(%0)")
op("ctor_vec4_zero", "S", "V4", "$V4() + $V4(%0)")
op("ctor_mat22", "S S S S", "M22", "$M22(%0, %1, %2, %3)")
op("ctor_mat33", "V3 V3 V3", "M33",
   "$M33(%0[0], %0[1], %0[2], %1[0], %1[1], %1[2], %2[0], %2[1], %2[2])")
op("ctor_mat44_fill", "S", "M44", "$M44(%0)")
op("ctor_mat33_zero", "S", "M33", "$M33() * %0")
op("ctor_quat", "S S S S", "Q", "$Q(%0, %1, %2, %3)")
op("ctor_quat_identity", "S", "Q", "wp.quat_identity(dtype=$S) * %0")
op("ctor_transform", "V3 uq", "T", "$T(%0, %1)")
op("ctor_spatial_vector", "V3 V3", "SV", "$SV(%0, %1)")
op("ctor_spatial_vector6", "S S S S S S", "SV", "$SV(%0, %1, %2, %3, %4, %5)")
op("ctor_identity33", "S", "M33", "wp.identity(n=3, dtype=$S) * %0")
# component reads
op("read_vec_xyz", "V3", "S", "%0.x * $c(100.0) + %0.y * $c(10.0) + %0.z")
op("read_vec4_w", "V4", "V2", "$V2(%0.w, %0[2])")
op("read_vec_index", "V4 I4", "S", "%0[%1]")
op("read_mat_ij", "M33", "S", "%0[0, 1] - %0[2, 0] * %0[1, 1]")
op("read_mat_ij_dyn", "M44 I4 I4", "S", "%0[%1, %2]")
op("read_mat_row", "M33", "V3", "%0[1]")
op("read_mat_row_dyn", "M44 I4", "V4", "%0[%1]")
op("read_quat_xyzw", "Q", "V4", "$V4(%0.w, %0.z, %0.y, %0.x)")
op("read_quat_index", "Q I4", "S", "%0[%1]")
op("read_transform_index", "T", "V3", "$V3(%0[0], %0[4], %0[6])")
op("read_spatial_index", "SV I6", "S", "%0[%1] + %0[5]")
# component writes
op("write_vec_xyz", "V3 S", "V3", "v = %0\nv.x = %1\nv[2] = v[0] * %1\nv.y += %1\nv")
op("write_vec_dyn", "V4 I4 S", "V4", "v = %0\nv[%1] = %2\nv")
op("write_vec_aug", "V3 V3 S", "V3", "v = %0\nv += %1\nv *= %2\nv -= %1\nv")
op("write_mat_ij", "M33 S", "M33", "m = %0\nm[1, 2] = %1\nm[0, 0] += %1\nm")
op("write_mat_row", "M33 V3", "M33", "m = %0\nm[2] = %1\nm")
op("write_mat_dyn", "M44 I4 I4 S", "M44", "m = %0\nm[%1, %2] = %3\nm")
op("write_mat_row_dyn", "M22 I2 V2", "M22", "m = %0\nm[%1] = %2\nm")
op("write_quat_w", "Q S", "Q", "q = %0\nq.w = %1\nq[0] = -q[1]\nq")
op("write_spatial", "SV S", "SV", "s = %0\ns[3] = %1\ns")
op("write_transform", "T S", "T", "t = %0\nt[1] = %1\nt")
# arithmetic
for V in VECS + ["Q", "SV"]:
    op("add_" + V, V + " " + V, V, "%0 + %1")
    op("sub_" + V, V + " " + V, V, "%0 - %1")
    op("mul_" + V + "_s", V + " S", V, "%0 * %1")
    op("mul_s_" + V, "S " + V, V, "%0 * %1")
    op("div_" + V + "_s", V + " pos", V, "%0 / %1")
    op("neg_" + V, V, V, "-%0")
for V, NZ in (("V2", "nz2"), ("V3", "nz3"), ("V4", "nz4")):
    op("div_s_" + V, "S " + NZ, V, "%0 / %1")
for M in MATS:
    op("add_" + M, M + " " + M, M, "%0 + %1")
    op("sub_" + M, M + " " + M, M, "%0 - %1")
    op("mul_" + M + "_s", M + " S", M, "%0 * %1")
    op("mul_s_" + M, "S " + M, M, "%0 * %1")
    op("div_" + M + "_s", M + " pos", M, "%0 / %1")
    op("neg_" + M, M, M, "-%0")
for M, V in (("M22", "V2"), ("M33", "V3"), ("M44", "V4")):
    op("matvec_" + M, M + " " + V, V, "%0 * %1")
    op("vecmat_" + M, V + " " + M, V, "%0 * %1")
    op("matmat_" + M, M + " " + M, M, "%0 * %1")
op("quat_mul", "Q Q", "Q", "%0 * %1")
op("transform_mul", "T T", "T", "%0 * %1")
op("eq_vec3", "V3 V3", "I", "r = int(0)\nif %0 == %1:\n    r = 1\nif %0 == %0:\n    r = r + 2\nif %0 != %1:\n    r = r + 4\nr")
op("eq_mat22", "M22 M22", "I", "r = int(0)\nif %0 == %1:\n    r = 1\nif %0 == %0:\n    r = r + 2\nr")
op("eq_quat", "Q", "I", "r = int(0)\nq = %0\nif q == %0:\n    r = 1\nq.w = q.w + $c(1.0)\nif q == %0:\n    r = r + 2\nr")
# builtins
for V in VECS + ["Q"]:
    op("dot_" + V, V + " " + V, "S", "wp.dot(%0, %1)")
    op("length_" + V, V, "S", "wp.length(%0)")
    op("length_sq_" + V, V, "S", "wp.length_sq(%0)")
    op("normalize_" + V, V, V, "wp.normalize(%0)")
for V in VECS + ["SV"]:
    op("cw_mul_" + V, V + " " + V, V, "wp.cw_mul(%0, %1)")
    op("min_" + V, V + " " + V, V, "wp.min(%0, %1)")
    op("max_" + V, V + " " + V, V, "wp.max(%0, %1)")
    op("abs_" + V, V, V, "wp.abs(%0)")
for V, NZ in (("V2", "nz2"), ("V3", "nz3"), ("V4", "nz4")):
    op("cw_div_" + V, V + " " + NZ, V, "wp.cw_div(%0, %1)")
    op("min_reduce_" + V, V, "S", "wp.min(%0)")
    op("max_reduce_" + V, V, "S", "wp.max(%0)")
op("cross", "V3 V3", "V3", "wp.cross(%0, %1)")
for M, V in (("M22", "V2"), ("M33", "V3"), ("M44", "V4")):
    op("outer_" + M, V + " " + V, M, "wp.outer(%0, %1)")
    op("transpose_" + M, M, M, "wp.transpose(%0)")
    op("trace_" + M, M, "S", "wp.trace(%0)")
    op("diag_" + M, V, M, "wp.diag(%0)")
    op("get_diag_" + M, M, V, "wp.get_diag(%0)")
    op("cw_mul_" + M, M + " " + M, M, "wp.cw_mul(%0, %1)")
    op("determinant_" + M, M, "S", "wp.determinant(%0)")
    op("inverse_" + M, M, M, "wp.inverse(%0)")
op("cw_div_M33", "M33 rot", "M33", "wp.cw_div(%0, %1 + $M33($c(3.0)))")
op("min_M22", "M22 M22", "M22", "wp.min(%0, %1)")
op("abs_M33", "M33", "M33", "wp.abs(%0)")
op("skew", "V3", "M33", "wp.skew(%0)")
op("skew_mul", "V3 V3", "V3", "wp.skew(%0) * %1")
op("quat_from_axis_angle", "axis ang", "Q", "wp.quat_from_axis_angle(%0, %1)")
op("quat_rpy", "ang ang ang", "Q", "wp.quat_rpy(%0, %1, %2)")
op("quat_rotate", "uq V3", "V3", "wp.quat_rotate(%0, %1)")
op("quat_rotate_inv", "uq V3", "V3", "wp.quat_rotate_inv(%0, %1)")
op("quat_rotate_nonunit", "Q V3", "V3", "wp.quat_rotate(%0, %1)")
op("quat_inverse", "Q", "Q", "wp.quat_inverse(%0)")
op("quat_slerp", "uq uq t01", "Q", "wp.quat_slerp(%0, %1, %2)")
op("quat_to_matrix", "uq", "M33", "wp.quat_to_matrix(%0)")
op("quat_from_matrix", "rot", "Q", "wp.quat_from_matrix(%0)")
op("quat_from_matrix_any", "M33", "Q", "wp.quat_from_matrix(%0)")
op("transform_point", "T V3", "V3", "wp.transform_point(%0, %1)")
op("transform_vector", "T V3", "V3", "wp.transform_vector(%0, %1)")
op("transform_point_m44", "M44 V3", "V3", "wp.transform_point(%0, %1)")
op("transform_vector_m44", "M44 V3", "V3", "wp.transform_vector(%0, %1)")
op("transform_multiply", "T T", "T", "wp.transform_multiply(%0, %1)")
op("transform_inverse", "T", "T", "wp.transform_inverse(%0)")
op("transform_get_translation", "T", "V3", "wp.transform_get_translation(%0)")
op("transform_get_rotation", "T", "Q", "wp.transform_get_rotation(%0)")
op("transformation", "V3 uq", "T", "wp.transformation(%0, %1)")
op("spatial_dot", "SV SV", "S", "wp.spatial_dot(%0, %1)")
op("spatial_cross", "SV SV", "SV", "wp.spatial_cross(%0, %1)")
op("spatial_cross_dual", "SV SV", "SV", "wp.spatial_cross_dual(%0, %1)")
op("spatial_top", "SV", "V3", "wp.spatial_top(%0)")
op("spatial_bottom", "SV", "V3", "wp.spatial_bottom(%0)")
op("spatial_adjoint", "rot M33", "SM", "wp.spatial_adjoint(%0, %1)")
op("svd3", "M33", "M33 V3 M33", "U, sig, V = wp.svd3(%0)\nU, sig, V")
op("svd3_rebuild", "M33", "M33", "U, sig, V = wp.svd3(%0)\nU * wp.diag(sig) * wp.transpose(V)")
op("svd2", "M22", "M22 V2 M22", "U, sig, V = wp.svd2(%0)\nU, sig, V")
op("qr3", "M33", "M33 M33", "Q, R = wp.qr3(%0)\nQ, R")
op("eig3", "sym", "M33 V3", "Q, d = wp.eig3(%0)\nQ, d")
op("closest_point_edge_edge", "tri tri tri tri eps", "V3", "wp.closest_point_edge_edge(%0, %1, %2, %3, %4)", True)
op("intersect_tri_tri", "tri tri tri tri tri tri", "I", "wp.intersect_tri_tri(%0, %1, %2, %3, %4, %5)")

# Small expressions that may stand in for an argument of a kind (%a, %b: fresh inputs of the
# kinds given; %s: a fresh scalar input).
SUBEXPR = {
    "V2": [("(%a + %b)", "V2 V2"), ("(%a * %b)", "V2 S"), ("wp.cw_mul(%a, %b)", "V2 V2")],
    "V3": [("(%a - %b)", "V3 V3"), ("wp.cross(%a, %b)", "V3 V3"), ("(%a * %b)", "M33 V3"),
           ("wp.quat_rotate(%a, %b)", "uq V3"), ("wp.transform_get_translation(%a)", "T")],
    "V4": [("(%a + %b)", "V4 V4"), ("(-%a)", "V4"), ("(%a * %b)", "M44 V4")],
    "M22": [("(%a * %b)", "M22 M22"), ("wp.transpose(%a)", "M22")],
    "M33": [("(%a + %b)", "M33 M33"), ("wp.outer(%a, %b)", "V3 V3"), ("wp.quat_to_matrix(%a)", "uq"),
            ("wp.skew(%a)", "V3")],
    "M44": [("(%a - %b)", "M44 M44"), ("wp.transpose(%a)", "M44")],
    "Q": [("(%a * %b)", "Q Q"), ("wp.quat_inverse(%a)", "Q")],
    "uq": [("wp.quat_from_axis_angle(%a, %b)", "axis ang"), ("(%a * %b)", "uq uq"),
           ("wp.normalize(%a)", "Q"), ("wp.transform_get_rotation(%a)", "T")],
    "axis": [("wp.normalize(%a)", "nz3")],
    "rot": [("wp.quat_to_matrix(%a)", "uq")],
    "T": [("wp.transform_multiply(%a, %b)", "T T"), ("wp.transform_inverse(%a)", "T")],
    "SV": [("wp.spatial_cross(%a, %b)", "SV SV"), ("(%a + %b)", "SV SV")],
    "S": [("wp.dot(%a, %b)", "V3 V3"), ("wp.length(%a)", "V4"), ("(%a * %b)", "S S")],
}

# ---------------------------------------------------------------------------------------
# program generation


class Kernel:
    def __init__(self, idx, opname, prec, inputs, body, outs, text):
        self.idx, self.opname, self.prec = idx, opname, prec
        self.inputs = inputs  # [(name, type key, values)]
        self.body, self.outs, self.text = body, outs, text


def fmt_float(x, prec):
    if prec == "f":
        x = float(np.float32(x))
    else:
        x = float(x)
    return repr(x)


def literal(vals, key, prec):
    if key == "I":
        return "[" + ", ".join(str(int(v)) for v in vals) + "]"

    def rec(a):
        if np.ndim(a) == 0:
            return fmt_float(a, prec)
        return "[" + ", ".join(rec(x) for x in a) + "]"
    return rec(np.array(vals))


def subst(tmpl, args, prec):
    def tsub(m):
        return tname(m.group(1), prec)
    s = re.sub(r"\$c\(([^)]*)\)", lambda m: "%s(%s)" % (tname("S", prec), m.group(1)), tmpl)
    s = re.sub(r"\$(SM|SV|S|V2|V3|V4|M22|M33|M44|Q|T)\b", tsub, s)
    return re.sub(r"%(\d)", lambda m: args[int(m.group(1))], s)


def gen_kernel(idx, rng, opdef):
    name, argkinds, res, tmpl, f32_only = opdef
    prec = "f" if (f32_only or rng.random() < 0.5) else "d"
    inputs = []

    def fresh(kind):
        nm = "x%d" % len(inputs)
        inputs.append((nm, kind, [draw(kind, rng, j) for j in range(N)]))
        return nm

    args = []
    tags = set()
    if name.startswith("matmat_") or name == "svd3_rebuild":
        tags.add("matmat")
    for kind in argkinds:
        if kind in SUBEXPR and rng.random() < 0.3:
            sub, kinds = SUBEXPR[kind][rng.integers(len(SUBEXPR[kind]))]
            names = [fresh(k) for k in kinds.split()]
            if sub == "wp.normalize(%a)" and kinds == "Q":
                tags.add("normq")
            if sub == "(%a * %b)" and kinds.split()[0] in MATS and kinds.split()[1] in MATS:
                tags.add("matmat")
            sub = sub.replace("%a", names[0])
            if len(names) > 1:
                sub = sub.replace("%b", names[1])
            args.append(subst(sub, [], prec))
        else:
            args.append(fresh(kind))
    lines = subst(tmpl, args, prec).split("\n")
    stmts, result = lines[:-1], lines[-1]
    results = [r.strip() for r in result.split(", ")] if len(res) > 1 else [result]
    assert len(results) == len(res), name
    kname = "k%d" % idx
    params = ["a%d: wp.array(dtype=%s)" % (j, tname(KIND_TYPE[k], prec)) for j, (_, k, _) in enumerate(inputs)]
    params += ["o%d: wp.array(dtype=%s)" % (j, tname(r, prec)) for j, r in enumerate(res)]
    body = ["@wp.kernel", "def %s(%s):" % (kname, ", ".join(params)), "    i = wp.tid()"]
    body += ["    %s = a%d[i]" % (nm, j) for j, (nm, _, _) in enumerate(inputs)]
    body += ["    " + s for s in stmts]
    body += ["    o%d[i] = %s" % (j, r) for j, r in enumerate(results)]
    text = "\n".join(body) + "\n"
    k = Kernel(idx, name, prec, inputs, body, res, text)
    k.tags = tags
    return k


def host_lines(k):
    out = []
    for j, (_, kind, vals) in enumerate(k.inputs):
        key = KIND_TYPE[kind]
        npd = "np.int32" if key == "I" else ("np.float32" if k.prec == "f" else "np.float64")
        out.append("a%d = wp.array(np.array(%s, dtype=%s), dtype=%s)"
                   % (j, literal(vals, key, k.prec), npd, tname(key, k.prec)))
    for j, r in enumerate(k.outs):
        out.append("o%d = wp.zeros(%d, dtype=%s)" % (j, N, tname(r, k.prec)))
    ins = ", ".join("a%d" % j for j in range(len(k.inputs)))
    outs = ", ".join("o%d" % j for j in range(len(k.outs)))
    out.append("wp.launch(k%d, dim=%d, inputs=[%s], outputs=[%s])" % (k.idx, N, ins, outs))
    out.append('print("R %d", %s)' % (k.idx, ", ".join("o%d.numpy().tolist()" % j for j in range(len(k.outs)))))
    return out


def program(kernels):
    return program_text(kernels, host_lines)


# Explanations of the classes of difference and error seen: (operation regex, class regex,
# required tag or None, text). The first match wins. Each is checked against Warp's native
# headers in the venv (site-packages/warp/native) and its kernel cache; see README.md.
FMA = ("Warp's matrix-matrix product (native/mat.h, `mul(const mat_t&, const mat_t&)`) sums each "
       "entry as `sum = muladd<Type>(a.data[i][k], b.data[k][j], sum)` from `sum = 0`, and `muladd` "
       "is specialised to `fmaf`/`fma` for float and double, so each term is one fused multiply-add "
       "(one rounding); tilec multiplies and adds separately. Nothing else in Warp's CPU code is "
       "contracted: the forward kernels' objects in the kernel cache have no vfmadd for dot, cross, "
       "matrix*vector, etc. (those agree bit for bit here), and `mul(mat, vec)` / `mul(vec, mat)` "
       "accumulate `get_col(i) * b[i]` without fma. The kernel contains a matrix-matrix product.")
EXPLANATIONS = [
    ("normalize_Q", "within 2 ulp", None,
     "Warp's `normalize(const quat_t&)` (native/quat.h) computes `inv_l = 1 / l` and multiplies each "
     "component by it (two roundings); tilec divides each component by `l` as Warp does only for "
     "vectors (vec.h: `div(a, l)`). tilec lowers normalize the same for every composite "
     "(frontend/lower_to_ir/lower_composite.cpp, CompositeOp::Normalize)."),
    ("normalize_Q", "different", None,
     "tilec bug: Warp's `normalize(quat)` returns the identity quaternion (0, 0, 0, 1) when the "
     "length is not above kEps (= 0), tilec returns the zero quaternion (lower_composite.cpp lowers "
     "quaternions like vectors); plus the 1-ulp difference of the reciprocal (see within 2 ulp)."),
    (".*", "different", "normq",
     "tilec bug (see normalize_Q): an argument is `wp.normalize(q)` of the zero quaternion, which is "
     "(0, 0, 0, 1) in Warp and (0, 0, 0, 0) in tilec."),
    (".*", "different|within 2 ulp", "matmat", FMA),
    ("ctor_spatial_vector", "warp error", None,
     "Warp 1.19 rejects `spatial_vectord(v3, v3)` in a kernel (\"incompatible number of values given "
     "(2) when constructing a vector of length 6\"); tilec accepts it (top, bottom): more "
     "permissive than Warp."),
    ("abs_M.*", "warp error", None,
     "Warp 1.19 has no `abs` overload for matrices (\"Couldn't find function overload for 'abs' that "
     "matched inputs with types: [mat33f]\"); tilec accepts it (applies abs to every component): "
     "tilec is more permissive than Warp here."),
    ("min_M.*|max_M.*", "warp error", None,
     "Warp 1.19 has no `min`/`max` overload for matrices (\"Couldn't find function overload for 'min' "
     "that matched inputs with types: [mat22d, mat22d]\"); tilec accepts it: more permissive than Warp."),
    ("eq_vec3", "warp error", None,
     "Warp bug: `!=` between vectors passes Warp's Python front end but its generated C++ does not "
     "compile (\"invalid operands to binary expression ('wp::vec_t<3, double>' and 'wp::vec_t<3, "
     "double>')\": native/vec.h defines `operator==` but no `operator!=` for vec_t). tilec accepts it."),
    ("min_reduce_.*|max_reduce_.*", "tilec error", None,
     "tilec bug: Warp 1.19 has one-argument `wp.min(v)` / `wp.max(v)` over a vector (the smallest / "
     "largest component, builtins.py `min(a: vector)`); tilec rejects it: "
     "\"error[E0132]: `wp.min` takes 2 arguments, got 1\"."),
    ("div_s_V.*", "tilec error", None,
     "tilec bug: Warp 1.19 defines `div(a: Scalar, b: vector)` (scalar / vector, component-wise "
     "`a / b[i]`; builtins.py); tilec rejects it: \"error[E0127]: `/` is not defined for `float32` "
     "and `vec2f`\"."),
    ("ctor_identity33", "tilec error", None,
     "tilec bug (beyond the generated operations, but Warp accepts it): `wp.identity(n=3, dtype=...)` in a "
     "kernel: \"error[E0101]: `wp` has no kernel builtin `identity`\"."),
    ("ctor_quat_identity", "tilec error", None,
     "tilec bug (beyond the generated operations): Warp's `wp.quat_identity(dtype=wp.float32)` takes the "
     "dtype argument; tilec's prelude `quat_identity()` has no parameter: \"no signature of "
     "`wp.quat_identity` takes (dtype=type[float32])\"."),
]


def explain(k, cls):
    for opre, clsre, tag, text in EXPLANATIONS:
        if re.fullmatch(opre, k.opname) and re.fullmatch(clsre, cls) and (tag is None or tag in k.tags):
            return text
    return "UNEXPLAINED"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--per-file", type=int, default=10)
    add_run_args(ap, "/tmp/warp_diff_work", os.path.join(HERE, "REPORT.md"))
    a = ap.parse_args()
    kernels = generate(a.count, a.seed, OPS, gen_kernel)
    results, secs = run_all(a, kernels, program)
    rows = []
    for k in kernels:
        cls, info = classify(k, results[k.idx])
        rows.append((k, cls, info) + tuple(results[k.idx]))
    write_report(a, rows, secs)
    print_counts(rows, a.report)

CLASSES = ["identical", "sign of zero", "within 2 ulp", "different", "tilec error", "warp error", "both error"]


def write_report(a, rows, secs):
    L = ["# tilec vs Warp 1.19: vector, matrix, quaternion, transform and spatial kernels", ""]
    L.append("Generated by `tests/warp_diff/vec_diff.py --count %d --seed %d --per-file %d` "
             "(%s with %d jobs). Every kernel runs on 4 elements on the CPU in both; outputs are "
             "compared as printed float reprs (bitwise), then in ulp of the kernel's precision."
             % (a.count, a.seed, a.per_file, "outputs of the last run reused" if a.compare_only else "%.0f s" % secs, a.jobs))
    L += count_table(rows, CLASSES)
    ops = {}
    for r in rows:
        ops.setdefault(r[0].opname, []).append(r[1])
    L += ["Operations covered: %d (%s)." % (len(ops), ", ".join(sorted(ops))), ""]
    bad = [r for r in rows if r[1] != "identical"]
    by = {}
    for r in bad:
        by.setdefault((r[1], r[0].opname, explain(r[0], r[1])), []).append(r)
    expl = {}
    for (cls, opname, text), rs in by.items():
        expl.setdefault(text, []).append((cls, opname, len(rs)))
    L += ["## Classes of difference", "", "| explanation (short) | class: operation (kernels) |", "|---|---|"]
    for text, items in sorted(expl.items(), key=lambda t: -sum(n for _, _, n in t[1])):
        L.append("| %s | %s |" % (text.split(":")[0] if ":" in text[:40] else text[:60] + "...",
                                  ", ".join("%s: `%s` (%d)" % it for it in sorted(items))))
    L += ["", "## Every difference and error", ""]
    if not bad:
        L.append("None.")
    for (cls, opname, text), rs in sorted(by.items()):
        L += ["### %s: `%s` (%d kernel%s)" % (cls, opname, len(rs), "s" if len(rs) > 1 else ""), ""]
        L += ["Explanation: " + text, ""]
        for k, c, info, ts, ws, terr, werr, path in rs:
            head = "kernel k%d (%s, %s)" % (k.idx, "float32" if k.prec == "f" else "float64", os.path.basename(path))
            if info and info[0] is not None:
                head += ": max %d ulp, max abs diff %.3g, max rel diff %.3g" % tuple(info)
            L += ["- " + head, "", "```python", k.text.rstrip()] + ["# " + l for l in host_lines(k)[:len(k.inputs)]] + ["```", ""]
            if terr:
                L += ["  tilec (exit %s): `%s`" % (terr[0], first_error_line(terr[1])), ""]
            elif ts is not None and c != "warp error":
                L += ["  tilec: `%s`" % ts[:1500], ""]
            if werr:
                L += ["  Warp (exit %s): `%s`" % (werr[0], first_error_line(werr[1])), ""]
            elif ws is not None and c != "tilec error":
                L += ["  Warp:  `%s`" % ws[:1500], ""]
    with open(a.report, "w") as f:
        f.write("\n".join(L) + "\n")


if __name__ == "__main__":
    main()
