// BuildGpuModule: a pipeline run to PTX per (arch, block_dim), each run's PTX one GpuImage that
// every kernel's variant for that pair points at, and cubins assembled from it where possible.
#include "compiler/gpu_module.h"

#include "compiler/cubin.h"
#include "compiler/pipeline.h"

namespace tilec::compiler {

std::optional<rt::ModuleSignature> BuildGpuModule(const SourceFile& source, const PipelineOptions& base,
                                                  const GpuTargets& targets, PipelineResult& r) {
  std::optional<rt::ModuleSignature> out;
  bool any_tiled = true;  // until the first run says otherwise
  for (const std::string& arch : targets.archs) {
    for (size_t bi = 0; bi < targets.block_dims.size(); ++bi) {
      if (bi > 0 && !any_tiled) break;
      int block_dim = targets.block_dims[bi];
      PipelineOptions o = base;
      o.compile.target = Target::Nvptx;
      o.compile.block_dim = block_dim;
      o.compile.hybrid_launch = false;  // AOT variants take plain and tiled launches
      o.arch = arch;
      o.output_path.clear();
      o.pass_options.print_after_each = nullptr;  // the caller's own run already printed
      o.gpu = GpuTargets{};
      PipelineResult v = Run(source, o, Stage::Ptx);
      if (!v.ok() || !v.compiled) {
        // The front end's warnings were reported by the caller's run; only a failing run's
        // diagnostics are new (a block_dim whose shared memory does not fit, for one).
        if (v.diags.has_errors()) AppendDiagnostics(v.diags, r.diags);
        if (v.ice.is_set()) r.ice = v.ice;
        else if (!v.input_error.empty()) r.input_error = v.input_error;
        else if (!v.diags.has_errors()) r.ice.message = "PTX for " + arch + " produced no module";
        return std::nullopt;
      }
      rt::ModuleSignature& sig = v.compiled->signature;
      if (!out) {
        out = sig;
        out->gpu_images.clear();
        any_tiled = false;
        for (rt::KernelSignature& k : out->kernels) {
          any_tiled |= k.tiled;
          // GPU code lives in the variants only; launches take any block_dim a variant has.
          k.ptx.clear();
          k.block_dim = 0;
          k.hybrid = false;
          k.shared_bytes = k.adjoint_shared_bytes = 0;
          k.gpu_variants.clear();
        }
      }
      rt::GpuImage image;
      image.arch = arch;
      image.block_dim = block_dim;
      image.ptx = v.ptx.ptx;
      if (targets.cubin && !NvJitLinkLibrary().empty()) {
        std::string error;
        if (!CompilePtxToCubin(image.ptx, arch, image.cubin, error)) {
          image.cubin.clear();
          r.warnings.push_back("no cubin for " + arch + (any_tiled ? " with block_dim " + std::to_string(block_dim) : "") +
                               ", the module keeps its PTX for the driver to compile at the first launch: " + error);
        }
      }
      int index = static_cast<int>(out->gpu_images.size());
      out->gpu_images.push_back(std::move(image));
      for (size_t i = 0; i < out->kernels.size() && i < sig.kernels.size(); ++i) {
        rt::KernelSignature& k = out->kernels[i];
        const rt::KernelSignature& got = sig.kernels[i];
        if (got.name != k.name) {
          r.ice.message = "the PTX runs for " + arch + " disagree on the kernels of the module";
          return std::nullopt;
        }
        // A plain kernel has one variant per arch: the first block_dim's image.
        if (!k.tiled && bi > 0) continue;
        rt::GpuVariant gv;
        gv.image = index;
        gv.block_dim = k.tiled ? block_dim : 0;
        gv.shared_bytes = got.shared_bytes;
        gv.adjoint_shared_bytes = got.adjoint_shared_bytes;
        k.gpu_variants.push_back(gv);
      }
    }
  }
  if (!out) r.ice.message = "no GPU architecture was requested";
  return out;
}

void MergeGpuVariants(rt::ModuleSignature& host, const rt::ModuleSignature& gpu) {
  host.gpu_images = gpu.gpu_images;
  for (rt::KernelSignature& k : host.kernels)
    for (const rt::KernelSignature& g : gpu.kernels)
      if (g.name == k.name) k.gpu_variants = g.gpu_variants;
}

}  // namespace tilec::compiler
