#!/usr/bin/env python3
"""Writes composite_cases.inc: host programs over Warp's vector-like types and the output that
Warp 1.19 prints for them, with NumPy 1.24's printing (the NumPy tilec follows; NumPy 2 prints
record arrays' floats otherwise). Run it with the Python of a Warp 1.19 venv, e.g.
  build-bench/warp-venv/bin/python tests/unit/interp/gen_composite_cases.py
Each program runs after `import warp as wp` / `import numpy as np` on the CPU device."""
import contextlib
import io
import os
import sys

CASES = [
    ("VecPrint", """
print(wp.vec3(1.0, 2.0, 3.0))
print(repr(wp.vec3(1.0, 2.0, 3.0)))
print(wp.vec3())
print(wp.vec3(2.0))
print(wp.vec3([1, 2, 3]))
print(wp.vec3(np.array([1.0, 2.0, 3.0])))
print(wp.vec2(1, 2), wp.vec4(1.0, 2.0, 3.0, 4.0))
"""),
    ("VecFloat32Rounding", """
print(wp.vec3(0.1, 0.2, 1.0 / 3.0))
print(wp.vec3(0.1, 0.2, 0.3) + wp.vec3(0.2, 0.2, 0.2))
print(wp.vec3(1.0, 2.0, 3.0) / 3.0)
print(wp.vec2(1e20, 1e-9))
"""),
    ("VecSuffixes", """
print(wp.vec3i(1, 2, 3))
print(repr(wp.vec3i(1, 2, 3)))
print(wp.vec3d(1.5, 2.0, 3.0))
print(wp.vec3h(1.1, 2.0, 3.0))
print(wp.vec2ui(1, 2))
print(wp.vec3d(0.1, 0.2, 0.3))
"""),
    ("MatPrint", """
print(wp.mat22(1.0, 2.0, 3.0, 4.0))
print(wp.mat33())
print(wp.mat22(wp.vec2(1.0, 2.0), wp.vec2(3.0, 4.0)))
print(wp.mat22(2.0))
print(wp.mat44(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0))
print(wp.mat22d(0.1, 0.2, 0.3, 0.4))
"""),
    ("QuatTransformSpatial", """
print(wp.quat(0.0, 0.0, 0.0, 1.0))
print(wp.quat())
print(repr(wp.quat(1.0, 2.0, 3.0, 4.0)))
print(wp.transform())
print(repr(wp.transform()))
print(wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(0.0, 0.0, 0.0, 1.0)))
print(wp.spatial_vector(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
print(repr(wp.spatial_vector()))
print(wp.spatial_matrix())
"""),
    ("TypeObjects", """
print(wp.vec3)
print(wp.vec3d, wp.vec2i, wp.mat33, wp.mat22d)
print(wp.quat, wp.transform, wp.spatial_vector, wp.spatial_matrix)
print(wp.types.vector(length=5, dtype=wp.float32))
print(wp.types.matrix(shape=(2, 3), dtype=wp.float64))
print(wp.types.vector(length=5, dtype=wp.float32)(1.0, 2.0, 3.0, 4.0, 5.0))
print(wp.types.matrix(shape=(2, 3), dtype=wp.float64)(1.0, 2.0, 3.0, 4.0, 5.0, 6.0))
print(wp.vec3.__name__, wp.vec3 == wp.vec3f, wp.vec3 == wp.vec3d)
"""),
    ("ComponentAccess", """
v = wp.vec3(1.0, 2.0, 3.0)
print(v[0], v[-1], v.x, v.y, v.z, len(v))
for x in v:
    print(x)
v.x = 5.0
v[1] = 7.0
print(v)
print(v[0:2])
m = wp.mat22(1.0, 2.0, 3.0, 4.0)
print(m[1], m[1, 0], len(m))
m[0, 1] = 9.0
m[1] = wp.vec2(7.0, 7.0)
print(m)
for row in m:
    print(row)
q = wp.quat(1.0, 2.0, 3.0, 4.0)
print(q.x, q.w)
t = wp.transform(wp.vec3(1.0, 2.0, 3.0), wp.quat(0.0, 0.0, 0.0, 1.0))
print(t.p, t.q)
print(wp.vec3i(1, 2, 3)[0])
"""),
    ("Arithmetic", """
v = wp.vec3(1.0, 2.0, 3.0)
print(v * 2.0, 2.0 * v, v / 2.0, -v)
print(v + v, v - v)
print(v == v, v != wp.vec3(1.0, 2.0, 4.0), v == wp.vec3(1.0, 2.0, 4.0))
print(wp.vec2(1.0, 2.0) == (1.0, 2.0), wp.vec2(1.0, 2.0) == [1.0, 2.0])
m = wp.mat22(1.0, 2.0, 3.0, 4.0)
print(m * 2.0)
print(-m)
print(m + m)
print(-wp.quat(0.0, 0.0, 0.0, 1.0))
print(wp.vec3i(1, 2, 3) + wp.vec3i(1, 1, 1))
"""),
    ("NumPyConversions", """
v = wp.vec3(1.0, 2.0, 3.0)
m = wp.mat22(1.0, 2.0, 3.0, 4.0)
print(np.asarray(v), np.asarray(v).dtype, np.asarray(v).shape)
print(np.array(m), np.array(m).shape)
print(np.asarray(m).reshape(2, 2))
print(np.round(wp.vec3(0.12345, 1.0, 2.0), 3))
print(np.asarray(wp.vec3d(1.0, 2.0, 3.0)).dtype)
print(f"{wp.vec3(1.0, 2.0, 3.0)}")
print(f"v = {v}, m = {np.round(np.asarray(m), 1)}")
"""),
    ("Arrays", """
a = wp.array([wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0)], dtype=wp.vec3, device="cpu")
print(a)
print(a.shape, a.numpy().shape, a.numpy().dtype, a.dtype, a.ndim)
print(a.numpy()[1])
b = wp.zeros(2, dtype=wp.mat22, device="cpu")
print(b)
print(b.shape, b.numpy().shape, b.numpy().dtype)
t = wp.zeros(2, dtype=wp.transform, device="cpu")
print(t.numpy().shape)
print(t)
c = wp.array(np.ones((2, 3, 3)), dtype=wp.mat33, device="cpu")
print(c.shape, c.numpy().shape)
d = wp.array([[1, 2, 3], [4, 5, 6]], dtype=wp.vec3, device="cpu")
print(d)
print(wp.full(2, wp.vec3(1.0, 2.0, 3.0), dtype=wp.vec3, device="cpu"))
print(wp.ones(2, dtype=wp.vec3, device="cpu"))
print(wp.empty_like(d).shape, wp.zeros_like(d).numpy().shape)
print(wp.zeros_like(d))
g = wp.zeros(2, dtype=wp.vec3, device="cpu", requires_grad=True)
print(g.grad)
print(g.grad.numpy().shape)
print(wp.array([wp.quat(0.0, 0.0, 0.0, 1.0)], dtype=wp.quat, device="cpu").numpy())
e = wp.array(np.arange(8.0).reshape(2, 2, 2), dtype=wp.mat22d, device="cpu")
print(e.numpy(), e.numpy().dtype)
s = wp.zeros(3, dtype=wp.spatial_vector, device="cpu")
print(s.numpy().shape)
print(wp.zeros(1, dtype=wp.spatial_matrix, device="cpu").numpy().shape)
print(wp.zeros((2, 2), dtype=wp.vec2, device="cpu").numpy().shape)
"""),
    ("HostCalls", """
print(wp.quat_rpy(0.0, 0.0, wp.pi / 2.0))
print(wp.quat_identity())
print(wp.quat_from_axis_angle(wp.vec3(0.0, 0.0, 1.0), wp.pi / 2.0))
print(wp.inverse(wp.mat22(1.0, 2.0, 3.0, 4.0)))
print(np.round(np.asarray(wp.inverse(wp.mat22(2.0, 1.0, 1.0, 2.0))).reshape(2, 2), 3))
print(wp.normalize(wp.vec3(1.0, 2.0, 3.0)))
print(wp.dot(wp.vec3(1.0, 2.0, 3.0), wp.vec3(1.0, 2.0, 3.0)))
print(wp.length(wp.vec3(3.0, 4.0, 0.0)))
print(wp.cross(wp.vec3(1.0, 0.0, 0.0), wp.vec3(0.0, 1.0, 0.0)))
print(wp.transpose(wp.mat22(1.0, 2.0, 3.0, 4.0)))
print(wp.determinant(wp.mat22(1.0, 2.0, 3.0, 4.0)))
xf = wp.transform(wp.vec3(0.0, 0.0, 5.0), wp.quat_rpy(0.0, 0.0, wp.pi / 2.0))
print(np.round(np.asarray(wp.transform_point(xf, wp.vec3(1.0, 2.0, 0.0))), 3))
"""),
    ("HostProducts", """
m = wp.mat22(1.0, 2.0, 3.0, 4.0)
print(m * m)
print(m * wp.vec2(1.0, 1.0), wp.vec2(1.0, 1.0) * m)
q = wp.quat(0.0, 0.0, 0.7071068, 0.7071068)
print(q * q)
print(wp.quat(1.0, 2.0, 3.0, 4.0) * wp.quat(5.0, 6.0, 7.0, 8.0))
"""),
    ("NumPyMatmulDiagAsarray", """
a = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
print(a @ a, (a @ a).dtype)
print(np.dot(a, np.array([1.0, 1.0])), np.dot(2.0, a))
print(np.array([1, 2]) @ np.array([3, 4]))
print(np.matmul(a, a.T))
print(np.diag(np.array([1.0, 2.0])))
print(np.diag(a), np.diag(np.array([1, 2]), 1), np.diag(a, -1))
b = np.asarray(a)
b[0, 0] = 9.0
print(a[0, 0], np.asarray([1, 2]), np.asarray(a, dtype=np.float64).dtype)
"""),
    ("ArrayOfValuesWithoutDtype", """
# Warp does not infer a vector dtype from the values: the array is float32 of shape (N, 3).
a = wp.array([wp.vec3(1.0, 2.0, 3.0)], device="cpu")
print(a.shape, a.numpy().shape, a.numpy().dtype)
m = wp.array([wp.mat22(1.0, 2.0, 3.0, 4.0), wp.mat22(5.0, 6.0, 7.0, 8.0)], device="cpu")
print(m.shape)
print(m.numpy())
"""),
    ("KernelVec3Gradient", """
@wp.kernel
def sq(a: wp.array[wp.vec3], out: wp.array[float]):
    i = wp.tid()
    out[i] = wp.dot(a[i], a[i])

a = wp.array([wp.vec3(1.0, 2.0, 3.0), wp.vec3(4.0, 5.0, 6.0)], dtype=wp.vec3, requires_grad=True, device="cpu")
out = wp.zeros(2, dtype=float, requires_grad=True, device="cpu")
tape = wp.Tape()
with tape:
    wp.launch(sq, dim=2, inputs=[a], outputs=[out], device="cpu")
tape.backward(grads={out: wp.ones(2, dtype=float, device="cpu")})
print(out.numpy())
print(a.grad.numpy())
"""),
    ("KernelHostValueArguments", """
@wp.kernel
def apply(xform: wp.transform, q: wp.quat, m: wp.mat22, out: wp.array[wp.vec3], out2: wp.array[wp.vec2]):
    out[0] = wp.transform_point(xform, wp.vec3(1.0, 2.0, 0.0))
    out[1] = wp.quat_rotate(q, wp.vec3(1.0, 0.0, 0.0))
    out2[0] = m * wp.vec2(1.0, 1.0)

xform = wp.transform(wp.vec3(0.0, 0.0, 5.0), wp.quat_rpy(0.0, 0.0, wp.pi / 2.0))
q = wp.quat(0.0, 0.0, -0.7071068, 0.7071068)
out = wp.zeros(2, dtype=wp.vec3, device="cpu")
out2 = wp.zeros(1, dtype=wp.vec2, device="cpu")
wp.launch(apply, dim=1, inputs=[xform, -q, wp.mat22(1.0, 2.0, 3.0, 4.0)], outputs=[out, out2], device="cpu")
print(np.round(out.numpy(), 3))
print(out2.numpy())
"""),    ("StructArrayNumpy", """
@wp.struct
class Inner:
    x: float
    k: wp.int16

@wp.struct
class Particle:
    a: float
    b: wp.int32
    v: wp.vec3
    d: wp.float64
    inner: Inner
    m: wp.mat22
    f: wp.bool

@wp.kernel
def fill(ps: wp.array(dtype=Particle)):
    i = wp.tid()
    ps[i].a = float(i) * 1.5
    ps[i].b = i - 1
    ps[i].v = wp.vec3(float(i), 2.0, 0.25)
    ps[i].d = wp.float64(1.0) / wp.float64(i + 1)
    ps[i].inner.x = 3.0
    ps[i].inner.k = wp.int16(i * 100)
    ps[i].m = wp.mat22(1.0, 2.0, 3.0, float(i))
    ps[i].f = i > 0

a = wp.zeros(3, dtype=Particle, device="cpu")
wp.launch(fill, dim=3, inputs=[a], device="cpu")
n = a.numpy()
print(n)
print(repr(n))
print(n.dtype)
print(n.shape, n["v"].shape, n["m"].shape, n.ndim, n.size, len(n))
print(n["v"])
print(n["d"])
print(n[1])
print(n[1]["a"], n[1]["v"], n[-1]["m"])
print(n[1:])
print(n["inner"]["k"])
print(n["inner"])
print(n.tolist())
print(a)
for r in n[:2]:
    print(r)
"""),
    ("StructArrayPackedAndViews", """
@wp.struct
class Pair:
    x: float
    n: wp.int32

@wp.kernel
def fill(ps: wp.array2d(dtype=Pair)):
    i, j = wp.tid()
    ps[i, j].x = float(i * 10 + j) + 0.5
    ps[i, j].n = i - j

a = wp.zeros((2, 3), dtype=Pair, device="cpu")
wp.launch(fill, dim=(2, 3), inputs=[a], device="cpu")
n = a.numpy()
print(n)
print(repr(n))
print(n.dtype, n.dtype.names, n.dtype.itemsize)
print(n["x"])
print(n[1])
print(n[:, 0])
n["x"][0, 0] = 7.0
n["n"] = 5
print(a.numpy())
big = wp.zeros(1200, dtype=Pair, device="cpu")
print(big.numpy())
print(wp.zeros(0, dtype=Pair, device="cpu").numpy())
print(repr(wp.zeros(0, dtype=Pair, device="cpu").numpy()))
"""),
    ("StructArrayOneField", """
@wp.struct
class Flag:
    on: wp.bool

@wp.kernel
def fill(ps: wp.array(dtype=Flag)):
    i = wp.tid()
    ps[i].on = i % 2 == 1

a = wp.zeros(3, dtype=Flag, device="cpu")
wp.launch(fill, dim=3, inputs=[a], device="cpu")
print(a.numpy())
print(repr(a.numpy()))
print(a.numpy()[1])
"""),
    ("VecSlicesAndWarpErrors", """
v = wp.vec4i(1, 2, 3, 4)
v[1:3] = (-2, -3)
v.tag = 7
print(v, v[0:2], v.tag, 12.0 / wp.vec3(1.0, 2.0, 4.0), v == (1, -2, -3, 4))
m = wp.mat22(1.0, 2.0, 3.0, 4.0)
m.set_row(1, (5.0, 6.0))
print(m.get_row(1), m._shape_, m[1] == (5.0, 6.0))
def slice_size():
    v[:1] = (1, 2)
def item_type():
    v[0] = 'x'
def matrix_key():
    m[None] = 0
for bad in (lambda: v[None], slice_size, item_type, lambda: m[0, 1, 2], matrix_key, lambda: m.set_row(2, (0, 0)),
            lambda: wp.vec3.from_ptr(0), lambda: wp.mat22((1, 2, 3), (3, 4, 5)), lambda: wp.constant((1, 2))):
    try:
        bad()
    except Exception as e:
        print(type(e).__name__, e)
"""),
]


def cpp_raw(s):
    return 'R"TILEC(' + s + ')TILEC"'


def main():
    import numpy as np
    import warp as wp
    wp.config.quiet = True
    wp.init()
    wp.set_device("cpu")
    out = ["// Generated by gen_composite_cases.py with Warp 1.19 (the expected text is what Warp 1.19",
           "// prints for each program). Do not edit by hand.",
           "static const CompositeCase kCompositeCases[] = {"]
    import tempfile
    tmp = tempfile.mkdtemp()
    sys.path.insert(0, tmp)
    for name, code in CASES:
        code = code.lstrip("\n")
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            path = os.path.join(tmp, name + ".py")
            with open(path, "w") as f:
                f.write(code)
            # Kernels need their source on disk, as Warp reads it with inspect.
            exec(compile(code, path, "exec"), {"wp": wp, "np": np, "__name__": "case_" + name})
        # Warp's module-load lines are its own logging, which tilec does not print.
        text = "".join(l for l in buf.getvalue().splitlines(True) if not l.startswith("Module case_"))
        out.append("    {\"" + name + "\",\n     " + cpp_raw(code) + ",\n     " + cpp_raw(text) + "},")
    out.append("};")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "composite_cases.inc")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
