"""`bench/gpu.sh --dry-run`: without a GPU, lists every row the GPU bandwidth table would measure
(op, row width, size, implementation, kernel) and those of the GEMM table (dtype, size, tilec's
kernel or cuBLAS), the artifacts each needs, checks that they are present in the build (or pack)
folder, runs bench_gpu's host self-test, and exits 1 naming what is missing. Builds nothing."""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gemm_kernels  # noqa: E402
import kernels  # noqa: E402

# What bench_gpu measures (bench/src/bench_gpu_main.cpp: ops[], impls[]) and gpu_section's sizes.
OPS = [("gather", 0.0), ("scatter", 0.0), ("scatter", 0.1), ("scatter", 0.9)]
IMPLS = [("tilec", "tilec.sig", False), ("tilec-det", "tilec_det.sig", True), ("nvcc", "nvcc.sig", False)]
GPU_SIZES = [64 * 2**20, 1024 * 2**20]  # gpu_section.GPU_SIZES (not imported: it pulls in the CPU section)


def sig_block_dims(text):
    """kernel -> the block_dim its GPU code was compiled for, from signature text."""
    out, name = {}, None
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "kernel":
            name = words[1]
        elif name and len(words) >= 3 and words[0] == "gpu_variant":
            out.setdefault(name, int(words[2]))
        elif name and len(words) >= 2 and words[0] == "block_dim" and int(words[1]) > 0:
            out[name] = int(words[1])
        elif words == ["end"]:
            name = None
    return out


