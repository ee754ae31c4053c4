# What Warp's core test files build their tests from: wp.Kernel over a function made per
# dtype, add_kernel_test and add_function_test_register_kernel, and warp.types' introspection
# (type_repr, type_size, np_dtype_to_warp_type). Warp 1.19 prints the same lines.
import unittest

import numpy as np

import warp as wp
from warp.tests.unittest_utils import add_function_test_register_kernel, add_kernel_test


def make_scale(dtype):
    def scale(a: wp.array(dtype=dtype), s: dtype):
        i = wp.tid()
        a[i] = a[i] * s

    return wp.Kernel(func=scale, key=f"scale_{dtype.__name__}")


@wp.kernel
def count(out: wp.array[int]):
    i = wp.tid()
    out[i] = i * 2


print("types", wp.types.type_repr(wp.vec3), wp.types.type_repr(wp.types.vector(5, wp.float64)),
      wp.types.type_repr(wp.quatd), wp.types.type_size(wp.mat33), wp.types.type_size_in_bytes(wp.vec3d))
print("np map", wp._src.types.np_dtype_to_warp_type[np.dtype(np.float16)].__name__,
      len(wp._src.types.scalar_types), wp.types.quaternion(dtype=wp.float64))

registered = []


def test_scale(test, device, dtype, register_kernels=False):
    kernel = make_scale(dtype)
    if register_kernels:
        registered.append(kernel.key)
        return
    a = wp.array([1, 2, 3], dtype=dtype, device=device)
    wp.launch(kernel, dim=3, inputs=[a, dtype(3)], device=device)
    test.assertEqual(a.numpy().tolist(), [3, 6, 9])


class TestHelpers(unittest.TestCase):
    pass


for dtype in (wp.float32, wp.int64):
    add_function_test_register_kernel(TestHelpers, f"test_scale_{dtype.__name__}", test_scale,
                                      devices=["cpu"], dtype=dtype)
add_kernel_test(TestHelpers, count, dim=4, name="test_count", expect=[0, 2, 4, 6], devices=["cpu"])
add_kernel_test(TestHelpers, count, dim=4, name="test_count_wrong", expect=[0, 2, 4, 7], devices=["cpu"])
print("registered", registered)

if __name__ == "__main__":
    unittest.main(verbosity=2)
