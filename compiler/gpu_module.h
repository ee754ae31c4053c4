// AOT GPU code: one source compiled to PTX for every requested architecture (and, for tiled
// kernels, block_dim), with cubins where libnvJitLink is found, gathered into the runtime
// signature's gpu_images and kernels' gpu_variants. What `tilec compile --arch=... -o` writes.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "support/source.h"
#include "tilec/signature.h"

namespace tilec::compiler {

struct PipelineOptions;
struct PipelineResult;

struct GpuTargets {
  std::vector<std::string> archs;       // empty: no GPU code
  std::vector<int> block_dims = {256};  // tiled kernels: a variant per arch and block_dim
  bool cubin = true;                    // also assemble each PTX to a cubin (libnvJitLink)
};

// Runs the pipeline to PTX once per arch and block_dim (plain kernels need only the first
// block_dim: their code does not depend on it) with `base`'s other options. The result has the
// source's kernels and structs, no CPU entries and no single-variant GPU fields, and every
// kernel has one variant per arch (times block_dims when tiled). A run's errors (such as a
// block_dim whose shared memory does not fit) go to `r.diags` (or `r.ice`) and give nullopt; a
// cubin that cannot be built is a warning in `r.warnings` and its variant keeps the PTX.
std::optional<rt::ModuleSignature> BuildGpuModule(const SourceFile& source, const PipelineOptions& base,
                                                  const GpuTargets& targets, PipelineResult& r);

// Copies `gpu`'s images and each kernel's variants (matched by name) into `host`.
void MergeGpuVariants(rt::ModuleSignature& host, const rt::ModuleSignature& gpu);

}  // namespace tilec::compiler
