# wp.copysign (the sign bit of y: -0.0 and -nan count as negative) and wp.erfc, in float32
# and float64, and their gradients (copysign's: +/-1 by whether the sign bits agree, 0 for y).
# Warp 1.19 prints the same bits.
import warp as wp
import numpy as np
@wp.kernel
def k(x: wp.array(dtype=float), y: wp.array(dtype=float), o: wp.array(dtype=float), e: wp.array(dtype=float), o64: wp.array(dtype=wp.float64)):
    i = wp.tid()
    o[i] = wp.copysign(x[i], y[i])
    e[i] = wp.erfc(x[i])
    o64[i] = wp.erfc(wp.float64(x[i])) + wp.copysign(wp.float64(2.0), wp.float64(y[i]))
xs = np.array([1.5, -2.0, 0.0, -0.0, np.inf, 0.3, 3.0, np.nan], dtype=np.float32)
ys = np.array([-0.0, 0.0, -1.0, 1.0, -np.inf, -np.nan, np.nan, -3.0], dtype=np.float32)
x = wp.array(xs, dtype=float, requires_grad=True)
y = wp.array(ys, dtype=float, requires_grad=True)
o = wp.zeros(8, dtype=float, requires_grad=True)
e = wp.zeros(8, dtype=float, requires_grad=True)
o64 = wp.zeros(8, dtype=wp.float64)
tape = wp.Tape()
with tape:
    wp.launch(k, 8, [x, y, o, e, o64])
print(o.numpy().tolist())
print(e.numpy().tolist())
print(o64.numpy().tolist())
tape.backward(grads={o: wp.ones(8, dtype=float), e: wp.full(8, 2.0, dtype=float)})
print(x.grad.numpy().tolist())
print(y.grad.numpy().tolist())
