# Host forms Warp's tile tests use: a kernel made in a function nested in another reads the
# outer function's constants, `wp.array[dtype, Literal[n]]` annotations, a recorded launch
# (`record_cmd=True`) run later by `cmd.launch()`, tile_full taking its dtype from the value,
# tile_map of a builtin over a tile and a vector, and NumPy sums over a tuple of axes.
from typing import Literal

import numpy as np
import warp as wp


def outer():
    n = 4

    def make(dt):
        @wp.kernel
        def scale(a: wp.array[dt, Literal[2]], out: wp.array[dt, Literal[2]]):
            t = wp.tile_load(a, shape=(2, n))
            wp.tile_store(out, t * dt(2.0))

        return scale

    a = wp.array(np.arange(8, dtype=np.float64).reshape(2, 4), dtype=wp.float64)
    out = wp.zeros((2, 4), dtype=wp.float64)
    cmd = wp.launch_tiled(make(wp.float64), dim=1, inputs=[a, out], block_dim=8, record_cmd=True)
    print("before", out.numpy().sum())
    cmd.launch()
    print("closure", out.numpy().sum(axis=(0, 1)), np.sum(out.numpy(), axis=(1,)))
    a.fill_(1.0)
    cmd.launch()
    print("relaunch", out.numpy().sum())


outer()


@wp.kernel
def full_and_map(ints: wp.array[wp.int32], vecs: wp.array[wp.vec3], f: wp.array[float]):
    wp.tile_store(ints, wp.tile_full(shape=4, value=wp.int32(7)))
    t = wp.tile_load(f, shape=4)
    wp.tile_store(vecs, wp.tile_map(wp.mul, t, wp.vec3(1.0, 2.0, 3.0)) + wp.tile_full(shape=4, value=wp.vec3(0.5, 0.5, 0.5)))


ints = wp.zeros(4, dtype=wp.int32)
vecs = wp.zeros(4, dtype=wp.vec3)
f = wp.array([1.0, 2.0, 3.0, 4.0], dtype=float)
wp.launch_tiled(full_and_map, dim=1, inputs=[ints, vecs, f], block_dim=4)
print("full", ints.numpy())
print("map", vecs.numpy()[3], vecs.numpy().sum(axis=(0,)))


# tile_arange counts at its output type: exact 64-bit integers, float32 quotients.
@wp.kernel
def ranges(o: wp.array[wp.int64], f: wp.array[float], n: wp.array[wp.int32]):
    wp.tile_store(o, wp.tile_arange(0, 9007199254740993, 9007199254740992, dtype=wp.int64))
    wp.tile_store(f, wp.tile_arange(0.0, 0.3, 0.1, dtype=wp.float32))
    t = wp.tile_arange(0.0, 10.0, dtype=wp.int32)
    n[0] = len(t)


o = wp.array(np.full(3, -1, dtype=np.int64))
f = wp.array(np.full(4, -1, dtype=np.float32))
n = wp.zeros(1, dtype=wp.int32)
wp.launch_tiled(ranges, dim=1, inputs=[o, f, n], block_dim=8)
print("arange", o.numpy(), f.numpy(), n.numpy())


# An adjoint launch by hand (adjoint=True with each array's own grad as its adjoint).
@wp.kernel
def half_sums(a: wp.array2d[float], out: wp.array[float]):
    i = wp.tid()
    t = wp.tile_load(a[i], shape=8)
    wp.tile_store(out, wp.tile_sum(t) * 0.5, offset=i)


a = wp.array(np.arange(16, dtype=np.float32).reshape(2, 8), requires_grad=True)
out = wp.zeros(2, dtype=float, requires_grad=True)
wp.launch_tiled(half_sums, dim=[2], inputs=[a, out], block_dim=8)
out.grad.fill_(1.0)
wp.launch_tiled(half_sums, dim=[2], inputs=[a, out], adj_inputs=[a.grad, out.grad], block_dim=8, adjoint=True)
print("adjoint", out.numpy(), a.grad.numpy().sum())


# Records of a struct array unpack into their fields (`for key, value in a.numpy()`).
@wp.struct
class KeyValue:
    key: wp.int32
    value: wp.float32


@wp.kernel
def keyed(out: wp.array[KeyValue]):
    i = wp.tid()
    kv = KeyValue()
    kv.key = i
    kv.value = float(i) * 0.5
    out[i] = kv


kvs = wp.empty(3, dtype=KeyValue)
wp.launch(keyed, dim=3, inputs=[kvs])
print("records", [int(k) for k, v in kvs.numpy()], [float(v) for k, v in kvs.numpy()])


# wp.expect_eq reports a difference and the kernel goes on.
@wp.kernel
def expectations(x: wp.array[float]):
    t = wp.tile_load(x, shape=4)
    wp.expect_eq(wp.static(len(t)), 4)
    wp.expect_eq(len(t), 5)
    wp.expect_eq(x[0], 1.5)


wp.launch_tiled(expectations, dim=1, inputs=[wp.array(np.ones(4, dtype=np.float32))], block_dim=1)
wp.synchronize()
print("expectations done")
