// The C++ API beyond untyped launches: LaunchOptions, typed arrays and their checked
// construction, the generated launchers (struct and scalar arguments, integer range checks,
// adjoints, binding a module that does not match the header) and DLPack import/export on the
// CPU, with every expectation computed here independently of the kernels.
#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <numeric>

#include "tilec/dlpack.h"
#include "typed_kernels.h"

namespace rt = tilec::rt;

namespace {

class CppApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rt::SetNoticeHandler(nullptr);
    m_ = typed_kernels::Module::Load(TILEC_TYPED_KERNELS_SO);
  }
  typed_kernels::Module m_;
  const rt::Device cpu_ = rt::Device::Cpu();
};

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const rt::Error& e) {
    return e.what();
  }
  return "";
}

TEST_F(CppApiTest, LaunchOptionsDispatchPlainAndTiled) {
  rt::Kernel gather = m_.tilec_module().GetKernel("gather");
  auto x = rt::Array::FromVector(std::vector<float>{1, 2, 3}, {3}, cpu_);
  auto idx = rt::Array::FromVector(std::vector<int32_t>{2, 2, 0}, {3}, cpu_);
  auto y = rt::Array::Zeros({3}, tilec::ScalarType::Float32, cpu_);
  rt::Launch(gather, rt::LaunchOptions({3}).on(cpu_), {x, idx, y});
  EXPECT_EQ(y.ToVector<float>(), (std::vector<float>{3, 3, 1}));

  rt::Kernel rows = m_.tilec_module().GetKernel("gather_rows");
  auto g = rt::Array::FromVector(std::vector<float>{0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23}, {3, 4}, cpu_);
  auto r = rt::Array::FromVector(std::vector<int32_t>{2, 0}, {2}, cpu_);
  auto out = rt::Array::Zeros({2, 4}, tilec::ScalarType::Float32, cpu_);
  rt::Launch(rows, rt::LaunchOptions({1}).tiled(8).on(cpu_), {g, r, out});
  EXPECT_EQ(out.ToVector<float>(), (std::vector<float>{20, 21, 22, 23, 0, 1, 2, 3}));

  // The tiled kernel without block_dim: the message speaks of LaunchOptions.
  std::string err = ErrorOf([&] { rt::Launch(rows, rt::LaunchOptions({1}).on(cpu_), {g, r, out}); });
  EXPECT_NE(err.find("kernel `gather_rows` uses tile operations; set LaunchOptions::block_dim"), std::string::npos)
      << err;
}

TEST_F(CppApiTest, TypedArrayChecksDtypeAndNdim) {
  rt::Array a = rt::Array::Zeros({2, 3}, tilec::ScalarType::Float32, cpu_);
  tilec::Array2D<float> ok(a);
  EXPECT_TRUE(ok.array().same_storage(a));
  EXPECT_EQ(ok.shape(), (std::array<int64_t, 2>{2, 3}));
  EXPECT_EQ(ErrorOf([&] { tilec::Array1D<float> bad(a); }),
            "tilec::ArrayND: cannot view array(dtype=float32, ndim=2) as array(dtype=float32, ndim=1)");
  EXPECT_EQ(ErrorOf([&] { tilec::Array2D<double> bad(a); }),
            "tilec::ArrayND: cannot view array(dtype=float32, ndim=2) as array(dtype=float64, ndim=2)");
  // Composites and generated structs are matched by name and size, as launches match them.
  rt::Array v = rt::Array::Zeros({4}, rt::ArrayDType::Struct(rt::CompositeLayout(tilec::Composite::Vector(3, tilec::ScalarType::Float32))), cpu_);
  EXPECT_NO_THROW(tilec::Array1D<tilec::vec3f>{v});
  EXPECT_NE(ErrorOf([&] { tilec::Array1D<tilec::quatf> bad(v); }).find("as array(dtype=quatf, ndim=1)"), std::string::npos);
  EXPECT_NE(ErrorOf([&] { tilec::Array1D<typed_kernels::Affine> bad(v); }).find("as array(dtype=Affine, ndim=1)"),
            std::string::npos);
  EXPECT_EQ(tilec::ElementTraits<tilec::mat33d>::Name(), "mat33d");
  EXPECT_EQ(tilec::ElementTraits<tilec::spatial_vectorf>::Name(), "spatial_vectorf");
  EXPECT_EQ(tilec::ElementTraits<tilec::transformh>::Layout().size, 14u);
  using Vec5i = tilec::vec_t<int32_t, 5>;
  EXPECT_EQ(tilec::ElementTraits<Vec5i>::Name(), "vec5i");
}

