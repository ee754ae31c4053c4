# `assert` in a kernel: compiled out of ordinary kernels, as in Warp; with wp.config.mode set
# to "debug" before the kernel is defined, a failing lane raises AssertionError at the launch,
# naming the kernel and the assert's line.
import numpy as np
import warp as wp


@wp.kernel
def release(a: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    assert a[i] >= 0.0, "negative input"
    out[i] = a[i] * 2.0


a = wp.array(np.array([1.0, -2.0, 3.0], dtype=np.float32))
out = wp.zeros(3, dtype=float)
wp.launch(release, dim=3, inputs=[a, out])
print("release", out.numpy())

wp.config.mode = "debug"


@wp.kernel
def debug(a: wp.array[float], out: wp.array[float]):
    i = wp.tid()
    assert a[i] >= 0.0, "negative input"
    out[i] = a[i] * 2.0


b = wp.array(np.array([1.0, 2.0, 3.0], dtype=np.float32))
wp.launch(debug, dim=3, inputs=[b, out])
print("passing", out.numpy())
try:
    wp.launch(debug, dim=3, inputs=[a, out])
except AssertionError as e:
    print("AssertionError", e)
