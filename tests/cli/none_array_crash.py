# A kernel that writes through a None array crashes its CPU launch; tilec names the kernel.
import warp as wp


@wp.kernel
def scale(a: wp.array[float], b: wp.array[float]):
    i = wp.tid()
    b[i] = a[i] * 2.0


a = wp.ones(1 << 20, dtype=float, device="cpu")
print("before")
wp.launch(scale, dim=a.shape[0], inputs=[a, None], device="cpu")
print("unreachable")
