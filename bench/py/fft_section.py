"""CPU batched tile_fft: block program i transforms row i of a (rows, N) complex64 batch (vec2f
elements, as Warp's FFT examples hold them), N = 64, 512 and 2048, over 64 MiB (8 MiB with
--quick). Contestants: tilec on all cores (`tilec run` of the program below), Warp's CPU device
on the same program, and np.fft.fft on the same batch (one thread). tilec's and Warp's results
are checked against np.fft in float64. No target: the table tracks where tilec stands."""
import os
import subprocess
import sys

SIZES = [64, 512, 2048]
IMPLS = ["tilec", "warp", "numpy"]
LABEL = {"tilec": "tilec", "warp": "warp cpu", "numpy": "np.fft"}

wrong_results = []  # (config, impl, note)

# One program for every contestant: argv = N ROWS REPS BUDGET IMPL. It prints
# "CSV:min_s,median_s,reps,max_rel_diff".
PROGRAM = r'''
import sys
import time
import numpy as np
import warp as wp

N, ROWS, REPS, BUDGET, IMPL = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]

@wp.kernel
def fft_rows(x: wp.array2d[wp.vec2f], y: wp.array2d[wp.vec2f]):
    i = wp.tid()
    t = wp.tile_load(x, shape=(1, N), offset=(i, 0))
    wp.tile_fft(t)
    wp.tile_store(y, t, offset=(i, 0))

k = np.arange(ROWS * N, dtype=np.int64)
re = ((k % 1021).astype(np.float32) * np.float32(0.002) - np.float32(1.0)).reshape(ROWS, N)
im = ((k % 1019).astype(np.float32) * np.float32(0.001) - np.float32(0.5)).reshape(ROWS, N)
if IMPL == "numpy":
    z = (re + 1j * im).astype(np.complex64)
    run = lambda: np.fft.fft(z, axis=1)
    result = None
else:
    x = wp.array(np.stack([re, im], axis=-1), dtype=wp.vec2f, device="cpu")
    y = wp.zeros_like(x)

    def run():
        wp.launch_tiled(fft_rows, dim=[ROWS], inputs=[x, y], block_dim=64, device="cpu")
        wp.synchronize()

run()
times = []
start = time.perf_counter()
for _ in range(max(REPS, 2)):
    t0 = time.perf_counter()
    run()
    times.append(time.perf_counter() - t0)
    if len(times) >= 2 and time.perf_counter() - start > BUDGET:
        break
times.sort()
diff = 0.0
if IMPL != "numpy":
    got = y.numpy()
    ref = np.fft.fft(re.astype(np.float64) + 1j * im.astype(np.float64), axis=1)
    err = np.maximum(np.abs(got[:, :, 0] - ref.real), np.abs(got[:, :, 1] - ref.imag))
    diff = float(np.max(err)) / float(np.max(np.abs(ref)))
print(f"CSV:{times[0]},{times[len(times) // 2]},{len(times)},{diff}", flush=True)
'''


def configs(opts):
    size = 8 * 2**20 if opts.quick else 64 * 2**20
    return [dict(n=n, rows=max(1, size // (8 * n)), size=size) for n in SIZES]


def label(c):
    return f"N={c['n']}, {c['rows']} rows, {c['size'] / 2**20:g} MiB"


def run_one(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    line = next((l[4:] for l in r.stdout.splitlines() if l.startswith("CSV:")), None)
    if r.returncode != 0 or not line:
        return None, ((r.stderr or r.stdout or "?").strip().splitlines() or ["?"])[-1][:120]
    mn, med, reps, diff = line.split(",")
    return (float(mn), float(med), int(reps), float(diff)), ""


def run_section(tools, work, opts):
    import report
    threads = os.cpu_count()
    t = report.Table("cpu_fft", f"CPU batched tile_fft, complex64 rows ({threads} threads for tilec; "
                     "GFLOP/s counts 5 N log2 N per row)",
                     ["N", "batch_MiB", "impl", "min_ms", "median_ms", "GFLOP/s", "reps", "note"])
    prog = os.path.join(work, "fft_bench.py")
    with open(prog, "w") as f:
        f.write(PROGRAM)
    for i, c in enumerate(configs(opts)):
        print(f"  [{i + 1}/{len(SIZES)}] {label(c)}", flush=True)
        args = [str(c["n"]), str(c["rows"]), str(opts.reps), str(opts.budget)]
        cmds = {}
        if tools.has(tools.tilec):
            cmds["tilec"] = [tools.tilec, "run", prog] + args + ["tilec"]
        if tools.warp_python:
            if opts.warp_throughput:
                cmds["warp"] = [tools.warp_python, prog] + args + ["warp"]
            cmds["numpy"] = [tools.warp_python, prog] + args + ["numpy"]
        log_n = c["n"].bit_length() - 1
        flops = 5.0 * c["n"] * log_n * c["rows"]
        for impl in IMPLS:
            if impl not in cmds:
                why = "no tilec CLI" if impl == "tilec" else (tools.warp_note or "no Warp venv")
                t.add(c["n"], c["size"] / 2**20, LABEL[impl], None, None, None, 0, f"n/a ({why})")
                continue
            res, why = run_one(cmds[impl], timeout=1800)
            if not res:
                t.add(c["n"], c["size"] / 2**20, LABEL[impl], None, None, None, 0, f"n/a ({why})")
                continue
            mn, med, reps, diff = res
            note = "1 thread" if impl != "tilec" else f"{threads} threads"
            if impl != "numpy":
                ok = diff < 1e-5
                note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g}); {note}"
                if not ok:
                    wrong_results.append((label(c), impl, note))
            t.add(c["n"], c["size"] / 2**20, LABEL[impl], mn * 1e3, med * 1e3, flops / mn / 1e9, reps, note)
    t.note("program: bench/py/fft_section.py (PROGRAM), the same file under `tilec run` and Warp's Python; one block "
           "program (block_dim 64) per row: tile_load (1, N), tile_fft, tile_store")
    t.note("checked against np.fft.fft in float64: max |difference| / max |reference| below 1e-5")
    return t
