"""The benchmark driver behind bench/run.sh: compile latency, PTX quality, CPU throughput and
CPU tile reductions against the memory limit, per-lane code against tile operations on the CPU
and (where a GPU exists) GPU bandwidth and tiled GEMM against cuBLAS. Prints
every table, writes <out>/<table>.csv and <out>/<table>.png, and a header with the machine's
copy bandwidth. `--only reduce` (or `--sections reduce`) runs one section alone."""
import argparse
import os
import platform
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import compile_section  # noqa: E402
import cpu_section  # noqa: E402
import gpu_section  # noqa: E402
import kernels  # noqa: E402
import lanes_section  # noqa: E402
import modes_section  # noqa: E402
import matmul_section  # noqa: E402
import fft_section  # noqa: E402
import reduce_section  # noqa: E402
import scaling_section  # noqa: E402
import targets  # noqa: E402
from tools import Tools, error_line, num, parse_csv, run  # noqa: E402

KiB, MiB = 1024, 1024 * 1024


def size_arg(text):
    text = text.strip().upper()
    for suffix, mult in (("GIB", 2**30), ("MIB", MiB), ("KIB", KiB), ("G", 2**30), ("M", MiB), ("K", KiB)):
        if text.endswith(suffix):
            return int(float(text[: -len(suffix)]) * mult)
    return int(text)


def numpy_version():
    try:
        import numpy
        return numpy.__version__
    except ImportError:
        return "n/a"


