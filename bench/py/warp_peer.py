"""NVIDIA Warp as a peer, run in its own process (the venv under the build directory):
  compile    --cache-root DIR --reps N FILE.tile...   cold CPU compile of each file
  throughput --module FILE.tile --cache DIR --configs JSON   CPU launches of the same kernels
  reduce     --module FILE.tile --cache DIR --configs JSON   CPU launches of the row reductions,
             each result checked against NumPy (the note says valid or WRONG RESULT)
  lanes      --module FILE.tile --cache DIR --configs JSON   CPU launches of the block sums of
             lanes.tile: the tile-only kernel timed and checked; the per-lane kernel run once
             to record what Warp's one lane per block makes of it
  matmul     --module FILE.tile --cache DIR --configs JSON   CPU launches of the batched
             tile_matmul kernels, each result checked against NumPy
Prints CSV on stdout. Warp's CPU device runs a launch on one thread."""
import argparse
import importlib.machinery
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402

import peers  # noqa: E402


def import_tile(path, name):
    loader = importlib.machinery.SourceFileLoader(name, path)
    spec = importlib.util.spec_from_loader(name, loader)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    loader.exec_module(mod)
    return mod


def emit(line):
    # Warp prints its own progress lines on stdout; ours carry a prefix the driver looks for.
    sys.stdout.write("CSV:" + line + "\n")
    sys.stdout.flush()


def flat(s):
    return str(s).replace(",", ";").replace("\n", " ")[:300]


WARMUP = """import warp as wp


@wp.kernel
def bench_warmup(a: wp.array[float]):
    i = wp.tid()
    a[i] = a[i] + 1.0
"""


def cmd_compile(wp, args):
    # Warp sets up its CPU compiler on the first compile of a process; do that outside the timing.
    warm = tempfile.mkdtemp(dir=args.cache_root)
    path = os.path.join(warm, "bench_warmup.tile")
    with open(path, "w") as f:
        f.write(WARMUP)
    wp.config.kernel_cache_dir = warm
    try:
        wp.load_module(import_tile(path, "bench_warmup"), device="cpu")
    except Exception:  # the timed compiles report any real problem
        pass
    shutil.rmtree(warm, ignore_errors=True)
    emit("kernel,status,min_s,median_s,reps,note")
    for path in args.files:
        kernel = os.path.basename(path).split(".")[0]
        times, why = [], ""
        for r in range(args.reps):
            cache = tempfile.mkdtemp(dir=args.cache_root)
            wp.config.kernel_cache_dir = cache
            try:
                mod = import_tile(path, f"bench_{kernel}_{r}")
                t0 = time.perf_counter()
                wp.load_module(mod, device="cpu")
                times.append(time.perf_counter() - t0)
            except Exception as e:  # a kernel Warp rejects is a result, not a crash
                why = f"{type(e).__name__}: {e}"
                break
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        if times:
            emit(f"{kernel},ok,{min(times)},{float(np.median(times))},{len(times)},")
        else:
            emit(f"{kernel},n/a,,,,{flat(why)}")
        sys.stdout.flush()


