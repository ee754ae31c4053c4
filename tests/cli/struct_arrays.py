# Structs with array fields: set on the host, passed as one kernel argument, read in kernels and
# funcs (nested structs too), loaded as tiles, and differentiated through: each array keeps its
# own grad. Expected values are worked out by hand in the comments.
import numpy as np

import warp as wp


@wp.struct
class Inner:
    w: wp.array2d(dtype=float)
    k: int


@wp.struct
class State:
    x: wp.array(dtype=float)
    scale: float
    inner: Inner


@wp.func
def row(inner: Inner, i: int):
    return inner.w[i, inner.k]


@wp.kernel
def step(s: State, out: wp.array(dtype=float)):
    i = wp.tid()
    out[i] = s.x[i] * s.scale + row(s.inner, i) + float(s.x.shape[0])


@wp.kernel
def squares(s: State, out: wp.array(dtype=float)):
    t = wp.tile_load(s.x, shape=4)
    wp.tile_store(out, wp.tile_map(wp.mul, t, t) * s.scale)


s = State()
s.x = wp.array(np.arange(4, dtype=np.float32), requires_grad=True)
s.scale = 2.0
s.inner.w = wp.array(np.arange(8, dtype=np.float32).reshape(4, 2))
s.inner.k = 1
print("fields", s.x.shape, s.inner.w.shape, s.scale, s.inner.k)

# 2 x[i] + w[i, 1] + 4 = [0+1+4, 2+3+4, 4+5+4, 6+7+4]
out = wp.zeros(4, dtype=float)
wp.launch(step, dim=4, inputs=[s, out])
print("step", out.numpy())

# 2 x^2 = [0, 2, 8, 18]; d/dx = 4 x = [0, 4, 8, 12]
sq = wp.zeros(4, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch_tiled(squares, dim=1, inputs=[s, sq], block_dim=32)
sq.grad.fill_(1.0)
tape.backward()
print("squares", sq.numpy(), "grad", s.x.grad.numpy())

# Replacing a nested struct brings its arrays along.
other = Inner()
other.w = wp.array(np.full((4, 2), 10.0, dtype=np.float32))
other.k = 0
s.inner = other
wp.launch(step, dim=4, inputs=[s, out])
print("replaced", out.numpy())

try:
    s.x = wp.array(np.arange(4, dtype=np.int32))
except TypeError as e:
    print("rejected:", e)

# Printed as Warp prints a struct: a field a line, in declaration order.
@wp.struct
class Pair:
    a: float
    v: wp.array(dtype=wp.int32)
    b: int


p = Pair()
p.a = 1.5
p.v = wp.array([1, 2, 3], dtype=wp.int32)
p.b = 7
print(p)
