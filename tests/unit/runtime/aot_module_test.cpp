// AOT GPU modules without a GPU: aot_kernels.tile compiled at build time by tilec to a GPU
// module (.tlm) and a shared object with the same GPU variants, loaded and inspected through the
// runtime; every PTX checked with ptxas, every cubin against ptxas's own; the variant choice,
// the error messages, and the CLI's usage errors for `--arch` and `--block-dim` lists.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "runtime/src/internal.h"
#include "tilec/runtime.h"

namespace tilec::rt {
namespace {

namespace fs = std::filesystem;

const std::string kTlm = std::string(TILEC_AOT_DIR) + "/aot_kernels.tlm";
const std::string kSo = std::string(TILEC_AOT_DIR) + "/aot_kernels.so";
const std::set<std::string> kArchs = {"sm_75", "sm_80", "sm_90"};  // as tests/unit/runtime/CMakeLists.txt builds them
const std::set<int> kBlockDims = {64, 128};

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs a shell command; returns its exit status and (in `output`) stdout and stderr together.
int Shell(const std::string& cmd, std::string* output = nullptr) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return -1;
  char buf[4096];
  while (size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  int status = pclose(p);
  if (output) *output = out;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::string Ptxas() {
  std::string p = TILEC_PTXAS;
  return p.empty() || p.find("NOTFOUND") != std::string::npos || !fs::exists(p) ? "" : p;
}

// Whether the compiler could have built cubins: the same places it looks for libnvJitLink.
bool HaveNvJitLink() {
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME"); home && *home) dirs.push_back(std::string(home) + "/lib64/");
  dirs.push_back("/usr/local/cuda/lib64/");
  dirs.push_back("");
  for (const std::string& d : dirs)
    for (const char* name : {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"})
      if (void* h = dlopen((d + name).c_str(), RTLD_NOW | RTLD_LOCAL)) {
        dlclose(h);
        return true;
      }
  return false;
}

std::string ErrorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

std::string TempPath(const std::string& name) {
  return (fs::path(testing::TempDir()) / ("tilec_aot_" + std::to_string(getpid()) + "_" + name)).string();
}

TEST(AotModuleTest, GpuModuleHasTheKernelsAndTheirParameters) {
  ASSERT_EQ(ReadAll(kTlm).rfind(TILEC_GPU_MODULE_MAGIC, 0), 0u) << "a GPU module starts with the signature text";
  Module m = Module::Load(kTlm);
  EXPECT_FALSE(m.has_host_code());
  EXPECT_EQ(m.KernelNames(), (std::vector<std::string>{"scale_square", "tile_square"}));
  const KernelSignature& plain = m.GetKernel("scale_square").signature();
  ASSERT_EQ(plain.params.size(), 3u);
  EXPECT_EQ(ParamTypeName(plain.params[0], m.signature().structs), "array(dtype=float32, ndim=1)");
  EXPECT_EQ(plain.params[1].name, "y");
  EXPECT_EQ(plain.params[2].kind, ParamKind::Scalar);
  EXPECT_EQ(plain.params[2].type.scalar, ScalarType::Float32);
  EXPECT_FALSE(plain.tiled);
  EXPECT_TRUE(plain.has_adjoint);
  const KernelSignature& tiled = m.GetKernel("tile_square").signature();
  EXPECT_TRUE(tiled.tiled);
  EXPECT_TRUE(tiled.has_adjoint);
  EXPECT_EQ(tiled.params.size(), 2u);
  // GPU code lives in the variants only.
  EXPECT_TRUE(plain.ptx.empty());
  EXPECT_TRUE(tiled.ptx.empty());
}

TEST(AotModuleTest, GpuModuleHasAVariantPerArchAndBlockDim) {
  Module m = Module::Load(kTlm);
  const auto& images = m.signature().gpu_images;
  std::set<std::pair<std::string, int>> pairs;
  for (const GpuImage& g : images) pairs.insert({g.arch, g.block_dim});
  std::set<std::pair<std::string, int>> expected;
  for (const std::string& a : kArchs)
    for (int b : kBlockDims) expected.insert({a, b});
  EXPECT_EQ(pairs, expected);
  EXPECT_EQ(images.size(), expected.size());

  // The plain kernel: one variant per arch, for any block_dim. The tiled one: arch x block_dim.
  std::set<std::string> plain_archs;
  for (const GpuVariant& v : m.GetKernel("scale_square").signature().gpu_variants) {
    EXPECT_EQ(v.block_dim, 0);
    plain_archs.insert(images.at(v.image).arch);
  }
  EXPECT_EQ(plain_archs, kArchs);
  EXPECT_EQ(m.GetKernel("scale_square").signature().gpu_variants.size(), kArchs.size());
  std::set<std::pair<std::string, int>> tiled_pairs;
  for (const GpuVariant& v : m.GetKernel("tile_square").signature().gpu_variants) {
    EXPECT_EQ(v.block_dim, images.at(v.image).block_dim);
    tiled_pairs.insert({images.at(v.image).arch, v.block_dim});
  }
  EXPECT_EQ(tiled_pairs, expected);
}

TEST(AotModuleTest, EveryPtxAssemblesForItsArch) {
  std::string ptxas = Ptxas();
  if (ptxas.empty()) GTEST_SKIP() << "ptxas not found";
  Module m = Module::Load(kTlm);
  int i = 0;
  for (const GpuImage& g : m.signature().gpu_images) {
    // The PTX targets its arch and holds every forward and adjoint entry.
    EXPECT_NE(g.ptx.find(".target " + g.arch), std::string::npos) << g.arch;
    for (const KernelSignature& k : m.signature().kernels) {
      EXPECT_NE(g.ptx.find(".entry " + k.entry_symbol), std::string::npos) << k.entry_symbol << " in " << g.arch;
      EXPECT_NE(g.ptx.find(".entry " + k.adjoint_symbol), std::string::npos) << k.adjoint_symbol << " in " << g.arch;
    }
    std::string path = TempPath("img" + std::to_string(i++) + ".ptx");
    std::ofstream(path) << g.ptx;
    std::string out;
    EXPECT_EQ(Shell(ptxas + " -arch=" + g.arch + " " + path + " -o " + path + ".cubin", &out), 0)
        << g.arch << " block_dim " << g.block_dim << ":\n" << out;
  }
}

// ELF header fields: e_machine (EM_CUDA is 190) and e_flags, which encode the SM.
struct ElfHead {
  uint16_t machine = 0;
  uint32_t flags = 0;
};
ElfHead ReadElfHead(const std::string& bytes) {
  ElfHead h;
  if (bytes.size() < 64) return h;
  std::memcpy(&h.machine, bytes.data() + 18, 2);
  std::memcpy(&h.flags, bytes.data() + 48, 4);
  return h;
}

TEST(AotModuleTest, CubinsAreElfForTheirArch) {
  Module m = Module::Load(kTlm);
  if (!HaveNvJitLink()) {
    for (const GpuImage& g : m.signature().gpu_images) EXPECT_TRUE(g.cubin.empty()) << g.arch;
    GTEST_SKIP() << "libnvJitLink not found: the module carries PTX only";
  }
  std::string ptxas = Ptxas();
  int i = 0;
  for (const GpuImage& g : m.signature().gpu_images) {
    ASSERT_GE(g.cubin.size(), 64u) << g.arch;
    EXPECT_EQ(g.cubin.compare(0, 4, "\x7f" "ELF"), 0) << g.arch;
    ElfHead ours = ReadElfHead(g.cubin);
    EXPECT_EQ(ours.machine, 190) << "EM_CUDA, " << g.arch;
    for (const KernelSignature& k : m.signature().kernels)
      EXPECT_NE(g.cubin.find(k.entry_symbol), std::string::npos) << k.entry_symbol << " in the " << g.arch << " cubin";
    if (ptxas.empty()) continue;
    // ptxas assembling the same PTX for the same arch writes the same machine and SM flags.
    std::string path = TempPath("cubin" + std::to_string(i++) + ".ptx");
    std::ofstream(path) << g.ptx;
    ASSERT_EQ(Shell(ptxas + " -arch=" + g.arch + " " + path + " -o " + path + ".cubin"), 0);
    ElfHead theirs = ReadElfHead(ReadAll(path + ".cubin"));
    EXPECT_EQ(ours.machine, theirs.machine) << g.arch;
    EXPECT_EQ(ours.flags, theirs.flags) << g.arch;
  }
}

TEST(AotModuleTest, SharedObjectRunsOnCpuAndListsItsGpuVariants) {
  Module m = Module::Load(kSo);
  EXPECT_TRUE(m.has_host_code());
  std::set<std::string> archs;
  for (const GpuImage& g : m.signature().gpu_images) archs.insert(g.arch);
  EXPECT_EQ(archs, kArchs);
  EXPECT_EQ(m.GetKernel("scale_square").signature().gpu_variants.size(), kArchs.size());
  EXPECT_EQ(m.GetKernel("tile_square").signature().gpu_variants.size(), kArchs.size() * kBlockDims.size());

  const int64_t n = 256;
  std::vector<float> xs(n);
  for (int64_t i = 0; i < n; ++i) xs[i] = 0.25f * float(i) - 7.0f;
  Array x = Array::FromVector(xs, {n}, Device::Cpu());
  Array y = Array::Zeros({n}, ScalarType::Float32, Device::Cpu());
  Launch(m.GetKernel("scale_square"), {n}, {x, y, KernelArg::Float(3.0)}, Device::Cpu());
  std::vector<float> got = y.ToVector<float>();
  for (int64_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(got[i], 3.0f * xs[i] * xs[i]) << i;

  // Host code serves any block_dim; the GPU variants exist for 64 and 128.
  Array z = Array::Zeros({n}, ScalarType::Float32, Device::Cpu());
  LaunchTiled(m.GetKernel("tile_square"), {n / 32}, {x, z}, 64, Device::Cpu());
  got = z.ToVector<float>();
  for (int64_t i = 0; i < n; ++i) ASSERT_FLOAT_EQ(got[i], xs[i] * xs[i]) << i;

  // The adjoint on the CPU: d(sum(a*x^2))/dx = 2*a*x.
  Array xg = Array::FromVector(xs, {n}, Device::Cpu(), true);
  Array yg = Array::Zeros({n}, ScalarType::Float32, Device::Cpu(), true);
  Tape tape;
  {
    Tape::Scope scope(tape);
    Launch(m.GetKernel("scale_square"), {n}, {xg, yg, KernelArg::Float(3.0)}, Device::Cpu());
  }
  std::vector<float> ones(n, 1.0f);
  tape.Backward({{yg, Array::FromVector(ones, {n}, Device::Cpu())}});
  std::vector<float> grad = xg.grad().ToVector<float>();
  for (int64_t i = 0; i < n; ++i) ASSERT_NEAR(grad[i], 6.0f * xs[i], 1e-4f * (1 + std::fabs(xs[i]))) << i;
}

TEST(AotModuleTest, VariantChoiceFollowsTheDeviceArch) {
  Module m = Module::Load(kTlm);
  Kernel plain = m.GetKernel("scale_square");
  Kernel tiled = m.GetKernel("tile_square");
  const auto& images = m.signature().gpu_images;
  bool cubins = !images.front().cubin.empty();
  auto arch_of = [&](const GpuChoice& c) { return images[c.variant->image].arch; };

  GpuChoice c = ChooseGpuVariant(plain, 90, 0, true);
  EXPECT_EQ(arch_of(c), "sm_90");
  EXPECT_EQ(c.cubin, cubins);  // the exact arch's cubin where there is one
  c = ChooseGpuVariant(plain, 90, 0, false);
  EXPECT_EQ(arch_of(c), "sm_90");
  EXPECT_FALSE(c.cubin);
  // sm_86 has no variant of its own: the newest PTX below it, JIT-compiled, never a cubin.
  c = ChooseGpuVariant(plain, 86, 0, true);
  EXPECT_EQ(arch_of(c), "sm_80");
  EXPECT_FALSE(c.cubin);
  c = ChooseGpuVariant(plain, 100, 0, true);
  EXPECT_EQ(arch_of(c), "sm_90");
  EXPECT_FALSE(c.cubin);
  // Tiled: the launch's block_dim picks the image.
  c = ChooseGpuVariant(tiled, 75, 128, true);
  EXPECT_EQ(arch_of(c), "sm_75");
  EXPECT_EQ(images[c.variant->image].block_dim, 128);
  EXPECT_EQ(c.variant->block_dim, 128);
}

TEST(AotModuleTest, MissingVariantIsAClearError) {
  Module so = Module::Load(kSo);
  EXPECT_EQ(ErrorOf([&] { ChooseGpuVariant(so.GetKernel("scale_square"), 70, 0, true); }),
            "module `" + kSo + "` has no variant of kernel `scale_square` for sm_70 (it has sm_75, sm_80, sm_90); "
            "recompile it with `tilec compile --arch=...` for this launch");
  Module tlm = Module::Load(kTlm);
  EXPECT_EQ(ErrorOf([&] { ChooseGpuVariant(tlm.GetKernel("tile_square"), 90, 32, true); }),
            "module `" + kTlm + "` has no variant of kernel `tile_square` for sm_90 with block_dim 32 (it has "
            "sm_75 with block_dim 64, sm_75 with block_dim 128, sm_80 with block_dim 64, sm_80 with block_dim 128, "
            "sm_90 with block_dim 64, sm_90 with block_dim 128); recompile it with `tilec compile --arch=...` "
            "and `--block-dim=...` for this launch");
}

TEST(AotModuleTest, GpuModuleOnCpuIsAClearError) {
  Module m = Module::Load(kTlm);
  Array x = Array::Zeros({32}, ScalarType::Float32, Device::Cpu());
  Array y = Array::Zeros({32}, ScalarType::Float32, Device::Cpu());
  EXPECT_EQ(ErrorOf([&] { Launch(m.GetKernel("scale_square"), {32}, {x, y, KernelArg::Float(1.0)}, Device::Cpu()); }),
            "kernel `scale_square` cannot run on `cpu`: module `" + kTlm +
                "` is a GPU module with no host code (compile with `tilec compile --arch=... -o kernels.so` for "
                "one module that runs on both)");
}

TEST(AotModuleTest, DamagedFilesAreClearErrors) {
  std::string text = ReadAll(kTlm);
  // Cut in the middle of a PTX block.
  std::string cut = TempPath("cut.tlm");
  std::ofstream(cut, std::ios::binary) << text.substr(0, text.size() / 2);
  std::string e = ErrorOf([&] { Module::Load(cut); });
  EXPECT_EQ(e.rfind("`" + cut + "` is not a valid tilec GPU module: module signature line ", 0), 0u) << e;
  // A cubin block whose base64 is damaged (where the module has cubins), else an unknown record.
  std::string bad = text;
  size_t at = bad.find("  cubin_base64 ");
  if (at != std::string::npos) {
    size_t body = bad.find('\n', at) + 1;
    bad[body + 5] = '*';
  } else {
    bad.insert(bad.find("gpu_image"), "gpu_widget\n");
  }
  std::string bad_path = TempPath("bad.tlm");
  std::ofstream(bad_path, std::ios::binary) << bad;
  e = ErrorOf([&] { Module::Load(bad_path); });
  EXPECT_EQ(e.rfind("`" + bad_path + "` is not a valid tilec GPU module: module signature", 0), 0u) << e;
  if (at != std::string::npos) {
    EXPECT_NE(e.find("is not valid base64"), std::string::npos) << e;
  }
  // NUL bytes and bytes that are neither a module nor a shared object.
  std::string nul = TempPath("nul.tlm");
  std::ofstream(nul, std::ios::binary) << std::string(TILEC_GPU_MODULE_MAGIC) + std::string(" 3\n\0\0", 5);
  EXPECT_EQ(ErrorOf([&] { Module::Load(nul); }),
            "`" + nul + "` is damaged: a tilec GPU module is text, but this file holds NUL bytes");
  std::string junk = TempPath("junk.tlm");
  std::ofstream(junk, std::ios::binary) << "\x01\x02 not a module";
  e = ErrorOf([&] { Module::Load(junk); });
  EXPECT_EQ(e.rfind("cannot load kernel module `" + junk + "`: ", 0), 0u) << e;
  // A module file whose variant points past the image table.
  std::string dangling = TempPath("dangling.tlm");
  std::string d = text;
  size_t v = d.find("  gpu_variant 0 ");
  ASSERT_NE(v, std::string::npos);
  d.replace(v, 16, "  gpu_variant 99 ");
  std::ofstream(dangling, std::ios::binary) << d;
  e = ErrorOf([&] { Module::Load(dangling); });
  EXPECT_NE(e.find("refers to GPU image 99 but only 6 are defined"), std::string::npos) << e;
}

TEST(AotModuleTest, SignatureRoundTripKeepsImagesAndVariants) {
  ModuleSignature sig = Module::Load(kTlm).signature();
  ModuleSignature back = ParseSignature(SerializeSignature(sig));
  ASSERT_EQ(back.gpu_images.size(), sig.gpu_images.size());
  for (size_t i = 0; i < sig.gpu_images.size(); ++i) {
    EXPECT_EQ(back.gpu_images[i].arch, sig.gpu_images[i].arch);
    EXPECT_EQ(back.gpu_images[i].block_dim, sig.gpu_images[i].block_dim);
    EXPECT_EQ(back.gpu_images[i].ptx, sig.gpu_images[i].ptx);
    EXPECT_EQ(back.gpu_images[i].cubin, sig.gpu_images[i].cubin);
  }
  // Every byte value survives the base64 block.
  ModuleSignature s;
  GpuImage g;
  g.arch = "sm_80";
  g.block_dim = 1;
  g.ptx = "// ptx";
  for (int len : {1, 2, 3, 256, 257}) {
    g.cubin.clear();
    for (int i = 0; i < len; ++i) g.cubin += static_cast<char>(i * 7 + len);
    s.gpu_images = {g};
    EXPECT_EQ(ParseSignature(SerializeSignature(s)).gpu_images.at(0).cubin, g.cubin) << len;
  }
}

// The CLI: one run per form; exit status and the message.
struct CliRun {
  int status;
  std::string output;
};
CliRun Tilec(const std::string& args) {
  CliRun r;
  r.status = Shell(std::string(TILEC_EXE) + " " + args, &r.output);
  return r;
}

TEST(AotModuleCliTest, BadArchAndBlockDimListsAreUsageErrors) {
  const std::string src = TILEC_AOT_TILE;
  const std::string out = TempPath("u.tlm");
  struct Case {
    std::string args;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {"--target=nvptx --arch=sm_80,sm_99 -o " + out, "unknown GPU architecture `sm_99` in `--arch=sm_80,sm_99`"},
           {"--target=nvptx --arch=sm_80, -o " + out, "unknown GPU architecture `` in `--arch=sm_80,`"},
           {"--arch=sm_80,sm_80 -o " + out, "GPU architecture `sm_80` appears twice in `--arch=sm_80,sm_80`"},
           {"--target=nvptx --block-dim=64,0 -o " + out, "`--block-dim` must be a comma-separated list of integers from 1 to 1024, got `64,0`"},
           {"--target=nvptx --block-dim=64,x -o " + out, "got `64,x`"},
           {"--target=nvptx --block-dim=64,64 -o " + out, "block_dim 64 appears twice in `--block-dim=64,64`"},
           {"--target=nvptx --arch=sm_80,sm_90 --emit=ptx", "`--emit` prints one GPU architecture's code"},
       }) {
    CliRun r = Tilec("compile " + c.args + " " + src);
    EXPECT_EQ(r.status, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.message), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_FALSE(fs::exists(out)) << c.args;
  }
}

TEST(AotModuleCliTest, NoCubinAndDefaults) {
  const std::string src = TILEC_AOT_TILE;
  // --no-cubin: PTX only. Without --arch a GPU module is for sm_90, block_dim 256.
  std::string path = TempPath("nocubin.tlm");
  CliRun r = Tilec("compile --target=nvptx --no-cubin -o " + path + " " + src);
  ASSERT_EQ(r.status, 0) << r.output;
  Module m = Module::Load(path);
  ASSERT_EQ(m.signature().gpu_images.size(), 1u);
  EXPECT_EQ(m.signature().gpu_images[0].arch, "sm_90");
  EXPECT_EQ(m.signature().gpu_images[0].block_dim, 256);
  EXPECT_TRUE(m.signature().gpu_images[0].cubin.empty());
  // A host shared object without --arch carries no GPU code, as before.
  std::string so = TempPath("plain.so");
  r = Tilec("compile -o " + so + " " + src);
  ASSERT_EQ(r.status, 0) << r.output;
  Module h = Module::Load(so);
  EXPECT_TRUE(h.signature().gpu_images.empty());
  for (const KernelSignature& k : h.signature().kernels) EXPECT_TRUE(k.gpu_variants.empty()) << k.name;
}

}  // namespace
}  // namespace tilec::rt