TEST_F(CppApiTest, TypedLauncherStructAndScalars) {
  std::vector<tilec::vec3f> ps = {{{1, 2, 3}}, {{4, 5, 6}}, {{-1, -2, -3}}};
  auto p = tilec::Array1D<tilec::vec3f>::FromVector(ps, {3}, cpu_);
  auto out = tilec::Array2D<float>::Zeros({3, 3}, cpu_);
  typed_kernels::Affine a{-0.5f, {{1, 2, 3}}, 40};
  m_.affine_points.launch(rt::LaunchOptions({3}).on(cpu_), p, a, 0.25f, int64_t{2}, out);
  std::vector<float> o = out.ToVector();
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      EXPECT_FLOAT_EQ(o[i * 3 + k], ps[i][k] * -0.5f + a.shift[k] + 0.25f + 2.0f + 40.0f) << i << "," << k;

  // An integer that does not fit the parameter's type is refused, naming it.
  std::string err = ErrorOf([&] {
    m_.affine_points.launch(rt::LaunchOptions({3}).on(cpu_), p, a, 0.0, int64_t{1} << 40, out);
  });
  EXPECT_EQ(err, "kernel `affine_points`, parameter `flag`: 1099511627776 does not fit `int32`");
}

TEST_F(CppApiTest, TypedAdjointAccumulatesIntoGrads) {
  // y[i] = x[idx[i]], so dL/dx[j] = sum of y.grad[i] over the i with idx[i] == j.
  std::vector<int32_t> is = {1, 3, 1, 1, 0};
  std::vector<float> seed = {1.0f, 2.0f, 4.0f, 8.0f, 16.0f};
  auto x = tilec::Array1D<float>::Zeros({4}, cpu_, /*requires_grad=*/true);
  auto idx = tilec::Array1D<int32_t>::FromVector(is, {5}, cpu_);
  auto y = tilec::Array1D<float>::Zeros({5}, cpu_, /*requires_grad=*/true);
  y.grad().CopyFromHost(seed.data());
  m_.gather.launch_adjoint(rt::LaunchOptions({5}).on(cpu_), x, idx, y);
  std::vector<float> want(4, 0.0f);
  for (size_t i = 0; i < is.size(); ++i) want[is[i]] += seed[i];
  EXPECT_EQ(x.grad().ToVector(), want);
}

TEST_F(CppApiTest, BindingAModuleThatDiffersFromTheHeaderFails) {
  std::string err = ErrorOf([&] {
    tilec::typed::BindKernel(m_.tilec_module(), "old.h", "gather",
                             {{"x", "array(dtype=float64, ndim=1)", 0}, {"idx", "array(dtype=int32, ndim=1)", 0},
                              {"y", "array(dtype=float32, ndim=1)", 0}});
  });
  EXPECT_EQ(err, "old.h: kernel `gather` has parameter `x: array(dtype=float32, ndim=1)` in the module, "
                 "`x: array(dtype=float64, ndim=1)` in the header; regenerate the header from the source of the module");
  err = ErrorOf([&] { tilec::typed::BindKernel(m_.tilec_module(), "old.h", "scatter", {}); });
  EXPECT_NE(err.find("old.h: the module has no kernel `scatter`"), std::string::npos) << err;
}

// The runtime's own errors name the C++ API, not the Python one.
TEST_F(CppApiTest, TapeErrorsSpeakCpp) {
  rt::Tape tape;
  auto loss = rt::Array::Zeros({1}, tilec::ScalarType::Float32, cpu_);
  EXPECT_EQ(ErrorOf([&] { tape.BackwardLoss(loss); }),
            "Tape::BackwardLoss: `loss` does not require grad (create it with requires_grad = true, or call "
            "set_requires_grad(true))");
  auto x = rt::Array::Zeros({2}, tilec::ScalarType::Float32, cpu_);
  EXPECT_EQ(ErrorOf([&] { tape.Backward({{x, x}}); }),
            "Tape::Backward: the array given a gradient does not require grad (create it with requires_grad = "
            "true, or call set_requires_grad(true))");
}

// A DLPack producer: a 3x5 float buffer with a 2-float prefix, viewed as the 3x2 tensor of
// every second column from column 1 (strides {5, 2} elements, byte_offset 2 floats + 1).
struct Producer {
  std::vector<float> buffer = std::vector<float>(2 + 15);
  int64_t shape[2] = {3, 2};
  int64_t strides[2] = {5, 2};
  int deleted = 0;
  DLManagedTensor tensor{};

  Producer() {
    std::iota(buffer.begin(), buffer.end(), 0.0f);
    DLTensor& t = tensor.dl_tensor;
    t.data = buffer.data();
    t.device = {kDLCPU, 0};
    t.ndim = 2;
    t.dtype = {kDLFloat, 32, 1};
    t.shape = shape;
    t.strides = strides;
    t.byte_offset = (2 + 1) * sizeof(float);
    tensor.manager_ctx = this;
    tensor.deleter = [](DLManagedTensor* self) { ++static_cast<Producer*>(self->manager_ctx)->deleted; };
  }
  float at(int i, int j) const { return buffer[2 + 1 + i * 5 + j * 2]; }
};

