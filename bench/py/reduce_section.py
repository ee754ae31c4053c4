"""CPU tile reductions: row sums (`wp.tile_sum(t, axis=1)`), row maxima
(`wp.tile_reduce(wp.max, t, axis=1)`) and a row softmax (max, exp(t - max), / sum) of 2-D
float32 arrays of 256 MiB, each block program loading a (TILE_M, N) tile of whole rows, for
N = 256 and N = 1024 columns. The kernels are bench/kernels/reduce.tile. Contestants: a
STREAM-style copy of the same bytes (the limit) and the tilec kernel on all cores (timed by
bench_cpu), NumPy (`x.sum(1)`, `x.max(1)`, its softmax) and Warp's CPU device running the same
kernels. Every tilec and Warp result is checked against NumPy's before it counts; a mismatch
prints an error, says WRONG RESULT in the note column and makes the run exit non-zero."""
import os
import sys

import report
from tools import error_line, last_line, num, parse_csv, run, run_warp_peer

OPS = ["sum", "max", "softmax"]
COLS = [256, 1024]
TILE_FLOATS = 4096  # TILE_M * N per block program, as the constants in reduce.tile
IMPLS = ["copy", "tilec", "numpy", "warp"]
LABEL = {"copy": "copy (limit)", "tilec": "tilec", "numpy": "numpy", "warp": "warp cpu"}
OP_NAME = {"sum": "row sum (tile_sum axis=1)", "max": "row max (tile_reduce max axis=1)",
           "softmax": "row softmax"}
KERNEL = {"sum": "row_sum", "max": "row_max", "softmax": "row_softmax"}
BENCH_OP = {"sum": "rowsum", "max": "rowmax", "softmax": "softmax"}
TARGET_PCT = 50

wrong_results = []  # (config, impl, note): the driver exits non-zero when any is listed


def kernel_path(root):
    return os.path.join(root, "bench", "kernels", "reduce.tile")


