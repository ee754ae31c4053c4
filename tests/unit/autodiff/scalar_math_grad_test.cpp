// Finite-difference checks (float64, central) of the gradients of Warp's wider scalar math
// (per thread and through tile_map) and of the differentiable scalar atomics (atomic_sub,
// atomic_min, atomic_max), written in Tile source; on the CPU and under host-SIMT emulation.
#include "compiler/pipeline.h"
#include "tests/unit/autodiff/grad_util.h"

namespace tilec::adtest {
namespace {

TEST(ScalarMathGrad, EveryDifferentiableFunctionPerThread) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def fns(x: wp.array[wp.float64], z: wp.array[wp.float64], y: wp.array2d[wp.float64]):
    i = wp.tid()
    v = x[i]
    w = z[i]
    y[0, i] = wp.tan(v)
    y[1, i] = wp.asin(v)
    y[2, i] = wp.acos(v)
    y[3, i] = wp.atan(w)
    y[4, i] = wp.sinh(w)
    y[5, i] = wp.cosh(w)
    y[6, i] = wp.tanh(w)
    y[7, i] = wp.log2(v)
    y[8, i] = wp.log10(v)
    y[9, i] = wp.exp2(w)
    y[10, i] = wp.cbrt(w)
    y[11, i] = wp.erf(w)
    y[12, i] = wp.atan2(v, w)
    y[13, i] = wp.lerp(v, w, v * w)
    y[14, i] = wp.smoothstep(w - wp.float64(1.0), w + wp.float64(2.0), v)
    y[15, i] = wp.frac(w * wp.float64(3.0))
    y[16, i] = wp.round(w) + wp.trunc(w) + wp.rint(w) + wp.sign(w) + wp.step(w) + wp.nonzero(w)
)",
                              "fns");
  GradCheck opt;
  opt.grid = {6};
  // x inside (0, 1) (asin, acos, logs); z away from integers and half-integers (the rounding
  // functions) and from zero (cbrt).
  CheckGradients(k.c, {HostArray::Float({6}, {0.11, 0.23, 0.37, 0.52, 0.68, 0.83}),
                       HostArray::Float({6}, {-1.32, -0.61, 0.29, 0.77, 1.13, 2.21}),
                       HostArray::Float({17, 6}, Seq(102, 0, 0))},
                 opt);
}

// Also maps given one tile twice (clamp(a, b, b), lerp(a, b, a)): the adjoint sums both uses.
TEST(ScalarMathGrad, TileMapOfTheNewFunctions) {
  for (const char* expr : {"wp.tile_map(wp.tanh, a)", "wp.tile_map(wp.atan2, a, b)", "wp.tile_map(wp.asin, a)",
                           "wp.tile_map(wp.lerp, a, b, a)", "wp.tile_map(wp.log10, a) * wp.tile_map(wp.cosh, b)",
                           "wp.tile_map(wp.smoothstep, b, a, a * a)", "wp.tile_map(wp.mul, a, a)", "wp.tile_map(wp.lerp, a, b, b)", "wp.tile_map(wp.clamp, a, b, b)", "wp.tile_map(wp.lerp, a, b, b * b)"}) {
    SourceKernel k = FromSource(std::string(R"(
@wp.kernel
def maps(x: wp.array[wp.float64], z: wp.array[wp.float64], y: wp.array[wp.float64]):
    a = wp.tile_load(x, shape=5)
    b = wp.tile_load(z, shape=5)
    wp.tile_store(y, )") + expr + ")\n",
                                "maps");
    SCOPED_TRACE(expr);
    CheckGradients(k.c, {HostArray::Float({5}, {0.12, 0.31, 0.47, 0.66, 0.85}),
                         HostArray::Float({5}, {-0.9, -0.35, 0.4, 1.1, 1.7}), HostArray::Float({5}, Seq(5, 0, 0))},
                   GradCheck{});
  }
}

// atomic_sub's value gets -a.grad[i]; a.grad stays, so the initial values' gradient is the
// seed, as finite differences say.
TEST(ScalarAtomicGrad, AtomicSubNegatesTheElementsGradient) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def sub(x: wp.array[wp.float64], acc: wp.array[wp.float64]):
    i = wp.tid()
    wp.atomic_sub(acc, i % 2, x[i] * x[i])
)",
                              "sub");
  GradCheck opt;
  opt.grid = {5};
  CheckGradients(k.c, {HostArray::Float({5}, Seq(5, -0.8, 0.37)), HostArray::Float({2}, {0.5, -0.25})}, opt);
}

// atomic_min/max: the element's gradient goes to the values equal to the final element. The
// initial element's own gradient stays in place (Warp's rule), which is not its derivative when
// a value replaced it, so only the values' gradients are compared with finite differences.
TEST(ScalarAtomicGrad, AtomicMinMaxGiveTheGradientToTheWinningValue) {
  SourceKernel k = FromSource(R"(
@wp.kernel
def ext(x: wp.array[wp.float64], m: wp.array[wp.float64]):
    i = wp.tid()
    v = x[i] * wp.float64(2.0)
    wp.atomic_max(m, 0, v)
    wp.atomic_min(m, 1, v * v)
)",
                              "ext");
  ASSERT_TRUE(k.c.fwd && k.c.adj);
  std::vector<HostArray> init = {HostArray::Float({6}, {0.3, -1.1, 0.9, 0.45, -0.2, 0.7}),
                                 HostArray::Float({2}, {-100.0, 100.0})};
  const double wm[2] = {1.3, -0.7};
  std::vector<HostArray> out = init;
  RunEntry(k.c.fwd, out, {}, {6}, 8);
  EXPECT_EQ(out[1].at(0), 1.8);
  EXPECT_NEAR(out[1].at(1), 0.16, 1e-15);
  for (int64_t e = 0; e < 6; ++e) out[0].grad(e) = 0;
  out[1].grad(0) = wm[0];
  out[1].grad(1) = wm[1];
  RunEntry(k.c.adj, out, {}, {6}, 8);
  for (int64_t e = 0; e < 6; ++e) {
    auto loss = [&](double dx) {
      std::vector<HostArray> p = init;
      p[0].at(e) += dx;
      RunEntry(k.c.fwd, p, {}, {6}, 8);
      return wm[0] * p[1].at(0) + wm[1] * p[1].at(1);
    };
    double h = 1e-6, fd = (loss(h) - loss(-h)) / (2 * h);
    EXPECT_NEAR(out[0].grad(e), fd, 1e-6 * (1 + std::abs(fd))) << "x[" << e << "]";
  }
  // Only x[2] (max 1.8) and x[4] (min of squares 0.16) won.
  EXPECT_NEAR(out[0].grad(2), wm[0] * 2.0, 1e-12);
  EXPECT_NEAR(out[0].grad(4), wm[1] * 2.0 * (2 * -0.4), 1e-12);
}

}  // namespace
}  // namespace tilec::adtest
