# Warp builds a kernel at its first launch: a definition the kernel does not use does not stop
# it, and a kernel that fails raises there, a RuntimeError that the program may catch.
import warp as wp


@wp.struct
class Holder:
    x: wp.tile[float, 4]  # tiles in structs: not in the language


@wp.func
def broken(x: float):
    return x + undefined_name


@wp.kernel
def uses_broken(a: wp.array[float]):
    i = wp.tid()
    a[i] = broken(a[i])


@wp.kernel
def fine(a: wp.array[float]):
    i = wp.tid()
    a[i] = a[i] * 2.0 + 1.0


a = wp.full(3, 2.0, dtype=float)
wp.launch(fine, dim=3, inputs=[a])
print("fine", a.numpy())
try:
    wp.launch(uses_broken, dim=3, inputs=[a])
except RuntimeError as e:
    print("caught", type(e).__name__, e)
# Warp's argument checks raise TypeError and ValueError: handlers for those catch it too.
for kind in (TypeError, ValueError):
    try:
        wp.launch(uses_broken, dim=3, inputs=[a])
    except kind as e:
        print("also a", kind.__name__, isinstance(e, RuntimeError))
wp.launch(uses_broken, dim=3, inputs=[a])
