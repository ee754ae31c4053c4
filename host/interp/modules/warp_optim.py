# warp.optim: the gradient-descent optimizers of Warp's API (Adam, SGD), written in the host
# language. Each step launches one kernel per parameter array; moments and momentum live in
# arrays beside the parameters, on their device. Results match Warp's bit for bit: the
# updates are computed in the same float32 order.
from typing import Any

import warp as wp


@wp.kernel
def _adam_step_f32(
    g: wp.array(dtype=float),
    m: wp.array(dtype=float),
    v: wp.array(dtype=float),
    lr: float,
    beta1: float,
    beta2: float,
    t: float,
    eps: float,
    params: wp.array(dtype=float),
):
    i = wp.tid()
    gi = g[i]
    m[i] = beta1 * m[i] + (1.0 - beta1) * gi
    v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi
    m_hat = m[i] / (1.0 - wp.pow(beta1, t + 1.0))
    v_hat = v[i] / (1.0 - wp.pow(beta2, t + 1.0))
    params[i] = params[i] - lr * m_hat / (wp.sqrt(v_hat) + eps)


@wp.kernel
def _adam_step_f16(
    g: wp.array(dtype=wp.float16),
    m: wp.array(dtype=float),
    v: wp.array(dtype=float),
    lr: float,
    beta1: float,
    beta2: float,
    t: float,
    eps: float,
    params: wp.array(dtype=wp.float16),
):
    # Half-precision parameters keep their moments in float32.
    i = wp.tid()
    gi = float(g[i])
    m[i] = beta1 * m[i] + (1.0 - beta1) * gi
    v[i] = beta2 * v[i] + (1.0 - beta2) * gi * gi
    m_hat = m[i] / (1.0 - wp.pow(beta1, t + 1.0))
    v_hat = v[i] / (1.0 - wp.pow(beta2, t + 1.0))
    params[i] = params[i] - wp.float16(lr * m_hat / (wp.sqrt(v_hat) + eps))


@wp.kernel
def _adam_step_vec3(
    g: wp.array(dtype=wp.vec3),
    m: wp.array(dtype=wp.vec3),
    v: wp.array(dtype=wp.vec3),
    lr: float,
    beta1: float,
    beta2: float,
    t: float,
    eps: float,
    params: wp.array(dtype=wp.vec3),
):
    i = wp.tid()
    gi = g[i]
    m[i] = beta1 * m[i] + (1.0 - beta1) * gi
    v[i] = beta2 * v[i] + (1.0 - beta2) * wp.cw_mul(gi, gi)
    m_hat = m[i] / (1.0 - wp.pow(beta1, t + 1.0))
    v_hat = v[i] / (1.0 - wp.pow(beta2, t + 1.0))
    root = wp.vec3(wp.sqrt(v_hat[0]), wp.sqrt(v_hat[1]), wp.sqrt(v_hat[2]))
    params[i] = params[i] - lr * wp.cw_div(m_hat, root + wp.vec3(eps, eps, eps))


_ADAM_KERNELS = {"float32": _adam_step_f32, "float16": _adam_step_f16, "vec3f": _adam_step_vec3}


def _dtype_name(dtype):
    return getattr(dtype, "__name__", str(dtype))


