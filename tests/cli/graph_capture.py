# wp.ScopedCapture and capture_begin/capture_end record launches, zero_() and fill_() without
# running them; capture_launch replays them (Warp 1.19's CPU prints the same). A copy inside
# a capture is refused rather than left out of the replay.
import warp as wp


@wp.kernel
def add_one(a: wp.array[float]):
    i = wp.tid()
    a[i] = a[i] + 1.0


@wp.kernel
def tile_double(a: wp.array[float]):
    t = wp.tile_load(a, shape=4)
    wp.tile_store(a, t * 2.0)


a = wp.zeros(4, dtype=float)
wp.load_module(add_one.module, device="cpu")
with wp.ScopedCapture() as capture:
    wp.launch(add_one, dim=4, inputs=[a])
    wp.launch_tiled(tile_double, dim=1, inputs=[a], block_dim=32)
print("after capture", a.numpy())
for _ in range(3):
    wp.capture_launch(capture.graph)
print("after 3 replays", a.numpy())
b = wp.zeros(2, dtype=float)
wp.capture_begin()
b.fill_(5.0)
wp.launch(add_one, dim=2, inputs=[b])
g = wp.capture_end()
b.zero_()
wp.capture_launch(g)
print("fill and launch", b.numpy())
try:
    with wp.ScopedCapture():
        wp.copy(a, a)
except RuntimeError as e:
    print("RuntimeError:", e)
