"""The GPU GEMM rows (table gpu_matmul): tilec's tiled GEMMs of bench/kernels/gemm.tile, their tile
shapes and block_dim (the file's constants), the sizes, and the command lines of bench_gpu_prepare
and bench_gpu --gemm. Shared by gpu_section, gpu_dry_run and scripts/gpu-pack.sh."""
import os
import re
import subprocess

SIZES = [1024, 2048, 4096, 8192]  # M = N = K
QUICK_SIZES = [1024, 2048]
TARGET_PCT = 70  # the target: tilec float16 >= 70% of cuBLAS
# (dtype, kernel, suffix of its constants in gemm.tile, what cuBLAS runs for it)
KERNELS = [("float16", "gemm_f16", "H", "cublasGemmEx 16F x 16F -> 32F, compute 32F"),
           ("float32", "gemm_f32", "F", "cublasSgemm_v2, default math (no TF32)")]
SIG, WHY, TILES = "gemm.sig", "gemm.why", "gemm.tiles"


def tile_path(root):
    return os.path.join(root, "bench", "kernels", "gemm.tile")


def shapes(root):
    """kernel -> {tm, tn, tk, block} from gemm.tile's module constants."""
    with open(tile_path(root)) as f:
        consts = {m.group(1): int(m.group(2)) for m in re.finditer(r"^([A-Z_]+)\s*=\s*(\d+)\s*$", f.read(), re.M)}
    return {k: {"tm": consts[f"TM_{s}"], "tn": consts[f"TN_{s}"], "tk": consts[f"TK_{s}"], "block": consts[f"BLOCK_{s}"]}
            for _, k, s, _ in KERNELS}


def tiles_arg(sh):
    return ",".join(f"{k}={sh[k]['tm']}x{sh[k]['tn']}" for _, k, _, _ in KERNELS)


def prepare(prepare_bin, root, gdir, timeout=600):
    """Compiles the GEMM kernels to gdir/gemm.sig (gemm.why on failure) and records the tile
    shapes they were compiled with in gdir/gemm.tiles, so that a pack launches what it carries
    even if gemm.tile changes later. Returns the CompletedProcess."""
    sh = shapes(root)
    for f in (SIG, WHY, TILES):
        if os.path.exists(os.path.join(gdir, f)):
            os.remove(os.path.join(gdir, f))
    cmd = [prepare_bin, "--gemm-tile", tile_path(root), "--out-dir", gdir,
           "--gemm-kernels", ",".join(f"{k}:{sh[k]['block']}" for _, k, _, _ in KERNELS)]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if r.returncode == 0 and os.path.exists(os.path.join(gdir, SIG)):
        with open(os.path.join(gdir, TILES), "w") as f:
            f.write(tiles_arg(sh) + "\n")
    return r


def recorded_tiles(gdir):
    """The --gemm-tiles text gdir/gemm.tiles holds, or None."""
    try:
        with open(os.path.join(gdir, TILES)) as f:
            return f.read().strip() or None
    except OSError:
        return None


def bench_cmd(bench_gpu, root, gdir, sizes, reps):
    tiles = recorded_tiles(gdir) or tiles_arg(shapes(root))
    return [bench_gpu, "--gemm", os.path.join(gdir, SIG), "--gemm-sizes", ",".join(map(str, sizes)),
            "--gemm-tiles", tiles, "--reps", str(reps)]
