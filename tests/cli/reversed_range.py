# `reversed(range(...))` in kernels: unit and other steps, negative and empty ranges, a constant
# (unrolled) range, and the gradient through a reversed loop. Warp 1.19 prints the same but for
# x's gradient: the derivative of 3x^3 + 0.5x^2 - 2x + 1 at 1.5 is 19.75, where Warp's adjoint
# of a loop that reassigns `acc` gives 8.546875.
import numpy as np
import warp as wp


@wp.kernel
def walk(starts: wp.array(dtype=int), ends: wp.array(dtype=int), steps: wp.array(dtype=int),
         out: wp.array2d(dtype=int), counts: wp.array(dtype=int)):
    t = wp.tid()
    n = int(0)
    for i in reversed(range(starts[t], ends[t], steps[t])):
        out[t, n] = i
        n += 1
    counts[t] = n


@wp.kernel
def countdown(out: wp.array(dtype=int)):
    k = int(0)
    for i in reversed(range(4)):
        out[k] = i * 10
        k += 1
    for j in reversed(range(2, 5)):
        out[k] = j
        k += 1


@wp.kernel
def horner(coeffs: wp.array(dtype=float), x: wp.array(dtype=float), y: wp.array(dtype=float)):
    acc = float(0.0)
    for i in reversed(range(coeffs.shape[0])):
        acc = acc * x[0] + coeffs[i]
    y[0] = acc


cases = [(-2, 8, 3), (9, -3, -2), (10, 8, 4), (0, 5, 1), (5, 0, -1), (3, 3, 1), (-7, 7, 5)]
starts = wp.array([c[0] for c in cases], dtype=int)
ends = wp.array([c[1] for c in cases], dtype=int)
steps = wp.array([c[2] for c in cases], dtype=int)
out = wp.full((len(cases), 8), -99, dtype=int)
counts = wp.zeros(len(cases), dtype=int)
wp.launch(walk, dim=len(cases), inputs=[starts, ends, steps], outputs=[out, counts])
for t, c in enumerate(cases):
    print(c, out.numpy()[t, : counts.numpy()[t]].tolist(), list(reversed(range(*c))))

o = wp.zeros(7, dtype=int)
wp.launch(countdown, dim=1, inputs=[o])
print(o.numpy())

coeffs = wp.array([1.0, -2.0, 0.5, 3.0], dtype=float, requires_grad=True)
x = wp.array([1.5], dtype=float, requires_grad=True)
y = wp.zeros(1, dtype=float, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(horner, dim=1, inputs=[coeffs, x], outputs=[y])
tape.backward(loss=y)
print(y.numpy(), coeffs.grad.numpy(), x.grad.numpy())
