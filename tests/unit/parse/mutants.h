// Deterministic mutants of valid Tile sources for robustness tests: byte flips, deletions,
// insertions, truncations, duplicated and swapped lines, re-indented lines. The same seed
// always gives the same list, so a failing mutant can be reproduced by its name. Header-only
// so that every stage (parse, sema, ...) can run the same mutants through its own checks.
#pragma once
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace tilec::testing {

struct Mutant {
  std::string name;  // "<seed file>#<index>:<mutation>", stable across runs
  std::string text;
};

// SplitMix64: small, fast and identical on every platform.
class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  size_t Below(size_t n) { return n == 0 ? 0 : size_t(Next() % n); }

 private:
  uint64_t state_;
};

struct SeedSource {
  std::string name;
  std::string text;
};

// Every `*.tile` file directly in `dir` whose name does not start with `fail_`, sorted by name.
inline std::vector<SeedSource> LoadSeedSources(const std::string& dir) {
  std::vector<SeedSource> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string file = e.path().filename().string();
    if (!e.is_regular_file() || e.path().extension() != ".tile" || file.rfind("fail_", 0) == 0) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    out.push_back({file, ss.str()});
  }
  std::sort(out.begin(), out.end(), [](const SeedSource& a, const SeedSource& b) { return a.name < b.name; });
  return out;
}

namespace detail {

// Bytes that matter to the lexer and parser, plus bytes that are not UTF-8.
inline char InterestingByte(Prng& rng) {
  static const char kBytes[] = "()[]{}:;,.=+-*/%@<>!~&|^#\\\"'\n\r\t \x00\xff\xc3\x80xy019_";
  return kBytes[rng.Below(sizeof(kBytes) - 1)];
}

inline std::vector<std::string> SplitLines(const std::string& s) {
  std::vector<std::string> lines;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] == '\n') {
      lines.push_back(s.substr(start, i + 1 - start));
      start = i + 1;
    }
  if (start < s.size()) lines.push_back(s.substr(start));
  return lines;
}

inline std::string Join(const std::vector<std::string>& lines) {
  std::string s;
  for (const auto& l : lines) s += l;
  return s;
}

inline std::string Mutate(const std::string& src, Prng& rng, std::string& what) {
  std::string s = src;
  const size_t n = s.size();
  switch (rng.Below(9)) {
    case 0: {  // flip one bit
      if (n == 0) break;
      const size_t i = rng.Below(n);
      s[i] = char(s[i] ^ (1 << rng.Below(8)));
      what = "flip@" + std::to_string(i);
      break;
    }
    case 1: {  // delete a short range
      if (n == 0) break;
      const size_t i = rng.Below(n);
      const size_t len = 1 + rng.Below(8);
      s.erase(i, len);
      what = "delete@" + std::to_string(i) + "+" + std::to_string(len);
      break;
    }
    case 2: {  // insert a few interesting bytes
      const size_t i = rng.Below(n + 1);
      std::string ins;
      for (size_t k = 0, m = 1 + rng.Below(3); k < m; ++k) ins += InterestingByte(rng);
      s.insert(i, ins);
      what = "insert@" + std::to_string(i);
      break;
    }
    case 3: {  // truncate
      const size_t i = rng.Below(n + 1);
      s.resize(i);
      what = "truncate@" + std::to_string(i);
      break;
    }
    case 4: case 5: {  // duplicate or delete a line
      auto lines = SplitLines(s);
      if (lines.empty()) break;
      const size_t i = rng.Below(lines.size());
      if (rng.Below(2)) {
        lines.insert(lines.begin() + long(i), lines[i]);
        what = "dupline@" + std::to_string(i);
      } else {
        lines.erase(lines.begin() + long(i));
        what = "delline@" + std::to_string(i);
      }
      s = Join(lines);
      break;
    }
    case 6: {  // swap two lines
      auto lines = SplitLines(s);
      if (lines.size() < 2) break;
      const size_t a = rng.Below(lines.size()), b = rng.Below(lines.size());
      std::swap(lines[a], lines[b]);
      s = Join(lines);
      what = "swap@" + std::to_string(a) + "," + std::to_string(b);
      break;
    }
    case 7: {  // re-indent a line with spaces or a tab
      auto lines = SplitLines(s);
      if (lines.empty()) break;
      const size_t i = rng.Below(lines.size());
      const size_t k = lines[i].find_first_not_of(" \t");
      const std::string indents[] = {"", " ", "  ", "    ", "\t", "        ", " \t", "\t    "};
      lines[i] = indents[rng.Below(8)] + lines[i].substr(k == std::string::npos ? lines[i].size() : k);
      s = Join(lines);
      what = "indent@" + std::to_string(i);
      break;
    }
    default: {  // overwrite a byte with an interesting one
      if (n == 0) break;
      const size_t i = rng.Below(n);
      s[i] = InterestingByte(rng);
      what = "replace@" + std::to_string(i);
      break;
    }
  }
  if (what.empty()) what = "none";
  return s;
}

}  // namespace detail

// `count` mutants, round-robin over `seeds`; each gets one to three mutations.
inline std::vector<Mutant> GenerateMutants(const std::vector<SeedSource>& seeds, size_t count,
                                           uint64_t seed = 20240611) {
  std::vector<Mutant> out;
  if (seeds.empty()) return out;
  Prng rng(seed);
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const SeedSource& src = seeds[i % seeds.size()];
    std::string text = src.text;
    std::string name = src.name + "#" + std::to_string(i);
    for (size_t k = 0, m = 1 + rng.Below(3); k < m; ++k) {
      std::string what;
      text = detail::Mutate(text, rng, what);
      name += ":" + what;
    }
    out.push_back({std::move(name), std::move(text)});
  }
  return out;
}

}  // namespace tilec::testing
