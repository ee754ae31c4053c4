"""Run random.tile's functions through tilec and compare with Warp 1.19 (not part of CI).

    build-bench/warp-venv/bin/python tests/prelude/random_tilec_vs_warp.py [--n 300]
        [--tilec build/tilec] [--mode user|builtin]

Writes one test program per side, with the same inputs written into it as literals:
- the reference: kernels calling Warp's builtins (wp.randf(state) updating state in place),
  run by Warp's CPU device;
- --mode user (default): random.tile pasted in as a user module (public functions renamed
  tl_<name>, overloads renamed <name>__<k> since user modules do not overload), kernels
  calling those, run with `tilec run --device cpu`. This tests tilec's compilation of the
  prelude's code before the prelude is wired in;
- --mode builtin: the reference program itself, run by tilec (for when tilec's wp.randf, ...
  come from the prelude).
Both print their outputs as exact float/int lists; the table counts results that differ.
"""

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
import random_vs_warp as R  # noqa: E402  (specs and input generators)

PRELUDE = R.PRELUDE
TYPE_OF_ARG = {"coord1": "float", "coord2": "wp.vec2", "coord3": "wp.vec3", "coord4": "wp.vec4",
               "coordp1": "float", "coordp2": "wp.vec2", "coordp3": "wp.vec3",
               "coordp4": "wp.vec4"}


