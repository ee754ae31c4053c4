"""Check frontend/sema/prelude/vecmath.tile against real Warp (not part of CI).

Run with the Warp 1.19 virtual environment:

    build-bench/warp-venv/bin/python tests/prelude/prelude_vs_warp.py [--n 400] [--pages]

The prelude is Warp syntax with placeholder type names. This script substitutes the
placeholders (float32 and float64 in turn), writes the result as a Python module in a
temporary directory, imports it with Warp, and for every prelude function that is a Warp
builtin launches one kernel on the CPU that calls both the prelude function and Warp's
builtin on the same random and edge-case inputs. It reports per function the maximum
absolute and relative difference and how many results are not bit-identical.

With --pages it also runs the testcode blocks of the doc pages in /work/shared/warp-docs
with the prelude functions substituted for Warp's inside the kernels, and compares the
printed output with the testoutput blocks.
"""

import argparse
import contextlib
import importlib.util
import io
import os
import re
import sys
import tempfile

import numpy as np
import warp as wp

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
PRELUDE = os.path.join(ROOT, "frontend", "sema", "prelude", "vecmath.tile")
DOCS = "/work/shared/warp-docs"

PLACEHOLDERS = {
    "float32": {
        "Scalar": "wp.float32", "Vec2": "wp.vec2", "Vec3": "wp.vec3", "Vec4": "wp.vec4",
        "Mat22": "wp.mat22", "Mat33": "wp.mat33", "Mat44": "wp.mat44", "Quat": "wp.quat",
        "Transform": "wp.transform", "SpatialVector": "wp.spatial_vector",
        "SpatialMatrix": "wp.spatial_matrix",
    },
    "float64": {
        "Scalar": "wp.float64", "Vec2": "wp.vec2d", "Vec3": "wp.vec3d", "Vec4": "wp.vec4d",
        "Mat22": "wp.mat22d", "Mat33": "wp.mat33d", "Mat44": "wp.mat44d", "Quat": "wp.quatd",
        "Transform": "wp.transformd", "SpatialVector": "wp.spatial_vectord",
        "SpatialMatrix": "wp.spatial_matrixd",
    },
}

TMP = tempfile.mkdtemp(prefix="prelude_vs_warp_")
sys.path.insert(0, TMP)


def substitute(text, prec):
    for k, v in PLACEHOLDERS[prec].items():
        text = re.sub(r"\b%s\b" % k, v, text)
    return text


