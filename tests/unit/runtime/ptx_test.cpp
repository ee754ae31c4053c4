// The hand-written PTX stand-ins of gpu_test.cpp must assemble with ptxas, so that the GPU
// tests fail only for runtime reasons on a machine with a GPU.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "gpu_kernels.h"

namespace tilec::rt {
namespace {

TEST(PtxTest, StandInsAssemble) {
  std::string ptxas = TILEC_PTXAS;
  if (ptxas.empty() || ptxas.find("NOTFOUND") != std::string::npos)
    GTEST_SKIP() << "ptxas not found";
  int i = 0;
  for (const char* ptx : {test::kAddOnePtx, test::kBlockSumPtx}) {
    std::string path = testing::TempDir() + "/tilec_standin" + std::to_string(i++) + ".ptx";
    std::ofstream(path) << ptx;
    for (const char* arch : {"sm_75", "sm_90"}) {
      std::string cmd = ptxas + " -arch=" + arch + " " + path + " -o " + path + ".cubin 2>&1";
      EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
    }
  }
}

}  // namespace
}  // namespace tilec::rt
