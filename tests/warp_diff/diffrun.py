"""Running generated programs under tilec and Warp and comparing what they print: the part of
the differential tests (vec_diff.py, tile_diff.py) that does not depend on what is generated.

A test item is any object with `.idx` (an integer, the kernel's number), `.prec` ("f" or "d",
the precision its floats are compared in) and whatever its program writer needs. A program
prints one `R <idx> <outputs>` line per item; the lines of both sides are compared as text
(the printed lists are Python float reprs, so equal text is equal bits), then in ulp.
"""

import math
import os
import re
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TILEC = os.path.join(ROOT, "build", "tilec")
WARP_PY = os.environ.get("TILEC_WARP_PYTHON", os.path.join(ROOT, "build-bench", "warp-venv", "bin", "python"))


def run_one(cmd, path, env, timeout):
    try:
        p = subprocess.run(cmd + [path], capture_output=True, text=True, env=env, timeout=timeout,
                           cwd=os.path.dirname(path))
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return -999, e.stdout or "", "timeout after %ds" % timeout


def results_of(stdout):
    res = {}
    for line in stdout.splitlines() if isinstance(stdout, str) else []:
        m = re.match(r"R (\d+) (.*)$", line)
        if m:
            res[int(m.group(1))] = m.group(2)
    return res


def side_cmd(side):
    return [TILEC, "run"] if side == "tilec" else [WARP_PY]


def run_side(work, side, tag, items, cache, program):
    """{item index: (printed line or None, error or None, program path)} for one side. A
    program that fails or lacks lines is split: tilec (fast to start) one item a file at
    once, Warp (a module compile of seconds) in halves."""
    env = dict(os.environ)
    env["WARP_CACHE_PATH"] = cache
    path = os.path.join(work, "prog_%s.py" % tag)
    with open(path, "w") as f:
        f.write(program(items))
    rc, out, err = run_one(side_cmd(side), path, env, 600)
    got = results_of(out)
    res = {k.idx: (got[k.idx], None, path) for k in items if k.idx in got}
    missing = [k for k in items if k.idx not in got]
    if not missing:
        return res
    if len(items) == 1:
        return {items[0].idx: (None, (rc, err), path)}
    if side == "tilec" or len(missing) == 1:
        parts = [[k] for k in missing]
    else:
        h = len(missing) // 2
        parts = [missing[:h], missing[h:]]
    for p in parts:
        sub = "%s_%s_k%03d" % (side[0], tag, p[0].idx) if len(p) > 1 else "k%03d" % p[0].idx
        res.update(run_side(work, side, sub, p, cache, program))
    return res


def run_group(work, tag, items, cache, program):
    """Both sides of one program file: {idx: (tilec line, Warp line, tilec error, Warp error, path)}."""
    tr = run_side(work, "tilec", tag, items, cache, program)
    wr = run_side(work, "warp", tag, items, cache, program)
    out = {}
    for k in items:
        ts, terr, tpath = tr[k.idx]
        ws, werr, wpath = wr[k.idx]
        out[k.idx] = (ts, ws, terr, werr, tpath if terr else wpath)
    return out


def parse_vals(s):
    s = s.replace("] [", "], [")  # several outputs: print's separating spaces
    s = re.sub(r"\bnan\b", "float('nan')", s)
    s = re.sub(r"\binf\b", "float('inf')", s)
    v = eval("[" + s + "]", {"float": float})
    flat = []

    def rec(a):
        if isinstance(a, (list, tuple)):
            for x in a:
                rec(x)
        else:
            flat.append(a)
    rec(v)
    return flat


def ordered(x, prec):
    """Float to an integer where adjacent floats differ by one (both zeros map to 0)."""
    if prec == "f":
        i = int(np.array(x, dtype=np.float32).view(np.int32))
        return i if i >= 0 else -(i & 0x7FFFFFFF)
    i = int(np.array(x, dtype=np.float64).view(np.int64))
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def compare(prec, ts, ws, ulps=2):
    """(class, max ulp, max abs diff, max rel diff): "identical", "sign of zero", "within N ulp"
    (N = `ulps`) or "different"."""
    if ts == ws:
        return "identical", 0, 0.0, 0.0
    try:
        a, b = parse_vals(ts), parse_vals(ws)
    except Exception:
        return "different", None, None, None
    if len(a) != len(b):
        return "different", None, None, None
    ulp, absd, reld = 0, 0.0, 0.0
    signzero = False
    for x, y in zip(a, b):
        if isinstance(x, int) and isinstance(y, int):
            if x != y:
                return "different", None, None, None
            continue
        x, y = float(x), float(y)
        if math.isnan(x) or math.isnan(y):
            if not (math.isnan(x) and math.isnan(y)):
                return "different", None, None, None
            continue
        if x == y:
            if math.copysign(1, x) != math.copysign(1, y):
                signzero = True
            continue
        if math.isinf(x) or math.isinf(y):
            return "different", None, None, None
        ulp = max(ulp, abs(ordered(x, prec) - ordered(y, prec)))
        absd = max(absd, abs(x - y))
        reld = max(reld, abs(x - y) / max(abs(x), abs(y)))
    if ulp == 0 and signzero:
        return "sign of zero", 0, 0.0, 0.0
    if ulp <= ulps:
        return "within %d ulp" % ulps, ulp, absd, reld
    return "different", ulp, absd, reld


def first_error_line(err):
    lines = [l for l in err.splitlines() if l.strip() and "CUDA driver" not in l and "Warp CUDA warning" not in l]
    for l in lines:
        if l.startswith(";"):  # Warp's codegen message
            return l[1:].strip()
    for l in lines:
        if re.search(r"error|Error|rejected|not supported|not available", l):
            return l.strip()
    return lines[-1].strip() if lines else "(no message)"
