# wp.utils' whole-array helpers (Warp 1.19 prints the same).
import numpy as np
import warp as wp

vals = wp.array([3, -1, 4, 1, -5, 9, 2, 6], dtype=wp.int32)
inc = wp.zeros_like(vals)
exc = wp.zeros_like(vals)
wp.utils.array_scan(vals, inc, True)
wp.utils.array_scan(vals, exc, False)
print(inc.numpy(), exc.numpy())

v3 = wp.array([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0], [3.0, 30.0, 300.0]], dtype=wp.vec3)
s3 = wp.zeros_like(v3)
wp.utils.array_scan(v3, s3)
print(s3.numpy())

keys = wp.array([0.5, -2.0, 3.25, -0.0, 0.0, -7.5, 0, 0, 0, 0, 0, 0], dtype=wp.float32)
idx = wp.array(np.arange(12), dtype=wp.int32)
wp.utils.radix_sort_pairs(keys, idx, 6)
print(keys.numpy()[:6], idx.numpy()[:6])

k = wp.array([5, 6, 7, 4, 0, 0, 0, 0], dtype=wp.int64)
v = wp.array([50, 60, 70, 40, 0, 0, 0, 0], dtype=wp.int64)
wp.utils.radix_sort_pairs(k, v, 4, end_bit=2)
print(k.numpy()[:4], v.numpy()[:4])

sk = wp.array([3, 1, 4, 2, 0, 0, 0, 0], dtype=wp.int32)
sv = wp.array([30, 10, 40, 20, 0, 0, 0, 0], dtype=wp.int32)
wp.utils.segmented_sort_pairs(sk, sv, 4, wp.array([0, 2, 4], dtype=wp.int32))
print(sk.numpy()[:4].tolist(), sv.numpy()[:4].tolist())

runs = wp.array([1, 1, 1, 2, 2, 3, 1, 1], dtype=wp.int32)
rv = wp.zeros(8, dtype=wp.int32)
rl = wp.zeros(8, dtype=wp.int32)
n = wp.utils.runlength_encode(runs, rv, rl)
print(n, rv.numpy()[:n], rl.numpy()[:n])

x = wp.array(np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5, dtype=wp.float32)
y = wp.array(np.ones((3, 4), dtype=np.float32) * 2, dtype=wp.float32)
print(wp.utils.array_sum(x), wp.utils.array_inner(x, y))
print(wp.utils.array_sum(x, axis=0).numpy(), wp.utils.array_inner(x, y, axis=-1).numpy())
print(wp.utils.array_sum(v3), wp.utils.array_sum(x, value_count=3))

try:
    wp.utils.array_scan(vals, wp.zeros(3, dtype=wp.int32))
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    wp.utils.radix_sort_pairs(k, v, 4, 0, 70)
except RuntimeError as e:
    print("RuntimeError:", e)
try:
    wp.utils.segmented_sort_pairs(sk, sv, 4, wp.array([0, 5], dtype=wp.int32))
except ValueError as e:
    print("ValueError:", e)
