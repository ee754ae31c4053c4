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


# A tile prints once per block, nested as NumPy nests it, then its shape and storage (Warp's).
@wp.kernel
def show_tiles():
    t = wp.tile_arange(8, dtype=int)
    wp.print(wp.tile_reshape(t, shape=(2, 4)))
    print("3-D", wp.tile_reshape(t, shape=(2, 2, 2)))


wp.launch_tiled(show_tiles, dim=1, inputs=[], block_dim=4, device="cpu")
wp.synchronize_device("cpu")
