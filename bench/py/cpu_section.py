"""CPU throughput: row gather and row scatter-add (0%, 10%, 90% duplicate destinations) over
sizes from L2-resident to DRAM and row widths 16 B to 4 KiB. Contestants: a STREAM-style
copy of the same bytes (the limit), the hand-written C++ loop and the tilec kernel (both on
all cores, timed by bench_cpu), NumPy (`x[idx]`, `np.add.at`) and Warp's CPU device."""
import json
import os

import kernels
import report
from tools import last_line, num, parse_csv, run

OPS = [("gather", 0.0), ("scatter", 0.0), ("scatter", 0.1), ("scatter", 0.9)]
IMPLS = ["copy", "hand", "tilec", "numpy", "warp"]
COLORS = {"hand C++": "tab:blue", "tilec": "tab:red", "numpy": "tab:green", "warp cpu": "tab:purple"}
LABEL = {"copy": "copy (limit)", "hand": "hand C++", "tilec": "tilec", "numpy": "numpy", "warp": "warp cpu"}


def op_name(op, dup):
    return "gather" if op == "gather" else f"scatter-add {int(round(dup * 100))}% dup"


def moved_bytes(op, n, width):
    data = n * width
    return (2 * data if op == "gather" else 3 * data) + 4 * n  # rows (+ y's read for adds) + indices


# Above this size only rows of 1 KiB or more run: narrow rows there take tens of seconds per
# contestant (random 16-byte accesses) and say nothing the 256 MiB runs do not.
NARROW_MAX_BYTES = 256 * 2**20
WIDE_MIN_BYTES = 1024


def configs(opts):
    out = []
    for size in opts.sizes:
        for wb in opts.widths:
            if size > NARROW_MAX_BYTES and wb < WIDE_MIN_BYTES:
                continue
            m = kernels.tile_m(wb)
            rows = max(m, (size // wb) // m * m)
            for op, dup in OPS:
                if op == "scatter" and dup > 0 and wb not in opts.dup_widths:
                    continue
                out.append(dict(op=op, dup=dup, width=wb, rows=rows, tile_m=m, size=rows * wb))
    return out


def numpy_time(c, opts, budget, estimate):
    try:
        import numpy as np  # only this section needs NumPy
        import peers
    except ImportError:
        return None, None, 0, "n/a (NumPy is not installed for this Python)"
    n, w = c["rows"], c["width"] // 4
    if estimate is not None and estimate > opts.max_iter_s:
        return None, None, 0, f"skipped (one call est. {estimate:.1f} s)"
    x = peers.make_rows(n, w)
    if c["op"] == "gather":
        idx = peers.make_indices(n, n, 0.0, 7)
        fn = lambda: x[idx]  # noqa: E731
    else:
        idx = peers.make_indices(n, n, c["dup"], 11)
        y = np.zeros_like(x)
        fn = lambda: np.add.at(y, idx, x)  # noqa: E731
    mn, med, reps, _ = peers.measure(fn, opts.reps, budget)
    return mn, med, reps, "1 thread"


def measure_round(tools, tpath, tso, cfgs, opts, budget, tilec_so_note):
    """One pass over `cfgs`: (config index, impl) -> (min, median, reps, note)."""
    results = {}
    for i, c in enumerate(cfgs):
        if tools.has(tools.bench_cpu):
            cmd = [tools.bench_cpu, "--op", c["op"], "--width", str(c["width"] // 4), "--tile-m", str(c["tile_m"]),
                   "--rows", str(c["rows"]), "--dup", str(c["dup"]), "--reps", str(opts.reps),
                   "--budget", str(budget)]
            if tso:
                kname = ("gather_rows_" if c["op"] == "gather" else "scatter_add_rows_") + f"{c['width']}B"
                cmd += ["--tilec-so", tso, "--kernel", kname]
            r = run(cmd, timeout=300)
            rows = {row["impl"]: row for row in parse_csv(r.stdout)}
            for impl in ("copy", "hand", "tilec"):
                row = rows.get(impl)
                if row and row["status"] == "ok":
                    results[(i, impl)] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]), row["note"])
                elif row:
                    results[(i, impl)] = (None, None, 0, tilec_so_note or "n/a (" + row["note"] + ")")
                else:
                    results[(i, impl)] = (None, None, 0, "n/a (bench_cpu failed: " + last_line(r.stderr) + ")")
        else:
            for impl in ("copy", "hand", "tilec"):
                results[(i, impl)] = (None, None, 0, "n/a (not available: no bench_cpu)")
        # NumPy: skip where the same op/width at a smaller size predicts a too-long call.
        est = None
        for j in range(i - 1, -1, -1):
            p = cfgs[j]
            if (p["op"], p["dup"], p["width"]) == (c["op"], c["dup"], c["width"]) and results.get((j, "numpy"), (None,))[0]:
                est = results[(j, "numpy")][0] * c["rows"] / p["rows"]
                break
        results[(i, "numpy")] = numpy_time(c, opts, budget, est)
        print(f"  [{i + 1}/{len(cfgs)}] {op_name(c['op'], c['dup'])} {c['width']} B x {c['rows']} rows", flush=True)

    if tools.warp_python and opts.warp_throughput:
        payload = json.dumps([dict(op=c["op"], width=c["width"], rows=c["rows"], dup=c["dup"], tile_m=c["tile_m"],
                                   max_s=opts.max_iter_s) for c in cfgs])
        r = run([tools.warp_python, os.path.join(os.path.dirname(__file__), "warp_peer.py"), "throughput",
                 "--module", tpath, "--cache", os.path.join(tools.build, "warp-cache"), "--configs", payload,
                 "--reps", str(opts.reps), "--budget", str(budget)], timeout=1800)
        got = parse_csv(r.stdout, "CSV:")
        for i, c in enumerate(cfgs):
            row = got[i] if i < len(got) else None
            if row and row["status"] == "ok":
                results[(i, "warp")] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]), "1 thread")
            elif row:
                results[(i, "warp")] = (None, None, 0, row["status"] if row["status"] == "skipped" else "n/a (" + row["note"] + ")")
            else:
                results[(i, "warp")] = (None, None, 0, "n/a (warp failed: " + last_line(r.stderr) + ")")
    else:
        for i in range(len(cfgs)):
            results[(i, "warp")] = (None, None, 0, "n/a (" + (tools.warp_note or "skipped") + ")")

    return results


