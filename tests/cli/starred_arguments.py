# `f(*v)` in kernels spreads a vector's components, a quaternion's, a matrix's rows, or a
# constant slice of one of them or of a 1-D array over the call's arguments;
# wp.matrix_from_rows and wp.matrix_from_cols build matrices from vectors, differentiably.
# Warp 1.19 prints the same lines.
import warp as wp

mat23 = wp.types.matrix(shape=(2, 3), dtype=float)


@wp.kernel
def spread(a: wp.array[int], x: wp.array[wp.vec3], out: wp.array[float], m_out: wp.array[wp.mat33],
           r_out: wp.array[mat23]):
    v = wp.vec4(1.0, 2.0, 3.0, 4.0)
    q = wp.quat(*v)
    w = wp.vec4(*x[0], 9.0)
    t = wp.vec3i(*a[1:7:2])
    out[0] = wp.max(*v[1:3]) + q[3] + w[3] + float(t[2]) + wp.vec2(*v[-2:])[0]
    m_out[0] = wp.matrix_from_rows(x[0], wp.vec3(4.0, 5.0, 6.0), x[0])
    m_out[1] = wp.matrix_from_cols(x[0], wp.vec3(4.0, 5.0, 6.0), x[0])
    m = wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)
    r_out[0] = wp.matrix_from_rows(*m[1:])


a = wp.array(list(range(10)), dtype=int)
x = wp.array([wp.vec3(1.0, 2.0, 3.0)], dtype=wp.vec3, requires_grad=True)
out = wp.zeros(1, requires_grad=True)
m_out = wp.zeros(2, dtype=wp.mat33, requires_grad=True)
r_out = wp.zeros(1, dtype=mat23, requires_grad=True)
tape = wp.Tape()
with tape:
    wp.launch(spread, 1, inputs=[a, x, out, m_out, r_out])
print("out", out.numpy())
print("from_rows", m_out.numpy()[0].tolist())
print("from_cols", m_out.numpy()[1].tolist())
print("slice_rows", r_out.numpy()[0].tolist())
m_out.grad = wp.array([wp.mat33(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0)] * 2, dtype=wp.mat33)
tape.backward()
print("grad", x.grad.numpy().tolist())


# A kernel that does not compile raises tilec.CompileError, which handlers for Warp's code
# generation errors catch.
@wp.kernel
def bad_bounds(a: wp.array[int], n: int):
    v = wp.vec3i(*a[:n])


try:
    wp.launch(bad_bounds, 1, inputs=[a, 3])
except wp.WarpCodegenValueError as e:
    print("caught", isinstance(e, wp.WarpCodegenError), "E0300" in str(e))