def cublas_here():
    """Where bench_gpu would find libcublas on this machine (it looks again on the GPU machine)."""
    dirs = [os.path.join(os.environ[e], "lib64") for e in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(e)]
    dirs.append("/usr/local/cuda/lib64")
    for d in dirs:
        for n in ("libcublas.so.13", "libcublas.so.12", "libcublas.so"):
            if os.path.exists(os.path.join(d, n)):
                return f"libcublas here: {os.path.join(d, n)} (bench_gpu dlopens it at run time; without it the cuBLAS rows say n/a)"
    return "libcublas: not in $CUDA_HOME/lib64 or /usr/local/cuda/lib64 here (maybe on the library path; without it the cuBLAS rows say n/a)"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", required=True)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--widths", default=None)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--no-build", action="store_true", help="gpu.sh will not build (a pack, or no cmake/ninja)")
    opts, _ = ap.parse_known_args()
    build = os.path.abspath(opts.build)
    widths = [int(w) for w in opts.widths.split(",")] if opts.widths else kernels.WIDTHS
    sizes = [16 * 2**20] if opts.quick else GPU_SIZES
    gdir = os.path.join(build, "bench-work", "gpu")
    bench_gpu = os.path.join(build, "bench", "bench_gpu")
    prepare = os.path.join(build, "bench", "bench_gpu_prepare")
    # gpu.sh builds bench_gpu and bench_gpu_prepare first unless told not to; with
    # bench_gpu_prepare present the signature files are written afresh by the run itself.
    will_prepare = os.access(prepare, os.X_OK) or not opts.no_build
    missing, lines, pending = [], [], []

    def need(path, what, executable=False, ok_if=False, later="", optional=False):
        there = os.path.isfile(path) and (not executable or os.access(path, os.X_OK))
        state = "present" if there else (f"absent, {later}" if ok_if else "MISSING")
        if not there and not ok_if:
            missing.append(f"{os.path.relpath(path, build)} ({what})")
        elif not there and not optional:
            pending.append(os.path.relpath(path, build))
        lines.append(f"  {state:<9} {path}  [{what}]")
        return there

    mode = "no build (TILEC_BENCH_NO_BUILD or no cmake/ninja): the folder is used as it is" if opts.no_build else \
        "gpu.sh would first build bench_gpu and bench_gpu_prepare (cmake + ninja, Release) in this folder"
    print(f"gpu bench --dry-run: folder {build}")
    print(f"  {mode}")
    print("artifacts:")
    have_gpu = need(bench_gpu, "bench_gpu: launches every row", executable=True,
                    ok_if=not opts.no_build, later="gpu.sh builds it (needs a build machine: LLVM, ANTLR, cmake)")
    if have_gpu:
        # libtilec_rt.so.0 and anything else it links must resolve as gpu_section runs it.
        env = dict(os.environ)
        # build/runtime in a build folder; PACK/lib beside PACK/bench-build in a GPU pack.
        env["LD_LIBRARY_PATH"] = ":".join([os.path.join(build, "runtime"), os.path.join(os.path.dirname(build), "lib"),
                                           env.get("LD_LIBRARY_PATH", "")])
        if shutil.which("ldd"):
            r = subprocess.run(["ldd", bench_gpu], capture_output=True, text=True, env=env)
            for l in r.stdout.splitlines():
                if "not found" in l:
                    missing.append(f"{l.split()[0]} (a library of bench_gpu; looked in BUILD/runtime, ../lib and LD_LIBRARY_PATH)")
                    lines.append(f"  MISSING   {l.strip()}")
                elif "libtilec_rt" in l:
                    lines.append(f"  present   {l.strip()}")
    need(prepare, "bench_gpu_prepare: rewrites the .sig files from the .tile text (build machine only)",
         executable=True, ok_if=True, optional=opts.no_build,
         later="the .sig files below are used as they are" if opts.no_build else "gpu.sh builds it")
    names = {w: (f"gather_rows_{w}B", f"scatter_add_rows_{w}B") for w in widths}
    sig_text = {}
    for impl, sig, scatter_only in IMPLS:
        path = os.path.join(gdir, sig)
        later = "bench_gpu_prepare writes it" + ("" if os.access(prepare, os.X_OK) else " once built")
        if not need(path, f"{impl} kernels (PTX inside)", ok_if=will_prepare, later=later):
            why = os.path.join(gdir, sig.replace(".sig", ".why"))
            if os.path.exists(why):
                with open(why) as f:
                    lines.append(f"            {impl}: its .why says: {f.read().strip()[:200]}")
            continue
        with open(path, errors="replace") as f:
            sig_text[impl] = f.read()
        for w in widths:
            for k in names[w][1:] if scatter_only else names[w]:
                if k not in sig_text[impl]:
                    missing.append(f"kernel {k} in {os.path.relpath(path, build)}")
    # The GEMM table: one signature file with both kernels, each compiled for its block_dim.
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    shapes = gemm_kernels.shapes(root)
    gsig = os.path.join(gdir, gemm_kernels.SIG)
    later = "bench_gpu_prepare writes it" + ("" if os.access(prepare, os.X_OK) else " once built")
    if need(gsig, "tilec GEMM kernels gemm_f16, gemm_f32 (PTX inside)", ok_if=will_prepare, later=later):
        with open(gsig, errors="replace") as f:
            blocks = sig_block_dims(f.read())
        for _, k, _, _ in gemm_kernels.KERNELS:
            if k not in blocks:
                missing.append(f"kernel {k} in {os.path.relpath(gsig, build)}")
            elif blocks[k] != shapes[k]["block"]:
                lines.append(f"            note: {k} in gemm.sig has block_dim {blocks[k]}, gemm.tile says "
                             f"{shapes[k]['block']} (bench_gpu launches with gemm.sig's)")
    else:
        why = os.path.join(gdir, gemm_kernels.WHY)
        if os.path.exists(why):
            with open(why) as f:
                lines.append(f"            gemm: its .why says: {f.read().strip()[:200]}")
    recorded = gemm_kernels.recorded_tiles(gdir)
    need(os.path.join(gdir, gemm_kernels.TILES), "the GEMM tile shapes gemm.sig was compiled with", ok_if=True,
         optional=True, later="bench_gpu gets them from bench/kernels/gemm.tile")
    if recorded and recorded != gemm_kernels.tiles_arg(shapes):
        lines.append(f"            note: gemm.tiles says {recorded}, gemm.tile now {gemm_kernels.tiles_arg(shapes)} "
                     "(the run uses gemm.tiles, matching gemm.sig)")
    lines.append(f"  {'info':<9} {cublas_here()}")
    if have_gpu:
        r = subprocess.run([bench_gpu, "--self-test"], capture_output=True, text=True, env=env, timeout=120)
        out = r.stdout.strip().splitlines()
        ok = r.returncode == 0 and out and out[-1] == "gemm self-test: ok"  # an older bench_gpu prints no such line
        lines.append(f"  {'ok' if ok else 'FAILED':<9} bench_gpu --self-test (host reference and check, cuBLAS "
                     f"operand order, no GPU needed): {out[-1] if out else 'no output'}")
        lines += [f"            {l}" for l in out if l.endswith("FAILED")]
        if not ok:
            tail = (r.stdout + r.stderr).strip().splitlines()
            missing.append("a passing `bench_gpu --self-test`" + (f" ({tail[-1][:160]})" if tail else ""))
    if not opts.no_build and not (have_gpu and os.access(prepare, os.X_OK)):
        lines.append("  note: this run needs a build first (LLVM 19, ANTLR, cmake, ninja: a build machine); on a GPU "
                     "machine without them, prepare here with bench/run.sh or scripts/gpu-pack.sh")
    print("\n".join(lines))
    rows = 0
    print(f"rows (gpu_bandwidth table; {opts.reps} reps each, block_dim 256):")
    print(f"  {'op':<8} {'dup':>4} {'row_B':>6} {'size_MiB':>8}  {'impl':<12} kernel")
    for size in sizes:
        for w in widths:
            print(f"  {'copy':<8} {0:>4} {w:>6} {size // 2**20:>8}  {'cuMemcpyDtoD':<12} (the limit)")
            rows += 1
            for op, dup in OPS:
                k = names[w][0] if op == "gather" else names[w][1]
                for impl, sig, scatter_only in IMPLS:
                    if scatter_only and op == "gather":
                        continue
                    entry = ("ref_" + k) if impl == "nvcc" else k
                    print(f"  {op:<8} {dup:>4g} {w:>6} {size // 2**20:>8}  {impl:<12} {entry}  <- {sig}")
                    rows += 1
    print(f"{rows} rows; command: {bench_gpu} --tilec-sig {gdir}/tilec.sig --det-sig {gdir}/tilec_det.sig "
          f"--ref-sig {gdir}/nvcc.sig --widths {','.join(map(str, widths))} --sizes {','.join(str(s) for s in sizes)} "
          f"--reps {opts.reps}")
    gsizes = gemm_kernels.QUICK_SIZES if opts.quick else gemm_kernels.SIZES
    print(f"rows (gpu_matmul table; {opts.reps} reps each, C = A @ B, M = N = K = size):")
    print(f"  {'dtype':<8} {'size':>5}  {'impl':<7} kernel")
    grows = 0
    for n in gsizes:
        for dtype, k, _, call in gemm_kernels.KERNELS:
            sh = shapes[k]
            print(f"  {dtype:<8} {n:>5}  {'tilec':<7} {k}  <- {gemm_kernels.SIG}; grid ({n // sh['tm']}, {n // sh['tn']}), "
                  f"block_dim {sh['block']}, {sh['tm']}x{sh['tn']}x{sh['tk']} tiles")
            print(f"  {dtype:<8} {n:>5}  {'cublas':<7} {call}  <- libcublas (dlopen)")
            grows += 2
    print(f"{grows} rows; command: {' '.join(gemm_kernels.bench_cmd(bench_gpu, root, gdir, gsizes, opts.reps))}")
    if missing:
        print("gpu bench --dry-run: MISSING " + str(len(missing)) + ": " + "; ".join(missing), file=sys.stderr)
        print("gpu bench --dry-run: prepare them on a build machine: bench/run.sh (build-bench/), or "
              "scripts/gpu-pack.sh (a pack: TILEC_BENCH_BUILD_DIR=PACK/bench-build TILEC_BENCH_NO_BUILD=1)",
              file=sys.stderr)
        sys.exit(1)
    if pending:
        print(f"gpu bench --dry-run: nothing missing that gpu.sh cannot make, but it needs a build first: "
              f"{', '.join(pending)} (cmake + ninja here; LLVM 19 and ANTLR for bench_gpu_prepare)")
    else:
        print("gpu bench --dry-run: every artifact is present")


if __name__ == "__main__":
    main()
