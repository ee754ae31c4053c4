"""Shared by the Python peers (NumPy in the driver, Warp in its own process): batched timing
with min/median per iteration, the same index streams and row data as bench/src/bench_util.cpp
and bench_cpu (same distribution, NumPy's generator), and the row reductions' NumPy reference
with the check that tilec's and Warp's outputs must pass."""
import math
import time

import numpy as np


def measure(fn, reps=5, budget_s=1.0, min_batch_s=0.01):
    start = time.perf_counter()
    t0 = time.perf_counter()
    fn()  # warm-up, timed to size the batches
    one = max(time.perf_counter() - t0, 1e-9)
    iters = max(1, int(math.ceil(min_batch_s / one)))
    per = []
    for _ in range(max(reps, 2)):
        t0 = time.perf_counter()
        for _ in range(iters):
            fn()
        per.append((time.perf_counter() - t0) / iters)
        if len(per) >= 2 and time.perf_counter() - start > budget_s:
            break
    per.sort()
    return per[0], float(np.median(per)), len(per), iters


def make_indices(n, rows, dup, seed):
    rng = np.random.default_rng(seed)
    perm = rng.permutation(rows).astype(np.int32)
    distinct = int(min(max(round((1.0 - dup) * n), 1), n, rows))
    idx = np.empty(n, dtype=np.int32)
    idx[:distinct] = perm[:distinct]
    if distinct < n:
        idx[distinct:] = perm[rng.integers(0, distinct, n - distinct)]
    rng.shuffle(idx)
    return idx


def make_rows(n, width_floats):
    return (np.arange(n * width_floats, dtype=np.int64) % 1021).astype(np.float32).reshape(n, width_floats) * np.float32(0.001)


def reduce_fn(op, x):
    """NumPy's row reduction of x along axis 1: "sum", "max" or "softmax"."""
    if op == "sum":
        return lambda: x.sum(axis=1)
    if op == "max":
        return lambda: x.max(axis=1)

    def softmax():
        e = np.exp(x - x.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)
    return softmax


def check_reduce(op, got, ref):
    """(valid, max difference relative to the largest reference value): the maximum must match
    exactly, sums and softmax to 1e-5; NaN or infinity anywhere is invalid."""
    ref = np.asarray(ref, dtype=np.float32)
    got = np.asarray(got, dtype=np.float32)
    if got.size != ref.size:
        return False, float("inf")
    got = got.reshape(ref.shape)
    diff = float(np.max(np.abs(got.astype(np.float64) - ref))) / max(float(np.max(np.abs(ref))), 1e-30)
    ok = bool(np.all(np.isfinite(got))) and (diff == 0.0 if op == "max" else diff < 1e-5)
    return ok, diff
