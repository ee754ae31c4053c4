# As in Warp, a kernel may name `wp` functions and types without the `wp.` prefix; a local or
# module name of the same spelling still wins (Warp 1.19 prints the same values).
import warp as wp

length = 2.0


@wp.kernel
def bare(out: wp.array[float]):
    v = vec3(1.0, 2.0, 3.0)
    m = mat22(1.0, 2.0, 3.0, 4.0)
    expect_eq(m[1, 0], 3.0)
    out[0] = dot(v, v) + float32(1.0)
    out[1] = length
    normalize = 5.0
    out[2] = normalize


out = wp.zeros(3)
wp.launch(bare, 1, inputs=[out])
print("bare", out.numpy())
