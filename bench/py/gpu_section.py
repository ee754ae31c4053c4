"""GPU bandwidth on cuda:0 (bench_gpu): tilec's gather / scatter-add kernels, its deterministic
scatter-adds (wp.config.deterministic) and the nvcc-built references, as a fraction of
device-to-device copy bandwidth; and tilec's tiled GEMMs against cuBLAS in TFLOP/s (run_matmul).
Both skip cleanly without a GPU."""
import os

import cpu_section
import gemm_kernels
import kernels
import report
from tools import last_line, num, parse_csv, run

GPU_SIZES = [64 * 2**20, 1024 * 2**20]
wrong_results = []  # (case, impl, note) of gpu_matmul rows whose product failed the check



def bench_gpu_rows(tools, cmd, timeout, t, what):
    """Runs bench_gpu (with the runtime library on the path) and returns its CSV rows; None, with
    the reason noted in table t, where it failed or found no GPU."""
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(tools.build, "runtime") + ":" + env.get("LD_LIBRARY_PATH", "")
    r = run(cmd, timeout=timeout, env=env)
    rows = parse_csv(r.stdout)
    if not rows:
        t.note("n/a (" + what + " failed: " + last_line(r.stderr) + ")")
        return None
    if rows[0]["status"] == "skipped":
        t.note("skipped: no GPU here (" + rows[0]["note"] + ")")
        return None
    return rows

def run_section(tools, tpath, work, opts):
    t = report.Table("gpu_bandwidth", "GPU bandwidth on cuda:0 (GB/s and pct_of_copy from the best repetition)",
                     ["op", "row_B", "size_MiB", "impl", "min_ms", "median_ms", "GB/s", "pct_of_copy",
                      "x_nvcc", "x_normal", "note"])
    if not tools.has(tools.bench_gpu):
        t.note("n/a (not available: no bench_gpu in this build)")
        return t
    # Prepared on a build machine (PTX inside signature files), launched by bench_gpu alone.
    gdir = os.path.join(work, "gpu")
    os.makedirs(gdir, exist_ok=True)
    ref_ptx = os.path.join(work, "compile", "throughput.nvcc.ptx")
    if tools.nvcc and not os.path.exists(ref_ptx):
        os.makedirs(os.path.dirname(ref_ptx), exist_ok=True)
        run([tools.nvcc, "-ptx", "-arch=sm_90", "-I", os.path.join(tools.root, "runtime", "include"),
             os.path.join(tools.root, "bench", "reference", "throughput.cu"), "-o", ref_ptx])
    if tools.has(tools.bench_gpu_prepare):
        for f in ("tilec.sig", "tilec.why", "tilec_det.sig", "tilec_det.why", "nvcc.sig"):
            if os.path.exists(os.path.join(gdir, f)):
                os.remove(os.path.join(gdir, f))
        cmd = [tools.bench_gpu_prepare, "--tile", tpath, "--out-dir", gdir,
               "--widths", ",".join(map(str, kernels.WIDTHS))]
        if os.path.exists(ref_ptx):
            cmd += ["--ref-ptx", ref_ptx]
        run(cmd, timeout=600)
    for stem, what in (("tilec", "tilec kernels"), ("tilec_det", "deterministic kernels")):
        why = os.path.join(gdir, stem + ".why")
        if os.path.exists(why):
            with open(why) as f:
                t.note(what + " n/a: " + f.read().strip()[:200])
    sizes = [s for s in GPU_SIZES] if not opts.quick else [16 * 2**20]
    cmd = [tools.bench_gpu, "--tilec-sig", os.path.join(gdir, "tilec.sig"), "--det-sig", os.path.join(gdir, "tilec_det.sig"), "--ref-sig", os.path.join(gdir, "nvcc.sig"),
           "--widths", ",".join(map(str, opts.widths)), "--sizes", ",".join(map(str, sizes)), "--reps", str(opts.reps)]
    rows = bench_gpu_rows(tools, cmd, 900, t, "bench_gpu")
    if rows is None:
        return t
    copy = {}
    for row in rows:
        if row["op"] == "copy":
            copy[(row["width"], row["rows"])] = num(row["min_s"])
    meds = {}
    for row in rows:
        if row["op"] != "copy":
            meds[(row["op"], row["width"], row["rows"], row["dup"], row["impl"])] = num(row["median_s"])
    for row in rows:
        wb, n = int(row["width"]), int(row["rows"])
        size = n * wb
        if row["op"] == "copy":
            med = num(row["median_s"])
            t.add("copy (limit)", wb, round(size / 2**20, 1), "cuMemcpyDtoD", num(row["min_s"]) * 1e3, med * 1e3,
                  2 * size / num(row["min_s"]) / 1e9, 100.0, None, None, "")
            continue
        dup = float(row["dup"])
        name = cpu_section.op_name(row["op"], dup)
        med, mn = num(row["median_s"]), num(row["min_s"])
        if row["status"] != "ok" or not med:
            t.add(name, wb, round(size / 2**20, 1), row["impl"], None, None, None, None, None, None,
                  "n/a (" + row["note"] + ")")
            continue
        bw = cpu_section.moved_bytes(row["op"], n, wb) / mn
        c = copy.get((row["width"], row["rows"]))
        nv = meds.get((row["op"], row["width"], row["rows"], row["dup"], "nvcc"))
        normal = meds.get((row["op"], row["width"], row["rows"], row["dup"], "tilec"))
        t.add(name, wb, round(size / 2**20, 1), row["impl"], mn * 1e3, med * 1e3, bw / 1e9,
              100.0 * bw / (2 * size / c) if c else None, med / nv if nv and row["impl"] != "nvcc" else None,
              med / normal if normal and row["impl"] == "tilec-det" else None, row["note"])
    t.note("x_nvcc = tilec median time / nvcc reference median time (lower is better); block_dim 256 for both")
    t.note("tilec-det: wp.config.deterministic (scatter-adds commit in launch order, one block per block "
           "program); x_normal = its median time / the normal mode's")
    if opts.out:
        groups = [f"{r[0]} {r[1]}B {r[2]:g}MiB" for r in t.rows if r[3] == "tilec"]
        vals = [[r[7] for r in t.rows if r[3] == impl] for impl in ("tilec", "nvcc")]
        if groups and all(len(v) == len(groups) for v in vals):
            report.bar_plot(os.path.join(opts.out, "gpu_bandwidth.png"), "GPU: % of D2D copy bandwidth",
                            groups, ["tilec", "nvcc reference"], vals, "% of copy", hline=100)
    return t