def machine_header(tools, opts):
    cpu = platform.processor() or "cpu"
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    mem = ""
    try:
        with open("/proc/meminfo") as f:
            mem = f"{int(f.readline().split()[1]) / 2**20:.0f} GiB RAM"
    except OSError:
        pass
    copy = "n/a (no bench_cpu)"
    if tools.has(tools.bench_cpu):
        r = run([tools.bench_cpu, "--op", "copy", "--bytes", str(opts.header_bytes), "--reps", "5", "--budget", "3"])
        rows = parse_csv(r.stdout)
        if rows and rows[0]["status"] == "ok":
            mn, med = num(rows[0]["min_s"]), num(rows[0]["median_s"])
            b = 2 * opts.header_bytes
            copy = (f"{b / med / 1e9:.1f} GB/s median, {b / mn / 1e9:.1f} GB/s best "
                    f"({opts.header_bytes // MiB} MiB copy, {os.cpu_count()} threads, read + write counted)")
    try:
        with open("/proc/loadavg") as f:
            load = "load average " + " ".join(f.read().split()[:3]) + " at start"
    except OSError:
        load = ""
    lines = [f"tilec benchmarks  {time.strftime('%Y-%m-%d %H:%M:%S')}",
             f"machine: {cpu}, {os.cpu_count()} cores, {mem}, {load}",
             f"copy bandwidth (the CPU limit): {copy}",
             f"tilec: {tools.tilec if tools.has(tools.tilec) else 'n/a (not built)'}; nvcc: {tools.nvcc or 'n/a'}; "
             f"warp: {getattr(tools, 'warp_version', None) or 'n/a (' + tools.warp_note + ')'}; numpy: {numpy_version()}"]
    return "\n".join(lines) + "\n"


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", default=os.path.join(root, "build-bench"))
    ap.add_argument("--tilec", default=None, help="the tilec CLI to time (default BUILD/tilec)")
    ap.add_argument("--out", default=None, help="results folder (default BUILD/bench-results)")
    ap.add_argument("--sections", default="compile,ptx,cpu,reduce,lanes,matmul,fft,modes,gpu",
                    help="comma list of compile, ptx, cpu, reduce, lanes, matmul, fft, modes, gpu, scaling (e.g. --sections reduce); "
                         "scaling is not in the default list (about 10 minutes)")
    ap.add_argument("--only", default=None, help="one section alone, e.g. --only reduce (same as --sections reduce)")
    ap.add_argument("--quick", action="store_true", help="small sizes and few repetitions (a smoke run)")
    ap.add_argument("--sizes", default=None, help="comma list, e.g. 256KiB,8MiB,256MiB")
    ap.add_argument("--widths", default=None, help="row widths in bytes, e.g. 16,256,4096")
    ap.add_argument("--reduce-size", default=None, help="input size of the tile reductions (default 256MiB, 16MiB with --quick)")
    ap.add_argument("--lanes-sizes", default=None,
                    help="float32 elements of the per-lane table, e.g. 2^22,2^24 (the default; 2^18,2^20 with --quick)")
    ap.add_argument("--matmul-size", default=None,
                    help="bytes of factors (a and b) of the batched tile_matmul table (default 256MiB, 16MiB with --quick)")
    ap.add_argument("--scaling-sizes", default=None,
                    help="tile operations per kernel of the compile-scaling table (default 10,100,1000,5000; --quick: 10,100)")
    ap.add_argument("--scaling-budget", type=float, default=None,
                    help="seconds for the compile-scaling section (default 600); steps predicted to overrun are skipped")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--nvcc-reps", type=int, default=3)
    ap.add_argument("--warp-compile-reps", type=int, default=1)
    ap.add_argument("--no-warp-throughput", dest="warp_throughput", action="store_false")
    ap.add_argument("--budget", type=float, default=0.6, help="seconds per timed contestant and config")
    ap.add_argument("--cpu-rounds", type=int, default=2,
                    help="passes over the CPU throughput configs, the budget split between them; each "
                         "contestant keeps its best pass")
    ap.add_argument("--max-iter-s", type=float, default=3.0, help="skip a peer whose one call would take longer")
    opts = ap.parse_args()
    opts.out = opts.out or os.path.join(opts.build, "bench-results")
    os.makedirs(opts.out, exist_ok=True)
    work = os.path.join(opts.build, "bench-work")
    os.makedirs(work, exist_ok=True)
    if opts.quick:
        opts.sizes = opts.sizes or "256KiB,4MiB"
        opts.widths = opts.widths or "16,256,4096"
        opts.reps, opts.nvcc_reps, opts.budget = min(opts.reps, 3), min(opts.nvcc_reps, 2), min(opts.budget, 0.3)
        opts.cpu_rounds = 1
        opts.reduce_size = opts.reduce_size or "16MiB"
        opts.lanes_sizes = opts.lanes_sizes or "2^18,2^20"
        opts.matmul_size = opts.matmul_size or "16MiB"
    opts.matmul_size = size_arg(opts.matmul_size or "256MiB")
    opts.reduce_size = size_arg(opts.reduce_size or "256MiB")
    opts.lanes_sizes = [2 ** int(s[2:]) if s.startswith("2^") else int(s)
                        for s in (opts.lanes_sizes or "2^22,2^24").split(",")]
    opts.sizes = [size_arg(s) for s in (opts.sizes or "256KiB,8MiB,256MiB,1GiB").split(",")]
    opts.widths = [int(w) for w in (opts.widths or ",".join(map(str, kernels.WIDTHS))).split(",")]
    bad = [w for w in opts.widths if w not in kernels.WIDTHS]
    if bad:
        ap.error(f"row widths must be among {kernels.WIDTHS}")
    opts.dup_widths = [w for w in opts.widths if w in (16, 256, 4096)] or opts.widths
    opts.header_bytes = 64 * MiB if opts.quick else 512 * MiB
    if opts.scaling_sizes:
        opts.scaling_sizes = [int(s) for s in opts.scaling_sizes.split(",")]
    sections = (opts.only or opts.sections).split(",")
    known = ("compile", "ptx", "cpu", "reduce", "lanes", "matmul", "fft", "modes", "gpu", "scaling")
    unknown = [s for s in sections if s not in known]
    if unknown:
        ap.error(f"unknown sections {unknown}: choose among {', '.join(known)}")

    tools = Tools(root, opts.build)
    if opts.tilec:
        tools.tilec = os.path.abspath(opts.tilec)
    header = machine_header(tools, opts)
    print(header, flush=True)
    compile_kernels, tpath = kernels.prepare(root, work)
    opts.throughput_tile = tpath
    tables = []
    t0 = time.time()

    # The throughput module, compiled once for every section that runs it.
    tptx = os.path.join(work, "compile", "throughput.tilec.ptx")
    tso = os.path.join(work, "compile", "throughput.so")
    os.makedirs(os.path.dirname(tptx), exist_ok=True)
    have_tptx = have_tso = False
    if tools.has(tools.tilec) and ("ptx" in sections or "cpu" in sections):  # their only users
        r = run([tools.tilec, "compile", "--target=nvptx", "--arch=sm_90", "--emit=ptx", tpath])
        if r.returncode == 0 and ".entry" in r.stdout:
            with open(tptx, "w") as f:
                f.write(r.stdout)
            have_tptx = True
        if os.path.exists(tso):
            os.remove(tso)
        r = run([tools.tilec, "compile", "--target=host", "-o", tso, tpath])
        have_tso = r.returncode == 0 and os.path.exists(tso)
        if not have_tso:
            print("note: `tilec compile --target=host -o` for the throughput kernels failed (" +
                  (error_line(r.stderr) or f"exit {r.returncode}") + ")", flush=True)
    if not have_tso and tools.has(tools.bench_compile) and "cpu" in sections:
        # The same object through the compiler library, so that a CLI problem does not hide
        # the kernels' throughput.
        r = run([tools.bench_compile, f"--write-so={tso}", tpath])
        have_tso = r.returncode == 0 and os.path.exists(tso)
        if have_tso:
            print("note: the throughput kernels' host object was written through the compiler library", flush=True)

    ptx_files = {}
    if "compile" in sections or "ptx" in sections:
        print("compile latency ...", flush=True)
        t, ptx_files = compile_section.compile_latency(tools, compile_kernels, work, opts)
        if "compile" in sections:
            tables.append(t)
    if "ptx" in sections:
        if have_tptx:
            ptx_files[("throughput", "tilec")] = tptx
        if tools.nvcc:
            nv = os.path.join(work, "compile", "throughput.nvcc.ptx")
            r = run([tools.nvcc, "-ptx", "-arch=sm_90", "-I", os.path.join(root, "runtime", "include"),
                     os.path.join(root, "bench", "reference", "throughput.cu"), "-o", nv])
            if r.returncode == 0:
                ptx_files[("throughput", "nvcc")] = nv
        names = [f"{k}_{w}B" for w in (16, 4096) for k in ("gather_rows", "scatter_add_rows")]
        tables.append(compile_section.ptx_quality(tools, compile_kernels, ptx_files, work, opts, names))
    if "cpu" in sections:
        print("CPU throughput ...", flush=True)
        tables.append(cpu_section.run_section(tools, tpath, tso if have_tso else None, work, opts))
    if "reduce" in sections:
        print("CPU tile reductions ...", flush=True)
        tables.append(reduce_section.run_section(tools, work, opts))
    if "lanes" in sections:
        print("per-lane code on the CPU ...", flush=True)
        tables.append(lanes_section.run_section(tools, work, opts))
    if "matmul" in sections:
        print("CPU batched tile_matmul ...", flush=True)
        tables.append(matmul_section.run_section(tools, work, opts))
    if "fft" in sections:
        print("CPU batched tile_fft ...", flush=True)
        tables.append(fft_section.run_section(tools, work, opts))
    if "modes" in sections:
        print("opt-in modes on the CPU ...", flush=True)
        tables.append(modes_section.run_section(tools, work, opts))
    if "gpu" in sections:
        tables.append(gpu_section.run_section(tools, tpath, work, opts))
        print("GPU tiled GEMM vs cuBLAS ...", flush=True)
        tables.append(gpu_section.run_matmul(tools, work, opts))
    if "scaling" in sections:
        print("compile scaling (about 10 minutes; progress on stderr) ...", flush=True)
        tables.append(scaling_section.run_section(tools, work, opts))

    if tables:
        tables.append(targets.targets_table(tables))

    print()
    print(header)
    text = []
    for t in tables:
        t.write_csv(opts.out)
        text.append(t.text())
        print(t.text(), flush=True)
    with open(os.path.join(opts.out, "summary.txt"), "w") as f:
        f.write(header + "\n" + "\n".join(text))
    print(f"results: {opts.out} (CSV and PNG per table, summary.txt); sections took {time.time() - t0:.0f} s")
    wrong = (reduce_section.wrong_results + lanes_section.wrong_results + matmul_section.wrong_results +
             fft_section.wrong_results +
             modes_section.wrong_results + gpu_section.wrong_results)
    if wrong:
        for case, impl, note in wrong:
            print(f"ERROR: {impl} WRONG RESULT: {case}: {note}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
