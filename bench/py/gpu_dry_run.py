"""`bench/gpu.sh --dry-run`: without a GPU, lists every row the GPU bandwidth table would measure
(op, row width, size, implementation, kernel) and the artifacts each needs, checks that they are
present in the build (or pack) folder, and exits 1 naming what is missing. Builds nothing."""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402

# What bench_gpu measures (bench/src/bench_gpu_main.cpp: ops[], impls[]) and gpu_section's sizes.
OPS = [("gather", 0.0), ("scatter", 0.0), ("scatter", 0.1), ("scatter", 0.9)]
IMPLS = [("tilec", "tilec.sig", False), ("tilec-det", "tilec_det.sig", True), ("nvcc", "nvcc.sig", False)]
GPU_SIZES = [64 * 2**20, 1024 * 2**20]  # gpu_section.GPU_SIZES (not imported: it pulls in the CPU section)


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
