"""Check frontend/sema/prelude/random.tile against real Warp (not part of CI).

Run with the Warp 1.19 virtual environment:

    build-bench/warp-venv/bin/python tests/prelude/random_vs_warp.py [--n 2000] [--pages]
        [--cpu-flags "-march=native"]

The prelude is Warp syntax with concrete types. This script renames its public functions
(rand_init -> tl_rand_init, ...) so that they cannot be mistaken for Warp's builtins, writes
the result as a Python module in a temporary directory, imports it with Warp, and launches
CPU kernels that call both the prelude function and Warp's builtin on the same states and
inputs. The in-place builtins (randf(state) ...) are compared through their helpers
`_inplace_randf(state) -> (new state, value)`: each thread draws several values in a row from
rand_init(seed, tid), so the streams and the final states are compared too. Floats are
compared as their uint32 bit patterns; the table gives, per function, how many results are
not bit-identical, the largest difference in units in the last place and in absolute value.

With --pages it also runs the testcode blocks of noise.rst, pnoise.rst and curlnoise.rst in
/work/shared/warp-docs with the prelude functions substituted for Warp's inside the kernels,
compares the printed output with the testoutput block, and the arrays the page computes
with those of the unmodified page, bit for bit.

--cpu-flags sets wp.config.cpu_compiler_flags (Warp's default is "-march=native", which lets
clang fuse multiply-adds inside Warp's native C++ expressions on a CPU with FMA; "" compiles
for baseline x86-64, without FMA).
"""

import argparse
import ast
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
PRELUDE = os.path.join(ROOT, "frontend", "sema", "prelude", "random.tile")
DOCS = "/work/shared/warp-docs"
PREFIX = "tl_"

TMP = tempfile.mkdtemp(prefix="random_vs_warp_")
sys.path.insert(0, TMP)


def load_module(name, text):
    path = os.path.join(TMP, name + ".py")
    with open(path, "w") as f:
        f.write(text)
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def public_names(src):
    return sorted({m for m in re.findall(r"^def (\w+)\(", src, re.M) if not m.startswith("_")})


def load_prelude():
    with open(PRELUDE) as f:
        src = f.read()
    names = public_names(src)
    for n in names:
        # definitions and bare calls, not wp.<name> (Warp's builtin) nor _<name>
        src = re.sub(r"(?<![\w.])%s\(" % n, PREFIX + n + "(", src)
    return load_module("random_prelude", src + default_overloads(src)), names


def default_overloads(src):
    """Warp resolves no default arguments of overloaded @wp.func's (tilec does): for each
    function with defaults, add the overloads without the trailing defaulted parameters."""
    out = []
    for fd in ast.parse(src).body:
        if not isinstance(fd, ast.FunctionDef) or not fd.args.defaults:
            continue
        params = fd.args.args
        nd = len(fd.args.defaults)
        ret = " -> %s" % ast.unparse(fd.returns) if fd.returns else ""
        for keep in range(len(params) - nd, len(params)):
            sig = ", ".join("%s: %s" % (a.arg, ast.unparse(a.annotation)) for a in params[:keep])
            call = [a.arg for a in params[:keep]]
            for a, d in zip(params[keep:], fd.args.defaults[keep - (len(params) - nd):]):
                call.append("%s(%s)" % (ast.unparse(a.annotation), ast.unparse(d)))
            out.append("\n\n@wp.func\ndef %s(%s)%s:\n    return %s(%s)\n" % (
                fd.name, sig, ret, fd.name, ", ".join(call)))
    return "".join(out)


# ---------------------------------------------------------------------------------------
# inputs


