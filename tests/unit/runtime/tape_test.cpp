// The Tape with stand-in forward/adjoint kernels: loss = sum(s * x^2) so d loss/dx = 2 s x,
// adjoints run newest first with zeroed slots, Zero and the enable_backward=False rule.
#include <gtest/gtest.h>

#include <mutex>

#include "stand_in.h"

namespace tilec::rt {
namespace {

using namespace test;
const Device kCpu = Device::Cpu();

std::mutex g_log_mutex;
std::vector<std::string> g_log;
bool g_slots_ok = true;
void Log(const char* name, int64_t first) {
  if (first != 0) return;
  std::lock_guard<std::mutex> lock(g_log_mutex);
  g_log.push_back(name);
}

// square(x, y): y = x * x
extern "C" void square_fwd(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  auto *x = (const tilec_array*)a[0], *y = (const tilec_array*)a[1];
  for (int64_t i = first; i < last; ++i) At<float>(y, i) = At<float>(x, i) * At<float>(x, i);
}
extern "C" void square_adj(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  Log("square", first);
  auto *x = (const tilec_array*)a[0], *y = (const tilec_array*)a[1];
  if (a[2] != nullptr || a[3] != nullptr) g_slots_ok = false;  // array slots are null
  for (int64_t i = first; i < last; ++i) {
    if (x->grad) GradAt<float>(x, i) += 2 * At<float>(x, i) * GradAt<float>(y, i);
    GradAt<float>(y, i) = 0;  // y was overwritten by the forward store
  }
}

// scale(y, z, s): z = s * y
extern "C" void scale_fwd(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  auto *y = (const tilec_array*)a[0], *z = (const tilec_array*)a[1];
  float s = *(const float*)a[2];
  for (int64_t i = first; i < last; ++i) At<float>(z, i) = s * At<float>(y, i);
}
extern "C" void scale_adj(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  Log("scale", first);
  auto *y = (const tilec_array*)a[0], *z = (const tilec_array*)a[1];
  float s = *(const float*)a[2];
  auto* adj_s = (float*)a[5];
  if (a[3] != nullptr || a[4] != nullptr || adj_s == nullptr) {
    g_slots_ok = false;
    return;
  }
  if (first == 0 && *adj_s != 0) g_slots_ok = false;  // slots start zeroed
  for (int64_t i = first; i < last; ++i) {
    GradAt<float>(y, i) += s * GradAt<float>(z, i);
    *adj_s += At<float>(y, i) * GradAt<float>(z, i);
  }
}

// total(z, loss): loss[0] = sum(z), single block so no atomics needed
extern "C" void total_fwd(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  auto *z = (const tilec_array*)a[0], *loss = (const tilec_array*)a[1];
  for (int64_t b = first; b < last; ++b)
    for (int64_t i = 0; i < z->shape[0]; ++i) At<float>(loss, 0) += At<float>(z, i);
}
extern "C" void total_adj(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  Log("total", first);
  auto *z = (const tilec_array*)a[0], *loss = (const tilec_array*)a[1];
  for (int64_t b = first; b < last; ++b)
    for (int64_t i = 0; i < z->shape[0]; ++i) GradAt<float>(z, i) += GradAt<float>(loss, 0);
}

// copy(x, y) without adjoint (enable_backward=False)
extern "C" void copy_fwd(void* const* a, const tilec_launch*, int64_t first, int64_t last) {
  auto *x = (const tilec_array*)a[0], *y = (const tilec_array*)a[1];
  for (int64_t i = first; i < last; ++i) At<float>(y, i) = At<float>(x, i);
}

class TapeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_log.clear();
    g_slots_ok = true;
    auto f = [](const char* n) { return ArrayParam(n, ScalarType::Float32); };
    ModuleSignature sig;
    sig.kernels.push_back(KernelSig("square", {f("x"), f("y")}, false, true));
    sig.kernels.push_back(
        KernelSig("scale", {f("y"), f("z"), ScalarParam("s", ScalarType::Float32)}, false, true));
    sig.kernels.push_back(KernelSig("total", {f("z"), f("loss")}, true, true));
    sig.kernels.push_back(KernelSig("copy", {f("x"), f("y")}, false, false));
    m_ = MakeModule(sig, {{"square_fwd", (void*)&square_fwd}, {"square_adj", (void*)&square_adj},
                          {"scale_fwd", (void*)&scale_fwd}, {"scale_adj", (void*)&scale_adj},
                          {"total_fwd", (void*)&total_fwd}, {"total_adj", (void*)&total_adj},
                          {"copy_fwd", (void*)&copy_fwd}});
    n_ = 1000;  // large enough that the adjoints run in several chunks
    std::vector<float> xs(n_);
    for (int i = 0; i < n_; ++i) xs[i] = 0.01f * i - 3.0f;
    x_ = Array::FromVector(xs, {n_}, kCpu, true);
    y_ = Array::Zeros({n_}, ScalarType::Float32, kCpu, true);
    z_ = Array::Zeros({n_}, ScalarType::Float32, kCpu, true);
    loss_ = Array::Zeros({1}, ScalarType::Float32, kCpu, true);
  }

