// The kernel cache directory and its file helpers: a stable hash for keys and writes that
// become visible all at once (temp file, then rename within the same directory).
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "tilec/cache.h"
#include "tilec/error.h"

namespace tilec::rt {

namespace fs = std::filesystem;

fs::path KernelCacheDir() {
  fs::path dir;
  if (const char* d = std::getenv("TILEC_CACHE_DIR"); d && *d) {
    dir = d;
  } else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) {
    dir = fs::path(x) / "tilec";
  } else if (const char* h = std::getenv("HOME"); h && *h) {
    dir = fs::path(h) / ".cache" / "tilec";
  } else {
    dir = fs::temp_directory_path() / "tilec-cache";
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw Error("cannot create the kernel cache directory `" + dir.string() + "`: " +
                (ec ? ec.message() : "not a directory"));
  return dir;
}

int ClearKernelCache() {
  auto is_entry = [](const std::string& name) {
    // <32 hex digits>.ptxsig, or a temp file AtomicWriteFile left behind: <entry>.tmp.<...>
    if (name.size() < 39 || name.compare(32, 7, ".ptxsig") != 0) return false;
    for (size_t k = 0; k < 32; ++k)
      if (!std::isxdigit(static_cast<unsigned char>(name[k])) || std::isupper(static_cast<unsigned char>(name[k])))
        return false;
    return name.size() == 39 || name.compare(39, 5, ".tmp.") == 0;
  };
  int removed = 0;
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(KernelCacheDir(), ec)) {
    if (!e.is_regular_file(ec) || !is_entry(e.path().filename().string())) continue;
    if (fs::remove(e.path(), ec)) ++removed;
  }
  return removed;
}

std::string HashHex(std::string_view data) {
  // Two 64-bit FNV-1a lanes with different offsets give 128 bits; not cryptographic, but
  // stable, which is what cache keys need.
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  for (unsigned char c : data) {
    a = (a ^ c) * 0x100000001b3ull;
    b = (b ^ static_cast<unsigned char>(c + 0x5b)) * 0x100000001b3ull;
  }
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(a),
                static_cast<unsigned long long>(b));
  return buf;
}

void AtomicWriteFile(const fs::path& path, std::string_view bytes) {
  static std::atomic<uint64_t> counter{0};
  fs::path tmp = path;
  tmp += ".tmp." + std::to_string(getpid()) + "." + std::to_string(counter++);
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw Error("cannot write `" + tmp.string() + "`");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ec;
      fs::remove(tmp, ec);
      throw Error("cannot write `" + tmp.string() + "`");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    std::error_code ignore;
    fs::remove(tmp, ignore);
    throw Error("cannot move `" + tmp.string() + "` to `" + path.string() + "`: " + ec.message());
  }
}

std::optional<std::string> ReadFileIfExists(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return ss.str();
}

}  // namespace tilec::rt