def cmd_throughput(wp, args):
    wp.config.kernel_cache_dir = args.cache
    emit("op,width,rows,dup,status,min_s,median_s,reps,iters,note")
    try:
        mod = import_tile(args.module, "bench_throughput")
        t0 = time.perf_counter()
        wp.load_module(mod, device="cpu")
        load_s = time.perf_counter() - t0
    except Exception as e:
        for c in json.loads(args.configs):
            emit(f"{c['op']},{c['width']},{c['rows']},{c['dup']},n/a,,,,,{flat(e)}")
        return
    sys.stderr.write(f"warp: throughput module loaded in {load_s:.1f} s\n")
    for c in json.loads(args.configs):
        op, wb, n, dup, m = c["op"], c["width"], c["rows"], c["dup"], c["tile_m"]
        kernel = getattr(mod, f"{'gather_rows' if op == 'gather' else 'scatter_add_rows'}_{wb}B")
        x = wp.array(peers.make_rows(n, wb // 4), dtype=float, device="cpu")
        idx = wp.array(peers.make_indices(n, n, dup if op == "scatter" else 0.0, 7), dtype=int, device="cpu")
        y = wp.zeros((n, wb // 4), dtype=float, device="cpu")

        def run():
            wp.launch_tiled(kernel, dim=[n // m], inputs=[x, idx, y], block_dim=args.block_dim, device="cpu")
        est = c.get("max_s", 1e9)
        t0 = time.perf_counter()
        run()
        first = time.perf_counter() - t0
        if first > est:
            emit(f"{op},{wb},{n},{dup},skipped,{first},{first},1,1,one launch took {first:.1f} s")
        else:
            mn, med, reps, iters = peers.measure(run, args.reps, args.budget)
            emit(f"{op},{wb},{n},{dup},ok,{mn},{med},{reps},{iters},")
        sys.stdout.flush()


REDUCE_KERNELS = {"sum": "row_sum", "max": "row_max", "softmax": "row_softmax"}


def cmd_reduce(wp, args):
    wp.config.kernel_cache_dir = args.cache
    emit("op,cols,rows,status,min_s,median_s,reps,iters,note")
    try:
        mod = import_tile(args.module, "bench_reduce")
        t0 = time.perf_counter()
        wp.load_module(mod, device="cpu")
        load_s = time.perf_counter() - t0
    except Exception as e:
        for c in json.loads(args.configs):
            emit(f"{c['op']},{c['cols']},{c['rows']},n/a,,,,,{flat(e)}")
        return
    sys.stderr.write(f"warp: reduce module loaded in {load_s:.1f} s\n")
    for c in json.loads(args.configs):
        op, cols, n, m = c["op"], c["cols"], c["rows"], c["tile_m"]
        try:
            kernel = getattr(mod, f"{REDUCE_KERNELS[op]}_{cols}")
            xn = peers.make_rows(n, cols)
            x = wp.array(xn, dtype=float, device="cpu")
            y = wp.zeros((n, cols) if op == "softmax" else n, dtype=float, device="cpu")

            def run():
                wp.launch_tiled(kernel, dim=[n // m], inputs=[x, y], block_dim=args.block_dim, device="cpu")
            t0 = time.perf_counter()
            run()
            first = time.perf_counter() - t0
            ok, diff = peers.check_reduce(op, y.numpy(), peers.reduce_fn(op, xn)())
            del xn
            note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g})"
            if first > c.get("max_s", 1e9):
                emit(f"{op},{cols},{n},skipped,{first},{first},1,1,one launch took {first:.1f} s; {note}")
            else:
                mn, med, reps, iters = peers.measure(run, args.reps, args.budget)
                emit(f"{op},{cols},{n},ok,{mn},{med},{reps},{iters},{note}")
        except Exception as e:  # a kernel Warp rejects is a result, not a crash
            emit(f"{op},{cols},{n},n/a,,,,,{flat(type(e).__name__ + ': ' + str(e))}")
        sys.stdout.flush()


def lanes_reference(xn, b):
    return (xn.astype(np.float64) * 2.0 + 1.0).reshape(-1, b).sum(axis=1)


def cmd_lanes(wp, args):
    wp.config.kernel_cache_dir = args.cache
    emit("elements,B,status,min_s,median_s,reps,iters,note,lane_note")
    try:
        mod = import_tile(args.module, "bench_lanes")
        wp.load_module(mod, device="cpu")
    except Exception as e:
        for c in json.loads(args.configs):
            emit(f"{c['elements']},{c['B']},n/a,,,,,{flat(e)},")
        return
    for c in json.loads(args.configs):
        n, b = c["elements"], c["B"]
        try:
            xn = peers.make_rows(n, 1).reshape(n)
            ref = lanes_reference(xn, b)
            x = wp.array(xn, dtype=float, device="cpu")
            # The per-lane kernel as written for the GPU: Warp's CPU device gives each block one
            # lane, so it stores lane 0's value instead of the block's sum.
            y = wp.zeros(n // b, dtype=float, device="cpu")
            wp.launch_tiled(mod.lane_sum, dim=[n // b], inputs=[x, y], block_dim=b, device="cpu")
            got = y.numpy()
            if peers.check_reduce("sum", got, ref)[0]:
                lane_note = "lane_sum gives the sums"
            elif np.array_equal(got, xn[: n // b] * np.float32(2.0) + np.float32(1.0)):
                lane_note = "lane_sum gives x[b] * 2 + 1 (one lane per block; block_dim() = 1) not the sums"
            else:
                lane_note = "lane_sum gives neither the sums nor one lane's value"
            kernel = getattr(mod, f"tile_sum_{b}")
            y = wp.zeros(n // b, dtype=float, device="cpu")

            def run():
                wp.launch_tiled(kernel, dim=[n // b], inputs=[x, y], block_dim=b, device="cpu")
            t0 = time.perf_counter()
            run()
            first = time.perf_counter() - t0
            ok, diff = peers.check_reduce("sum", y.numpy(), ref)
            note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g})"
            if first > c.get("max_s", 1e9):
                emit(f"{n},{b},skipped,{first},{first},1,1,one launch took {first:.1f} s; {note},{lane_note}")
            else:
                mn, med, reps, iters = peers.measure(run, args.reps, args.budget)
                emit(f"{n},{b},ok,{mn},{med},{reps},{iters},{note},{lane_note}")
        except Exception as e:  # a kernel Warp rejects is a result, not a crash
            emit(f"{n},{b},n/a,,,,,{flat(type(e).__name__ + ': ' + str(e))},")
        sys.stdout.flush()


def cmd_matmul(wp, args):
    import matmul_section
    wp.config.kernel_cache_dir = args.cache
    emit("tile,batch,status,min_s,median_s,reps,iters,note")
    try:
        mod = import_tile(args.module, "bench_matmul")
        t0 = time.perf_counter()
        wp.load_module(mod, device="cpu")
        load_s = time.perf_counter() - t0
    except Exception as e:
        for c in json.loads(args.configs):
            emit(f"{c['tile']},{c['batch']},n/a,,,,,{flat(e)}")
        return
    sys.stderr.write(f"warp: matmul module loaded in {load_s:.1f} s\n")
    for c in json.loads(args.configs):
        t, n = c["tile"], c["batch"]
        try:
            kernel = getattr(mod, f"matmul_{t}")
            an, bn = matmul_section.make_factors(np, n * t * t)
            a = wp.array(an.reshape(n * t, t), dtype=float, device="cpu")
            b = wp.array(bn.reshape(n * t, t), dtype=float, device="cpu")
            out = wp.zeros((n * t, t), dtype=float, device="cpu")

            def run():
                wp.launch_tiled(kernel, dim=[n], inputs=[a, b, out], block_dim=args.block_dim, device="cpu")
            run()
            ref = np.matmul(an.reshape(n, t, t).astype(np.float64), bn.reshape(n, t, t).astype(np.float64))
            del an, bn
            ok, diff = matmul_section.check(np, out.numpy(), ref)
            del ref
            note = f"{'valid' if ok else 'WRONG RESULT'} (max rel diff {diff:.2g})"
            mn, med, reps, iters = peers.measure(run, args.reps, args.budget)
            emit(f"{t},{n},ok,{mn},{med},{reps},{iters},{note}")
        except Exception as e:  # a kernel Warp rejects is a result, not a crash
            emit(f"{t},{n},n/a,,,,,{flat(type(e).__name__ + ': ' + str(e))}")
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("compile")
    c.add_argument("--cache-root", required=True)
    c.add_argument("--reps", type=int, default=1)
    c.add_argument("files", nargs="+")
    t = sub.add_parser("throughput")
    t.add_argument("--module", required=True)
    t.add_argument("--cache", required=True)
    t.add_argument("--configs", required=True)
    t.add_argument("--reps", type=int, default=5)
    t.add_argument("--budget", type=float, default=1.0)
    t.add_argument("--block-dim", type=int, default=256)
    r = sub.add_parser("reduce")
    r.add_argument("--module", required=True)
    r.add_argument("--cache", required=True)
    r.add_argument("--configs", required=True)
    r.add_argument("--reps", type=int, default=5)
    r.add_argument("--budget", type=float, default=1.0)
    r.add_argument("--block-dim", type=int, default=256)
    la = sub.add_parser("lanes")
    la.add_argument("--module", required=True)
    la.add_argument("--cache", required=True)
    la.add_argument("--configs", required=True)
    la.add_argument("--reps", type=int, default=5)
    la.add_argument("--budget", type=float, default=1.0)
    mm = sub.add_parser("matmul")
    mm.add_argument("--module", required=True)
    mm.add_argument("--cache", required=True)
    mm.add_argument("--configs", required=True)
    mm.add_argument("--reps", type=int, default=5)
    mm.add_argument("--budget", type=float, default=1.0)
    mm.add_argument("--block-dim", type=int, default=256)
    args = ap.parse_args()
    import warp as wp
    wp.config.quiet = True
    wp.init()
    os.makedirs(getattr(args, "cache_root", None) or args.cache, exist_ok=True)
    {"compile": cmd_compile, "throughput": cmd_throughput, "reduce": cmd_reduce, "lanes": cmd_lanes,
     "matmul": cmd_matmul}[args.cmd](wp, args)


if __name__ == "__main__":
    main()
