"""CPU batched tile_matmul: block program i multiplies its own pair of (T, T) float32 tiles
(bench/kernels/matmul.tile), T = 32, 64 and 128, over a batch of 256 MiB of factors (a and b,
128 MiB each; 16 MiB with --quick). Contestants: the machine's FMA peak (independent vector
FMAs on every thread, bench_cpu), tilec on all cores (bench_cpu), np.matmul on the same 3-D
batch with its BLAS on as many threads, and Warp's CPU device on the same kernels. tilec's and
Warp's results are checked against NumPy's. Run as a script (`numpy` ...), this file is the
NumPy peer, in its own process so that the BLAS thread count can be set before NumPy loads."""
import os
import subprocess
import sys

TILES = [32, 64, 128]
IMPLS = ["peak", "tilec", "numpy", "warp"]
LABEL = {"peak": "fma peak", "tilec": "tilec", "numpy": "numpy", "warp": "warp cpu"}
TARGET_PCT = 50

wrong_results = []  # (config, impl, note): the driver exits non-zero when any is listed


def make_factors(np, n):
    """The values bench_cpu --op matmul writes: a = (i % 1021) * 0.001, b = (i % 1019) * 0.001 - 0.5."""
    i = np.arange(n, dtype=np.int64)
    a = (i % 1021).astype(np.float32) * np.float32(0.001)
    b = (i % 1019).astype(np.float32) * np.float32(0.001) - np.float32(0.5)
    return a, b


def check(np, got, ref):
    """(valid, max difference relative to the largest reference value): 1e-4 for float32 sums of T terms."""
    got = np.asarray(got, dtype=np.float32).reshape(ref.shape)
    diff = float(np.max(np.abs(got.astype(np.float64) - ref))) / max(float(np.max(np.abs(ref))), 1e-30)
    return bool(np.all(np.isfinite(got))) and diff < 1e-4, diff


def configs(opts):
    out = []
    for t in TILES:
        batch = max(1, (opts.matmul_size // 2) // (4 * t * t))
        out.append(dict(tile=t, batch=batch, size=2 * batch * t * t * 4, flops=2.0 * batch * t ** 3))
    return out


def label(c):
    return f"{c['tile']}x{c['tile']} float32 tiles, {c['size'] / 2**20:g} MiB"


def flag_wrong(c, impl, note):
    wrong_results.append((label(c), impl, note))
    print(f"ERROR: matmul: {impl} gives a WRONG RESULT for {label(c)}: {note}", file=sys.stderr, flush=True)


def numpy_peer(c, opts, threads):
    env = dict(os.environ)
    for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[k] = str(threads)
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "numpy", str(c["tile"]), str(c["batch"]),
                        str(opts.reps), str(opts.budget)], capture_output=True, text=True, env=env, timeout=1200)
    line = next((l[4:] for l in r.stdout.splitlines() if l.startswith("CSV:")), None)
    if r.returncode != 0 or not line:
        return None, None, 0, "n/a (numpy failed: " + ((r.stderr or "").strip().splitlines() or ["?"])[-1] + ")"
    mn, med, reps, blas = line.split(",", 3)
    # Debian's netlib reference BLAS ignores the thread variables and runs on one thread.
    single = "libblas.so" in blas and "openblas" not in blas.lower()
    return float(mn), float(med), int(reps), f"{blas}, " + ("reference BLAS: 1 thread" if single else f"{threads} threads")