def user_prelude():
    """random.tile as a user module, and {(name, nargs, type of 2nd param): new name}."""
    src = open(PRELUDE).read()
    for n in R.public_names(src):
        src = re.sub(r"(?<![\w.])%s\(" % n, "tl_" + n + "(", src)
    tree = ast.parse(src)
    defs = {}
    for fd in tree.body:
        if isinstance(fd, ast.FunctionDef):
            defs.setdefault(fd.name, []).append(fd)
    lines = src.split("\n")
    table = {}
    by_arity = {}
    for name, fds in defs.items():
        for k, fd in enumerate(fds):
            new = name if len(fds) == 1 else "%s__%d" % (name, k)
            if len(fds) > 1:
                lines[fd.lineno - 1] = lines[fd.lineno - 1].replace("def %s(" % name, "def %s(" % new)
            a = fd.args.args
            t2 = ast.unparse(a[1].annotation) if len(a) > 1 else None
            nreq = len(a) - len(fd.args.defaults)
            for m in range(nreq, len(a) + 1):
                table[(name, m, t2)] = new
                by_arity.setdefault(name, {})[m] = new
    out = "\n".join(lines)
    # internal calls of overloads: distinguished by argument count in random.tile
    edits = []
    for node in ast.walk(ast.parse(out)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            n = node.func.id
            if n in defs and len(defs[n]) > 1:
                edits.append((node.func.lineno, node.func.col_offset, n, by_arity[n][len(node.args)]))
    L = out.split("\n")
    for ln, col, old, new in sorted(edits, reverse=True):
        L[ln - 1] = L[ln - 1][:col] + new + L[ln - 1][col + len(old):]
    return "\n".join(L), table


def lit(a):
    return repr(np.asarray(a).tolist())


def build(specs, n, mode, table):
    """The program text: inputs, one kernel per spec, launches, prints."""
    K = R.DRAWS
    kern, host = [], []
    for idx, (label, name, kind, extra, vt) in enumerate(specs):
        rng = np.random.default_rng(1 + idx)
        seeds = R.gen("seed", rng, n)
        offs = R.gen("seed", rng, n)
        offs[: n // 2] = np.arange(n // 2)
        p = ["seeds: wp.array(dtype=wp.int32)", "offs: wp.array(dtype=wp.int32)"]
        ins = ["wp.array(%s, dtype=wp.int32)" % lit(seeds), "wp.array(%s, dtype=wp.int32)" % lit(offs)]
        argl = []
        t2 = None
        if kind == "draw" and extra == ["lam"]:
            p.append("lam: wp.array(dtype=wp.float32)")
            ins.append("wp.array(%s, dtype=wp.float32)" % lit(R.gen("lam", rng, n)))
            argl = ["lam[i]"]
        elif kind == "draw" and extra:
            pt = R.PAIR_TYPE[extra[0]]
            lo, hi = R.gen(extra[0], rng, n)
            p += ["lo: wp.array(dtype=%s)" % pt, "hi: wp.array(dtype=%s)" % pt]
            ins += ["wp.array(%s, dtype=%s)" % (lit(lo), pt), "wp.array(%s, dtype=%s)" % (lit(hi), pt)]
            argl = ["lo[i]", "hi[i]"]
        if kind == "field":
            for j, e in enumerate(extra):
                t = R.ARG_TYPE[e]
                p.append("a%d: wp.array(dtype=%s)" % (j, t))
                ins.append("wp.array(%s, dtype=%s)" % (lit(R.gen(e, rng, n)), t))
                argl.append("a%d[i]" % j)
            t2 = TYPE_OF_ARG[extra[0]]
        if kind == "cdf":
            w = rng.uniform(0, 1, size=37)
            w[5] = 0.0
            c = (np.cumsum(w) / w.sum()).astype(np.float32)
            p.append("cdf: wp.array(dtype=wp.float32)")
            ins.append("wp.array(%s, dtype=wp.float32)" % lit(c))
            argl = ["cdf"]
            t2 = "wp.array(dtype=float)"
        nv = n * K if kind in ("draw", "cdf") else n
        T = R.WP_TYPE[vt]
        p += ["m: wp.array(dtype=%s)" % T, "ms: wp.array(dtype=wp.uint32)"]
        a = "".join(", " + x for x in argl)
        na = 1 + len(argl)
        b = ["    i = wp.tid()"]
        if mode == "user":
            init1 = table[("tl_rand_init", 1, None)]
            init2 = table[("tl_rand_init", 2, "int")]
        if kind == "init1":
            b.append("    m[i] = %s(seeds[i])" % (init1 if mode == "user" else "wp.rand_init"))
        elif kind == "init2":
            b.append("    m[i] = %s(seeds[i], offs[i])" % (init2 if mode == "user" else "wp.rand_init"))
        elif kind in ("draw", "cdf"):
            b += ["    s = %s(seeds[i], offs[i])" % (init2 if mode == "user" else "wp.rand_init"),
                  "    for k in range(%d):" % K]
            if mode == "user":
                f = table[("_inplace_" + name, na, t2 if kind == "cdf" else
                           ({"lowhigh": "int", "ulowhigh": "wp.uint32", "flowhigh": "float", "lam": "float"}[extra[0]]
                            if extra else None))]
                b += ["        s, v = %s(s%s)" % (f, a), "        m[i * %d + k] = v" % K]
            else:
                b += ["        m[i * %d + k] = wp.%s(s%s)" % (K, name, a)]
            b.append("    ms[i] = s")
        else:
            b.append("    st = %s(seeds[i])" % (init1 if mode == "user" else "wp.rand_init"))
            f = table[("tl_" + name, na, t2)] if mode == "user" else "wp." + name
            b.append("    m[i] = %s(st%s)" % (f, a))
        kern.append("@wp.kernel\ndef k%d(%s):\n%s\n" % (idx, ", ".join(p), "\n".join(b)))
        host += ["m = wp.zeros(%d, dtype=%s)" % (nv, T), "ms = wp.zeros(%d, dtype=wp.uint32)" % n,
                 "wp.launch(k%d, dim=%d, inputs=[%s, m, ms])" % (idx, n, ", ".join(ins)),
                 "print('R%d', m.numpy().tolist())" % idx, "print('S%d', ms.numpy().tolist())" % idx]
    return "\n\n".join(kern) + "\n\n" + "\n".join(host) + "\n"


def parse(out):
    res = {}
    for line in out.split("\n"):
        m = re.match(r"^([RS]\d+) (.*)$", line)
        if m:
            res[m.group(1)] = ast.literal_eval(m.group(2))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--tilec", default=os.path.join(ROOT, "build", "tilec"))
    ap.add_argument("--mode", default="user", choices=["user", "builtin"])
    ap.add_argument("--python", default=sys.executable)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="random_tilec_")
    specs = R.SPECS
    head = "import numpy as np\nimport warp as wp\n\n"
    ref = head + build(specs, a.n, "builtin", None)
    if a.mode == "user":
        prel, table = user_prelude()
        mine = prel.replace("import warp as wp\n", head, 1) + "\n\n" + build(specs, a.n, "user", table)
    else:
        mine = ref
    rp, mp = os.path.join(tmp, "ref.py"), os.path.join(tmp, "mine.py")
    open(rp, "w").write(ref.replace(head, head + "wp.config.quiet = True\nwp.set_device('cpu')\n", 1))
    open(mp, "w").write(mine)
    r = subprocess.run([a.python, rp], capture_output=True, text=True)
    if r.returncode:
        sys.exit("Warp failed:\n" + r.stderr[-3000:])
    t = subprocess.run([a.tilec, "run", mp, "--device", "cpu"], capture_output=True, text=True)
    if t.returncode:
        sys.exit("tilec failed (%d), program in %s:\n%s%s" % (t.returncode, mp, t.stdout[-2000:], t.stderr[-3000:]))
    R_, T_ = parse(r.stdout), parse(t.stdout)
    print("== %s tilec (%s mode) vs Warp builtins, %d threads, CPU; program %s" % (a.tilec, a.mode, a.n, mp))
    print("%-32s %14s %12s" % ("function", "not exact", "state diff"))
    total = 0
    for idx, (label, name, kind, extra, vt) in enumerate(specs):
        x, y = T_.get("R%d" % idx), R_["R%d" % idx]
        if x is None:
            print("%-32s missing" % label)
            total += 1
            continue
        x, y = np.array(x, dtype=object).reshape(len(y), -1), np.array(y, dtype=object).reshape(len(y), -1)
        # exact float compare, signed zeros and NaNs by their bits
        def key(v):
            return repr(v)
        bad = sum(1 for i in range(len(y)) if [key(v) for v in x[i]] != [key(v) for v in y[i]])
        st = None
        if kind in ("draw", "cdf"):
            st = sum(1 for u, v in zip(T_["S%d" % idx], R_["S%d" % idx]) if u != v)
        total += bad + (st or 0)
        print("%-32s %7d/%-6d %12s" % (label, bad, len(y), "-" if st is None else st))
    print("%d differences in all" % total)
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
