"""Compile latency of two tilec builds in one run: the same kernels, cold `tilec compile`
(a new process each time) for PTX and for host LLVM IR, the two binaries interleaved so that
machine noise hits both alike. Prints a table of medians and the new/old ratio.

    python3 bench/py/compare_builds.py OLD_TILEC NEW_TILEC [--reps N]
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels as kernel_sources  # noqa: E402
from tools import timed  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--reps", type=int, default=11)
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    work = tempfile.mkdtemp(prefix="tilec-compare-")
    ks, _ = kernel_sources.prepare(root, work)
    paths = [(name, path) for name, path, _, _ in ks]
    modes = [("ptx", ["--target=nvptx", "--arch=sm_90", "--emit=ptx"]), ("llvm", ["--emit=llvm"])]
    env = dict(os.environ, TILEC_CACHE="0")
    rows = []
    for name, path in paths:
        for mode, flags in modes:
            times = {"old": [], "new": []}
            for _ in range(args.reps):
                for which in ("old", "new"):
                    exe = getattr(args, which)
                    dt, r = timed([exe, "compile"] + flags + [path], env=env)
                    if r.returncode != 0:
                        sys.exit(f"{which} failed on {name} ({mode}): {r.stderr.strip()[:300]}")
                    times[which].append(dt * 1000)
            old, new = statistics.median(times["old"]), statistics.median(times["new"])
            rows.append((name, mode, min(times["old"]), old, min(times["new"]), new, new / old))
    head = ["kernel", "emit", "old_min_ms", "old_median_ms", "new_min_ms", "new_median_ms", "new/old"]
    print(f"Cold compile latency, old vs new build, {args.reps} interleaved runs each (ms)")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        print(f"| {r[0]} | {r[1]} | {r[2]:.1f} | {r[3]:.1f} | {r[4]:.1f} | {r[5]:.1f} | {r[6]:.2f} |")
    ratios = [r[6] for r in rows]
    print(f"geometric mean new/old: {statistics.geometric_mean(ratios):.3f}; worst {max(ratios):.2f}")


if __name__ == "__main__":
    main()