def load_module(name, text):
    path = os.path.join(TMP, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def load_prelude(prec):
    with open(PRELUDE) as f:
        src = f.read()
    return load_module("prelude_" + prec, substitute(src, prec))


# ---------------------------------------------------------------------------------------
# random inputs

TYPES = {
    # key: (placeholder, numpy shape)
    "f": ("Scalar", ()),
    "v2": ("Vec2", (2,)),
    "v3": ("Vec3", (3,)),
    "v4": ("Vec4", (4,)),
    "m22": ("Mat22", (2, 2)),
    "m33": ("Mat33", (3, 3)),
    "m44": ("Mat44", (4, 4)),
    "q": ("Quat", (4,)),
    "t": ("Transform", (7,)),
    "sv": ("SpatialVector", (6,)),
    "sm": ("SpatialMatrix", (6, 6)),
    "i": ("int", ()),
}


def wp_type(key, prec):
    if key == "i":
        return wp.int32
    name = PLACEHOLDERS[prec][TYPES[key][0]]
    return getattr(wp, name[3:])


def unit_quats(rng, n):
    q = rng.normal(size=(n, 4))
    q /= np.linalg.norm(q, axis=1, keepdims=True)
    special = np.array([
        [0, 0, 0, 1], [0, 0, 0, -1], [1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0],
        [0, 0, 0.7071067811865476, 0.7071067811865476], [0.5, 0.5, 0.5, 0.5],
        [0.5, -0.5, 0.5, -0.5], [0, 0, -1, 0], [0.6, 0, 0, -0.8],
    ])
    q[: len(special)] = special
    return q


def rot_from_quat(q):
    x, y, z, w = q.T
    m = np.empty((len(q), 3, 3))
    m[:, 0, 0] = 1 - 2 * (y * y + z * z)
    m[:, 0, 1] = 2 * (x * y - w * z)
    m[:, 0, 2] = 2 * (x * z + w * y)
    m[:, 1, 0] = 2 * (x * y + w * z)
    m[:, 1, 1] = 1 - 2 * (x * x + z * z)
    m[:, 1, 2] = 2 * (y * z - w * x)
    m[:, 2, 0] = 2 * (x * z - w * y)
    m[:, 2, 1] = 2 * (y * z + w * x)
    m[:, 2, 2] = 1 - 2 * (x * x + y * y)
    return m


def gen(kind, rng, n):
    """Inputs of one kind (a type key, or a special generator name)."""
    if kind == "f":
        v = rng.uniform(-4.0, 4.0, size=n)
        v[:6] = [0.0, 1.0, -1.0, np.pi, -np.pi / 2, 1e-8]
        return v
    if kind == "t01":
        v = rng.uniform(0.0, 1.0, size=n)
        v[:4] = [0.0, 1.0, 0.5, 0.25]
        return v
    if kind == "eps":
        v = np.full(n, 1.0e-6)
        v[: n // 4] = 0.0
        return v
    if kind in ("v2", "v3", "v4", "sv"):
        d = {"v2": 2, "v3": 3, "v4": 4, "sv": 6}[kind]
        v = rng.normal(size=(n, d)) * 2.0
        v[0] = 0.0
        v[1, :] = 0.0
        v[1, 0] = 1.0
        return v
    if kind == "axis":
        v = rng.normal(size=(n, 3))
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        v[:3] = np.eye(3)
        return v
    if kind == "q":
        return unit_quats(rng, n)
    if kind == "qany":
        q = rng.normal(size=(n, 4)) * 1.5
        q[:10] = unit_quats(rng, 10)[:10]
        q[10] = 0.0
        return q
    if kind == "t":
        t = np.zeros((n, 7))
        t[:, :3] = rng.normal(size=(n, 3)) * 3.0
        t[:, 3:] = unit_quats(rng, n)
        return t
    if kind == "m22":
        m = rng.normal(size=(n, 2, 2)) * 2.0
        m[0] = 0.0
        m[1] = np.eye(2)
        m[2] = [[3.0, 0.0], [4.0, 5.0]]
        m[3] = [[1.0, 2.0], [2.0, 4.0]]  # singular
        m[4] = [[2.0, 0.0], [0.0, 2.0]]  # repeated singular values
        m[5] = [[0.0, -1.0], [1.0, 0.0]]  # rotation
        m[6] = [[1.0, 0.0], [0.0, -1.0]]  # reflection
        m[7] = [[0.0, 1.0], [0.0, 0.0]]
        m[8] = [[-3.0, 1.0], [2.0, -0.5]]
        return m
    if kind == "m33":
        m = rng.normal(size=(n, 3, 3)) * 2.0
        m[0] = 0.0
        m[1] = np.eye(3)
        m[2] = [[1, 1, 0], [1, 0, 1], [0, 1, 1]]
        m[3] = [[2.598076, -1.0, 0.0], [1.5, 1.732051, 0.0], [0.0, 0.0, -1.0]]
        m[4] = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]  # singular
        m[5] = np.diag([3.0, -2.0, 1.0])
        m[6] = np.diag([1.0, 1.0, 2.0])
        m[7] = [[0, 0, 1], [0, 1, 0], [1, 0, 0]]  # reflection
        m[8] = -np.eye(3)
        m[9] = np.outer([1, 2, 3], [0.5, -1, 2])  # rank 1
        return m
    if kind == "sym33":
        a = rng.normal(size=(n, 3, 3)) * 2.0
        m = a + np.transpose(a, (0, 2, 1))
        m[0] = 0.0
        m[1] = np.eye(3)
        m[2] = [[4, 1, 2], [1, 3, 1], [2, 1, 5]]
        m[3] = np.diag([3.0, -1.0, 2.0])
        m[4] = [[2, 1, 0], [1, 2, 0], [0, 0, 3]]
        m[5] = [[1, 1, 1], [1, 1, 1], [1, 1, 1]]
        return m
    if kind == "rot33":
        return rot_from_quat(unit_quats(rng, n))
    if kind == "rot44":
        m = np.zeros((n, 4, 4))
        m[:, :3, :3] = rot_from_quat(unit_quats(rng, n))
        m[:, :3, 3] = rng.normal(size=(n, 3))
        m[:, 3, 3] = 1.0
        m[n // 2 :] = rng.normal(size=(n - n // 2, 4, 4))
        return m
    if kind == "m44":
        m = rng.normal(size=(n, 4, 4)) * 2.0
        m[0] = 0.0
        m[1] = np.eye(4)
        m[2] = [[2, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 5], [0, 0, 0, 1]]
        m[3] = np.outer([1, 2, 3, 4], [1, -1, 2, 0.5])  # singular
        m[4] = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
        return m
    if kind == "sm":
        return rng.normal(size=(n, 6, 6))
    if kind.startswith("edge"):
        # endpoints for closest_point_edge_edge, with parallel and degenerate cases
        j = int(kind[4:])
        pts = rng.normal(size=(n, 4, 3)) * 2.0
        k = n // 8
        # parallel edges
        d = rng.normal(size=(k, 3))
        pts[k : 2 * k, 1] = pts[k : 2 * k, 0] + d
        pts[k : 2 * k, 3] = pts[k : 2 * k, 2] + 0.5 * d
        # degenerate first / second / both
        pts[2 * k : 3 * k, 1] = pts[2 * k : 3 * k, 0]
        pts[3 * k : 4 * k, 3] = pts[3 * k : 4 * k, 2]
        pts[4 * k : 4 * k + 10, 1] = pts[4 * k : 4 * k + 10, 0]
        pts[4 * k : 4 * k + 10, 3] = pts[4 * k : 4 * k + 10, 2]
        # integer grid (exact cancellations)
        pts[5 * k : 6 * k] = np.round(pts[5 * k : 6 * k])
        pts[0] = [[0, 0, 0], [1, 0, 0], [0.5, 1, 1], [0.5, 1, -1]]
        return pts[:, j]
    if kind.startswith("tri"):
        j = int(kind[3:])
        key = ("tri", n)
        if key not in _cache:
            pts = rng.uniform(-1.0, 1.0, size=(n, 6, 3))
            k = n // 6
            # coplanar pairs (z = 0), on an integer grid so that distances are exact zeros
            pts[k : 2 * k] = np.round(pts[k : 2 * k] * 3)
            pts[k : 2 * k, :, 2] = 0.0
            pts[2 * k : 3 * k, :, 2] = 0.25  # coplanar, off-grid
            # shared vertices / touching
            pts[3 * k : 4 * k, 3] = pts[3 * k : 4 * k, 0]
            pts[4 * k : 5 * k] = np.round(pts[4 * k : 5 * k] * 2)
            pts[0] = [[0, 0, 0], [2, 0, 0], [0, 2, 0], [1, 1, -1], [1, 1, 1], [1, -1, 0]]
            _cache[key] = pts
        return _cache[key][:, j]
    raise KeyError(kind)


_cache = {}


# ---------------------------------------------------------------------------------------
# the comparison table: name[#variant], [(input generator, type key)], [output type keys],
# the prelude call and Warp's call (None: the plain call with the positional arguments;
# {0}, {1}, ... are the arguments, {S} the scalar type, STMT: a statement form writing OUT0)

SPECS = [
    ("quat_identity", [], ["q"], "P.quat_identity()", "wp.quat_identity(dtype={S})"),
    ("quat_from_axis_angle", [("axis", "v3"), ("f", "f")], ["q"], None, None),
    ("quat_to_axis_angle", [("qany", "q")], ["v3", "f"], None, None),
    ("quat_rpy", [("f", "f"), ("f", "f"), ("f", "f")], ["q"], None, None),
    ("quat_inverse", [("qany", "q")], ["q"], None, None),
    ("quat_rotate", [("qany", "q"), ("v3", "v3")], ["v3"], None, None),
    ("quat_rotate_inv", [("qany", "q"), ("v3", "v3")], ["v3"], None, None),
    ("quat_slerp", [("q", "q"), ("q", "q"), ("t01", "f")], ["q"], None, None),
    ("quat_to_matrix", [("qany", "q")], ["m33"], None, None),
    ("quat_from_matrix", [("rot33", "m33")], ["q"], None, None),
    ("quat_from_matrix#any", [("m33", "m33")], ["q"], None, None),
    ("quat_from_matrix#44", [("rot44", "m44")], ["q"], None, None),
    ("transform_identity", [], ["t"], "P.transform_identity()", "wp.transform_identity(dtype={S})"),
    ("transformation", [("v3", "v3"), ("q", "q")], ["t"], None, None),
    ("transformation#p", [("v3", "v3")], ["t"], None, None),
    ("transformation#7", [("f", "f")] * 7, ["t"], None, None),
    ("transformation#1", [("f", "f")], ["t"], None, "wp.transformation({0}, dtype={S})"),
    ("transformation#0", [], ["t"], "P.transformation()", "wp.transformation(dtype={S})"),
    ("transform_get_translation", [("t", "t")], ["v3"], None, None),
    ("transform_get_rotation", [("t", "t")], ["q"], None, None),
    ("transform_set_translation", [("t", "t"), ("v3", "v3")], ["t"],
     "P._transform_set_translation({0}, {1})",
     "STMT:x = {0}\n    wp.transform_set_translation(x, {1})\n    OUT0 = x"),
    ("transform_set_rotation", [("t", "t"), ("q", "q")], ["t"],
     "P._transform_set_rotation({0}, {1})",
     "STMT:x = {0}\n    wp.transform_set_rotation(x, {1})\n    OUT0 = x"),
    ("transform_multiply", [("t", "t"), ("t", "t")], ["t"], None, None),
    ("transform_point", [("t", "t"), ("v3", "v3")], ["v3"], None, None),
    ("transform_point#44", [("m44", "m44"), ("v3", "v3")], ["v3"], None, None),
    ("transform_vector", [("t", "t"), ("v3", "v3")], ["v3"], None, None),
    ("transform_vector#44", [("m44", "m44"), ("v3", "v3")], ["v3"], None, None),
    ("transform_inverse", [("t", "t")], ["t"], None, None),
    ("spatial_top", [("sv", "sv")], ["v3"], None, None),
    ("spatial_bottom", [("sv", "sv")], ["v3"], None, None),
    ("spatial_dot", [("sv", "sv"), ("sv", "sv")], ["f"], None, None),
    ("spatial_cross", [("sv", "sv"), ("sv", "sv")], ["sv"], None, None),
    ("spatial_cross_dual", [("sv", "sv"), ("sv", "sv")], ["sv"], None, None),
    ("spatial_adjoint", [("m33", "m33"), ("m33", "m33")], ["sm"], None, None),
    ("skew", [("v3", "v3")], ["m33"], None, None),
    ("determinant#22", [("m22", "m22")], ["f"], None, None),
    ("determinant#33", [("m33", "m33")], ["f"], None, None),
    ("determinant#44", [("m44", "m44")], ["f"], None, None),
    ("inverse#22", [("m22", "m22")], ["m22"], None, None),
    ("inverse#33", [("m33", "m33")], ["m33"], None, None),
    ("inverse#44", [("m44", "m44")], ["m44"], None, None),
    ("inverse_approx#22", [("m22", "m22")], ["m22"], None, None),
    ("inverse_approx#33", [("m33", "m33")], ["m33"], None, None),
    ("inverse_approx#44", [("m44", "m44")], ["m44"], None, None),
    ("svd2", [("m22", "m22")], ["m22", "v2", "m22"], None, None),
    ("svd3", [("m33", "m33")], ["m33", "v3", "m33"], None, None),
    ("qr3", [("m33", "m33")], ["m33", "m33"], None, None),
    ("eig3", [("sym33", "m33")], ["m33", "v3"], None, None),
    ("closest_point_edge_edge",
     [("edge0", "v3"), ("edge1", "v3"), ("edge2", "v3"), ("edge3", "v3"), ("eps", "f")],
     ["v3"], None, None),
    ("intersect_tri_tri", [("tri%d" % j, "v3") for j in range(6)], ["i"], None, None),
]

F32_ONLY = {"closest_point_edge_edge"}  # Warp has no float64 overload


def build_test_module(prec, specs):
    lines = ["import warp as wp", "import prelude_%s as P" % prec, ""]
    S = PLACEHOLDERS[prec]["Scalar"]
    for idx, (name, args, outs, mine, ref) in enumerate(specs):
        base = name.split("#")[0]
        params = []
        for j, (_, tk) in enumerate(args):
            params.append("a%d: wp.array(dtype=%s)" % (j, type_expr(tk, prec)))
        for side in ("m", "r"):
            for j, tk in enumerate(outs):
                params.append("%s%d: wp.array(dtype=%s)" % (side, j, type_expr(tk, prec)))
        argl = ["a%d[i]" % j for j in range(len(args))]
        mine = mine or "P.%s(%s)" % (base, ", ".join("{%d}" % j for j in range(len(args))))
        ref = ref or "wp.%s(%s)" % (base, ", ".join("{%d}" % j for j in range(len(args))))
        body = ["    i = wp.tid()"]
        for side, call in (("m", mine), ("r", ref)):
            call = call.replace("{S}", S).format(*argl)
            if call.startswith("STMT:"):
                body.append("    " + call[5:].replace("OUT0", "%s0[i]" % side))
            elif len(outs) == 1:
                body.append("    %s0[i] = %s" % (side, call))
            else:
                names = ", ".join("%s_%d" % (side, j) for j in range(len(outs)))
                body.append("    %s = %s" % (names, call))
                for j in range(len(outs)):
                    body.append("    %s%d[i] = %s_%d" % (side, j, side, j))
        lines.append("@wp.kernel")
        lines.append("def k%d(%s):" % (idx, ", ".join(params)))
        lines.extend(body)
        lines.append("")
    return load_module("test_%s" % prec, "\n".join(lines))


def type_expr(tk, prec):
    if tk == "i":
        return "wp.int32"
    return PLACEHOLDERS[prec][TYPES[tk][0]]


def compare(prec, n, seed=1):
    load_prelude(prec)  # imported by the test module as prelude_<prec>
    specs = [s for s in SPECS if not (prec == "float64" and s[0].split("#")[0] in F32_ONLY)]
    T = build_test_module(prec, specs)
    npf = np.float32 if prec == "float32" else np.float64
    rows = []
    for idx, (name, args, outs, _, _) in enumerate(specs):
        rng = np.random.default_rng(seed + idx)
        _cache.clear()
        ins = []
        for kind, tk in args:
            data = gen(kind, rng, n)
            ins.append(wp.array(np.asarray(data, dtype=np.int32 if tk == "i" else npf),
                                dtype=wp_type(tk, prec), device="cpu"))
        mo = [wp.empty(n, dtype=wp_type(tk, prec), device="cpu") for tk in outs]
        ro = [wp.empty(n, dtype=wp_type(tk, prec), device="cpu") for tk in outs]
        wp.launch(getattr(T, "k%d" % idx), dim=n, inputs=ins + mo + ro, device="cpu")
        max_abs = 0.0
        max_rel = 0.0
        differs = np.zeros(n, dtype=bool)
        for a, b in zip(mo, ro):
            x = a.numpy().reshape(n, -1).astype(np.float64)
            y = b.numpy().reshape(n, -1).astype(np.float64)
            same = (x == y) | (np.isnan(x) & np.isnan(y))
            differs |= ~np.all(same, axis=1)
            with np.errstate(invalid="ignore"):
                d = np.where(same, 0.0, np.abs(x - y))
            d = np.nan_to_num(d, nan=np.inf)
            max_abs = max(max_abs, float(d.max()) if d.size else 0.0)
            scale = np.maximum(np.abs(y).max(axis=1, keepdims=True), 1e-30)
            max_rel = max(max_rel, float((d / scale).max()) if d.size else 0.0)
        rows.append((name, max_abs, max_rel, int(differs.sum()), n))
    return rows


# ---------------------------------------------------------------------------------------
# doc pages


PAGES = [
    "closest_point_edge_edge", "eig3", "intersect_tri_tri", "intersect_tri_tri_1", "inverse",
    "inverse_approx", "qr3", "quat_rpy", "quat_slerp", "spatial_adjoint", "spatial_cross",
    "spatial_cross_dual", "spatial_dot", "spatial_top", "spatial_vector", "svd2", "svd3",
    "transform_get_translation", "transform_identity", "transform_inverse",
    "transform_multiply", "transform_point", "transform_point_1", "transform_set_translation",
    "transformation",
]


def parse_page(path):
    text = open(path).read()

    def block(tag):
        m = re.search(r"\.\. %s::\n\n(.*?)(?=\n\s*\.\. |\Z)" % tag, text, re.S)
        lines = m.group(1).rstrip().split("\n")
        ind = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
        return "\n".join(l[ind:] for l in lines)

    return block("testcode"), block("testoutput")


def prelude_names(P):
    return sorted(n for n, v in vars(P).items() if isinstance(v, wp.Function) and not n.startswith("_"))


def run_page(name, names, host=False):
    code, expected = parse_page(os.path.join(DOCS, name + ".rst"))
    # inside kernels (and with host=True also in the host lines), call the prelude instead
    # of Warp's builtins
    out_lines = []
    in_kernel = False
    for line in code.split("\n"):
        if line.startswith("@wp.kernel"):
            in_kernel = True
        elif line and not line[0].isspace() and not line.startswith(("def ", ")")):
            in_kernel = False
        if in_kernel or host:
            m = re.match(r"^(\s*)wp\.transform_set_(translation|rotation)\((\w+), (.*)\)$", line)
            if m:
                line = "%s%s = P._transform_set_%s(%s, %s)" % (m.group(1), m.group(3), m.group(2), m.group(3), m.group(4))
            for n in names:
                line = re.sub(r"\bwp\.%s\(" % n, "P.%s(" % n, line)
        out_lines.append(line)
    src = "import warp as wp\nimport numpy as np\nimport prelude_both as P\n" + "\n".join(out_lines) + "\n"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        load_module("page_%s_%d" % (name, host), src)
    # drop Warp's own "Module ... load on device ..." lines
    got = "\n".join(l for l in buf.getvalue().split("\n") if not l.startswith("Module ")).rstrip()

    def norm(t):
        return "\n".join(l.rstrip() for l in t.rstrip().split("\n"))

    return norm(got) == norm(expected), got, expected, src.count("P.")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--pages", action="store_true")
    ap.add_argument("--prec", default="float32,float64")
    a = ap.parse_args()

    wp.config.quiet = True
    wp.init()
    wp.set_device("cpu")

    for prec in [p for p in a.prec.split(",") if p]:
        rows = compare(prec, a.n)
        print("\n== %s: prelude vs Warp %s builtins (%d inputs each, CPU)" % (prec, wp.__version__, a.n))
        print("%-28s %12s %12s %10s" % ("function", "max abs", "max rel", "not exact"))
        for name, ma, mr, ne, n in rows:
            print("%-28s %12.3g %12.3g %6d/%d" % (name, ma, mr, ne, n))

    if a.pages:
        # both precisions in one module, as overloads of the same names; the float32
        # definitions come last so that the zero-argument functions are the float32 ones
        with open(PRELUDE) as f:
            src = f.read()
        P = load_module("prelude_both", substitute(src, "float64") + "\n" + substitute(src, "float32"))
        names = prelude_names(P)
        print("\n== doc pages, prelude substituted inside the kernels")
        bad = 0
        for host in (False, True):
            print("-- %s" % ("kernels and host lines" if host else "kernels only"))
            for page in PAGES:
                try:
                    ok, got, exp, nsub = run_page(page, names, host)
                except Exception as e:  # noqa: BLE001
                    ok, got, exp, nsub = False, "%s: %s" % (type(e).__name__, str(e).split(";")[-1]), "", 0
                print("%-28s %-8s (%d prelude calls)" % (page, "ok" if ok else "MISMATCH", nsub))
                if not ok:
                    bad += 1
                    print("--- expected\n%s\n--- got\n%s" % (exp, got))
        print("%d mismatches" % bad)


if __name__ == "__main__":
    main()
