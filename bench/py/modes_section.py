"""The opt-in modes on the CPU: checked array access (wp.config.mode = "debug") and deterministic
tile atomics (wp.config.deterministic), each timed against the normal mode in one `tilec run` of
bench/kernels/modes.py (best of 7). The checked results must equal the normal ones, and the
deterministic scatter-add must repeat bit for bit; a failure says WRONG RESULT."""
import os
import sys

import report
from tools import run

wrong_results = []  # (case, impl, note): the driver exits non-zero when any is listed


def run_section(tools, work, opts):
    t = report.Table("cpu_modes", f"opt-in modes on the CPU ({os.cpu_count()} cores; best ms of 7; 2^22 elements)",
                     ["kernel", "mode", "ms", "x normal", "check"])
    if not tools.has(tools.tilec):
        t.note("n/a: no tilec CLI in the build")
        return t
    r = run([tools.tilec, "run", os.path.join(tools.root, "bench", "kernels", "modes.py")])
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("ROW ")]
    if r.returncode != 0 or not rows:
        t.note("n/a: tilec run failed: " + (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1])
        return t
    normal = {k: float(ms) for _, k, mode, ms, _ in rows if mode == "normal"}
    for _, kernel, mode, ms, check in rows:
        ratio = float(ms) / normal[kernel] if normal.get(kernel) else None
        if check != "ok":
            wrong_results.append((kernel, mode, "result differs from the normal mode or between runs"))
            print(f"ERROR: modes: {kernel} {mode} gives a WRONG RESULT", file=sys.stderr, flush=True)
        t.add(kernel, mode, float(ms), ratio and f"{ratio:.2f}x", "valid" if check == "ok" else "WRONG RESULT")
    t.note("checked: every scalar array access bounds-checked; deterministic: tile atomics commit in launch "
           "order (the CPU runs the block programs one after another)")
    return t
