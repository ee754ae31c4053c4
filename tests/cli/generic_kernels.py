# Generic kernels: parameters annotated with `Any` are instantiated per overload, registered with
# wp.overload (a list by position, a dict by name, or a stub `def`) or made at a launch from the
# arguments' types.
from typing import Any

import numpy as np
import warp as wp


@wp.kernel
def double(a: wp.array(dtype=Any), b: wp.array(dtype=Any)):
    i = wp.tid()
    b[i] = a[i] + a[i]


double_f32 = wp.overload(double, [wp.array(dtype=wp.float32), wp.array(dtype=wp.float32)])
double_f64 = wp.overload(double, {"a": wp.array(dtype=wp.float64), "b": wp.array(dtype=wp.float64)})
print("overloads", len(double.overloads), double_f32.key)

for dt in (wp.float32, wp.float64, wp.int32):  # int32 has no overload: the launch makes it
    a = wp.array([1, 2, 3], dtype=dt)
    b = wp.zeros(3, dtype=dt)
    wp.launch(double, dim=3, inputs=[a, b])
    print(dt.__name__, b.numpy())
print("overloads", len(double.overloads))

# An overload is a kernel of its own.
a = wp.array([0.5, 1.5], dtype=wp.float64)
b = wp.zeros(2, dtype=wp.float64)
wp.launch(double_f64, dim=2, inputs=[a, b])
print("direct", b.numpy())


@wp.kernel
def scale2d(x: wp.array2d[Any],
            s: Any,
            y: wp.array2d[Any]):
    i, j = wp.tid()
    y[i, j] = x[i, j] * s


x64 = wp.array(np.arange(6.0).reshape(2, 3), dtype=wp.float64)
y64 = wp.zeros((2, 3), dtype=wp.float64)
wp.launch(scale2d, dim=(2, 3), inputs=[x64, wp.float64(0.5)], outputs=[y64])
print("scale2d float64\n", y64.numpy())
x32 = wp.array(np.arange(6.0).reshape(2, 3), dtype=wp.float32)
y32 = wp.zeros((2, 3), dtype=wp.float32)
wp.launch(scale2d, dim=(2, 3), inputs=[x32, 3.0], outputs=[y32])  # a Python float is a float32
print("scale2d float32\n", y32.numpy())
xi = wp.array(np.arange(6).reshape(2, 3), dtype=wp.int32)
yi = wp.zeros((2, 3), dtype=wp.int32)
wp.launch(scale2d, dim=(2, 3), inputs=[xi, 7], outputs=[yi])  # a Python int is an int32
print("scale2d int32\n", yi.numpy())


@wp.kernel
def offset(v: wp.array(dtype=Any, ndim=1), d: Any, count: int):
    i = wp.tid()
    if i < count:
        v[i] = v[i] + d


@wp.overload
def offset(v: wp.array(dtype=wp.vec3), d: wp.vec3, count: int): ...


@wp.overload
def offset(v: wp.array(dtype=wp.float64), d: wp.float64, count: int): ...


v = wp.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=wp.vec3)
wp.launch(offset, dim=2, inputs=[v, wp.vec3(1.0, 1.0, 1.0), 1])
print("offset vec3\n", v.numpy())
v = wp.array([1.0, 2.0], dtype=wp.float64)
wp.launch(offset, dim=2, inputs=[v, wp.float64(0.25), 2])
print("offset float64", v.numpy(), len(offset.overloads))


@wp.kernel
def square(x: wp.array(dtype=Any), y: wp.array(dtype=Any)):
    i = wp.tid()
    y[i] = x[i] * x[i]


for dt in (wp.float32, wp.float64):
    x = wp.array([1.0, 2.0, 3.0], dtype=dt, requires_grad=True)
    y = wp.zeros(3, dtype=dt, requires_grad=True)
    tape = wp.Tape()
    with tape:
        wp.launch(square, dim=3, inputs=[x], outputs=[y])
    tape.backward(grads={y: wp.ones(3, dtype=dt)})
    print("grad", dt.__name__, x.grad.numpy())


@wp.kernel
def tile_copy(src: wp.array2d[Any], dst: wp.array2d[Any]):
    t = wp.tile_load(src, shape=(2, 4))
    wp.tile_store(dst, t)


for dt in (wp.float64, wp.int32):
    src = wp.array(np.arange(8).reshape(2, 4), dtype=dt)
    dst = wp.zeros((2, 4), dtype=dt)
    wp.launch_tiled(tile_copy, dim=[1], inputs=[src, dst], block_dim=32)
    print("tile", dt.__name__, dst.numpy().sum())

for what, call in [
    ("name", lambda: wp.overload(double, {"c": wp.array(dtype=wp.float32)})),
    ("count", lambda: wp.overload(double, [wp.array(dtype=wp.float32)])),
    ("generic", lambda: wp.overload(scale2d, [wp.array2d[wp.float32], Any, wp.array2d[wp.float32]])),
    ("ndim", lambda: wp.overload(scale2d, [wp.array(dtype=wp.float32), wp.float32, wp.array2d[wp.float32]])),
    ("infer", lambda: wp.launch(double, dim=1, inputs=[[1.0], b])),
    ("args", lambda: wp.launch(double, dim=1, inputs=[b])),
    ("concrete", lambda: wp.overload(double_f32, [a, b])),
]:
    try:
        call()
        print(what, "no error")
    except (TypeError, RuntimeError) as e:
        print(what, type(e).__name__, e)
