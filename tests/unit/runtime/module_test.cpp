// Modules from an AOT shared object: signature read from the .so, entries found by dlsym,
// clear errors for a missing file, a foreign .so and a missing entry symbol.
#include <gtest/gtest.h>

#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

TEST(ModuleTest, LoadsSharedObjectAndLaunches) {
  Module m = Module::Load(TILEC_TEST_KERNELS_SO);
  EXPECT_EQ(m.KernelNames(), (std::vector<std::string>{"add_one", "missing"}));
  Kernel k = m.GetKernel("add_one");
  ASSERT_EQ(k.signature().params.size(), 2u);
  Array x = Array::FromVector(std::vector<float>{1, 2, 3}, {3}, Device::Cpu());
  Launch(k, {3}, {x, KernelArg::Int(10)}, Device::Cpu());
  EXPECT_EQ(x.ToVector<float>(), (std::vector<float>{11, 12, 13}));
}

TEST(ModuleTest, KernelKeepsModuleAlive) {
  Kernel k = Module::Load(TILEC_TEST_KERNELS_SO).GetKernel("add_one");
  Array x = Array::FromVector(std::vector<float>{0}, {1}, Device::Cpu());
  Launch(k, {1}, {x, KernelArg::Int(2)}, Device::Cpu());
  EXPECT_EQ(x.ToVector<float>()[0], 2.0f);
}

TEST(ModuleTest, MissingEntrySymbol) {
  Module m = Module::Load(TILEC_TEST_KERNELS_SO);
  try {
    Launch(m.GetKernel("missing"), {1}, {}, Device::Cpu());
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "kernel `missing`: `" + std::string(TILEC_TEST_KERNELS_SO) +
                                         "` lacks the symbol `tk_not_there`");
  }
}

TEST(ModuleTest, MissingFile) {
  try {
    Module::Load("/nonexistent/kernels.so");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot load kernel module `/nonexistent/kernels.so`: ", 0), 0u)
        << e.what();
  }
}

TEST(ModuleTest, ForeignSharedObject) {
  try {
    Module::Load("libm.so.6");  // no slash: tried as ./libm.so.6, which does not exist
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot load kernel module"), std::string::npos);
  }
  try {
    Module::Load(TILEC_RT_SO);  // a real shared object, but no kernel module
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "`" + std::string(TILEC_RT_SO) +
                                         "` is not a tilec kernel module: it lacks the symbol "
                                         "`tilec_module_signature`");
  }
}

TEST(ModuleTest, DuplicateKernelNamesAreRejected) {
  ModuleSignature sig;
  KernelSignature k;
  k.name = "twice";
  sig.kernels = {k, k};
  EXPECT_THROW(Module::FromResolver(sig, nullptr), Error);
}

}  // namespace
}  // namespace tilec::rt
