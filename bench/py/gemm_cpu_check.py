"""Checks, without a GPU, that the GEMM kernels of bench/kernels/gemm.tile compute a @ b: runs them
through `tilec run` on the CPU and under the GPU lowering's host emulation (TILEC_SIMT_EMULATION,
tensor-core fragments included) on a non-square problem, against NumPy's float64 product; then,
where bench_gpu is built, its GEMM mode itself on the CPU device (--gemm-cpu 1: a host module of
the same file, the launch geometry and result check the GPU rows use).
  python3 bench/py/gemm_cpu_check.py [--tilec build/tilec] [--bench-gpu build/bench/bench_gpu]
(exit 1 on a mismatch)"""
import argparse
import os
import subprocess
import sys
import tempfile

import gemm_kernels

# Appended to gemm.tile's text: M, N, K all different and several tiles each way, so that a swapped
# index, a transposed factor or a dropped K block cannot pass.
HOST = """

M, N, K = 128, 192, 256
rng = np.random.default_rng(1)
a32 = (rng.random((M, K)) * 2.0 - 1.0).astype(np.float32)
b32 = (rng.random((K, N)) * 2.0 - 1.0).astype(np.float32)
for name, kernel, dt, npdt, tm, tn, block in (("gemm_f16", gemm_f16, wp.float16, np.float16, TM_H, TN_H, BLOCK_H),
                                              ("gemm_f32", gemm_f32, float, np.float32, TM_F, TN_F, BLOCK_F)):
    a, b = a32.astype(npdt), b32.astype(npdt)
    c = wp.zeros((M, N), dtype=float)
    wp.launch_tiled(kernel, dim=(M // tm, N // tn), inputs=[wp.array(a, dtype=dt), wp.array(b, dtype=dt)],
                    outputs=[c], block_dim=block)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64))
    err = float(np.max(np.abs(c.numpy() - ref) / scale))
    print(name, "max err / sum|a*b|:", err, "ok" if err < 1e-6 else "WRONG")
"""


def main():
    root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tilec", default=os.path.join(root, "build", "tilec"))
    ap.add_argument("--bench-gpu", default=os.path.join(root, "build", "bench", "bench_gpu"))
    opts = ap.parse_args()
    with open(gemm_kernels.tile_path(root)) as f:
        text = f.read() + HOST
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        prog = os.path.join(tmp, "gemm_check.tile")
        with open(prog, "w") as f:
            f.write(text)
        # block_dim: each launch's own lanes (256 and 512), as on the GPU.
        for mode, extra in (("cpu", {}), ("GPU lowering, emulated", {"TILEC_SIMT_EMULATION": "block_dim"})):
            env = dict(os.environ, **extra)
            r = subprocess.run([opts.tilec, "run", prog], capture_output=True, text=True, env=env, timeout=600)
            out = r.stdout.strip().splitlines()
            good = r.returncode == 0 and len(out) == 2 and all(l.endswith(" ok") for l in out)
            bad += 0 if good else 1
            print(f"{mode}: " + ("; ".join(out) or "no output") + ("" if good else f"  FAILED (exit {r.returncode}) "
                                                                   + r.stderr.strip()[-300:]))
        if os.access(opts.bench_gpu, os.X_OK):
            so = os.path.join(tmp, "gemm.so")
            r = subprocess.run([opts.tilec, "compile", "--target=host", "-o", so, gemm_kernels.tile_path(root)],
                               capture_output=True, text=True, timeout=600)
            sh = gemm_kernels.shapes(root)
            env = dict(os.environ)
            env["LD_LIBRARY_PATH"] = os.path.join(os.path.dirname(os.path.dirname(opts.bench_gpu)), "runtime") + ":" + \
                env.get("LD_LIBRARY_PATH", "")
            r = r if r.returncode else subprocess.run(
                [opts.bench_gpu, "--gemm", so, "--gemm-cpu", "1", "--gemm-sizes", "256,512",
                 "--gemm-tiles", gemm_kernels.tiles_arg(sh), "--reps", "1"], capture_output=True, text=True, env=env,
                timeout=600)
            rows = [l.split(",") for l in r.stdout.strip().splitlines()[1:] if ",tilec," in l]
            good = r.returncode == 0 and len(rows) == 4 and all(c[3] == "ok" and c[8].startswith("valid") for c in rows)
            bad += 0 if good else 1
            print("bench_gpu --gemm on the CPU device: " + ("; ".join(f"{c[0]} {c[1]}: {c[8]}" for c in rows) or "no rows")
                  + ("" if good else f"  FAILED (exit {r.returncode}) " + (r.stderr + r.stdout).strip()[-300:]))
        else:
            print(f"bench_gpu --gemm on the CPU device: skipped (no {opts.bench_gpu})")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
