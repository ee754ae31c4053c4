# wp.bit_count in kernels for every integer width (the two's-complement pattern, so negative
# values count their sign bits) and from host code (Warp 1.19 prints the same).
import numpy as np
import warp as wp


@wp.kernel
def count(a8: wp.array(dtype=wp.int8), a16: wp.array(dtype=wp.uint16), a32: wp.array(dtype=wp.int32),
          a64: wp.array(dtype=wp.int64), out: wp.array2d(dtype=wp.int32)):
    i = wp.tid()
    out[0, i] = wp.bit_count(a8[i])
    out[1, i] = wp.bit_count(a16[i])
    out[2, i] = wp.bit_count(a32[i])
    out[3, i] = wp.bit_count(a64[i])


vals = [0, 1, -1, 45, -128, 127, 85, -2]
a8 = wp.array(np.array(vals, dtype=np.int8), dtype=wp.int8)
a16 = wp.array(np.array(vals, dtype=np.int64).astype(np.uint16), dtype=wp.uint16)
a32 = wp.array(np.array(vals, dtype=np.int32) * 65537, dtype=wp.int32)
a64 = wp.array(np.array(vals, dtype=np.int64) * 4294967297, dtype=wp.int64)
out = wp.zeros((4, len(vals)), dtype=wp.int32)
wp.launch(count, dim=len(vals), inputs=[a8, a16, a32, a64], outputs=[out])
print(out.numpy())
print(wp.bit_count(45), wp.bit_count(wp.int8(-1)), wp.bit_count(wp.int64(-1)), wp.bit_count(wp.uint16(65535)))
