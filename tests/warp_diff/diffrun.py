"""Running generated programs under tilec and Warp and comparing what they print: the part of
the differential tests (vec_diff.py, tile_diff.py) that does not depend on what is generated.

A test item is any object with `.idx` (an integer, the kernel's number), `.prec` ("f" or "d",
the precision its floats are compared in) and whatever its program writer needs. A program
prints one `R <idx> <outputs>` line per item; the lines of both sides are compared as text
(the printed lists are Python float reprs, so equal text is equal bits), then in ulp.
"""

import concurrent.futures
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
TILEC = os.environ.get("TILEC_BIN", os.path.join(ROOT, "build", "tilec"))
WARP_PY = os.environ.get("TILEC_WARP_PYTHON", os.path.join(ROOT, "build-bench", "warp-venv", "bin", "python"))


def program_text(kernels, host_lines):
    """One program file: the kernels' definitions, then each kernel's host lines."""
    src = ["import numpy as np", "import warp as wp", "", "wp.config.quiet = True", ""]
    for k in kernels:
        src += [k.text]
    for k in kernels:
        src += host_lines(k)
    return "\n".join(src) + "\n"


def generate(count, seed, ops, gen_kernel):
    """`count` kernels from a seeded generator, every operation once per round, each round
    shuffled: gen_kernel(index, rng, op)."""
    rng = np.random.default_rng(seed)
    order = []
    while len(order) < count:
        perm = list(range(len(ops)))
        rng.shuffle(perm)
        order += perm
    return [gen_kernel(i, rng, ops[order[i]]) for i in range(count)]


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


def add_run_args(ap, work, report):
    """The command-line options every differential script takes."""
    ap.add_argument("--work", default=work)
    ap.add_argument("--report", default=report)
    ap.add_argument("--fresh-cache", action="store_true", help="empty Warp's kernel cache first")
    ap.add_argument("--compare-only", action="store_true",
                    help="reuse the outputs of the last run with the same arguments (WORK/results.json)")


def run_all(a, items, program):
    """Runs the items, `a.per_file` to a program file, `a.jobs` files at a time (or reuses the
    last run's outputs with --compare-only): {idx: (tilec line, Warp line, tilec error, Warp
    error, path)}, and the seconds it took."""
    os.makedirs(a.work, exist_ok=True)
    cache = os.path.join(a.work, "warp-cache")
    if a.fresh_cache:
        shutil.rmtree(cache, ignore_errors=True)
    groups = [items[i:i + a.per_file] for i in range(0, len(items), a.per_file)]
    t0 = time.time()
    results = {}
    saved = os.path.join(a.work, "results.json")
    if a.compare_only:
        with open(saved) as f:
            results = {int(k): tuple(v) for k, v in json.load(f).items()}
        groups = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(run_group, a.work, "g%03d" % gi, g, cache, program) for gi, g in enumerate(groups)]
        for n, f in enumerate(concurrent.futures.as_completed(futs)):
            results.update(f.result())
            print("\r%d/%d files, %.0f s" % (n + 1, len(groups), time.time() - t0), end="", file=sys.stderr)
    print(file=sys.stderr)
    if not a.compare_only:
        with open(saved, "w") as f:
            json.dump(results, f)
    return results, time.time() - t0


def classify(k, result, ulps=2):
    """(class, (max ulp, max abs diff, max rel diff) or None) of one item's result."""
    ts, ws, terr, werr, _ = result
    if terr and werr:
        return "both error", None
    if terr:
        return "tilec error", None
    if werr:
        return "warp error", None
    cls, *info = compare(k.prec, ts, ws, ulps)
    return cls, info


def print_counts(rows, report):
    counts = {}
    for r in rows:
        counts[r[1]] = counts.get(r[1], 0) + 1
    print("kernels: %d  " % len(rows) + "  ".join("%s: %d" % kv for kv in sorted(counts.items())))
    print("report:", report)


def count_table(rows, classes, label=lambda c: c):
    """The report's table of kernels per class (rows: (item, class, ...))."""
    counts = {c: 0 for c in classes}
    for r in rows:
        counts[r[1]] += 1
    return (["", "| class | kernels |", "|---|---|"] + ["| %s | %d |" % (label(c), counts[c]) for c in classes] +
            ["| total | %d |" % len(rows), ""])
