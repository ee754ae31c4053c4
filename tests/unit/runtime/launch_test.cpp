// Launching stand-in kernels on the CPU device: argument packing and conversion, and one test
// per kind of bad launch, each checking the exact message.
#include <gtest/gtest.h>

#include "stand_in.h"

namespace tilec::rt {
namespace {

using namespace test;
const Device kCpu = Device::Cpu();

// saxpy(x: array1d[float32], y: array1d[float32], a: float32): y[i] = a * x[i] + y[i]
extern "C" void saxpy_fwd(void* const* args, const tilec_launch* launch, int64_t first,
                          int64_t last) {
  auto* x = static_cast<const tilec_array*>(args[0]);
  auto* y = static_cast<const tilec_array*>(args[1]);
  float a = *static_cast<const float*>(args[2]);
  for (int64_t i = first; i < last; ++i) At<float>(y, i) = a * At<float>(x, i) + At<float>(y, i);
}

// record(out: array1d[float64], v: <T>): out[0] = v as double; out[1] = ndim; out[2] = block_dim
template <typename T>
void RecordScalar(void* const* args, const tilec_launch* launch, int64_t, int64_t) {
  auto* out = static_cast<const tilec_array*>(args[0]);
  At<double>(out, 0) = static_cast<double>(*static_cast<const T*>(args[1]));
  At<double>(out, 1) = launch->ndim;
  At<double>(out, 2) = launch->block_dim;
}
extern "C" void rec_i8_fwd(void* const* a, const tilec_launch* l, int64_t f, int64_t e) {
  RecordScalar<int8_t>(a, l, f, e);
}
extern "C" void rec_u16_fwd(void* const* a, const tilec_launch* l, int64_t f, int64_t e) {
  RecordScalar<uint16_t>(a, l, f, e);
}
extern "C" void rec_f64_fwd(void* const* a, const tilec_launch* l, int64_t f, int64_t e) {
  RecordScalar<double>(a, l, f, e);
}
extern "C" void rec_bool_fwd(void* const* a, const tilec_launch* l, int64_t f, int64_t e) {
  RecordScalar<bool>(a, l, f, e);
}

// grid2d(out: array2d[int32]): out[i, j] = linear index, from the row-major grid.
extern "C" void grid2d_fwd(void* const* args, const tilec_launch* launch, int64_t first,
                           int64_t last) {
  auto* out = static_cast<const tilec_array*>(args[0]);
  for (int64_t l = first; l < last; ++l) {
    int64_t i = l / launch->dim[1], j = l % launch->dim[1];
    *reinterpret_cast<int32_t*>(static_cast<char*>(out->data) + i * out->strides[0] +
                                j * out->strides[1]) = static_cast<int32_t>(l);
  }
}

// tiled(out: array1d[int32]): out[block] = block_dim
extern "C" void tiled_fwd(void* const* args, const tilec_launch* launch, int64_t first,
                          int64_t last) {
  auto* out = static_cast<const tilec_array*>(args[0]);
  for (int64_t b = first; b < last; ++b) At<int32_t>(out, b) = launch->block_dim;
}

struct Vec2 { float x, y; };
// pstruct(out: array1d[float32], v: Vec2): out[0] = v.x + v.y
extern "C" void pstruct_fwd(void* const* args, const tilec_launch*, int64_t, int64_t) {
  auto* out = static_cast<const tilec_array*>(args[0]);
  const auto* v = static_cast<const Vec2*>(args[1]);
  At<float>(out, 0) = v->x + v->y;
}

// nullinfo(a: array2d[float32], out: array1d[float64]): what the kernel sees of `a`: whether
// its data and grad are null, then its four extents.
extern "C" void nullinfo_fwd(void* const* args, const tilec_launch*, int64_t, int64_t) {
  auto* a = static_cast<const tilec_array*>(args[0]);
  auto* out = static_cast<const tilec_array*>(args[1]);
  At<double>(out, 0) = a->data == nullptr;
  At<double>(out, 1) = a->grad == nullptr;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) At<double>(out, 2 + d) = double(a->shape[d]);
}

class LaunchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ModuleSignature sig;
    sig.structs.push_back(
        {"Vec2", {{"x", {ScalarType::Float32}, 0}, {"y", {ScalarType::Float32}, 4}}, 8, 4});
    sig.kernels.push_back(KernelSig("saxpy", {ArrayParam("x", ScalarType::Float32),
                                              ArrayParam("y", ScalarType::Float32),
                                              ScalarParam("a", ScalarType::Float32)}));
    auto out = ArrayParam("out", ScalarType::Float64);
    sig.kernels.push_back(KernelSig("rec_i8", {out, ScalarParam("v", ScalarType::Int8)}));
    sig.kernels.push_back(KernelSig("rec_u16", {out, ScalarParam("v", ScalarType::UInt16)}));
    sig.kernels.push_back(KernelSig("rec_f64", {out, ScalarParam("v", ScalarType::Float64)}));
    sig.kernels.push_back(KernelSig("rec_bool", {out, ScalarParam("v", ScalarType::Bool)}));
    sig.kernels.push_back(KernelSig("grid2d", {ArrayParam("out", ScalarType::Int32, 2)}));
    sig.kernels.push_back(KernelSig("tiled", {ArrayParam("out", ScalarType::Int32)}, true));
    ParamInfo v;
    v.name = "v";
    v.kind = ParamKind::Struct;
    v.type.struct_index = 0;
    sig.kernels.push_back(KernelSig("pstruct", {ArrayParam("out", ScalarType::Float32), v}));
    sig.kernels.push_back(KernelSig("nullinfo", {ArrayParam("a", ScalarType::Float32, 2), out}));
    module_ = MakeModule(sig, {{"saxpy_fwd", (void*)&saxpy_fwd},
                               {"rec_i8_fwd", (void*)&rec_i8_fwd},
                               {"rec_u16_fwd", (void*)&rec_u16_fwd},
                               {"rec_f64_fwd", (void*)&rec_f64_fwd},
                               {"rec_bool_fwd", (void*)&rec_bool_fwd},
                               {"grid2d_fwd", (void*)&grid2d_fwd},
                               {"tiled_fwd", (void*)&tiled_fwd},
                               {"pstruct_fwd", (void*)&pstruct_fwd},
                               {"nullinfo_fwd", (void*)&nullinfo_fwd}});
    x_ = Array::FromVector(std::vector<float>{1, 2, 3, 4}, {4}, kCpu);
    y_ = Array::FromVector(std::vector<float>{10, 20, 30, 40}, {4}, kCpu);
  }

  // The message of the Error that `f` throws.
  template <typename F>
  std::string ErrorOf(F f) {
    try {
      f();
    } catch (const Error& e) {
      return e.what();
    }
    return "(no error)";
  }

  Kernel K(const std::string& name) { return module_.GetKernel(name); }
  std::vector<double> Rec(const std::string& kernel, KernelArg v) {
    Array out = Array::Zeros({3}, ScalarType::Float64, kCpu);
    Launch(K(kernel), {1}, {out, v}, kCpu);
    return out.ToVector<double>();
  }

  Module module_;
  Array x_, y_;
};

