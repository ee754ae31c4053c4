# wp.print in a kernel: one value per call, as `print` writes it (one line per lane that runs it).
import warp as wp


@wp.kernel
def show(x: wp.array[wp.int32]):
    i = wp.tid()
    if i == 1:
        wp.print(x[i] * 7)
        wp.print(wp.float32(x[i]) / 4.0)


wp.launch(show, dim=2, inputs=[wp.array([5, 6], dtype=wp.int32, device="cpu")], device="cpu")
wp.synchronize_device("cpu")
