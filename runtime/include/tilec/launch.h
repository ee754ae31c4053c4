// Launching kernels: argument values, validation of every launch against the kernel's
// signature (errors name the kernel, the parameter and both types), and dispatch to the CPU
// thread pool or the CUDA driver. Launches made while a Tape records are recorded on it.
#pragma once
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "tilec/array.h"
#include "tilec/device.h"
#include "tilec/module.h"

namespace tilec::rt {

// One launch argument. Python-style numbers (`Int`, `Float`, `Bool`) convert to the
// parameter's dtype: ints to any integer type that holds the value and to floats, floats only
// to floats, bools to anything numeric. Typed scalars (`Typed`, `Of`) must match exactly.
class KernelArg {
 public:
  enum class Kind : uint8_t { Array, PyInt, PyFloat, PyBool, Typed, Struct };

  KernelArg() = default;  // a null array (None)
  KernelArg(Array array) : kind_(Kind::Array), array_(std::move(array)) {}  // NOLINT
  static KernelArg Int(int64_t v) { KernelArg a; a.kind_ = Kind::PyInt; a.int_ = v; return a; }
  static KernelArg Float(double v) { KernelArg a; a.kind_ = Kind::PyFloat; a.float_ = v; return a; }
  static KernelArg Bool(bool v) { KernelArg a; a.kind_ = Kind::PyBool; a.int_ = v; return a; }
  // A value of an exact dtype, given as double or as int64 (whichever holds it exactly).
  static KernelArg Typed(ScalarType type, double value);
  static KernelArg TypedInt(ScalarType type, int64_t value);
  template <typename T>
  static KernelArg Of(T value) {
    KernelArg a; a.kind_ = Kind::Typed; a.type_ = ScalarTypeOf<T>();
    static_assert(sizeof(T) <= 8);
    std::memcpy(a.bytes_.data(), &value, sizeof(T));
    a.bytes_.resize(sizeof(T));
    return a;
  }
  // A struct value in its natural C layout; `struct_name` must match the parameter's struct.
  static KernelArg Struct(std::string struct_name, std::vector<uint8_t> bytes);

  Kind kind() const { return kind_; }
  const Array& array() const { return array_; }
  std::string Describe() const;  // "a Python float", "`float16`", "array(dtype=..., ndim=1)"

  // Internal: the value bytes for a scalar or struct parameter, after conversion.
  std::vector<uint8_t> PackScalar(const std::string& where, ScalarType to) const;
  const std::vector<uint8_t>& struct_bytes() const { return bytes_; }
  const std::string& struct_name() const { return struct_name_; }
  ScalarType typed() const { return type_; }
  int64_t int_value() const { return int_; }
  double float_value() const { return float_; }

 private:
  Kind kind_ = Kind::Array;
  Array array_;
  int64_t int_ = 0;
  double float_ = 0;
  ScalarType type_ = ScalarType::Float32;
  std::vector<uint8_t> bytes_ = std::vector<uint8_t>(8);
  std::string struct_name_;
};

// `dim`: 1 to 4 extents, each >= 0. Without `device` the default device is used.
void Launch(const Kernel& kernel, const std::vector<int64_t>& dim,
            const std::vector<KernelArg>& args, std::optional<Device> device = std::nullopt);
// `block_dim`: 1 to 1024 cooperating lanes per block program.
void LaunchTiled(const Kernel& kernel, const std::vector<int64_t>& dim,
                 const std::vector<KernelArg>& args, int block_dim,
                 std::optional<Device> device = std::nullopt);

// Warp's hybrid launch of a kernel with tile operations (`wp.launch(k, dim, block_dim=B)`):
// one thread per index of `dim`, in blocks of `block_dim` consecutive threads; the lanes of a
// last block past the element count are inactive (no stores, atomics or prints of their own,
// and nothing they put in a tile). The kernel must be its hybrid variant
// (KernelSignature::hybrid).
void LaunchHybrid(const Kernel& kernel, const std::vector<int64_t>& dim,
                  const std::vector<KernelArg>& args, int block_dim,
                  std::optional<Device> device = std::nullopt);

// Checks a launch without running it; returns the device it would run on. Launch and
// LaunchTiled call this first. block_dim 0 means a plain launch.
Device ValidateLaunch(const Kernel& kernel, const std::vector<int64_t>& dim,
                      const std::vector<KernelArg>& args, int block_dim,
                      std::optional<Device> device);

// Number of CPU worker threads (hardware_concurrency, at least 1).
int CpuWorkerCount();

// The name of the kernel whose CPU launch (forward or adjoint) is running, else null. Safe to
// read from a signal handler, so that a host program can name the kernel that crashed.
const char* CpuKernelInFlight();

}  // namespace tilec::rt
