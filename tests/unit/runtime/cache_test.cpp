// The kernel cache helpers: directory choice from the environment, atomic writes, hashing.
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

#include "tilec/cache.h"
#include "tilec/error.h"

namespace tilec::rt {
namespace {

namespace fs = std::filesystem;

class CacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* v : {"TILEC_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}) {
      const char* old = std::getenv(v);
      saved_.emplace_back(v, old ? std::optional<std::string>(old) : std::nullopt);
    }
    root_ = fs::path(testing::TempDir()) / ("tilec_cache_test_" + std::to_string(getpid()));
    fs::remove_all(root_);
  }
  void TearDown() override {
    for (auto& [k, v] : saved_) {
      if (v) setenv(k.c_str(), v->c_str(), 1); else unsetenv(k.c_str());
    }
    fs::remove_all(root_);
  }
  std::vector<std::pair<std::string, std::optional<std::string>>> saved_;
  fs::path root_;
};

TEST_F(CacheTest, DirectoryFromEnvironment) {
  setenv("TILEC_CACHE_DIR", (root_ / "explicit").c_str(), 1);
  setenv("XDG_CACHE_HOME", (root_ / "xdg").c_str(), 1);
  EXPECT_EQ(KernelCacheDir(), root_ / "explicit");
  EXPECT_TRUE(fs::is_directory(root_ / "explicit"));
  unsetenv("TILEC_CACHE_DIR");
  EXPECT_EQ(KernelCacheDir(), root_ / "xdg" / "tilec");
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", (root_ / "home").c_str(), 1);
  EXPECT_EQ(KernelCacheDir(), root_ / "home" / ".cache" / "tilec");
}

TEST_F(CacheTest, UncreatableDirectoryIsAnError) {
  fs::create_directories(root_);
  AtomicWriteFile(root_ / "file", "x");
  setenv("TILEC_CACHE_DIR", (root_ / "file" / "sub").c_str(), 1);
  EXPECT_THROW(KernelCacheDir(), Error);
}

// wp.clear_kernel_cache(): the entries and their leftover temp files go, anything else in
// the directory (a user may point TILEC_CACHE_DIR at a shared one) stays.
TEST_F(CacheTest, ClearRemovesOnlyEntries) {
  setenv("TILEC_CACHE_DIR", (root_ / "c").c_str(), 1);
  const fs::path dir = KernelCacheDir();
  const std::string key = HashHex("kernel");
  AtomicWriteFile(dir / (key + ".ptxsig"), "sig");
  AtomicWriteFile(dir / (HashHex("other") + ".ptxsig"), "sig");
  AtomicWriteFile(dir / (key + ".ptxsig.tmp.12.0"), "half");
  AtomicWriteFile(dir / "notes.txt", "keep");
  AtomicWriteFile(dir / (key + ".ptx"), "keep");
  AtomicWriteFile(dir / (std::string(32, 'G') + ".ptxsig"), "keep");
  fs::create_directories(dir / (HashHex("dir") + ".ptxsig"));
  EXPECT_EQ(ClearKernelCache(), 3);
  EXPECT_FALSE(fs::exists(dir / (key + ".ptxsig")));
  EXPECT_FALSE(fs::exists(dir / (key + ".ptxsig.tmp.12.0")));
  EXPECT_TRUE(fs::exists(dir / "notes.txt"));
  EXPECT_TRUE(fs::exists(dir / (key + ".ptx")));
  EXPECT_TRUE(fs::exists(dir / (std::string(32, 'G') + ".ptxsig")));
  EXPECT_TRUE(fs::is_directory(dir / (HashHex("dir") + ".ptxsig")));
  EXPECT_EQ(ClearKernelCache(), 0);
}

TEST_F(CacheTest, AtomicWriteReplacesWholeFile) {
  fs::create_directories(root_);
  fs::path p = root_ / "entry.bin";
  EXPECT_FALSE(ReadFileIfExists(p).has_value());
  std::string big(1 << 20, 'a');
  AtomicWriteFile(p, big);
  EXPECT_EQ(*ReadFileIfExists(p), big);
  std::string bin("\0\1\2\n", 4);
  AtomicWriteFile(p, bin);
  EXPECT_EQ(*ReadFileIfExists(p), bin);
  // No temporary files are left behind.
  int files = 0;
  for (auto& e : fs::directory_iterator(root_)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
}

TEST_F(CacheTest, ConcurrentWritersNeverTear) {
  fs::create_directories(root_);
  fs::path p = root_ / "race";
  std::string a(300000, 'a'), b(200000, 'b');
  std::atomic<bool> torn{false};
  std::thread w1([&] { for (int i = 0; i < 20; ++i) AtomicWriteFile(p, a); });
  std::thread w2([&] { for (int i = 0; i < 20; ++i) AtomicWriteFile(p, b); });
  std::thread r([&] {
    for (int i = 0; i < 200; ++i)
      if (auto s = ReadFileIfExists(p); s && *s != a && *s != b) torn = true;
  });
  w1.join(); w2.join(); r.join();
  EXPECT_FALSE(torn);
}

TEST_F(CacheTest, HashIsStableAndSensitive) {
  // FNV-1a 64 of "" is cbf29ce484222325: the first lane starts from the standard offset.
  EXPECT_EQ(HashHex("").substr(0, 16), "cbf29ce484222325");
  // FNV-1a 64 of "a" is af63dc4c8601ec8c (published test vector).
  EXPECT_EQ(HashHex("a").substr(0, 16), "af63dc4c8601ec8c");
  EXPECT_EQ(HashHex("kernel"), HashHex("kernel"));
  EXPECT_NE(HashHex("kernel1"), HashHex("kernel2"));
  EXPECT_EQ(HashHex("x").size(), 32u);
}

}  // namespace
}  // namespace tilec::rt
