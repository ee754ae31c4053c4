// Arrays: construction, views and slices (checked against NumPy as the oracle), strided
// copies, gradients shared between views, fills and the ABI view of an array.
#include <gtest/gtest.h>

#include <cstdio>
#include <sstream>

#include "support/half.h"
#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

using S = SliceSpec;
const Device kCpu = Device::Cpu();

Array Arange24() {
  std::vector<int32_t> v(24);
  for (int i = 0; i < 24; ++i) v[i] = i;
  return Array::FromVector(v, {2, 3, 4}, kCpu);
}

struct SliceCase {
  std::string numpy;                  // applied to a = np.arange(24, dtype=np.int32).reshape(2,3,4)
  std::vector<std::vector<S>> specs;  // applied one after the other
};

std::vector<SliceCase> Cases() {
  auto R = [](std::optional<int64_t> a, std::optional<int64_t> b, int64_t s = 1) {
    return S::Range(a, b, s);
  };
  return {
      {"a[1]", {{S::Index(1)}}},
      {"a[:, ::-1]", {{S::All(), R({}, {}, -1)}}},
      {"a[::-1, 1:3, ::2]", {{R({}, {}, -1), R(1, 3), R({}, {}, 2)}}},
      {"a[-1, -2:, 3:0:-2]", {{S::Index(-1), R(-2, {}), R(3, 0, -2)}}},
      {"a[:, :, 1]", {{S::All(), S::All(), S::Index(1)}}},
      {"a[1, 2, 3]", {{S::Index(1), S::Index(2), S::Index(3)}}},
      {"a[:, 5:1]", {{S::All(), R(5, 1)}}},
      {"a[:, -100:100:3]", {{S::All(), R(-100, 100, 3)}}},
      {"a[:, 100:-100:-1]", {{S::All(), R(100, -100, -1)}}},
      {"a[::-1][1:, ::2]", {{R({}, {}, -1)}, {R(1, {}), R({}, {}, 2)}}},
      {"a[:, 1][::-1, ::-3]", {{S::All(), S::Index(1)}, {R({}, {}, -1), R({}, {}, -3)}}},
      {"a[:1, :, 1:2]", {{R({}, 1), S::All(), R(1, 2)}}},
      {"a[:, :1]", {{S::All(), R({}, 1)}}},
  };
}

// Runs NumPy once for every case: "shape;strides;c_contiguous;values" per line.
std::vector<std::string> NumpyOracle(const std::vector<SliceCase>& cases) {
  std::ostringstream script;
  script << "import numpy as np\n"
            "a = np.arange(24, dtype=np.int32).reshape(2,3,4)\n"
            "def show(v):\n"
            "    v = np.asarray(v)\n"
            "    print(','.join(map(str, v.shape)) + ';' + ','.join(map(str, v.strides)) + ';' +\n"
            "          str(int(v.flags['C_CONTIGUOUS'])) + ';' + ','.join(map(str, v.ravel().tolist())))\n";
  for (const auto& c : cases) script << "show(" << c.numpy << ")\n";
  std::string path = testing::TempDir() + "/tilec_slice_oracle.py";
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs(script.str().c_str(), f);
  std::fclose(f);
  FILE* p = popen((std::string(TILEC_PYTHON) + " " + path + " 2>/dev/null").c_str(), "r");
  std::vector<std::string> lines;
  if (!p) return lines;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, p)) {
    std::string s(buf);
    if (!s.empty() && s.back() == '\n') s.pop_back();
    lines.push_back(s);
  }
  pclose(p);
  return lines;
}

