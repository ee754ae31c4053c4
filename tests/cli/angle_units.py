# wp.degrees and wp.radians: the product taken in float64 and rounded, as Warp's builtins
# multiply by a double constant; Warp 1.19 prints the same bits.
import warp as wp
@wp.kernel
def k(x: wp.array(dtype=float), y: wp.array(dtype=wp.float64), o: wp.array(dtype=float), o64: wp.array(dtype=wp.float64)):
    i = wp.tid()
    o[2 * i] = wp.degrees(x[i])
    o[2 * i + 1] = wp.radians(x[i])
    o64[2 * i] = wp.degrees(y[i])
    o64[2 * i + 1] = wp.radians(y[i])
import numpy as np
xs = np.array([0.1, 1.0, -3.7, 123.456, 1e-3], dtype=np.float32)
x = wp.array(xs, dtype=float)
y = wp.array(xs.astype(np.float64) * 1.1, dtype=wp.float64)
o = wp.zeros(10, dtype=float)
o64 = wp.zeros(10, dtype=wp.float64)
wp.launch(k, 5, [x, y, o, o64])
print(o.numpy().tolist())
print(o64.numpy().tolist())