TEST_F(LaunchTest, RunsSaxpy) {
  Launch(K("saxpy"), {4}, {x_, y_, KernelArg::Float(2.0)}, kCpu);
  EXPECT_EQ(y_.ToVector<float>(), (std::vector<float>{12, 24, 36, 48}));
}

TEST_F(LaunchTest, StridedViewsPassUnchanged) {
  // y[::-2] = 3 * x[1::2] + y[::-2]  ->  y[3] += 3*2, y[1] += 3*4
  Launch(K("saxpy"), {2},
         {x_.Slice({SliceSpec::Range(1, std::nullopt, 2)}),
          y_.Slice({SliceSpec::Range(std::nullopt, std::nullopt, -2)}), KernelArg::Int(3)},
         kCpu);
  EXPECT_EQ(y_.ToVector<float>(), (std::vector<float>{10, 32, 30, 46}));
}

TEST_F(LaunchTest, GridIsRowMajor) {
  Array out = Array::Zeros({3, 5}, ScalarType::Int32, kCpu);
  Launch(K("grid2d"), {3, 5}, {out}, kCpu);
  std::vector<int32_t> expect(15);
  for (int i = 0; i < 15; ++i) expect[i] = i;
  EXPECT_EQ(out.ToVector<int32_t>(), expect);
}