std::string Join(const std::vector<int64_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

TEST(ArrayTest, SlicesMatchNumpy) {
  auto cases = Cases();
  auto expected = NumpyOracle(cases);
  if (expected.size() != cases.size()) GTEST_SKIP() << "python3 with numpy is not available";
  Array a = Arange24();
  for (size_t i = 0; i < cases.size(); ++i) {
    Array v = a;
    for (const auto& specs : cases[i].specs) v = v.Slice(specs);
    std::vector<int32_t> values = v.ToVector<int32_t>();
    std::vector<int64_t> as64(values.begin(), values.end());
    std::string got = Join(v.shape()) + ";" + Join(v.strides()) + ";" +
                      std::to_string(int(v.is_contiguous())) + ";" + Join(as64);
    EXPECT_EQ(got, expected[i]) << cases[i].numpy;
    EXPECT_TRUE(v.same_storage(a));
  }
}

TEST(ArrayTest, ContiguousLayoutAndAbi) {
  Array a = Array::Zeros({2, 3}, ScalarType::Float64, kCpu);
  EXPECT_EQ(a.strides(), (std::vector<int64_t>{24, 8}));
  EXPECT_EQ(a.size(), 6);
  EXPECT_TRUE(a.is_contiguous());
  for (double x : a.ToVector<double>()) EXPECT_EQ(x, 0.0);
  tilec_array abi = a.ToAbi();
  EXPECT_EQ(abi.data, a.data());
  EXPECT_EQ(abi.grad, nullptr);
  EXPECT_EQ(abi.shape[0], 2);
  EXPECT_EQ(abi.shape[1], 3);
  EXPECT_EQ(abi.shape[2], 1);
  EXPECT_EQ(abi.shape[3], 1);
  EXPECT_EQ(abi.strides[1], 8);
}

// Small CPU arrays are 64-byte aligned; large ones start on a 2 MiB (huge page) boundary, and
// both are zeroed exactly over their extent.
TEST(ArrayTest, CpuAlignmentBySize) {
  Array small = Array::Zeros({3, 5}, ScalarType::Float32, kCpu);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(small.data()) % 64, 0u);
  const int64_t n = (int64_t(8) << 20) / 4 + 3;  // just over 8 MiB
  Array big = Array::Zeros({n}, ScalarType::Float32, kCpu);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(big.data()) % (uintptr_t(2) << 20), 0u);
  const float* p = static_cast<const float*>(big.data());
  EXPECT_EQ(p[0], 0.0f);
  EXPECT_EQ(p[n - 1], 0.0f);
}

TEST(ArrayTest, StridedCopyIntoViewTouchesOnlyTheView) {
  Array a = Array::FromVector(std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7}, {8}, kCpu);
  Array v = a.Slice({S::Range(7, std::nullopt, -3)});  // elements 7, 4, 1
  ASSERT_EQ(v.shape(), (std::vector<int64_t>{3}));
  v.CopyFromHost(std::vector<float>{70, 40, 10}.data());
  EXPECT_EQ(a.ToVector<float>(), (std::vector<float>{0, 10, 2, 3, 40, 5, 6, 70}));
  Array c = v.Clone();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_FALSE(c.same_storage(a));
  EXPECT_EQ(c.ToVector<float>(), (std::vector<float>{70, 40, 10}));
}

TEST(ArrayTest, CopyFromBetweenViews) {
  Array a = Array::FromVector(std::vector<int64_t>{1, 2, 3, 4, 5, 6}, {2, 3}, kCpu);
  Array b = Array::Zeros({3, 2}, ScalarType::Int64, kCpu);
  // b[::-1, :] = a.T is not expressible without transpose; copy rows reversed instead.
  Array dst = Array::Zeros({2, 3}, ScalarType::Int64, kCpu);
  dst.Slice({S::Range(std::nullopt, std::nullopt, -1)}).CopyFrom(a);
  EXPECT_EQ(dst.ToVector<int64_t>(), (std::vector<int64_t>{4, 5, 6, 1, 2, 3}));
  EXPECT_THROW(b.CopyFrom(a), Error);
}

