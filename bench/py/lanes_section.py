"""Per-lane code on the CPU: the block sums of y = x * 2 + 1 (bench/kernels/lanes.tile) written
per lane (one element per lane, wp.tile, tile_sum) and with tile operations only, both run by
tilec on all cores (timed by bench_cpu, their batches interleaved), and Warp's CPU device on
the tile-only form. Every result is checked against NumPy; a wrong one prints an error, says
WRONG RESULT in the check column and makes the run exit non-zero."""
import json
import os
import sys

import report
from tools import error_line, last_line, num, parse_csv, run

BLOCK_DIMS = [64, 256]
TARGET_RATIO = 2.0  # per-lane time / tile-only time

wrong_results = []  # (case, impl, note): the driver exits non-zero when any is listed


def kernel_path(root):
    return os.path.join(root, "bench", "kernels", "lanes.tile")


def label(n, b):
    return f"2^{n.bit_length() - 1} floats, B={b}"


def flag_wrong(case, impl, note):
    wrong_results.append((case, impl, note))
    print(f"ERROR: lanes: {impl} gives a WRONG RESULT for {case}: {note}", file=sys.stderr, flush=True)


def compile_so(tools, tile, work, b):
    """The host object for block_dim b; (path, why-not). A per-lane kernel's code depends on the
    lane count, and `tilec compile --target=host -o` compiles such kernels for 256 lanes only,
    so the object comes from the compiler library (bench_compile) with block_dim b, and from the
    CLI only where bench_compile is missing (then B != 256 is refused at launch, and says so)."""
    so = os.path.join(work, "compile", f"lanes_{b}.so")
    os.makedirs(os.path.dirname(so), exist_ok=True)
    if os.path.exists(so):
        os.remove(so)
    if tools.has(tools.bench_compile):
        r = run([tools.bench_compile, f"--write-so={so}", f"--block-dim={b}", tile])
        if r.returncode == 0 and os.path.exists(so):
            return so, ""
        why = error_line(r.stderr) or f"exit {r.returncode}"
        print(f"ERROR: lanes: bench_compile --write-so --block-dim={b} failed: {why}", file=sys.stderr, flush=True)
    if tools.has(tools.tilec):
        r = run([tools.tilec, "compile", "--target=host", "-o", so, tile])
        if r.returncode == 0 and os.path.exists(so):
            return so, ""
        return None, "n/a (tilec compile failed: " + (error_line(r.stderr) or f"exit {r.returncode}") + ")"
    return None, "n/a (not available: no tilec CLI or bench_compile)"