TEST_F(LaunchTest, TiledLaunchPassesBlockDim) {
  Array out = Array::Zeros({6}, ScalarType::Int32, kCpu);
  LaunchTiled(K("tiled"), {6}, {out}, 64, kCpu);
  EXPECT_EQ(out.ToVector<int32_t>(), (std::vector<int32_t>(6, 64)));
}

TEST_F(LaunchTest, PythonNumbersConvert) {
  EXPECT_EQ(Rec("rec_i8", KernelArg::Int(-128))[0], -128);
  EXPECT_EQ(Rec("rec_u16", KernelArg::Int(65535))[0], 65535);
  EXPECT_EQ(Rec("rec_f64", KernelArg::Int(3))[0], 3.0);
  EXPECT_EQ(Rec("rec_f64", KernelArg::Float(0.1))[0], 0.1);
  EXPECT_EQ(Rec("rec_f64", KernelArg::Bool(true))[0], 1.0);
  EXPECT_EQ(Rec("rec_bool", KernelArg::Int(5))[0], 1.0);
  EXPECT_EQ(Rec("rec_u16", KernelArg::TypedInt(ScalarType::UInt16, 7))[0], 7);
  EXPECT_EQ(Rec("rec_f64", KernelArg::Of(2.5))[0], 2.5);
  auto r = Rec("rec_f64", KernelArg::Of(1.0));
  EXPECT_EQ(r[1], 1);  // ndim of dim={1}
  EXPECT_EQ(r[2], 0);  // plain launches have block_dim 0
}

TEST_F(LaunchTest, StructArgument) {
  Array out = Array::Zeros({1}, ScalarType::Float32, kCpu);
  Vec2 v{1.25f, 2.5f};
  std::vector<uint8_t> bytes(sizeof v);
  std::memcpy(bytes.data(), &v, sizeof v);
  Launch(K("pstruct"), {1}, {out, KernelArg::Struct("Vec2", bytes)}, kCpu);
  EXPECT_EQ(out.ToVector<float>()[0], 3.75f);
}

TEST_F(LaunchTest, ZeroSizedGridRunsNothing) {
  Launch(K("saxpy"), {0}, {x_, y_, KernelArg::Float(2.0)}, kCpu);
  EXPECT_EQ(y_.ToVector<float>(), (std::vector<float>{10, 20, 30, 40}));
}

// --- bad launches: one test each ---

TEST_F(LaunchTest, ErrorTooFewArguments) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4}, {x_, y_}, kCpu); }),
            "kernel `saxpy` takes 3 argument(s) (`x`, `y`, `a`), got 2");
}

TEST_F(LaunchTest, ErrorTooManyArguments) {
  EXPECT_EQ(ErrorOf([&] {
              Launch(K("saxpy"), {4}, {x_, y_, KernelArg::Float(1), KernelArg::Float(1)}, kCpu);
            }),
            "kernel `saxpy` takes 3 argument(s) (`x`, `y`, `a`), got 4");
}

TEST_F(LaunchTest, ErrorScalarWhereArrayExpected) {
  EXPECT_EQ(ErrorOf([&] {
              Launch(K("saxpy"), {4}, {KernelArg::Float(1), y_, KernelArg::Float(1)}, kCpu);
            }),
            "kernel `saxpy`, parameter `x`: expected `array(dtype=float32, ndim=1)`, got a "
            "Python float (1)");
}

TEST_F(LaunchTest, ErrorArrayWhereScalarExpected) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4}, {x_, y_, x_}, kCpu); }),
            "kernel `saxpy`, parameter `a`: expected `float32`, got array(dtype=float32, ndim=1)");
}

