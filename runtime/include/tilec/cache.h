// The on-disk kernel cache: where it lives ($TILEC_CACHE_DIR, else $XDG_CACHE_HOME/tilec,
// else ~/.cache/tilec), a stable content hash for keys, and atomic writes (temp + rename)
// so that concurrent processes never see a half-written entry.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace tilec::rt {

// The cache directory, created if missing. Throws Error when it cannot be created.
std::filesystem::path KernelCacheDir();
// Removes the cache's entries (files named by HashHex with a `.ptxsig` suffix, and leftover
// temp files of theirs); other files in the directory stay. Returns how many were removed.
int ClearKernelCache();
// 32 hex digits of a 128-bit FNV-1a hash (stable across runs and platforms).
std::string HashHex(std::string_view data);
// Writes the whole file or nothing: temp file in the same directory, then rename.
void AtomicWriteFile(const std::filesystem::path& path, std::string_view bytes);
// The file's bytes, or nullopt when it does not exist or cannot be read.
std::optional<std::string> ReadFileIfExists(const std::filesystem::path& path);

}  // namespace tilec::rt
