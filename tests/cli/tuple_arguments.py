# Tuples reach funcs: a `tuple[int, ...]` or `Any` parameter takes a tuple of any length
# (instantiated per call), a `tuple[wp.vec3, float]` parameter one of those types; a loop over
# `range(len(t))` is unrolled (Warp's rule), so it may index the tuple; `...` is a stub's
# body. wp.expect_near reports a difference beyond its tolerance in Warp's words. Warp 1.19
# prints the same lines.
from typing import Any

import warp as wp


@wp.func
def total(values: tuple[int, ...]):
    out = wp.int32(0)
    for i in range(wp.static(len(values))):
        out += values[i]
    return out


@wp.func
def weighted(values: Any):
    out = wp.int32(0)
    for i in range(len(values)):
        out += values[i] * (i + 1)
    return out


@wp.func
def scaled_length(values: tuple[wp.vec3, float]) -> float:
    return wp.length(values[0]) * values[1]


@wp.func
def stub(x: float) -> float: ...


@wp.kernel
def k(out: wp.array[int], outf: wp.array[float]):
    t1 = (1,)
    out[0] = total(t1)
    t2 = (2, 3)
    out[1] = total(t2)
    t = (4, 5, 6, 7)
    out[2] = total(t)
    t3 = (4, 5, 6)
    out[3] = weighted(t3)
    out[4] = t[3]
    pair = (wp.vec3(3.0, 4.0, 0.0), 2.0)
    outf[0] = scaled_length(pair)
    wp.expect_near(outf[0], 10.5, 0.25)


out = wp.zeros(5, dtype=int)
outf = wp.zeros(1)
wp.launch(k, 1, inputs=[out, outf])
wp.synchronize()
print("ints", out.numpy())
print("floats", outf.numpy())
