# Enum members and class attributes read by kernels as constants (Warp 1.19 prints the same).
import enum

import numpy as np
import warp as wp


class Kind(enum.IntEnum):
    POINT = 1
    EDGE = 2
    FACE = 3


class Mask(enum.IntFlag):
    X = enum.auto()
    Y = enum.auto()
    Z = enum.auto()


class Cfg:
    SCALE = 2.5
    STEPS = 3


KIND_CONST = wp.constant(wp.int32(Kind.EDGE))


@wp.kernel
def classify(flags: wp.array(dtype=wp.int32), out: wp.array(dtype=wp.float32)):
    i = wp.tid()
    f = flags[i]
    v = float(0.0)
    if f & Mask.X:
        v += float(Kind.POINT)
    if f & Mask.Y:
        v += float(int(Kind.EDGE.value))
    if f & (Mask.Z | Mask.X) == Mask.Z | Mask.X:
        v += float(wp.static(Kind.FACE * 10))
    for _ in range(Cfg.STEPS):
        v = v * Cfg.SCALE
    out[i] = v + float(KIND_CONST)


flags = wp.array([0, Mask.X, Mask.Y, Mask.X | Mask.Z, Mask.X | Mask.Y | Mask.Z], dtype=wp.int32)
out = wp.zeros(5, dtype=wp.float32)
wp.launch(classify, dim=5, inputs=[flags], outputs=[out])
print(out.numpy())
print(Kind(2).name, repr(Mask.X | Mask.Y), int(KIND_CONST))
