# wp.launch of kernels with tile operations and no block_dim: Warp's hybrid launch in blocks
# of 256 threads, the last block with inactive lanes where dim does not fill it.
import numpy as np
import warp as wp


@wp.func
def load4(x: wp.array1d[float]):
    return wp.tile_load(x, shape=4)


@wp.kernel
def double4(x: wp.array1d[float], y: wp.array1d[float]):
    wp.tile_store(y, load4(x) * 2.0)


@wp.kernel
def block_sums(x: wp.array1d[float], s: wp.array1d[float]):
    i = wp.tid()
    wp.tile_atomic_add(s, wp.tile_sum(wp.tile(x[i])))


@wp.kernel
def lanes(out: wp.array1d[int]):
    i = wp.tid()
    t = wp.tile(i % wp.block_dim())
    out[i] = wp.tile_max(t)[0] * 1000 + wp.block_dim()


x = wp.array(np.arange(4, dtype=np.float32), dtype=float)
y = wp.zeros(4, dtype=float)
wp.launch(double4, dim=1, inputs=[x, y])
print("double4", y.numpy())

n = 600
x = wp.array(np.arange(n, dtype=np.float32), dtype=float)
s = wp.zeros(1, dtype=float)
wp.launch(block_sums, dim=n, inputs=[x, s])
print("block_sums", s.numpy()[0], float(np.arange(n).sum()))

out = wp.zeros(n, dtype=int)
wp.launch(lanes, dim=n, inputs=[out])
o = out.numpy()
print("lanes", o[0], o[255], o[256], o[599])