TEST(ArrayTest, GradIsSharedByViews) {
  Array a = Array::Zeros({4}, ScalarType::Float32, kCpu);
  Array view = a.Slice({S::Range(1, 3)});
  EXPECT_FALSE(view.requires_grad());
  EXPECT_TRUE(view.grad().is_null());
  a.set_requires_grad(true);  // after the view was made
  ASSERT_TRUE(view.requires_grad());
  view.grad().CopyFromHost(std::vector<float>{5, 6}.data());
  EXPECT_EQ(a.grad().ToVector<float>(), (std::vector<float>{0, 5, 6, 0}));
  EXPECT_EQ(view.ToAbi().grad, view.grad().data());
  EXPECT_NE(view.ToAbi().grad, nullptr);
  EXPECT_FALSE(a.grad().requires_grad());
  a.grad().Zero();
  EXPECT_EQ(view.grad().ToVector<float>(), (std::vector<float>{0, 0}));
}

// reshape and transpose as NumPy's (np.arange(24).reshape(2, 3, 4) -> (6, -1) -> .T).
TEST(ArrayTest, ReshapeAndPermuteAreViews) {
  Array a = Arange24();
  a.set_requires_grad(true);
  Array r = a.Reshape({6, -1});
  EXPECT_EQ(r.shape(), (std::vector<int64_t>{6, 4}));
  EXPECT_EQ(r.strides(), (std::vector<int64_t>{16, 4}));
  Array t = r.Permute({});
  EXPECT_EQ(t.shape(), (std::vector<int64_t>{4, 6}));
  EXPECT_EQ(t.strides(), (std::vector<int64_t>{4, 16}));
  EXPECT_FALSE(t.is_contiguous());
  // np.arange(24).reshape(6, 4).T[1] == [1, 5, 9, 13, 17, 21]
  EXPECT_EQ(t[1].ToVector<int32_t>(), (std::vector<int32_t>{1, 5, 9, 13, 17, 21}));
  Array p = a.Permute({2, 0, 1});  // np.transpose(x, (2, 0, 1))[3, 1] == [15, 19, 23]
  EXPECT_EQ(p.Slice({S::Index(3), S::Index(1)}).ToVector<int32_t>(), (std::vector<int32_t>{15, 19, 23}));
  // The gradient follows the view.
  t.grad()[1].CopyFromHost(std::vector<int32_t>{1, 2, 3, 4, 5, 6}.data());
  std::vector<int32_t> g = a.grad().ToVector<int32_t>();
  EXPECT_EQ(g[1], 1);
  EXPECT_EQ(g[21], 6);
  EXPECT_EQ(g[0] + g[2] + g[23], 0);
  EXPECT_THROW(t.Reshape({24}), Error);       // not contiguous
  EXPECT_THROW(a.Reshape({5, -1}), Error);    // 24 is not a multiple of 5
  EXPECT_THROW(a.Reshape({-1, -1}), Error);
  EXPECT_THROW(a.Permute({0, 0, 1}), Error);  // not a permutation
  EXPECT_THROW(a.Permute({1, 0}), Error);     // one axis per dimension
}

TEST(ArrayTest, FillConvertsToEveryDtype) {
  Array h = Array::Empty({3}, ScalarType::Float16, kCpu);
  h.Fill(1.5);
  auto hb = h.ToHostBytes();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(hb[2 * i] | (hb[2 * i + 1] << 8), 0x3E00);  // 1.5 in binary16
  Array b = Array::Empty({2}, ScalarType::BFloat16, kCpu);
  b.Fill(-2.0);
  auto bb = b.ToHostBytes();
  EXPECT_EQ(bb[0] | (bb[1] << 8), 0xC000);  // -2 in bfloat16
  Array u = Array::Empty({2}, ScalarType::UInt8, kCpu);
  u.Fill(7);
  EXPECT_EQ(u.ToVector<uint8_t>(), (std::vector<uint8_t>{7, 7}));
  Array f = Array::Zeros({2, 2}, ScalarType::Float32, kCpu);
  f.Slice({S::All(), S::Index(1)}).Fill(3);
  EXPECT_EQ(f.ToVector<float>(), (std::vector<float>{0, 3, 0, 3}));
}

