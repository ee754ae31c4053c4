// The text form of ModuleSignature: every field survives a round trip (PTX text included),
// and malformed or foreign-version text gives an error naming the line.
#include <gtest/gtest.h>

#include "stand_in.h"

namespace tilec::rt {
namespace {

using namespace test;

ModuleSignature Sample() {
  ModuleSignature sig;
  StructField fx{"x", {ScalarType::Float16}, 0};
  StructField fid{"id", {ScalarType::UInt64}, 8};
  sig.structs.push_back({"Particle", {fx, fid}, 16, 8});
  StructField inner{"p", {ScalarType::Float32, 0}, 0};
  sig.structs.push_back({"Wrapper", {inner}, 16, 8});
  KernelSignature k = KernelSig("gather", {ArrayParam("x", ScalarType::BFloat16, 2),
                                           ScalarParam("n", ScalarType::Int8)},
                                true, true);
  ParamInfo sp;
  sp.name = "w";
  sp.kind = ParamKind::Struct;
  sp.type.struct_index = 1;
  k.params.push_back(sp);
  ParamInfo sa = ArrayParam("ps", ScalarType::Float32, 4);
  sa.type.struct_index = 0;
  k.params.push_back(sa);
  // PTX with lines that look like records, no trailing newline, and blank lines.
  k.ptx = ".version 7.8\n.target sm_90\nend\nkernel fake\n\n.entry gather_fwd() { ret; }";
  k.block_dim = 128;
  k.shared_bytes = 65536;
  k.adjoint_shared_bytes = 70000;
  sig.kernels.push_back(k);
  sig.kernels.push_back(KernelSig("plain", {}));
  for (int t = 0; t < kNumScalarTypes; ++t)
    sig.kernels[1].params.push_back(ScalarParam("p" + std::to_string(t), ScalarType(t)));
  return sig;
}

void ExpectEqual(const ModuleSignature& a, const ModuleSignature& b) {
  ASSERT_EQ(a.structs.size(), b.structs.size());
  for (size_t i = 0; i < a.structs.size(); ++i) {
    EXPECT_EQ(a.structs[i].name, b.structs[i].name);
    EXPECT_EQ(a.structs[i].size, b.structs[i].size);
    EXPECT_EQ(a.structs[i].align, b.structs[i].align);
    ASSERT_EQ(a.structs[i].fields.size(), b.structs[i].fields.size());
    for (size_t j = 0; j < a.structs[i].fields.size(); ++j) {
      EXPECT_EQ(a.structs[i].fields[j].name, b.structs[i].fields[j].name);
      EXPECT_EQ(a.structs[i].fields[j].type, b.structs[i].fields[j].type);
      EXPECT_EQ(a.structs[i].fields[j].offset, b.structs[i].fields[j].offset);
    }
  }
  ASSERT_EQ(a.kernels.size(), b.kernels.size());
  for (size_t i = 0; i < a.kernels.size(); ++i) {
    const KernelSignature &x = a.kernels[i], &y = b.kernels[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.tiled, y.tiled);
    EXPECT_EQ(x.has_adjoint, y.has_adjoint);
    EXPECT_EQ(x.entry_symbol, y.entry_symbol);
    EXPECT_EQ(x.adjoint_symbol, y.adjoint_symbol);
    EXPECT_EQ(x.ptx, y.ptx);
    EXPECT_EQ(x.block_dim, y.block_dim);
    EXPECT_EQ(x.shared_bytes, y.shared_bytes);
    EXPECT_EQ(x.adjoint_shared_bytes, y.adjoint_shared_bytes);
    ASSERT_EQ(x.params.size(), y.params.size());
    for (size_t j = 0; j < x.params.size(); ++j) {
      EXPECT_EQ(x.params[j].name, y.params[j].name);
      EXPECT_EQ(x.params[j].kind, y.params[j].kind);
      EXPECT_EQ(x.params[j].type, y.params[j].type);
      EXPECT_EQ(x.params[j].ndim, y.params[j].ndim);
    }
  }
}

std::string ErrorOf(std::string_view text) {
  try {
    ParseSignature(text);
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(SignatureTest, RoundTrip) {
  ModuleSignature sig = Sample();
  std::string text = SerializeSignature(sig);
  ModuleSignature back = ParseSignature(text);
  ExpectEqual(sig, back);
  EXPECT_EQ(SerializeSignature(back), text);
}

TEST(SignatureTest, EmptyModule) {
  ModuleSignature back = ParseSignature(SerializeSignature(ModuleSignature{}));
  EXPECT_TRUE(back.kernels.empty());
  EXPECT_TRUE(back.structs.empty());
}

TEST(SignatureTest, StartsWithVersion) {
  std::string text = SerializeSignature(Sample());
  EXPECT_EQ(text.rfind("tilec-module-signature " + std::to_string(TILEC_ABI_VERSION) + "\n", 0), 0u);
}

TEST(SignatureTest, OtherVersionIsRejected) {
  EXPECT_EQ(ErrorOf("tilec-module-signature 999\n"),
            "module signature line 1: signature has ABI version 999, this runtime expects " +
                std::to_string(TILEC_ABI_VERSION) + "; recompile the kernels");
}

TEST(SignatureTest, MalformedTextNamesTheLine) {
  std::string v = "tilec-module-signature " + std::to_string(TILEC_ABI_VERSION) + "\n";
  EXPECT_EQ(ErrorOf("hello"), "module signature line 1: expected `tilec-module-signature <version>`");
  EXPECT_EQ(ErrorOf(v + "kernel k\n  param array x float99 1\nend\n"),
            "module signature line 3: unknown type `float99`");
  EXPECT_EQ(ErrorOf(v + "kernel k\n  tiled 2\nend\n"),
            "module signature line 3: expected an integer in [0, 1], got `2`");
  EXPECT_EQ(ErrorOf(v + "kernel k\n  param array x float32 0\nend\n"),
            "module signature line 3: array parameter `x` needs ndim 1 to 4");
  EXPECT_EQ(ErrorOf(v + "kernel k\n"), "module signature line 2: kernel `k` lacks `end`");
  EXPECT_EQ(ErrorOf(v + "kernel k\n  ptx 500\nabc\nend\n"),
            "module signature line 3: block of 500 bytes runs past the end");
  EXPECT_EQ(ErrorOf(v + "kernel k\n  param scalar s %3 0\nend\n"),
            "module signature: parameter `k.s` refers to struct %3 but only 0 are defined");
  EXPECT_EQ(ErrorOf(v + "widget\n"), "module signature line 2: expected `struct`, `gpu_image` or `kernel`, got `widget`");
}

TEST(SignatureTest, NamesWithSpacesCannotBeSerialized) {
  ModuleSignature sig;
  sig.kernels.push_back(KernelSig("bad name", {}));
  EXPECT_THROW(SerializeSignature(sig), Error);
}

}  // namespace
}  // namespace tilec::rt
