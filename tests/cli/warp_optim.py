# warp.optim's Adam (float32, vec3, float16 parameters) and SGD (momentum, dampening, weight
# decay, Nesterov): each printed line is what Warp 1.19 prints for the same program.
import numpy as np
import warp as wp
import warp.optim

x = wp.array(np.array([1.0, -2.0, 3.0], dtype=np.float32), dtype=float)
g = wp.array(np.array([0.5, -1.0, 0.25], dtype=np.float32), dtype=float)
opt = warp.optim.Adam([x], lr=0.1)
for _ in range(3):
    opt.step([g])
print(x.numpy().tolist())
v = wp.array(np.arange(6, dtype=np.float32).reshape(2, 3), dtype=wp.vec3)
gv = wp.array(np.ones((2, 3), dtype=np.float32) * 0.3, dtype=wp.vec3)
o2 = warp.optim.Adam([v], lr=0.01, betas=(0.8, 0.99))
o2.step([gv]); o2.step([gv])
print(v.numpy().tolist())
h = wp.array(np.array([1.0, 2.0], dtype=np.float16), dtype=wp.float16)
gh = wp.array(np.array([0.5, -0.5], dtype=np.float16), dtype=wp.float16)
o3 = warp.optim.Adam([h], lr=0.1)
o3.step([gh])
print(h.numpy().tolist())
from warp.optim import SGD
y = wp.array(np.array([1.0, 2.0], dtype=np.float32), dtype=float)
gy = wp.array(np.array([0.5, -0.25], dtype=np.float32), dtype=float)
s = SGD([y], lr=0.1, momentum=0.9, dampening=0.1, weight_decay=0.01, nesterov=True)
for _ in range(3):
    s.step([gy])
print(y.numpy().tolist())
s.reset_internal_state(); opt.reset_internal_state()
print(s.t, opt.t, opt.m[0].numpy().tolist())
try:
    warp.optim.Adam([wp.zeros(2, dtype=wp.float64)])
except RuntimeError as e:
    print(e)
try:
    opt.step([gy])
except ValueError as e:
    print(e)