TEST_F(CppApiTest, DLPackRoundTripOnCpuSharesMemory) {
  Producer prod;
  std::vector<float> before = prod.buffer;
  DLManagedTensor* exported = nullptr;
  {
    rt::Array a = rt::FromDLPack(&prod.tensor);
    EXPECT_EQ(a.shape(), (std::vector<int64_t>{3, 2}));
    EXPECT_EQ(a.strides(), (std::vector<int64_t>{20, 8}));
    EXPECT_EQ(a.data(), static_cast<void*>(prod.buffer.data() + 3));
    // A kernel writes through the strided view: the producer's buffer changes in place.
    m_.scale2d.launch(rt::LaunchOptions({3, 2}).on(cpu_), tilec::Array2D<float>(a), -2.0f);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 2; ++j) EXPECT_EQ(prod.at(i, j), -2.0f * before[3 + i * 5 + j * 2]) << i << "," << j;
    // Elements outside the view are untouched.
    EXPECT_EQ(prod.buffer[0], before[0]);
    EXPECT_EQ(prod.buffer[4], before[4]);
    EXPECT_EQ(prod.buffer[16], before[16]);

    exported = rt::ToDLPack(a[1]);  // row 1: one dimension, stride 2 elements
    EXPECT_EQ(exported->dl_tensor.data, static_cast<void*>(prod.buffer.data() + 3 + 5));
    EXPECT_EQ(exported->dl_tensor.ndim, 1);
    EXPECT_EQ(exported->dl_tensor.shape[0], 2);
    EXPECT_EQ(exported->dl_tensor.strides[0], 2);
    EXPECT_EQ(exported->dl_tensor.byte_offset, 0u);
    EXPECT_EQ(exported->dl_tensor.dtype.code, kDLFloat);
    EXPECT_EQ(exported->dl_tensor.dtype.bits, 32);
    EXPECT_EQ(exported->dl_tensor.device.device_type, kDLCPU);
  }
  // The Array is gone but the export still holds the producer's tensor.
  EXPECT_EQ(prod.deleted, 0);
  rt::Array back = rt::FromDLPack(exported);  // and re-imported: still the same memory
  EXPECT_EQ(back.data(), static_cast<void*>(prod.buffer.data() + 8));
  EXPECT_EQ(back.ToVector<float>(), (std::vector<float>{prod.at(1, 0), prod.at(1, 1)}));
  back = rt::Array();
  EXPECT_EQ(prod.deleted, 1);  // exactly once, when the last holder let go
}

TEST_F(CppApiTest, DLPackExportOfCompositesAndErrors) {
  auto v = tilec::Array1D<tilec::vec3f>::Zeros({4}, cpu_);
  DLManagedTensor* t = rt::ToDLPack(v);
  EXPECT_EQ(t->dl_tensor.ndim, 2);
  EXPECT_EQ(t->dl_tensor.shape[1], 3);
  EXPECT_EQ(t->dl_tensor.strides[0], 3);
  EXPECT_EQ(t->dl_tensor.strides[1], 1);
  t->deleter(t);

  Producer prod;
  prod.tensor.dl_tensor.dtype = {kDLFloat, 32, 4};
  EXPECT_NE(ErrorOf([&] { rt::FromDLPack(&prod.tensor); }).find("lanes > 1"), std::string::npos);
  prod.tensor.dl_tensor.dtype = {kDLComplex, 64, 1};
  EXPECT_NE(ErrorOf([&] { rt::FromDLPack(&prod.tensor); }).find("unsupported dtype (code 5, 64 bits, 1 lanes)"),
            std::string::npos);
  prod.tensor.dl_tensor.dtype = {kDLFloat, 32, 1};
  prod.tensor.dl_tensor.device = {kDLOpenCL, 0};
  EXPECT_NE(ErrorOf([&] { rt::FromDLPack(&prod.tensor); }).find("unsupported device type 4"), std::string::npos);
  EXPECT_EQ(prod.deleted, 0);  // a refused tensor stays the caller's

  // bfloat16 and (DLPack 0.8's) bool map to their scalar types; null strides are C order.
  prod.tensor.dl_tensor.device = {kDLCPU, 0};
  prod.tensor.dl_tensor.strides = nullptr;
  prod.tensor.dl_tensor.dtype = {kDLBfloat, 16, 1};
  {
    rt::Array b = rt::FromDLPack(&prod.tensor);
    EXPECT_EQ(b.dtype().scalar, tilec::ScalarType::BFloat16);
    EXPECT_EQ(b.strides(), (std::vector<int64_t>{4, 2}));
  }
  EXPECT_EQ(prod.deleted, 1);
}

}  // namespace