TEST_F(LaunchTest, ErrorWrongArrayDtype) {
  Array d = Array::Zeros({4}, ScalarType::Float64, kCpu);
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4}, {d, y_, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`, parameter `x`: expected `array(dtype=float32, ndim=1)`, got "
            "`array(dtype=float64, ndim=1)`");
}

TEST_F(LaunchTest, ErrorWrongArrayNdim) {
  Array d = Array::Zeros({2, 2}, ScalarType::Float32, kCpu);
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4}, {x_, d, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`, parameter `y`: expected `array(dtype=float32, ndim=1)`, got "
            "`array(dtype=float32, ndim=2)`");
}

// None for an array (Warp's optional outputs): the kernel gets null pointers and zero extents,
// which its `if a:` reads as false and checked access skips; unused extents stay 1.
TEST_F(LaunchTest, NullArrayArrivesEmpty) {
  Array out = Array::Zeros({6}, ScalarType::Float64, kCpu);
  Launch(K("nullinfo"), {1}, {Array(), out}, kCpu);
  EXPECT_EQ(out.ToVector<double>(), (std::vector<double>{1, 1, 0, 0, 1, 1}));
  Array a = Array::Zeros({2, 3}, ScalarType::Float32, kCpu);
  Launch(K("nullinfo"), {1}, {a, out}, kCpu);
  EXPECT_EQ(out.ToVector<double>(), (std::vector<double>{0, 1, 2, 3, 1, 1}));
}

TEST_F(LaunchTest, ErrorNullWhereScalarExpected) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4}, {x_, y_, Array()}, kCpu); }),
            "kernel `saxpy`, parameter `a`: expected `float32`, got None (a null array)");
}

TEST_F(LaunchTest, ErrorPythonFloatToIntParameter) {
  EXPECT_EQ(ErrorOf([&] { Rec("rec_i8", KernelArg::Float(1.5)); }),
            "kernel `rec_i8`, parameter `v`: expected `int8`, got a Python float (1.5)");
}

TEST_F(LaunchTest, ErrorPythonIntOutOfRange) {
  EXPECT_EQ(ErrorOf([&] { Rec("rec_u16", KernelArg::Int(-1)); }),
            "kernel `rec_u16`, parameter `v`: the Python int -1 does not fit `uint16`");
  EXPECT_EQ(ErrorOf([&] { Rec("rec_i8", KernelArg::Int(128)); }),
            "kernel `rec_i8`, parameter `v`: the Python int 128 does not fit `int8`");
}

TEST_F(LaunchTest, ErrorTypedScalarMismatch) {
  EXPECT_EQ(ErrorOf([&] { Rec("rec_f64", KernelArg::Of(1.0f)); }),
            "kernel `rec_f64`, parameter `v`: expected `float64`, got a `float32` value");
}

TEST_F(LaunchTest, ErrorWrongStruct) {
  Array out = Array::Zeros({1}, ScalarType::Float32, kCpu);
  EXPECT_EQ(ErrorOf([&] {
              Launch(K("pstruct"), {1}, {out, KernelArg::Struct("Other", std::vector<uint8_t>(8))}, kCpu);
            }),
            "kernel `pstruct`, parameter `v`: expected `Vec2`, got a value of struct `Other`");
  EXPECT_EQ(ErrorOf([&] {
              Launch(K("pstruct"), {1}, {out, KernelArg::Struct("Vec2", std::vector<uint8_t>(4))}, kCpu);
            }),
            "kernel `pstruct`, parameter `v`: a `Vec2` value has 8 bytes, got 4");
  EXPECT_EQ(ErrorOf([&] { Launch(K("pstruct"), {1}, {out, KernelArg::Float(1)}, kCpu); }),
            "kernel `pstruct`, parameter `v`: expected `Vec2`, got a Python float (1)");
}

