# wp.expect_eq and expect_neq compare numbers, bools, vectors and matrices, printing Warp's message (Warp
# 1.19's CPU prints the same lines) and letting the kernel go on.
import warp as wp


@wp.kernel
def check():
    v = wp.vec3(1.0, 2.0, 3.0)
    wp.expect_eq(v, wp.vec3(1.0, 2.0, 3.0))
    wp.expect_eq(v, wp.vec3(1.0, 2.5, 3.0))
    wp.expect_eq(1 > 2, True)
    m = wp.mat22(1.0, 2.0, 3.0, 4.0)
    wp.expect_eq(m, wp.mat22(1.0, 2.0, 3.0, 5.0))
    wp.expect_eq(2, 2)


wp.launch(check, 1)
wp.synchronize()
print("done")


@wp.kernel
def check_neq():
    wp.expect_neq(wp.vec2(1.0, 2.0), wp.vec2(1.0, 2.0))
    wp.expect_neq(wp.vec2(1.0, 2.0), wp.vec2(1.0, 3.0))
    wp.expect_neq(3, 3)
    wp.expect_neq(3, 4)


wp.launch(check_neq, 1)
wp.synchronize()
print("neq done")