def run_section(tools, work, opts):
    import report
    from tools import last_line, num, parse_csv, run, run_warp_peer
    threads = os.cpu_count()
    title = (f"CPU batched tile_matmul, float32 ({threads} threads; GFLOP/s from the best repetition; "
             f"target: tilec >= {TARGET_PCT}% of the FMA peak at 64x64 and faster than Warp on every row)")
    t = report.Table("cpu_matmul", title,
                     ["tile", "batch_MiB", "impl", "min_ms", "median_ms", "GFLOP/s", "pct_of_peak", "reps", "note"])
    tile = os.path.join(tools.root, "bench", "kernels", "matmul.tile")
    so = os.path.join(work, "compile", "matmul.so")
    os.makedirs(os.path.dirname(so), exist_ok=True)
    so_why = ""
    if not tools.has(tools.tilec):
        so, so_why = None, "n/a (not available: no tilec CLI)"
    else:
        if os.path.exists(so):
            os.remove(so)
        r = run([tools.tilec, "compile", "--target=host", "-o", so, tile])
        if r.returncode != 0 or not os.path.exists(so):
            so, so_why = None, "n/a (tilec compile failed: " + last_line(r.stderr) + ")"
    try:
        import numpy as np
    except ImportError:
        np = None
    cfgs = configs(opts)
    results = {}
    dump = os.path.join(work, "matmul-out.f32")
    for i, c in enumerate(cfgs):
        print(f"  [{i + 1}/{len(cfgs)}] {label(c)}", flush=True)
        T, n = c["tile"], c["batch"]
        ref = None
        if np is not None:
            a, b = make_factors(np, n * T * T)
            ref = np.matmul(a.reshape(n, T, T).astype(np.float64), b.reshape(n, T, T).astype(np.float64))
            del a, b
            results[(i, "numpy")] = numpy_peer(c, opts, threads)
        else:
            results[(i, "numpy")] = (None, None, 0, "n/a (NumPy is not installed for this Python)")
        if not tools.has(tools.bench_cpu):
            for impl in ("peak", "tilec"):
                results[(i, impl)] = (None, None, 0, "n/a (not available: no bench_cpu)")
            continue
        cmd = [tools.bench_cpu, "--op", "matmul", "--width", str(T), "--tile-m", str(T), "--rows", str(n * T),
               "--reps", str(opts.reps), "--budget", str(opts.budget)]
        if so:
            cmd += ["--tilec-so", so, "--kernel", f"matmul_{T}", "--dump", dump]
        if os.path.exists(dump):
            os.remove(dump)
        r = run(cmd, timeout=900)
        rows = {row["impl"]: row for row in parse_csv(r.stdout)}
        for impl, key in (("peak", "fma_peak"), ("tilec", "tilec")):
            row = rows.get(key)
            if row and row["status"] == "ok":
                results[(i, impl)] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]), row["note"])
            elif row:
                results[(i, impl)] = (None, None, 0, so_why if impl == "tilec" and so_why else "n/a (" + row["note"] + ")")
            else:
                results[(i, impl)] = (None, None, 0, "n/a (bench_cpu failed: " + last_line(r.stderr) + ")")
        if results[(i, "tilec")][0] is not None:
            mn, med, reps, note = results[(i, "tilec")]
            if ref is None or not os.path.exists(dump):
                note = "unchecked; " + note
            else:
                ok, diff = check(np, np.fromfile(dump, dtype=np.float32), ref)
                note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g}); {note}"
                if not ok:
                    flag_wrong(c, "tilec", note)
            results[(i, "tilec")] = (mn, med, reps, note)
        del ref
        if os.path.exists(dump):
            os.remove(dump)

    if tools.warp_python and opts.warp_throughput:
        print("  Warp's CPU device ...", flush=True)
        peer_rows, stderr = run_warp_peer(tools, "matmul", tile, [dict(tile=c["tile"], batch=c["batch"]) for c in cfgs],
                                     opts, timeout=3600)
        for i, (c, row) in enumerate(zip(cfgs, peer_rows)):
            if row and row["status"] == "ok":
                results[(i, "warp")] = (num(row["min_s"]), num(row["median_s"]), int(row["reps"]),
                                        row["note"] + "; 1 thread")
                if "WRONG" in row["note"]:
                    flag_wrong(c, "warp", row["note"])
            elif row:
                results[(i, "warp")] = (None, None, 0, "n/a (" + row["note"] + ")")
            else:
                results[(i, "warp")] = (None, None, 0, "n/a (warp failed: " + stderr + ")")
    else:
        why = tools.warp_note or "skipped: --no-warp-throughput"
        for i in range(len(cfgs)):
            results[(i, "warp")] = (None, None, 0, "n/a (" + why + ")")

    for i, c in enumerate(cfgs):
        pmin = results[(i, "peak")][0]
        note = results[(i, "peak")][3]
        # The peak row's note starts with the flops of one timed call.
        try:
            peak_flops = float(note.split(" flop")[0])
        except ValueError:
            peak_flops = None
        peak = peak_flops / pmin if pmin and peak_flops else None
        for impl in IMPLS:
            mn, med, reps, note = results[(i, impl)]
            rate = (peak if impl == "peak" else (c["flops"] / mn if mn else None))
            pct = 100.0 * rate / peak if rate and peak else None
            t.add(f"{c['tile']}x{c['tile']}", round(c["size"] / 2**20, 3), LABEL[impl], mn and mn * 1e3,
                  med and med * 1e3, rate and rate / 1e9, pct, reps, note)
    t.note("kernels: bench/kernels/matmul.tile, one block program per pair of (T, T) tiles: tile_load a and b, "
           "c = tile_matmul(a, b), tile_store; batch_MiB counts a and b (c is as large as a)")
    t.note("GFLOP/s = 2 T^3 per tile pair / time; pct_of_peak = GFLOP/s / the FMA peak measured in the same "
           "bench_cpu process just before (independent vector FMAs on every thread)")
    t.note(f"tilec and the FMA peak run on all {threads} threads, np.matmul (3-D batch) with its BLAS's thread "
           f"variables set to {threads} (the note says what the BLAS used), Warp's CPU device on one; tilec and Warp are checked against NumPy "
           "(float64 products, 1e-4 relative to the largest value)")
    if opts.out:
        groups = [f"{c['tile']}x{c['tile']}" for c in cfgs]
        series = [LABEL[k] for k in IMPLS if k != "peak"]
        vals = [[next((r[6] for r in t.rows if r[0] == g and r[2] == s), None) for g in groups] for s in series]
        report.bar_plot(os.path.join(opts.out, "cpu_matmul.png"), "CPU batched tile_matmul (% of FMA peak)",
                        groups, series, vals, "% of FMA peak", hline=TARGET_PCT)
    return t


def _numpy_main(argv):
    import numpy as np
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import peers
    T, n, reps, budget = int(argv[0]), int(argv[1]), int(argv[2]), float(argv[3])
    a, b = make_factors(np, n * T * T)
    a, b = a.reshape(n, T, T), b.reshape(n, T, T)
    c = np.empty_like(a)
    mn, med, reps, _ = peers.measure(lambda: np.matmul(a, b, out=c), reps, budget)
    # The BLAS NumPy loaded, by file: Debian's libblas.so.3 may be the reference BLAS (one thread).
    libs = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                path = line.split()[-1]
                if "blas" in os.path.basename(path).lower() and ".so" in path:
                    libs.add(os.path.relpath(os.path.realpath(path), "/usr/lib"))
    except OSError:
        pass
    blas = " ".join(sorted(libs)) or "BLAS"
    print(f"CSV:{mn},{med},{reps},np.matmul ({blas})", flush=True)


if __name__ == "__main__" and len(sys.argv) > 1 and sys.argv[1] == "numpy":
    _numpy_main(sys.argv[2:])
