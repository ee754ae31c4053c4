# Decorator options of Warp's API that place code rather than change it: wp.kernel's
# module_options (its enable_backward is honoured: bfloat16 tile_matmul factors need it off),
# wp.func's module/name/inline. Warp's implementation modules import, and refuse use.
import numpy as np
import warp as wp
import warp._src.build as warp_build
from warp._src.build import _gemm_operand_alignments


@wp.func(module="unique", inline=True)
def twice(x: float):
    return 2.0 * x


@wp.kernel(module="unique", module_options={"enable_backward": False})
def bf16_product(a: wp.array2d[wp.bfloat16], b: wp.array2d[wp.bfloat16], c: wp.array2d[float]):
    s = wp.tile_zeros(shape=(8, 4), dtype=float)
    wp.tile_matmul(wp.tile_load(a, shape=(8, 8)), wp.tile_load(b, shape=(8, 4)), s)
    wp.tile_store(c, wp.tile_map(twice, s))


# Small integers are exact in bfloat16 and in float32 sums, so the product is exact.
A = np.arange(64, dtype=np.float32).reshape(8, 8) % 5
B = np.arange(32, dtype=np.float32).reshape(8, 4) % 3
a = wp.array(A, dtype=wp.bfloat16)
b = wp.array(B, dtype=wp.bfloat16)
c = wp.zeros((8, 4), dtype=float)
wp.launch_tiled(bf16_product, dim=1, inputs=[a, b, c], block_dim=32)
print("bf16 matmul exact:", bool(np.array_equal(c.numpy(), 2.0 * (A @ B))))
print(warp_build)
try:
    _gemm_operand_alignments((16, 8, 4))
except NotImplementedError as e:
    print("NotImplementedError:", e)