def run_matmul(tools, work, opts):
    """Table gpu_matmul: C = A @ B for square sizes, tilec's gemm_f16 / gemm_f32 (kernels/gemm.tile)
    against cuBLAS on the same factors, each product checked at sampled entries first."""
    t = report.Table("gpu_matmul", "GPU tiled GEMM on cuda:0 vs cuBLAS (TFLOP/s from the best repetition; "
                     f"target: tilec float16 >= {gemm_kernels.TARGET_PCT}% of cuBLAS)",
                     ["dtype", "size", "impl", "min_ms", "median_ms", "TFLOP/s", "pct_of_cublas", "note"])
    if not tools.has(tools.bench_gpu):
        t.note("n/a (not available: no bench_gpu in this build)")
        return t
    gdir = os.path.join(work, "gpu")
    os.makedirs(gdir, exist_ok=True)
    if tools.has(tools.bench_gpu_prepare):
        gemm_kernels.prepare(tools.bench_gpu_prepare, tools.root, gdir)
    why = os.path.join(gdir, gemm_kernels.WHY)
    if os.path.exists(why):
        with open(why) as f:
            t.note("tilec GEMM kernels n/a: " + f.read().strip()[:200])
    sizes = gemm_kernels.QUICK_SIZES if opts.quick else gemm_kernels.SIZES
    cmd = gemm_kernels.bench_cmd(tools.bench_gpu, tools.root, gdir, sizes, opts.reps)
    rows = bench_gpu_rows(tools, cmd, 1200, t, "bench_gpu --gemm")
    if rows is None:
        return t
    cublas = {(row["dtype"], row["size"]): num(row["min_s"]) for row in rows
              if row["impl"] == "cublas" and row["status"] == "ok"}
    for row in rows:
        n = int(row["size"])
        mn, med = num(row["min_s"]), num(row["median_s"])
        if row["status"] != "ok" or not mn:
            t.add(row["dtype"], n, row["impl"], None, None, None, None, "n/a (" + row["note"] + ")")
            continue
        c = cublas.get((row["dtype"], row["size"]))
        t.add(row["dtype"], n, row["impl"], mn * 1e3, med * 1e3, 2.0 * n**3 / mn / 1e12,
              100.0 * c / mn if c else None, row["note"])
        if "WRONG RESULT" in row["note"]:
            wrong_results.append((f"gpu_matmul {row['dtype']} {n}^3", row["impl"], row["note"]))
    sh = gemm_kernels.shapes(tools.root)
    t.note("TFLOP/s = 2 n^3 / best time; pct_of_cublas = cuBLAS's best time / this row's best time")
    t.note("tilec: " + "; ".join(f"{k} ({d}) {sh[k]['tm']}x{sh[k]['tn']}x{sh[k]['tk']} tiles, block_dim {sh[k]['block']}"
                                 for d, k, _, _ in gemm_kernels.KERNELS) +
           " (kernels/gemm.tile); cuBLAS: " + "; ".join(f"{d}: {c}" for d, _, _, c in gemm_kernels.KERNELS))
    t.note("each product is checked before it is timed: 1024 sampled entries against float64 host sums, the largest "
           "|error| / sum_k |a_ik b_kj| (max err) at most 1e-4; factors uniform in [-1, 1), float16-rounded for float16")
    if opts.out:
        groups = [f"{r[0]} {r[1]}" for r in t.rows if r[2] == "tilec"]
        vals = [[r[5] for r in t.rows if r[2] == impl] for impl in ("tilec", "cublas")]
        if groups and all(len(v) == len(groups) for v in vals):
            report.bar_plot(os.path.join(opts.out, "gpu_matmul.png"), "GPU GEMM: TFLOP/s", groups,
                            ["tilec", "cuBLAS"], vals, "TFLOP/s")
    return t