def configs(opts):
    size = opts.reduce_size
    out = []
    for cols in COLS:
        m = TILE_FLOATS // cols
        rows = max(m, (size // (4 * cols)) // m * m)
        for op in OPS:
            out.append(dict(op=op, cols=cols, rows=rows, tile_m=m, size=rows * cols * 4))
    return out


def moved_bytes(c):
    # sum / max read the rows and write one float per row; softmax reads and writes the rows.
    return 2 * c["size"] if c["op"] == "softmax" else c["size"] + 4 * c["rows"]


def label(c):
    return f"{OP_NAME[c['op']]}, N={c['cols']}, {c['size'] / 2**20:g} MiB"


def flag_wrong(c, impl, note):
    wrong_results.append((label(c), impl, note))
    print(f"ERROR: reduce: {impl} gives a WRONG RESULT for {label(c)}: {note}", file=sys.stderr, flush=True)


def compile_so(tools, tile, work):
    """The reductions' host object through `tilec compile --target=host -o`; (path, why-not)."""
    so = os.path.join(work, "compile", "reduce.so")
    os.makedirs(os.path.dirname(so), exist_ok=True)
    if not tools.has(tools.tilec):
        return None, "n/a (not available: no tilec CLI)"
    if os.path.exists(so):
        os.remove(so)
    r = run([tools.tilec, "compile", "--target=host", "-o", so, tile])
    if r.returncode == 0 and os.path.exists(so):
        return so, ""
    why = error_line(r.stderr) or f"exit {r.returncode}"
    print(f"ERROR: reduce: `tilec compile --target=host -o {so} {tile}` failed: {why}", file=sys.stderr, flush=True)
    for l in (r.stderr or "").strip().splitlines()[:20]:
        print("  " + l, file=sys.stderr)
    if tools.has(tools.bench_compile):
        # The same object through the compiler library, as the throughput section does.
        r = run([tools.bench_compile, f"--write-so={so}", tile])
        if r.returncode == 0 and os.path.exists(so):
            print("note: the reductions' host object was written through the compiler library", flush=True)
            return so, ""
    return None, "n/a (tilec compile failed: " + why + ")"


def run_section(tools, work, opts):
    title = (f"CPU tile reductions ({os.cpu_count()} cores; GB/s and pct_of_copy from the best repetition; "
             f"target: tilec >= {TARGET_PCT}% of copy and faster than NumPy and Warp)")
    t = report.Table("cpu_reduce", title,
                     ["op", "cols", "size_MiB", "impl", "min_ms", "median_ms", "GB/s", "pct_of_copy", "reps", "note"])
    tile = kernel_path(tools.root)
    so, so_why = compile_so(tools, tile, work)
    cfgs = configs(opts)
    results = {}
    dump = os.path.join(work, "reduce-out.f32")
    try:
        import numpy as np
        import peers
    except ImportError:
        np = None
    for i, c in enumerate(cfgs):
        print(f"  [{i + 1}/{len(cfgs)}] {label(c)}", flush=True)
        # NumPy first: its result is the reference for tilec's.
        ref = None
        if np is not None:
            x = peers.make_rows(c["rows"], c["cols"])
            fn = peers.reduce_fn(c["op"], x)
            ref = fn()
            mn, med, reps, _ = peers.measure(fn, opts.reps, opts.budget)
            results[(i, "numpy")] = (mn, med, reps, "1 thread")
            del x
        else:
            results[(i, "numpy")] = (None, None, 0, "n/a (NumPy is not installed for this Python)")
        if not tools.has(tools.bench_cpu):
            for impl in ("copy", "tilec"):
                results[(i, impl)] = (None, None, 0, "n/a (not available: no bench_cpu)")
            continue
        cmd = [tools.bench_cpu, "--op", BENCH_OP[c["op"]], "--width", str(c["cols"]), "--tile-m", str(c["tile_m"]),
               "--rows", str(c["rows"]), "--reps", str(opts.reps), "--budget", str(opts.budget)]
        if so:
            cmd += ["--tilec-so", so, "--kernel", f"{KERNEL[c['op']]}_{c['cols']}", "--dump", dump]
        if os.path.exists(dump):
            os.remove(dump)
        r = run(cmd, timeout=600)
        rows = {row["impl"]: row for row in parse_csv(r.stdout)}
        for impl in ("copy", "tilec"):
            row = rows.get(impl)
            if row and row["status"] == "ok":
                results[(i, impl)] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]), row["note"])
            elif row:
                results[(i, impl)] = (None, None, 0, so_why if impl == "tilec" and so_why else "n/a (" + row["note"] + ")")
            else:
                results[(i, impl)] = (None, None, 0, "n/a (bench_cpu failed: " + last_line(r.stderr) + ")")
        if results[(i, "tilec")][0] is not None:
            mn, med, reps, note = results[(i, "tilec")]
            if ref is None or not os.path.exists(dump):
                note = "unchecked (" + ("no NumPy" if ref is None else "no output written") + "); " + note
                if ref is not None:
                    flag_wrong(c, "tilec", note)
            else:
                ok, diff = peers.check_reduce(c["op"], np.fromfile(dump, dtype=np.float32), ref)
                note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g}); {note}"
                if not ok:
                    flag_wrong(c, "tilec", note)
            results[(i, "tilec")] = (mn, med, reps, note)
        del ref
        if os.path.exists(dump):
            os.remove(dump)

    if tools.warp_python and opts.warp_throughput:
        configs = [dict(op=c["op"], cols=c["cols"], rows=c["rows"], tile_m=c["tile_m"], max_s=opts.max_iter_s)
                   for c in cfgs]
        print("  Warp's CPU device ...", flush=True)
        peer_rows, stderr = run_warp_peer(tools, "reduce", tile, configs, opts, timeout=1800)
        for i, (c, row) in enumerate(zip(cfgs, peer_rows)):
            if row and row["status"] == "ok":
                results[(i, "warp")] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]),
                                        row["note"] + "; 1 thread")
                if "WRONG" in row["note"]:
                    flag_wrong(c, "warp", row["note"])
            elif row:
                results[(i, "warp")] = (None, None, 0, row["status"] if row["status"] == "skipped" else "n/a (" + row["note"] + ")")
            else:
                results[(i, "warp")] = (None, None, 0, "n/a (warp failed: " + stderr + ")")
    else:
        why = tools.warp_note or "skipped: --no-warp-throughput"
        for i in range(len(cfgs)):
            results[(i, "warp")] = (None, None, 0, "n/a (" + why + ")")

    for i, c in enumerate(cfgs):
        copy_min = results[(i, "copy")][0]
        copy_bw = 2 * c["size"] / copy_min if copy_min else None
        for impl in IMPLS:
            mn, med, reps, note = results[(i, impl)]
            bytes_ = 2 * c["size"] if impl == "copy" else moved_bytes(c)
            bw = bytes_ / mn if mn else None
            pct = 100.0 * bw / copy_bw if bw and copy_bw else None
            t.add(OP_NAME[c["op"]], c["cols"], round(c["size"] / 2**20, 3), LABEL[impl],
                  mn and mn * 1e3, med and med * 1e3, bw and bw / 1e9, pct, reps, note)
    t.note("kernels: bench/kernels/reduce.tile, one block program per (TILE_M, N) tile of whole rows, "
           f"TILE_M * N = {TILE_FLOATS} floats; softmax = tile_reduce max, tile_broadcast, tile_map exp, tile_sum, /")
    t.note("bytes counted: copy 2x size; sum and max the rows read + one float per row written; "
           "softmax the rows read + the rows written")
    t.note("pct_of_copy = GB/s / GB/s of the copy of the same input bytes, measured in the same process just before; "
           "both from the best repetition")
    t.note(f"tilec runs on all {os.cpu_count()} cores; NumPy and Warp's CPU device use one thread; "
           "tilec and Warp results are checked against NumPy's (max exact, sum and softmax to 1e-5 relative)")
    if opts.out:
        plot(t, cfgs, os.path.join(opts.out, "cpu_reduce.png"))
    return t


def plot(t, cfgs, path):
    groups = [f"{c['op']} N={c['cols']}" for c in cfgs]
    series = [LABEL[i] for i in IMPLS if i != "copy"]
    vals = []
    for s in series:
        vals.append([next((r[7] for r in t.rows if r[0] == OP_NAME[c["op"]] and r[1] == c["cols"] and r[3] == s), None)
                     for c in cfgs])
    report.bar_plot(path, t.title.split(" (")[0] + " (% of copy GB/s)", groups, series, vals, "% of copy GB/s",
                    hline=100)
