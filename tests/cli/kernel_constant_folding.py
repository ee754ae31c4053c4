# Constant expressions in a kernel fold as the kernel computes at run time (Warp's C rules:
# integer `/` and `%` truncate, float `%` is fmod, a float division by zero is inf or NaN),
# the same values as for run-time operands; wp.static(...) folds as the host's Python does.
# Warp 1.19 prints the same lines.
import warp as wp


@wp.kernel
def fold(x: int, y: float, out: wp.array[int], outf: wp.array[float]):
    out[0] = x % 3
    out[1] = -7 % 3
    out[2] = 7 % -3
    out[3] = 7 / 2
    out[4] = wp.int32(-7) % wp.int32(3)
    out[5] = wp.static(7 % -3)
    outf[0] = y % 3.0
    outf[1] = -7.0 % 3.0
    outf[2] = 7.5 % -2.0
    outf[3] = 2.0 / 0.0
    outf[4] = 0.0 / 0.0
    outf[5] = -7.5 // 2.0


out = wp.zeros(6, dtype=int)
outf = wp.zeros(6)
wp.launch(fold, 1, inputs=[-7, -7.0, out, outf])
print("ints", out.numpy())
print("floats", outf.numpy())
