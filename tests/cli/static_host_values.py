# wp.static(expr) evaluates `expr` in host Python where the kernel or func is defined, seeing
# the module's globals and the variables of the functions around it: host function calls,
# sets, dicts of @wp.func, closures. An expression naming the kernel's own loop counter is
# folded per unrolled iteration instead. A @wp.func called from host code runs as Python.
# Warp 1.19 prints the same lines.
import warp as wp

limit = 3


def host_limit():
    return limit


@wp.func
def plus(a: int, b: int):
    return a + b


@wp.func
def minus(a: int, b: int):
    return a - b


ops = {"plus": plus, "minus": minus}


@wp.func
def scaled(x: int):
    return x * wp.static(limit + 7)


def make_kernel(name):
    @wp.kernel
    def k(out: wp.array[int]):
        if wp.static(host_limit() in {2, 3, 5}):
            out[0] = 1
        elif wp.static(host_limit() in {0, 1}):
            out[0] = 2
        else:
            out[0] = 3
        out[1] = wp.static(ops[name])(7, 2)
        s = int(0)
        for i in range(wp.static(host_limit())):
            s += wp.static(i * 10)
        out[2] = s
        out[3] = wp.static(len(ops) * len(name))
        out[4] = scaled(2)

    return k


for name in ("plus", "minus"):
    out = wp.zeros(5, dtype=int)
    wp.launch(make_kernel(name), 1, inputs=[out])
    print(name, out.numpy())
print("host", plus(2, 3), wp.static(4))