def run_section(tools, work, opts):
    title = (f"per-lane code on the CPU ({os.cpu_count()} cores; median ms; block sums of x * 2 + 1; "
             f"target: per-lane within {TARGET_RATIO:g}x of tile-only)")
    t = report.Table("cpu_lanes", title,
                     ["elements", "B", "MiB", "per_lane_ms", "tile_only_ms", "lane/tile", "warp_cpu_ms",
                      "reps", "check"])
    tile = kernel_path(tools.root)
    cfgs = [(n, b) for n in opts.lanes_sizes for b in BLOCK_DIMS if n % b == 0]
    try:
        import numpy as np
        import peers
    except ImportError:
        np = None
    sos = {b: compile_so(tools, tile, work, b) for b in BLOCK_DIMS}
    dump = os.path.join(work, "lanes-out.f32")
    res = {}  # (n, b, impl) -> (median_s, reps, check note)
    for i, (n, b) in enumerate(cfgs):
        case = label(n, b)
        print(f"  [{i + 1}/{len(cfgs)}] {case}", flush=True)
        ref = None
        if np is not None:
            xn = peers.make_rows(n, 1).reshape(n)
            ref = (xn.astype(np.float64) * 2.0 + 1.0).reshape(-1, b).sum(axis=1)
            del xn
        so, why = sos[b]
        kernels = {"lane": "lane_sum", "tile": f"tile_sum_{b}"}
        if not so or not tools.has(tools.bench_cpu):
            for impl in kernels:
                res[(n, b, impl)] = (None, 0, why or "n/a (not available: no bench_cpu)")
            continue
        for k in kernels.values():
            if os.path.exists(f"{dump}.{k}"):
                os.remove(f"{dump}.{k}")
        # The budget covers both contestants, whose batches alternate.
        r = run([tools.bench_cpu, "--op", "blocksum", "--rows", str(n // b), "--width", str(b),
                 "--tilec-so", so, "--kernel", ",".join(kernels.values()), "--dump", dump,
                 "--reps", str(opts.reps), "--budget", str(2 * opts.budget)], timeout=600)
        rows = {row["impl"]: row for row in parse_csv(r.stdout)}
        for impl, k in kernels.items():
            row = rows.get("tilec:" + k)
            if not row:
                res[(n, b, impl)] = (None, 0, "n/a (bench_cpu failed: " + last_line(r.stderr) + ")")
                continue
            if row["status"] != "ok":
                res[(n, b, impl)] = (None, 0, "n/a (" + row["note"] + ")")
                continue
            path = f"{dump}.{k}"
            if ref is None:
                note = "unchecked (no NumPy)"
            elif not os.path.exists(path):
                note = "unchecked (no output written)"
                flag_wrong(case, "tilec " + k, note)
            else:
                ok, diff = peers.check_reduce("sum", np.fromfile(path, dtype=np.float32), ref)
                note = f"{'valid' if ok else 'WRONG RESULT'} ({diff:.1g})"
                if not ok:
                    flag_wrong(case, "tilec " + k, note)
                os.remove(path)
            res[(n, b, impl)] = (num(row["median_s"]), int(row["reps"]), note)

    lane_notes = set()
    if tools.warp_python and opts.warp_throughput:
        print("  Warp's CPU device ...", flush=True)
        payload = json.dumps([dict(elements=n, B=b, max_s=opts.max_iter_s) for n, b in cfgs])
        r = run([tools.warp_python, os.path.join(os.path.dirname(__file__), "warp_peer.py"), "lanes",
                 "--module", tile, "--cache", os.path.join(tools.build, "warp-cache"), "--configs", payload,
                 "--reps", str(opts.reps), "--budget", str(opts.budget)], timeout=1800)
        got = parse_csv(r.stdout, "CSV:")
        for i, (n, b) in enumerate(cfgs):
            row = got[i] if i < len(got) else None
            if row and row["status"] == "ok":
                note = row["note"].replace("max rel diff ", "")
                res[(n, b, "warp")] = (num(row["median_s"]), int(row["reps"]), note)
                if "WRONG" in note:
                    flag_wrong(label(n, b), "warp tile_sum", note)
            elif row:
                res[(n, b, "warp")] = (None, 0, row["note"] if row["status"] == "skipped" else "n/a (" + row["note"] + ")")
            else:
                res[(n, b, "warp")] = (None, 0, "n/a (warp failed: " + last_line(r.stderr) + ")")
            if row and row.get("lane_note"):
                lane_notes.add(row["lane_note"])
    else:
        why = tools.warp_note or "skipped: --no-warp-throughput"
        for n, b in cfgs:
            res[(n, b, "warp")] = (None, 0, "n/a (" + why + ")")

    for n, b in cfgs:
        lane, tile_only, warp = (res[(n, b, k)] for k in ("lane", "tile", "warp"))
        ratio = lane[0] / tile_only[0] if lane[0] and tile_only[0] else None
        reps = "/".join(str(x[1]) for x in (lane, tile_only, warp))
        check = f"lane {lane[2]}; tile {tile_only[2]}; warp {warp[2]}"
        t.add(n, b, round(4 * n / 2**20, 3), lane[0] and lane[0] * 1e3, tile_only[0] and tile_only[0] * 1e3,
              ratio, warp[0] and warp[0] * 1e3, reps, check)
    t.note("per_lane_ms: tilec, `lane_sum` of bench/kernels/lanes.tile: block, lane = wp.tid(); "
           "v = x[block * B + lane] * 2.0 + 1.0; wp.tile_store(out, wp.tile_sum(wp.tile(v)), offset=block); "
           f"wp.launch_tiled(dim=[n // B], block_dim=B), compiled for block_dim B; all {os.cpu_count()} cores")
    t.note("tile_only_ms: tilec, `tile_sum_B`: tile_load(x, shape=B, offset=block * B), "
           "tile_map(affine) with affine(v) = v * 2.0 + 1.0, tile_sum, tile_store; same launch; its batches alternate with per_lane's")
    t.note("warp_cpu_ms: Warp's CPU device (one thread) on `tile_sum_B`, the tile-only form, as Warp users "
           "write it for the CPU: Warp runs one lane per block there"
           + (" (its run of lane_sum here: " + "; ".join(sorted(lane_notes)) + ")" if lane_notes else ""))
    t.note("lane/tile = per_lane_ms / tile_only_ms; reps = timed batches of per-lane/tile-only/warp; check: "
           "each output against NumPy's float64 block sums (max difference relative to the largest, < 1e-5)")
    if opts.out:
        groups = [label(n, b) for n, b in cfgs]
        series = ["tilec per-lane", "tilec tile-only", "warp cpu tile-only"]
        vals = [[r[c] for r in t.rows] for c in (3, 4, 6)]
        report.bar_plot(os.path.join(opts.out, "cpu_lanes.png"), "per-lane code on the CPU (median ms)",
                        groups, series, vals, "ms", log=True)
    return t