TEST(ArrayTest, StructArrays) {
  StructLayout p{"Particle", {{"x", {ScalarType::Float32}, 0}, {"id", {ScalarType::Int32}, 4}}, 8, 4};
  struct P { float x; int32_t id; };
  std::vector<P> host = {{1.5f, 7}, {-2.0f, 9}};
  Array a = Array::FromHost(host.data(), {2}, ArrayDType::Struct(p), kCpu);
  EXPECT_EQ(a.elem_size(), 8u);
  EXPECT_EQ(a.dtype().Name(), "Particle");
  Array second = a[1];
  std::vector<uint8_t> bytes = second.ToHostBytes();
  P back;
  std::memcpy(&back, bytes.data(), sizeof back);
  EXPECT_EQ(back.x, -2.0f);
  EXPECT_EQ(back.id, 9);
  EXPECT_THROW(a.Fill(1.0), Error);
}

TEST(ArrayTest, BadShapesAndIndicesAreErrors) {
  EXPECT_THROW(Array::Empty({-1}, ScalarType::Float32, kCpu), Error);
  EXPECT_THROW(Array::Empty({1, 1, 1, 1, 1}, ScalarType::Float32, kCpu), Error);
  Array a = Arange24();
  try {
    a.Slice({S::Index(2)});
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "index 2 is out of bounds for axis 0 with size 2");
  }
  EXPECT_THROW(a.Slice({S::All(), S::Range(0, 2, 0)}), Error);
  EXPECT_THROW(a.Slice({S::All(), S::All(), S::All(), S::All()}), Error);
  EXPECT_THROW(a.ToVector<float>(), Error);
  EXPECT_THROW(Array().dtype(), Error);
  EXPECT_TRUE(Array().is_null());
}

TEST(ArrayTest, WrapUsesCallerMemory) {
  std::vector<double> mem = {1, 2, 3, 4, 5, 6};
  Array w = Array::Wrap(mem.data(), {3}, {16}, ScalarType::Float64, kCpu);  // every other
  EXPECT_EQ(w.ToVector<double>(), (std::vector<double>{1, 3, 5}));
  w.Fill(0);
  EXPECT_EQ(mem, (std::vector<double>{0, 2, 0, 4, 0, 6}));
  EXPECT_FALSE(w.is_contiguous());
}

// A byte size that overflows, or exceeds the host's memory, is refused before anything is
// allocated: a wrapped size would allocate a few bytes that kernels then index past.
TEST(ArrayTest, OversizedShapesAreOutOfMemoryErrors) {
  auto message = [](std::vector<int64_t> shape, bool grad) {
    try {
      Array::Zeros(shape, ArrayDType(ScalarType::Float32), kCpu, grad);
    } catch (const OutOfMemory& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({int64_t(1) << 31, int64_t(1) << 31}, false),
            "an array of shape (2147483648, 2147483648) needs more than 2^63 bytes");
  EXPECT_EQ(message({int64_t(1) << 62}, false), "an array of shape (4611686018427387904,) needs more than 2^63 bytes");
  EXPECT_EQ(message({int64_t(1) << 40, int64_t(1) << 40}, false),
            "an array of shape (1099511627776, 1099511627776) has more than 2^63 elements");
  std::string big = message({int64_t(1) << 20, int64_t(1) << 20, 1024}, true);
  EXPECT_EQ(big.rfind("an array of shape (1048576, 1048576, 1024) needs 9007199254740992 bytes with its gradient, "
                      "more than the ",
                      0),
            0u)
      << big;
  EXPECT_NE(big.find(" bytes of memory of `cpu`"), std::string::npos) << big;
  EXPECT_EQ(Array::Zeros({3, 5}, ArrayDType(ScalarType::Float32), kCpu).size(), 15);
}

}  // namespace
}  // namespace tilec::rt
