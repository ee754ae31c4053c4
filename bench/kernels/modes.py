# The cost of tilec's two opt-in modes on the CPU, each against the normal mode in the same run:
# checked array access (wp.config.mode = "debug") on a per-lane kernel and a scalar gather, and
# deterministic tile atomics (wp.config.deterministic) on a scatter-add. Run by `tilec run`;
# prints one `ROW kernel mode best_ms check` line per case for bench/py/modes_section.py.
import warp as wp
import numpy as np

N = 1 << 22
B = 256
REPS = 7


def kernels():
    @wp.kernel(enable_backward=False)
    def lane_sum(x: wp.array[float], out: wp.array[float]):
        block, lane = wp.tid()
        i = block * wp.block_dim() + lane
        t = wp.tile(x[i] * 2.0 + 1.0)
        wp.tile_store(out, wp.tile_sum(t), offset=block)

    @wp.kernel(enable_backward=False)
    def gather(x: wp.array[float], idx: wp.array[int], y: wp.array[float]):
        i = wp.tid()
        y[i] = x[idx[i]] * 2.0

    @wp.kernel(enable_backward=False)
    def scatter_add(x: wp.array[float], idx: wp.array[int], y: wp.array[float]):
        b = wp.tid()
        t = wp.tile_load(x, shape=B, offset=b * B)
        i = wp.tile_load(idx, shape=B, offset=b * B)
        wp.tile_atomic_add_indexed(y, i, t, axis=0)

    return lane_sum, gather, scatter_add


rng = np.random.default_rng(7)
x = wp.array(rng.random(N, dtype=np.float32))
idx = wp.array(rng.integers(0, N, N).astype(np.int32))
dest = wp.array(rng.integers(0, 4096, N).astype(np.int32))
sums = wp.zeros(N // B, dtype=float)
y = wp.zeros(N, dtype=float)
acc = wp.zeros(4096, dtype=float)


def best(launch, before=None):
    t_best = 1e9
    for r in range(REPS):
        if before is not None:
            before()
        with wp.ScopedTimer("t", print=False) as t:
            launch()
        t_best = min(t_best, t.elapsed)
    return t_best


results = {}
for mode in ["normal", "checked", "deterministic"]:
    wp.config.mode = "debug" if mode == "checked" else "release"
    wp.config.deterministic = mode == "deterministic"
    lane_sum, gather, scatter_add = kernels()
    if mode != "deterministic":
        results[("lane_sum", mode)] = best(lambda: wp.launch_tiled(lane_sum, dim=N // B, inputs=[x], outputs=[sums], block_dim=B))
        s = sums.numpy().copy()
        results[("gather", mode)] = best(lambda: wp.launch(gather, dim=N, inputs=[x, idx], outputs=[y]))
        results[("sums", mode)] = s
        results[("y", mode)] = y.numpy().copy()
    if mode != "checked":
        outs = []

        def run_scatter():
            wp.launch_tiled(scatter_add, dim=N // B, inputs=[x, dest], outputs=[acc], block_dim=64)
            outs.append(acc.numpy().copy())

        results[("scatter_add", mode)] = best(run_scatter, lambda: acc.zero_())
        results[("acc", mode)] = outs

same_sums = np.array_equal(results[("sums", "normal")], results[("sums", "checked")])
same_y = np.array_equal(results[("y", "normal")], results[("y", "checked")])
det = results[("acc", "deterministic")]
repeatable = all(np.array_equal(det[0], a) for a in det)
close = np.allclose(det[0], results[("acc", "normal")][0], rtol=1e-4)
for kernel, mode, ok in [("lane_sum", "normal", True), ("lane_sum", "checked", same_sums),
                         ("gather", "normal", True), ("gather", "checked", same_y),
                         ("scatter_add", "normal", True), ("scatter_add", "deterministic", repeatable and close)]:
    print("ROW", kernel, mode, results[(kernel, mode)], "ok" if ok else "WRONG")