TEST_F(LaunchTest, ErrorDimEmpty) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {}, {x_, y_, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`: `dim` must have 1 to 4 entries, got 0");
}

TEST_F(LaunchTest, ErrorDimTooLong) {
  EXPECT_EQ(ErrorOf([&] {
              Launch(K("saxpy"), {1, 1, 1, 1, 1}, {x_, y_, KernelArg::Float(1)}, kCpu);
            }),
            "kernel `saxpy`: `dim` must have 1 to 4 entries, got 5");
}

// wp.tid() is signed 32-bit: a larger extent would wrap to negative indices, so it is refused.
TEST_F(LaunchTest, ErrorDimBeyondTheTidRange) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {(int64_t(1) << 31) + 2}, {x_, y_, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`: `dim` entry 2147483650 at position 0 is more than 2147483647, the largest index "
            "`wp.tid()` returns");
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {1, 1000000000000}, {x_, y_, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`: `dim` entry 1000000000000 at position 1 is more than 2147483647, the largest index "
            "`wp.tid()` returns");
}

TEST_F(LaunchTest, ErrorDimNegative) {
  EXPECT_EQ(ErrorOf([&] { Launch(K("saxpy"), {4, -1}, {x_, y_, KernelArg::Float(1)}, kCpu); }),
            "kernel `saxpy`: `dim` entries must be >= 0, got -1 at position 1");
}

TEST_F(LaunchTest, ErrorBlockDimOutOfRange) {
  Array out = Array::Zeros({6}, ScalarType::Int32, kCpu);
  EXPECT_EQ(ErrorOf([&] { LaunchTiled(K("tiled"), {6}, {out}, 0, kCpu); }),
            "kernel `tiled`: `block_dim` must be 1 to 1024, got 0");
  EXPECT_EQ(ErrorOf([&] { LaunchTiled(K("tiled"), {6}, {out}, 1025, kCpu); }),
            "kernel `tiled`: `block_dim` must be 1 to 1024, got 1025");
}

TEST_F(LaunchTest, ErrorTiledKernelWithPlainLaunch) {
  Array out = Array::Zeros({6}, ScalarType::Int32, kCpu);
  EXPECT_EQ(ErrorOf([&] { Launch(K("tiled"), {6}, {out}, kCpu); }),
            "kernel `tiled` uses tile operations; launch it tiled (LaunchTiled) or in blocks of threads (LaunchHybrid)");
}

TEST_F(LaunchTest, ErrorDeviceMismatch) {
  // Without a GPU the launch device itself is rejected; with one the array's device is.
  if (IsCudaAvailable()) {
    EXPECT_EQ(ErrorOf([&] {
                Launch(K("saxpy"), {4}, {x_, y_, KernelArg::Float(1)}, Device::Cuda(0));
              }),
              "kernel `saxpy` has no GPU code in this module; it cannot run on `cuda:0`");
  } else {
    std::string msg = ErrorOf([&] {
      Launch(K("saxpy"), {4}, {x_, y_, KernelArg::Float(1)}, Device::Cuda(0));
    });
    EXPECT_EQ(msg.rfind("device `cuda:0` is not available: no CUDA driver found (", 0), 0u) << msg;
  }
}

TEST_F(LaunchTest, ErrorUnknownKernel) {
  std::string msg = ErrorOf([&] { module_.GetKernel("nope"); });
  EXPECT_EQ(msg.rfind("module has no kernel `nope` (it has `saxpy`, `rec_i8`", 0), 0u) << msg;
}

TEST_F(LaunchTest, ErrorMissingSymbol) {
  ModuleSignature sig;
  sig.kernels.push_back(KernelSig("ghost", {ArrayParam("x", ScalarType::Float32)}));
  Module m = MakeModule(sig, {});
  EXPECT_EQ(ErrorOf([&] { Launch(m.GetKernel("ghost"), {4}, {x_}, kCpu); }),
            "kernel `ghost`: module lacks the symbol `ghost_fwd`");
}

TEST_F(LaunchTest, ValidateWithoutRunning) {
  EXPECT_EQ(ValidateLaunch(K("saxpy"), {4}, {x_, y_, KernelArg::Float(2)}, 0, kCpu), kCpu);
  EXPECT_EQ(y_.ToVector<float>(), (std::vector<float>{10, 20, 30, 40}));
}

}  // namespace
}  // namespace tilec::rt
