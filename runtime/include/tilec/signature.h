// What the runtime knows about a compiled kernel without the compiler: its parameters, the
// struct layouts they use, whether it is tiled, and where its entry points are. The compiler
// fills it; AOT artifacts carry it serialized; every launch is validated against it.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "support/composite.h"
#include "support/dtype.h"

namespace tilec::rt {

struct StructLayout;

// An element type: a scalar, or a struct named in the module's struct table.
struct ElemType {
  ScalarType scalar = ScalarType::Float32;
  int struct_index = -1;  // >= 0: index into ModuleSignature::structs
  bool is_struct() const { return struct_index >= 0; }
  bool operator==(const ElemType&) const = default;
};

struct StructField {
  std::string name;
  ElemType type;
  uint32_t offset = 0;  // bytes
  // The layout of a struct-typed field where its producer resolved it (the host interpreter
  // does, to give arrays of structs their NumPy form); not serialized.
  std::shared_ptr<const StructLayout> layout;
};

// An array field of a struct: not in the struct's bytes; a kernel takes it as an array
// parameter of its own after the struct's, named `param.field` (KernelSignature::params).
struct StructArrayField {
  std::string name;
  ElemType elem;
  int ndim = 1;
  uint32_t value_fields_before = 0;  // declared after this many of StructLayout::fields
};

struct StructLayout {
  std::string name;
  std::vector<StructField> fields;
  uint32_t size = 0;
  uint32_t align = 1;
  // Warp's vector-like types (vec3f, mat33f, quatf, transformf, ...): their fields are the
  // components in row-major order. Not serialized: the name determines it.
  Composite composite;
  // Not serialized: a module's kernels list these as parameters of their own.
  std::vector<StructArrayField> array_fields;
};

// The layout of a vector-like type: its components as scalar fields named by
// CompositeFieldName, packed (size = length * scalar size, aligned as the scalar), as Warp lays
// them out. The checker builds the same layout.
StructLayout CompositeLayout(const Composite& c);

enum class ParamKind : uint8_t { Scalar, Array, Struct };

struct ParamInfo {
  std::string name;
  ParamKind kind = ParamKind::Scalar;
  ElemType type;  // element type for arrays, value type otherwise
  int ndim = 0;   // arrays only, 1..4
};

// One GPU code object of an AOT module: the PTX (and, where the compiler could build it, the
// cubin) of all the module's kernels for one architecture, with tiled kernels compiled for
// `block_dim` lanes. Kernels refer to images through GpuVariant, so that a module's PTX is
// stored once, not once per kernel.
struct GpuImage {
  std::string arch;   // "sm_80": the PTX target; the cubin runs on exactly this architecture
  int block_dim = 0;  // lanes per block of the tiled kernels in it
  std::string ptx;
  std::string cubin;  // ELF bytes; empty when none was built
};

// A kernel's GPU code for one (arch, block_dim): the image holding its entries and the dynamic
// shared memory they need there.
struct GpuVariant {
  int image = -1;     // index into ModuleSignature::gpu_images
  int block_dim = 0;  // tiled kernels: the block_dim launches must use; 0 for plain kernels
  uint32_t shared_bytes = 0;
  uint32_t adjoint_shared_bytes = 0;
};

struct KernelSignature {
  std::string name;
  std::vector<ParamInfo> params;
  bool tiled = false;            // uses tile operations: must be launched with launch_tiled
  bool has_adjoint = false;      // false under enable_backward=False or when rejected
  // Why the compiler built no adjoint although backward was enabled (its rendered
  // diagnostics): the forward kernel still runs, and a Tape reports this text if a gradient
  // has to flow through the kernel. Empty otherwise.
  std::string adjoint_error;
  std::string entry_symbol;      // forward entry (tilec_cpu_kernel_fn on the CPU)
  std::string adjoint_symbol;    // adjoint entry, same calling convention, empty if none
  // The adjoint kernel takes the forward arguments followed by one adjoint slot per
  // parameter (scalars: a pointer to the scalar's adjoint; arrays: unused, they carry grad).
  // On the CPU args[n + i] points at zeroed storage of parameter i's value type (scalars and
  // structs; the runtime discards it afterwards) and is null for arrays. On the GPU each
  // slot is one 64-bit device pointer parameter with the same meaning (0 for arrays).
  // Adjoints built by ir/autodiff read and write gradients only through each array's
  // tilec_array::grad (null: that array gets nothing) and leave the scalar slots untouched.

  // GPU variant (empty ptx: none). The PTX module text holds `entry_symbol` and, where
  // has_adjoint, `adjoint_symbol` as .entry functions; see abi.h for their parameters.
  std::string ptx;
  int block_dim = 0;                  // lanes per block this variant was compiled for (0: any)
  // The variant for LaunchHybrid (compiler::CompileOptions::hybrid_launch): wp.tid() is the
  // thread's index. Such a variant takes only hybrid launches, and the others only tiled ones.
  bool hybrid = false;
  // Compiled with checked array access: a launch passes a tilec_access_error to report into.
  bool checked_access = false;
  // Its tile atomic adds commit in launch order: the CPU runs the grid's block programs one
  // after another; a GPU launch passes a zeroed block ticket (tilec_launch::order).
  bool deterministic = false;
  uint32_t shared_bytes = 0;          // dynamic shared memory of the forward entry
  uint32_t adjoint_shared_bytes = 0;  // dynamic shared memory of the adjoint entry

  // AOT GPU code (`tilec compile --arch=...`): one variant per architecture, and for tiled
  // kernels per block_dim. When present, a GPU launch picks among these (the exact
  // architecture's cubin, else the PTX of the newest architecture not above the device's)
  // and the single-variant fields above (ptx, block_dim) are not used on the GPU.
  std::vector<GpuVariant> gpu_variants;
};

struct ModuleSignature {
  std::vector<StructLayout> structs;
  std::vector<KernelSignature> kernels;
  std::vector<GpuImage> gpu_images;  // what KernelSignature::gpu_variants refer to
};

}  // namespace tilec::rt
