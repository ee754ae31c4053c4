#!/usr/bin/env python3
"""Runs Warp's own tile example programs (warp/examples/tile/*.py of the installed Warp, and
the programs of its other example folders that use tile operations, EXTRA) with
`build/tilec run` and with Warp on the CPU, and tabulates what each did: exit status, time,
and the lines of output they share. A script, not CI: it needs the Warp venv.

    python3 tests/warp_diff/examples.py [--only NAME_REGEX] [--timeout S] [ARGS...]

ARGS go to every program after its file (default: --headless --device cpu).
"""
import argparse
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def warp_python():
    env = os.environ.get("TILEC_WARP_PYTHON")
    if env:
        return env
    return os.path.join(ROOT, "build-bench", "warp-venv", "bin", "python")


def run(cmd, cwd, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = "timeout", e.stdout or "", e.stderr or ""
        out = out.decode() if isinstance(out, bytes) else out
        err = err.decode() if isinstance(err, bytes) else err
    return rc, time.monotonic() - start, out, err


def last_error(text):
    lines = [l for l in text.splitlines() if l.strip()]
    for l in reversed(lines):
        if re.match(r"^[A-Za-z_.]+(Error|Exception|Exit)\b", l) or "error" in l:
            return l.strip()[:90]
    return lines[-1].strip()[:90] if lines else ""


# Warp's programs outside examples/tile that use tile operations, with arguments that keep
# them short on a CPU: a spectral Navier-Stokes solver (tile FFTs), an FDTD solver (tile sums
# in a plain launch) and the differentiable Navier-Stokes perturbation optimization (gradients
# through tile FFTs, wp.copy on the tape, warp.optim.Adam).
EXTRA = [
    ("core/example_fft_poisson_navier_stokes_2d.py", ["--headless", "--device", "cpu", "--num-steps", "200"]),
    ("core/example_fdtd_3d.py", ["--headless", "--device", "cpu", "--num-steps", "200"]),
    ("optim/example_navier_stokes_perturbation.py",
     ["--headless", "--device", "cpu", "--spin-up-steps", "20", "--lead-steps", "4", "--train-iters", "11"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="regular expression over the example names")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("args", nargs="*", help="arguments of every program (default: --headless --device cpu)")
    opts = ap.parse_args()
    py = warp_python()
    where = subprocess.run([py, "-c", "import warp, os; print(os.path.dirname(warp.__file__))"],
                           capture_output=True, text=True, env=dict(os.environ, WARP_QUIET="1"))
    if where.returncode != 0:
        sys.exit(f"no Warp at {py}: {where.stderr.strip()}")
    examples = os.path.join(where.stdout.strip().splitlines()[-1], "examples")
    folder = os.path.join(examples, "tile")
    args = opts.args or ["--headless", "--device", "cpu"]
    tilec = os.path.join(ROOT, "build", "tilec")
    programs = [(os.path.join(folder, n), args) for n in sorted(os.listdir(folder)) if n.endswith(".py")]
    programs += [(os.path.join(examples, rel), a) for rel, a in EXTRA]
    rows = []
    for path, prog_args in programs:
        name = os.path.relpath(path, folder) if path.startswith(folder) else os.path.relpath(path, examples)
        if not re.search(opts.only, name):
            continue
        here = os.path.dirname(path)
        t = run([tilec, "run", path] + prog_args, here, opts.timeout)
        w = run([py, path] + prog_args, here, opts.timeout)
        noise = re.compile(r"^(Warp |   |Module |tilec: no CUDA driver)")
        tl = [l for l in t[2].splitlines() if not noise.match(l)]
        wl = [l for l in w[2].splitlines() if not noise.match(l)]
        same = "same" if tl == wl else f"{sum(a == b for a, b in zip(tl, wl))}/{max(len(tl), len(wl))} lines"
        rows.append((name, t, w, same))
        print(f"{name}: tilec {t[0]} in {t[1]:.1f}s, Warp {w[0]} in {w[1]:.1f}s, output {same}", flush=True)
    print()
    print("| example | tilec | Warp CPU | output | tilec's last error |")
    print("|---|---|---|---|---|")
    for name, t, w, same in rows:
        err = last_error(t[3]) if t[0] != 0 else ""
        print(f"| {name} | {t[0]} ({t[1]:.1f} s) | {w[0]} ({w[1]:.1f} s) | {same} | {err} |")


if __name__ == "__main__":
    main()