def gen(kind, rng, n):
    if kind == "seed":
        v = rng.integers(-(2**31), 2**31, size=n, dtype=np.int64)
        v[:8] = [0, 1, -1, 42, 2**31 - 1, -(2**31), 12345, 7]
        return v.astype(np.int32)
    if kind == "lowhigh":  # (low, high) with high > low, also spans that overflow nothing
        lo = rng.integers(-1000, 1000, size=n)
        hi = lo + rng.integers(1, 3000, size=n)
        big = n // 4
        lo[:big] = rng.integers(-(2**30), 2**30, size=big)
        hi[:big] = lo[:big] + rng.integers(1, 2**30, size=big)
        lo[0], hi[0] = 0, 1
        lo[1], hi[1] = -5, 5
        lo[2], hi[2] = -(2**31), 2**31 - 1
        return lo.astype(np.int32), hi.astype(np.int32)
    if kind == "ulowhigh":
        lo = rng.integers(0, 2**31, size=n, dtype=np.int64)
        hi = lo + rng.integers(1, 2**31, size=n, dtype=np.int64)
        lo[0], hi[0] = 0, 2**32 - 1
        lo[1], hi[1] = 0, 1
        return lo.astype(np.uint32), hi.astype(np.uint32)
    if kind == "flowhigh":
        lo = rng.uniform(-10, 10, size=n)
        hi = lo + rng.uniform(0, 20, size=n)
        lo[0], hi[0] = 0.0, 1.0
        lo[1], hi[1] = -1.0, 1.0
        lo[2], hi[2] = 3.0, 3.0
        return lo.astype(np.float32), hi.astype(np.float32)
    if kind.startswith("coord"):  # coordinates, d components; "coordp": non-negative
        d = int(kind[-1])
        pos = kind.startswith("coordp")
        lo = 0.0 if pos else -40.0
        v = rng.uniform(lo, 40.0, size=(n, d))
        k = n // 8
        v[k : 2 * k] = np.round(v[k : 2 * k])  # lattice points
        v[2 * k : 3 * k] = np.round(v[2 * k : 3 * k]) + rng.choice([1e-6, -1e-6, 0.5], size=(k, d))
        v[3 * k : 4 * k] *= rng.choice([1e-3, 1e2, 1e4], size=(k, 1))  # small and large
        v[4 * k : 4 * k + 10] = rng.uniform(0, 1, size=(10, d))
        if not pos:
            v[5 * k : 5 * k + 10] = -0.0
        v[0] = 0.0
        if pos:
            v = np.abs(v)
        return v.astype(np.float32).reshape(n) if d == 1 else v.astype(np.float32)
    if kind == "lam":
        v = np.concatenate([rng.uniform(0.01, 10.0, size=n - n // 2), rng.uniform(10.0, 500.0, size=n // 2)])
        v[:6] = [0.0, 10.0, 9.999999, 1.0, 1e-6, 1e4]
        return v.astype(np.float32)
    if kind == "period":
        return rng.integers(1, 9, size=n).astype(np.int32)
    if kind == "octaves":
        v = rng.integers(0, 6, size=n).astype(np.uint32)
        v[:2] = [1, 0]
        return v
    if kind == "lacunarity":
        v = rng.uniform(1.0, 3.0, size=n).astype(np.float32)
        v[0] = 2.0
        return v
    if kind == "gain":
        v = rng.uniform(0.1, 0.9, size=n).astype(np.float32)
        v[0] = 0.5
        return v
    raise KeyError(kind)


# ---------------------------------------------------------------------------------------
# the comparison table
#   (label, builtin, kind, extra argument kinds, value type)
# kind: "init1"/"init2" rand_init; "draw" an in-place builtin compared over DRAWS draws;
# "field" noise-like (state by value) with its extra arguments.

DRAWS = 6

SPECS = [
    ("rand_init(seed)", "rand_init", "init1", [], "u32"),
    ("rand_init(seed, offset)", "rand_init", "init2", [], "u32"),
    ("randi(state)", "randi", "draw", [], "i32"),
    ("randi(state, low, high)", "randi", "draw", ["lowhigh"], "i32"),
    ("randu(state)", "randu", "draw", [], "u32"),
    ("randu(state, low, high)", "randu", "draw", ["ulowhigh"], "u32"),
    ("randf(state)", "randf", "draw", [], "f"),
    ("randf(state, low, high)", "randf", "draw", ["flowhigh"], "f"),
    ("randn(state)", "randn", "draw", [], "f"),
    ("sample_cdf(state, cdf)", "sample_cdf", "cdf", [], "i32"),
    ("sample_triangle", "sample_triangle", "draw", [], "v2"),
    ("sample_unit_ring", "sample_unit_ring", "draw", [], "v2"),
    ("sample_unit_disk", "sample_unit_disk", "draw", [], "v2"),
    ("sample_unit_sphere_surface", "sample_unit_sphere_surface", "draw", [], "v3"),
    ("sample_unit_sphere", "sample_unit_sphere", "draw", [], "v3"),
    ("sample_unit_hemisphere_surface", "sample_unit_hemisphere_surface", "draw", [], "v3"),
    ("sample_unit_hemisphere", "sample_unit_hemisphere", "draw", [], "v3"),
    ("sample_unit_square", "sample_unit_square", "draw", [], "v2"),
    ("sample_unit_cube", "sample_unit_cube", "draw", [], "v3"),
    ("poisson(state, lam)", "poisson", "draw", ["lam"], "u32"),
    ("noise(state, x)", "noise", "field", ["coord1"], "f"),
    ("noise(state, xy)", "noise", "field", ["coord2"], "f"),
    ("noise(state, xyz)", "noise", "field", ["coord3"], "f"),
    ("noise(state, xyzt)", "noise", "field", ["coord4"], "f"),
    ("pnoise(state, x, px)", "pnoise", "field", ["coordp1", "period"], "f"),
    ("pnoise(state, xy, px, py)", "pnoise", "field", ["coordp2"] + ["period"] * 2, "f"),
    ("pnoise(state, xyz, px, py, pz)", "pnoise", "field", ["coordp3"] + ["period"] * 3, "f"),
    ("pnoise(state, xyzt, px..pt)", "pnoise", "field", ["coordp4"] + ["period"] * 4, "f"),
    ("curlnoise(state, xy)", "curlnoise", "field", ["coord2"], "v2"),
    ("curlnoise(state, xy, o, l, g)", "curlnoise", "field",
     ["coord2", "octaves", "lacunarity", "gain"], "v2"),
    ("curlnoise(state, xyz)", "curlnoise", "field", ["coord3"], "v3"),
    ("curlnoise(state, xyz, o, l, g)", "curlnoise", "field",
     ["coord3", "octaves", "lacunarity", "gain"], "v3"),
    ("curlnoise(state, xyzt)", "curlnoise", "field", ["coord4"], "v3"),
    ("curlnoise(state, xyzt, o, l, g)", "curlnoise", "field",
     ["coord4", "octaves", "lacunarity", "gain"], "v3"),
]

WP_TYPE = {"u32": "wp.uint32", "i32": "wp.int32", "f": "wp.float32", "v2": "wp.vec2",
           "v3": "wp.vec3", "v4": "wp.vec4"}
ARG_TYPE = {"coord1": "wp.float32", "coord2": "wp.vec2", "coord3": "wp.vec3", "coord4": "wp.vec4",
            "coordp1": "wp.float32", "coordp2": "wp.vec2", "coordp3": "wp.vec3",
            "coordp4": "wp.vec4", "period": "wp.int32", "octaves": "wp.uint32",
            "lacunarity": "wp.float32", "gain": "wp.float32"}
PAIR_TYPE = {"lowhigh": "wp.int32", "ulowhigh": "wp.uint32", "flowhigh": "wp.float32"}


def kernel_source(idx, spec):
    label, name, kind, extra, vt = spec
    T = WP_TYPE[vt]
    p = ["seeds: wp.array(dtype=wp.int32)", "offs: wp.array(dtype=wp.int32)"]
    argl = []
    if kind == "draw" and extra == ["lam"]:
        p.append("lam: wp.array(dtype=wp.float32)")
        argl = ["lam[i]"]
    elif kind == "draw" and extra:
        pt = PAIR_TYPE[extra[0]]
        p += ["lo: wp.array(dtype=%s)" % pt, "hi: wp.array(dtype=%s)" % pt]
        argl = ["lo[i]", "hi[i]"]
    if kind == "field":
        for j, e in enumerate(extra):
            p.append("a%d: wp.array(dtype=%s)" % (j, ARG_TYPE[e]))
            argl.append("a%d[i]" % j)
    if kind == "cdf":
        p.append("cdf: wp.array(dtype=wp.float32)")
        argl = ["cdf"]
    p += ["m: wp.array(dtype=%s)" % T, "r: wp.array(dtype=%s)" % T,
          "ms: wp.array(dtype=wp.uint32)", "rs: wp.array(dtype=wp.uint32)"]
    a = "".join(", " + x for x in argl)
    b = ["    i = wp.tid()"]
    if kind == "init1":
        b += ["    m[i] = P.tl_rand_init(seeds[i])", "    r[i] = wp.rand_init(seeds[i])"]
    elif kind == "init2":
        b += ["    m[i] = P.tl_rand_init(seeds[i], offs[i])",
              "    r[i] = wp.rand_init(seeds[i], offs[i])"]
    elif kind in ("draw", "cdf"):
        b += ["    sr = wp.rand_init(seeds[i], offs[i])", "    sm = sr",
              "    for k in range(%d):" % DRAWS,
              "        r[i * %d + k] = wp.%s(sr%s)" % (DRAWS, name, a),
              "        sm, v = P._inplace_%s(sm%s)" % (name, a),
              "        m[i * %d + k] = v" % DRAWS,
              "    ms[i] = sm", "    rs[i] = sr"]
    else:
        b += ["    st = wp.rand_init(seeds[i])",
              "    m[i] = P.tl_%s(st%s)" % (name, a), "    r[i] = wp.%s(st%s)" % (name, a)]
    return "@wp.kernel\ndef k%d(%s):\n%s\n" % (idx, ", ".join(p), "\n".join(b))


def bits(x):
    x = np.ascontiguousarray(x)
    if x.dtype == np.float32:
        return x.view(np.uint32)
    return x


def ulp_diff(a, b):
    """|a - b| in float32 ulps via ordered integer mapping (signed zero differs by 1)."""
    def ordered(x):
        i = x.view(np.int32).astype(np.int64)
        return np.where(i < 0, -1 - (i + 2**31), i)
    return np.abs(ordered(a) - ordered(b))


def compare(n, seed=1):
    load_prelude()
    src = "import warp as wp\nimport random_prelude as P\n\n" + "\n".join(
        kernel_source(i, s) for i, s in enumerate(SPECS))
    T = load_module("random_test", src)
    rows = []
    for idx, spec in enumerate(SPECS):
        label, name, kind, extra, vt = spec
        rng = np.random.default_rng(seed + idx)
        seeds = gen("seed", rng, n)
        offs = gen("seed", rng, n)
        offs[: n // 2] = np.arange(n // 2)
        ins = [wp.array(seeds, dtype=wp.int32), wp.array(offs, dtype=wp.int32)]
        if kind == "draw" and extra == ["lam"]:
            ins.append(wp.array(gen("lam", rng, n), dtype=wp.float32))
        elif kind == "draw" and extra:
            lo, hi = gen(extra[0], rng, n)
            ins += [wp.array(lo, dtype=eval(PAIR_TYPE[extra[0]])),
                    wp.array(hi, dtype=eval(PAIR_TYPE[extra[0]]))]
        if kind == "field":
            for e in extra:
                ins.append(wp.array(gen(e, rng, n), dtype=eval(ARG_TYPE[e])))
        if kind == "cdf":
            w = rng.uniform(0, 1, size=37)
            w[5] = 0.0
            c = np.cumsum(w) / w.sum()
            ins.append(wp.array(c.astype(np.float32), dtype=wp.float32))
        nv = n * DRAWS if kind in ("draw", "cdf") else n
        dt = eval(WP_TYPE[vt])
        m = wp.zeros(nv, dtype=dt)
        r = wp.zeros(nv, dtype=dt)
        ms = wp.zeros(n, dtype=wp.uint32)
        rs = wp.zeros(n, dtype=wp.uint32)
        wp.launch(getattr(T, "k%d" % idx), dim=n, inputs=ins + [m, r, ms, rs])
        x = m.numpy().reshape(nv, -1)
        y = r.numpy().reshape(nv, -1)
        differs = np.any(bits(x) != bits(y), axis=1)
        if kind in ("draw", "cdf"):
            st_bad = int(np.sum(ms.numpy() != rs.numpy()))
        else:
            st_bad = None
        if x.dtype == np.float32:
            ulps = int(ulp_diff(x, y).max()) if nv else 0
            with np.errstate(invalid="ignore"):
                d = np.abs(x.astype(np.float64) - y.astype(np.float64))
            d = np.where(bits(x) == bits(y), 0.0, np.nan_to_num(d, nan=np.inf))
            mabs = float(d.max())
        else:
            ulps = None
            mabs = float(np.abs(x.astype(np.int64) - y.astype(np.int64)).max())
        rows.append((label, int(differs.sum()), nv, ulps, mabs, st_bad))
    return rows


# ---------------------------------------------------------------------------------------
# doc pages

PAGES = ["noise", "pnoise", "curlnoise"]


def parse_page(path):
    text = open(path).read()

    def block(tag):
        m = re.search(r"\.\. %s::\n\n(.*?)(?=\n\s*\.\. |\Z)" % tag, text, re.S)
        if not m:
            return None
        lines = m.group(1).rstrip().split("\n")
        ind = min(len(l) - len(l.lstrip()) for l in lines if l.strip())
        return "\n".join(l[ind:] for l in lines)

    return block("testcode"), block("testoutput")


def run_page(name, names, substitute):
    code, expected = parse_page(os.path.join(DOCS, name + ".rst"))
    out_lines = []
    in_kernel = False
    nsub = 0
    for line in code.split("\n"):
        if line.startswith("@wp.kernel"):
            in_kernel = True
        elif line and not line[0].isspace() and not line.startswith(("def ", ")")):
            in_kernel = False
        if in_kernel and substitute:
            for n in names:
                line, k = re.subn(r"\bwp\.%s\(" % n, "P.%s%s(" % (PREFIX, n), line)
                nsub += k
        out_lines.append(line)
    src = ("import warp as wp\nimport numpy as np\nimport random_prelude as P\n"
           + "\n".join(out_lines) + "\n")
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        mod = load_module("page_%s_%d" % (name, substitute), src)
    got = "\n".join(l for l in buf.getvalue().split("\n") if not l.startswith("Module ")).rstrip()
    arrays = {k: v.numpy() for k, v in vars(mod).items() if isinstance(v, wp.array)}
    return got, expected, arrays, nsub


def check_pages(names):
    bad = 0
    for page in PAGES:
        try:
            got_m, exp, arr_m, nsub = run_page(page, names, True)
            got_r, _, arr_r, _ = run_page(page, names, False)
        except Exception as e:  # noqa: BLE001
            print("%-12s ERROR %s: %s" % (page, type(e).__name__, e))
            bad += 1
            continue
        norm = lambda t: "\n".join(l.rstrip() for l in (t or "").rstrip().split("\n"))
        ok_out = norm(got_m) == norm(exp if exp is not None else got_r)
        diffs = [k for k in arr_r if not np.array_equal(bits(arr_m[k]), bits(arr_r[k]))]
        ok = ok_out and not diffs and nsub > 0
        bad += not ok
        print("%-12s %-8s (%d prelude calls; arrays %s%s)" % (
            page, "ok" if ok else "MISMATCH", nsub, ", ".join(sorted(arr_r)),
            "" if not diffs else "; differ: " + ", ".join(diffs)))
        if not ok_out:
            print("--- expected\n%s\n--- got\n%s" % (exp, got_m))
    print("%d page mismatches" % bad)
    return bad


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--pages", action="store_true")
    ap.add_argument("--cpu-flags", default=None)
    a = ap.parse_args()

    wp.config.quiet = True
    if a.cpu_flags is not None:
        wp.config.cpu_compiler_flags = a.cpu_flags
    wp.init()
    wp.set_device("cpu")

    rows = compare(a.n)
    print("\n== random.tile vs Warp %s builtins (%d threads, %d draws each for in-place ones, "
          "CPU, cpu_compiler_flags=%r)" % (wp.__version__, a.n, DRAWS, wp.config.cpu_compiler_flags))
    print("%-32s %14s %9s %12s %12s" % ("function", "not exact", "max ulp", "max abs", "state diff"))
    total = 0
    for label, ne, nv, ulps, mabs, st in rows:
        total += ne + (st or 0)
        print("%-32s %7d/%-6d %9s %12.3g %12s" % (
            label, ne, nv, "-" if ulps is None else ulps, mabs, "-" if st is None else st))
    print("%d differences in all" % total)

    if a.pages:
        _, names = load_prelude()
        print("\n== doc pages, prelude substituted inside the kernels")
        total += check_pages(names)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
