# transform_to_matrix, transform_compose and transform_from_matrix (float32 and float64): the
# bits Warp 1.19 computes, printed in full by tolist().
import warp as wp


@wp.kernel
def mats(out: wp.array[wp.mat44], outt: wp.array[wp.transform], outd: wp.array[wp.mat44d]):
    q = wp.quat_from_axis_angle(wp.normalize(wp.vec3(1.0, 2.0, 3.0)), 0.7)
    t = wp.transform(wp.vec3(1.0, -2.0, 3.5), q)
    out[0] = wp.transform_to_matrix(t)
    out[1] = wp.transform_compose(wp.vec3(1.0, -2.0, 3.5), q, wp.vec3(2.0, 3.0, 0.5))
    outt[0] = wp.transform_from_matrix(out[0])
    qd = wp.quat_from_axis_angle(wp.vec3d(0.0, 1.0, 0.0), wp.float64(0.3))
    outd[0] = wp.transform_to_matrix(wp.transformd(wp.vec3d(1.0, 2.0, 3.0), qd))


out = wp.zeros(2, dtype=wp.mat44)
outt = wp.zeros(1, dtype=wp.transform)
outd = wp.zeros(1, dtype=wp.mat44d)
wp.launch(mats, 1, inputs=[out, outt, outd])
print("to_matrix", out.numpy()[0].tolist())
print("compose", out.numpy()[1].tolist())
print("from_matrix", outt.numpy()[0].tolist())
print("float64", outd.numpy()[0].tolist())
