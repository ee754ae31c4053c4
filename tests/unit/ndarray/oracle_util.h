// Shared pieces of the NumPy oracle tests: running numpy_oracle.py (or saying why it cannot
// run) and reading its records back.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <istream>
#include <sstream>
#include <string>
#include <vector>

#include "host/ndarray/ndarray.h"

namespace tilec::host {

inline std::vector<uint8_t> FromHex(const std::string& hex) {
  std::vector<uint8_t> out;
  if (hex == "-") return out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

// The first line where two texts differ, for a short failure message.
inline std::string FirstDifference(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb;
  for (int line = 1;; ++line) {
    bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "identical";
    if (la != lb || ha != hb)
      return "line " + std::to_string(line) + "\n  numpy: '" + (ha ? la : "<end>") +
             "'\n  ours:  '" + (hb ? lb : "<end>") + "'";
  }
}

inline std::string ReadBlock(std::istream& in, const char* tag) {
  std::string t;
  size_t n = 0;
  in >> t >> n;
  EXPECT_EQ(t, tag);
  in.get();  // newline
  std::string text(n, '\0');
  in.read(text.data(), static_cast<std::streamsize>(n));
  in.get();
  return text;
}

// Reads "dtype ndim dims... hex" into a fresh array.
inline NdArray ReadArray(std::istream& in) {
  std::string dtype_name, hex;
  int ndim = 0;
  in >> dtype_name >> ndim;
  Shape shape(ndim);
  for (int k = 0; k < ndim; ++k) in >> shape[k];
  in >> hex;
  auto dtype = ScalarFromName(dtype_name);
  if (!dtype) throw std::runtime_error("unknown dtype " + dtype_name);
  NdArray a = NdArray::Empty(shape, *dtype);
  std::vector<uint8_t> bytes = FromHex(hex);
  if (bytes.size() != a.size() * a.itemsize()) throw std::runtime_error("bad byte count");
  if (!bytes.empty()) std::memcpy(a.data(), bytes.data(), bytes.size());
  return a;
}

// How many mismatches a test spells out (TILEC_ORACLE_REPORT overrides the default 15).
inline int MaxReported() {
  const char* env = std::getenv("TILEC_ORACLE_REPORT");
  return env ? std::atoi(env) : 15;
}

struct OracleFile {
  std::string path;
  std::string skip_reason;
};

inline OracleFile GenerateOracle(const std::string& mode) {
  const char* python = "/usr/bin/python3";
  if (std::system("/usr/bin/python3 -c 'import numpy, sys; "
                  "sys.exit(0 if numpy.__version__.startswith(\"1.\") else 1)' 2>/dev/null") != 0)
    return {"", std::string(python) + " with NumPy 1.x not found"};
  std::string out = std::string(TILEC_NDARRAY_TEST_DIR) + "/numpy_oracle_" + mode + ".txt";
  std::string cmd = std::string(python) + " " + TILEC_NDARRAY_ORACLE_SCRIPT + " " + mode + " " + out +
                    " > /dev/null";
  if (std::system(cmd.c_str()) != 0) return {"", "numpy_oracle.py failed"};
  return {out, ""};
}

}  // namespace tilec::host
