#!/usr/bin/env python3
"""Warp's own test files (warp/tests/tile/test_*.py; --dir for another folder) run under tilec and under Warp's CPU.

Each file runs unchanged: `tilec run FILE` on one side, the Warp venv's Python on the other.
Both print unittest's verbose report; this script reads each test's outcome (ok, FAIL, ERROR,
skipped) from both, and prints a table per file and the tests whose outcomes differ.

Warp's files stop at their first failure (failfast), so when tilec stops early the remaining
tests run again by name until each has an outcome; a test that kills tilec is reported as
`crash`. Not run in CI: it needs Warp (`bench/run.sh` installs it).

  TILEC_WARP_PYTHON=/path/to/venv/python tests/warp_diff/unittests.py [--dir tile|.|matrix] [--only NAME ...]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADER = re.compile(r"^(test\w*) \(__main__\.(\w+)\.(\w+)\)")
OUTCOME = re.compile(r" \.\.\. (ok|FAIL|ERROR|skipped.*)$")


def parse(text):
    """Test id -> outcome, in report order; the last header without an outcome maps to None."""
    results = {}
    current = None
    for line in text.splitlines():
        m = HEADER.match(line)
        if m:
            current = f"{m.group(2)}.{m.group(1)}"
            results[current] = None
        if current:
            o = OUTCOME.search(line)
            if o:
                results[current] = "skipped" if o.group(1).startswith("skipped") else o.group(1)
                current = None
    return results


def first_error(text, test):
    """The last line of the traceback that unittest printed for `test` (its exception)."""
    block = re.search(r"^(?:ERROR|FAIL): " + re.escape(test.split(".")[1]) + r" .*?\n-{70}\n(.*?)(?=\n={70}|\n-{70})",
                      text, re.S | re.M)
    if not block:
        return ""
    lines = [l for l in block.group(1).strip().splitlines() if l.strip()]
    # A kernel that failed to compile: its first diagnostic says why.
    diags = [l for l in lines if re.search(r"error\[E\d+\]", l)]
    if diags:
        return diags[0][diags[0].find("error["):][:200]
    return lines[-1][:200] if lines else ""


def run_warp(python, path, cache_dir):
    name = os.path.basename(path)[:-3]
    cache = os.path.join(cache_dir, name + ".json") if cache_dir else None
    if cache and os.path.exists(cache):
        with open(cache) as f:
            return json.load(f)
    start = time.time()
    p = subprocess.run([python, path], capture_output=True, text=True, timeout=1800)
    out = {"results": parse(p.stderr), "seconds": time.time() - start, "rc": p.returncode}
    if cache:
        os.makedirs(cache_dir, exist_ok=True)
        with open(cache, "w") as f:
            json.dump(out, f)
    return out


def run_tilec(tilec, path, expected, timeout, site):
    results, errors = {}, {}
    remaining = [t for t in expected]
    start = time.time()
    load_error = ""
    while True:
        args = [tilec, "run", path] + ([] if len(remaining) == len(expected) else remaining)
        try:
            # As for Warp's Python: its package's directory is on the module search path, so
            # `from warp.tests import aux_...` finds Warp's helper files.
            env = dict(os.environ, PYTHONPATH=site)
            p = subprocess.run(args, capture_output=True, text=True, timeout=timeout, env=env)
            text, rc = p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            text = (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
            rc = "timeout"
        got = parse(text)
        if not got:
            # The file did not reach unittest.main: every remaining test shares its error.
            lines = [l for l in text.strip().splitlines() if l.strip() and not l.startswith("tilec: no CUDA")]
            load_error = (lines[-1] if lines else f"exit {rc}")[:200]
            for t in remaining:
                results[t] = "load-error" if rc != "timeout" else "timeout"
            break
        for t, o in got.items():
            if o is None:
                o = "timeout" if rc == "timeout" else "crash"
            results[t] = o
            if o in ("FAIL", "ERROR"):
                errors[t] = first_error(text, t)
            elif o in ("crash", "timeout"):
                lines = [l for l in text.strip().splitlines() if l.strip()]
                errors[t] = (lines[-1] if lines else "")[:200]
        remaining = [t for t in remaining if t not in results]
        if not remaining:
            break
    return {"results": results, "errors": errors, "seconds": time.time() - start, "load_error": load_error}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tilec", default=os.path.join(ROOT, "build", "tilec"))
    ap.add_argument("--warp-python", default=os.environ.get("TILEC_WARP_PYTHON", "python3"))
    ap.add_argument("--warp-cache", default=os.path.join(ROOT, "build", "warp_unittests"),
                    help="where Warp's reports are kept between runs (they do not change)")
    ap.add_argument("--only", nargs="*", help="test file names (without .py)")
    ap.add_argument("--dir", default="tile",
                    help="folder of Warp's tests to run, under warp/tests ('tile', 'matrix', '.' for the core files)")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per tilec run")
    ap.add_argument("--json", help="write every outcome here")
    args = ap.parse_args()

    warp_dir = subprocess.run([args.warp_python, "-c", "import os, warp; print(os.path.dirname(warp.__file__))"],
                              capture_output=True, text=True, check=True).stdout.strip()
    tile_dir = os.path.normpath(os.path.join(warp_dir, "tests", args.dir))
    files = sorted(f[:-3] for f in os.listdir(tile_dir) if f.startswith("test_") and f.endswith(".py"))
    if args.only:
        files = [f for f in files if f in args.only]

    rows, diffs, everything = [], [], {}
    for name in files:
        path = os.path.join(tile_dir, name + ".py")
        cache = args.warp_cache if args.dir == "tile" else os.path.join(args.warp_cache, args.dir.strip("./").replace("/", "_") or "core")
        warp = run_warp(args.warp_python, path, cache)
        expected = list(warp["results"])
        ours = run_tilec(args.tilec, path, expected, args.timeout, os.path.dirname(warp_dir))
        w, t = warp["results"], ours["results"]
        run_on_cpu = [k for k in expected if w[k] == "ok"]
        both = [k for k in run_on_cpu if t.get(k) == "ok"]
        rows.append((name, len(expected), len(run_on_cpu), len(both), warp["seconds"], ours["seconds"],
                     ours["load_error"]))
        for k in expected:
            if t.get(k) != w[k]:
                diffs.append((name, k, w[k], t.get(k), ours["errors"].get(k, ours["load_error"])))
        everything[name] = {"warp": w, "tilec": t, "errors": ours["errors"], "load_error": ours["load_error"]}
        print(f"{name}: {len(both)}/{len(run_on_cpu)} of Warp's CPU passes ({ours['seconds']:.0f} s)", flush=True)

    print()
    print(f"| file | tests | Warp CPU ok | tilec ok of those | Warp s | tilec s |")
    print(f"|---|---:|---:|---:|---:|---:|")
    for name, n, w_ok, both, ws, ts, load in rows:
        print(f"| {name} | {n} | {w_ok} | {both} | {ws:.0f} | {ts:.0f} |")
    tot = [sum(r[i] for r in rows) for i in (1, 2, 3)]
    print(f"| **all** | {tot[0]} | {tot[1]} | {tot[2]} | | |")
    print()
    print("Differences (file, test, Warp, tilec, tilec's error):")
    for d in diffs:
        print("  " + " | ".join(str(x) for x in d))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(everything, f, indent=1)


if __name__ == "__main__":
    main()