def run_section(tools, tpath, tso, work, opts):
    t = report.Table("cpu_throughput", f"CPU throughput ({os.cpu_count()} cores; GB/s and pct_of_copy from the best repetition)",
                     ["op", "row_B", "size_MiB", "impl", "min_ms", "median_ms", "GB/s", "pct_of_copy", "reps", "note"])
    cfgs = configs(opts)
    tilec_so_note = ""
    if tso is None:
        tilec_so_note = "n/a (not available: no tilec host object)"
    # Every contestant is timed in each of `rounds` passes over all the configs, one after the other,
    # and keeps its best pass: a burst of load from the machine's neighbours, which lasts
    # seconds, then costs one pass of one contestant instead of its whole verdict.
    rounds = max(1, opts.cpu_rounds)
    results = {}  # (config index, impl) -> (min, median, reps, note), the best round
    for k in range(rounds):
        if rounds > 1:
            print(f"  round {k + 1} of {rounds}", flush=True)
        one = measure_round(tools, tpath, tso, cfgs, opts, opts.budget / rounds, tilec_so_note)
        for key, got in one.items():
            have = results.get(key)
            if have is None or have[0] is None or (got[0] is not None and got[0] < have[0]):
                results[key] = got

    for i, c in enumerate(cfgs):
        # Best-of times: on a shared machine the minimum is the least disturbed measurement.
        copy_min = results[(i, "copy")][0]
        copy_bw = 2 * c["size"] / copy_min if copy_min else None
        for impl in IMPLS:
            mn, med, reps, note = results[(i, impl)]
            bytes_ = 2 * c["size"] if impl == "copy" else moved_bytes(c["op"], c["rows"], c["width"])
            bw = bytes_ / mn if mn else None
            pct = 100.0 * bw / copy_bw if bw and copy_bw else None
            t.add(op_name(c["op"], c["dup"]), c["width"], round(c["size"] / 2**20, 3), LABEL[impl],
                  mn and mn * 1e3, med and med * 1e3, bw and bw / 1e9, pct, reps, note)
    t.note("bytes counted: copy 2x size; gather rows read + rows written + indices; scatter-add rows read + "
           "destination read and written + indices")
    t.note("pct_of_copy = GB/s / GB/s of the copy of the same size (timed by the same process, just before); both from the best repetition")
    if rounds > 1:
        t.note(f"{rounds} passes over these configs, one after the other, {opts.budget / rounds:g} s per contestant and config "
               "each; every contestant keeps its best pass")
    t.note(f"hand C++ and tilec run on all {os.cpu_count()} cores; NumPy and Warp's CPU device use one thread")
    if any(size > NARROW_MAX_BYTES for size in opts.sizes):
        t.note(f"sizes above {NARROW_MAX_BYTES >> 20} MiB run rows of {WIDE_MIN_BYTES} B or more only")
    if opts.out:
        plot(t, os.path.join(opts.out, "cpu_throughput.png"))
    return t


def plot(t, path):
    plt = report.load_pyplot()
    if plt is None:
        return
    ops = list(dict.fromkeys(r[0] for r in t.rows))
    fig, axes = plt.subplots(len(ops), 1, figsize=(12, 3.2 * len(ops)), squeeze=False)
    impls = [LABEL[i] for i in IMPLS if i != "copy"]
    for ax, op in zip(axes[:, 0], ops):
        rows = [r for r in t.rows if r[0] == op]
        groups = list(dict.fromkeys((r[1], r[2]) for r in rows))
        width = 0.8 / len(impls)
        for k, impl in enumerate(impls):
            xs, ys = [], []
            for g, key in enumerate(groups):
                v = next((r[7] for r in rows if (r[1], r[2]) == key and r[3] == impl), None)
                if v:
                    xs.append(g + (k - (len(impls) - 1) / 2) * width)
                    ys.append(v)
            if xs:
                ax.bar(xs, ys, width, label=impl, color=COLORS[impl])
        ax.axhline(100, color="black", linestyle="--", linewidth=1)
        ax.set_xticks(range(len(groups)))
        ax.set_xticklabels([f"{w} B / {s:g} MiB" for w, s in groups], fontsize=7, rotation=20, ha="right")
        ax.set_ylabel("% of copy GB/s (log)")
        ax.set_yscale("log")
        ax.set_title(op, fontsize=10)
        ax.grid(axis="y", alpha=0.3)
    axes[0, 0].legend(fontsize=8, ncol=4)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