class Adam:
    """Adam (Kingma and Ba) over a list of warp arrays of float32, float16 or vec3."""

    def __init__(self, params=None, lr=0.001, betas=(0.9, 0.999), eps=1e-08):
        self.m = []
        self.v = []
        self.set_params(params)
        self.lr = lr
        self.beta1 = betas[0]
        self.beta2 = betas[1]
        self.eps = eps
        self.t = 0

    def set_params(self, params):
        self.params = params
        if params is None or not isinstance(params, list) or len(params) == 0:
            return
        if len(self.m) != len(params):
            self.m = [None] * len(params)
        if len(self.v) != len(params):
            self.v = [None] * len(params)
        for i in range(len(params)):
            p = params[i]
            if p.dtype == wp.vec3:
                moment = wp.vec3
            elif p.dtype == wp.float32 or p.dtype == wp.float16:
                moment = wp.float32
            else:
                raise RuntimeError(f"Unsupported dtype for Warp Adam optimizer: {p.dtype}")
            for moments in (self.m, self.v):
                old = moments[i]
                if old is None or old.shape != p.shape or old.dtype != moment:
                    moments[i] = wp.zeros(shape=p.shape, dtype=moment, device=p.device)
                elif old.device != p.device:
                    moments[i] = old.to(p.device)

    def reset_internal_state(self):
        for a in self.m:
            a.zero_()
        for a in self.v:
            a.zero_()
        self.t = 0

    def step(self, grad):
        if self.params is None:
            raise RuntimeError("Adam parameters must be set before calling step(), got None")
        for i in range(len(self.params)):
            Adam.step_detail(grad[i], self.m[i], self.v[i], self.lr, self.beta1, self.beta2, self.t, self.eps,
                             self.params[i])
        self.t = self.t + 1

    @staticmethod
    def step_detail(g, m, v, lr, beta1, beta2, t, eps, params):
        if params.dtype != g.dtype:
            raise TypeError(f"Adam gradient dtype must match parameter dtype {_dtype_name(params.dtype)}, "
                            f"got {_dtype_name(g.dtype)}")
        if params.shape != g.shape:
            raise ValueError(f"Adam gradient shape must match parameter shape {params.shape}, got {g.shape}")
        kernel = _ADAM_KERNELS.get(_dtype_name(params.dtype))
        if kernel is None:
            raise RuntimeError("Params data type not supported in Adam step kernels.")
        wp.launch(kernel, dim=len(params), inputs=[g, m, v, lr, beta1, beta2, float(t), eps, params],
                  device=params.device)


@wp.kernel
def _sgd_step(
    g: wp.array(dtype=Any),
    b: wp.array(dtype=Any),
    lr: float,
    momentum: float,
    dampening: float,
    weight_decay: float,
    nesterov: int,
    t: int,
    params: wp.array(dtype=Any),
):
    i = wp.tid()
    gi = g[i]
    if weight_decay != 0.0:
        gi += weight_decay * params[i]
    if momentum != 0.0:
        bi = gi
        if t > 0:
            bi = momentum * b[i] + (1.0 - dampening) * gi
        if nesterov == 1:
            gi += momentum * bi
        else:
            gi = bi
        b[i] = bi
    params[i] = params[i] - lr * gi


class SGD:
    """Stochastic gradient descent with optional momentum, dampening, weight decay and Nesterov."""

    def __init__(self, params=None, lr=0.001, momentum=0.0, dampening=0.0, weight_decay=0.0, nesterov=False):
        self.b = []
        self.set_params(params)
        self.lr = lr
        self.momentum = momentum
        self.dampening = dampening
        self.weight_decay = weight_decay
        self.nesterov = nesterov
        self.t = 0

    def set_params(self, params):
        self.params = params
        if params is None or not isinstance(params, list) or len(params) == 0:
            return
        if len(self.b) != len(params):
            self.b = [None] * len(params)
        for i in range(len(params)):
            p = params[i]
            old = self.b[i]
            if old is None or old.shape != p.shape or old.dtype != p.dtype:
                self.b[i] = wp.zeros_like(p)
            elif old.device != p.device:
                self.b[i] = old.to(p.device)

    def reset_internal_state(self):
        for a in self.b:
            a.zero_()
        self.t = 0

    def step(self, grad):
        if self.params is None:
            raise RuntimeError("SGD parameters must be set before calling step(), got None")
        for i in range(len(self.params)):
            SGD.step_detail(grad[i], self.b[i], self.lr, self.momentum, self.dampening, self.weight_decay,
                            self.nesterov, self.t, self.params[i])
        self.t = self.t + 1

    @staticmethod
    def step_detail(g, b, lr, momentum, dampening, weight_decay, nesterov, t, params):
        if params.dtype != g.dtype:
            raise TypeError(f"SGD gradient dtype must match parameter dtype {_dtype_name(params.dtype)}, "
                            f"got {_dtype_name(g.dtype)}")
        if params.dtype != b.dtype:
            raise TypeError(f"SGD momentum buffer dtype must match parameter dtype {_dtype_name(params.dtype)}, "
                            f"got {_dtype_name(b.dtype)}")
        wp.launch(_sgd_step, dim=len(params),
                  inputs=[g, b, lr, momentum, dampening, weight_decay, int(nesterov), t, params],
                  device=params.device)