  void Forward(Tape& tape) {
    Tape::Scope scope(tape);
    Launch(m_.GetKernel("square"), {n_}, {x_, y_}, kCpu);
    Launch(m_.GetKernel("scale"), {n_}, {y_, z_, KernelArg::Float(3.0)}, kCpu);
    LaunchTiled(m_.GetKernel("total"), {1}, {z_, loss_}, 8, kCpu);
  }

  void ExpectGradIs6x() {
    std::vector<float> xs = x_.ToVector<float>(), g = x_.grad().ToVector<float>();
    for (int i = 0; i < n_; ++i) ASSERT_NEAR(g[i], 6 * xs[i], 1e-4) << i;
  }

  Module m_;
  int64_t n_;
  Array x_, y_, z_, loss_;
};

TEST_F(TapeTest, RecordsOnlyWhileActive) {
  Tape tape;
  EXPECT_EQ(Tape::Current(), nullptr);
  Forward(tape);
  EXPECT_EQ(Tape::Current(), nullptr);
  ASSERT_EQ(tape.launches().size(), 3u);
  EXPECT_EQ(tape.launches()[0].kernel.name(), "square");
  EXPECT_EQ(tape.launches()[2].block_dim, 8);
  Launch(m_.GetKernel("square"), {n_}, {x_, y_}, kCpu);
  EXPECT_EQ(tape.launches().size(), 3u);
}

TEST_F(TapeTest, BackwardFromLossRunsAdjointsInReverse) {
  Tape tape;
  Forward(tape);
  tape.BackwardLoss(loss_);
  EXPECT_EQ(g_log, (std::vector<std::string>{"total", "scale", "square"}));
  EXPECT_TRUE(g_slots_ok);
  EXPECT_EQ(loss_.grad().ToVector<float>()[0], 1.0f);
  ExpectGradIs6x();
}

TEST_F(TapeTest, BackwardFromSeededGrads) {
  Tape tape;
  {
    Tape::Scope scope(tape);
    Launch(m_.GetKernel("square"), {n_}, {x_, y_}, kCpu);
    Launch(m_.GetKernel("scale"), {n_}, {y_, z_, KernelArg::Float(3.0)}, kCpu);
  }
  Array seed = Array::Empty({n_}, ScalarType::Float32, kCpu);
  seed.Fill(1.0);
  tape.Backward({{z_, seed}});
  EXPECT_EQ(g_log, (std::vector<std::string>{"scale", "square"}));
  ExpectGradIs6x();
}

TEST_F(TapeTest, ZeroClearsGradsOfRecordedArrays) {
  Tape tape;
  Forward(tape);
  tape.BackwardLoss(loss_);
  tape.Zero();
  for (const Array& a : {x_, y_, z_, loss_})
    for (float g : a.grad().ToVector<float>()) ASSERT_EQ(g, 0.0f);
  // A second backward after Zero gives the same gradient, not twice it.
  tape.BackwardLoss(loss_);
  ExpectGradIs6x();
}

TEST_F(TapeTest, KernelWithoutAdjointIsAnErrorWhenGradientsFlow) {
  Tape tape;
  {
    Tape::Scope scope(tape);
    Launch(m_.GetKernel("copy"), {n_}, {x_, y_}, kCpu);
  }
  try {
    tape.Backward({{y_, y_.Clone()}});
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "kernel `copy` has no adjoint (it was compiled with enable_backward=False) but "
                 "arrays with gradients pass through it");
  }
}

TEST_F(TapeTest, KernelWithoutAdjointIsSkippedWithoutGradients) {
  Array a = Array::Zeros({n_}, ScalarType::Float32, kCpu);
  Array b = Array::Zeros({n_}, ScalarType::Float32, kCpu);
  Tape tape;
  {
    Tape::Scope scope(tape);
    Launch(m_.GetKernel("copy"), {n_}, {a, b}, kCpu);
    Launch(m_.GetKernel("square"), {n_}, {x_, y_}, kCpu);
  }
  Array seed = Array::Empty({n_}, ScalarType::Float32, kCpu);
  seed.Fill(1.0);
  tape.Backward({{y_, seed}});
  EXPECT_EQ(g_log, (std::vector<std::string>{"square"}));
}

TEST_F(TapeTest, BadBackwardArguments) {
  Tape tape;
  Forward(tape);
  Array plain = Array::Zeros({1}, ScalarType::Float32, kCpu);
  EXPECT_THROW(tape.BackwardLoss(plain), Error);  // no grad
  EXPECT_THROW(tape.BackwardLoss(z_), Error);     // more than one element
  EXPECT_THROW(tape.Backward({{z_, Array::Zeros({2}, ScalarType::Float32, kCpu)}}), Error);
}

TEST_F(TapeTest, NestedTapesRecordInnermost) {
  Tape outer, inner;
  outer.Begin();
  inner.Begin();
  EXPECT_EQ(Tape::Current(), &inner);
  Launch(m_.GetKernel("square"), {n_}, {x_, y_}, kCpu);
  inner.End();
  EXPECT_EQ(Tape::Current(), &outer);
  outer.End();
  EXPECT_EQ(inner.launches().size(), 1u);
  EXPECT_EQ(outer.launches().size(), 0u);
}

}  // namespace
}  // namespace tilec::rt
