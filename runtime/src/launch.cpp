// Launch validation against the kernel signature, packing of `void* args[]` as abi.h lays it
// out, and dispatch of forward and adjoint entries to the CPU pool or the CUDA driver (on a
// stream, with the GPU variant chosen for the device's architecture).
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "runtime/src/internal.h"
#include "tilec/error.h"
#include "tilec/interrupt.h"
#include "tilec/launch.h"
#include "tilec/tape.h"

namespace tilec::rt {

namespace {

// The GPU code a launch runs: a PTX text or a cubin, and what its entries need.
struct GpuCode {
  const std::string* image = nullptr;  // PTX text or cubin bytes
  uint32_t shared_bytes = 0;
  uint32_t adjoint_shared_bytes = 0;
  int threads = TILEC_GPU_THREADS;  // lanes per block of a plain launch
};

// A validated launch: argument storage and the pointers to it.
struct Packed {
  Device device;
  GpuCode gpu;          // CUDA launches only
  void* stream = nullptr;
  bool zeroed_scratch = false;  // device memory zeroed on the legacy stream for this launch
  tilec_launch launch{};
  int64_t total = 0;
  std::vector<std::vector<uint8_t>> values;  // one per argument, abi layout
  std::vector<void*> pointers;               // pointers[i] = values[i].data()
  std::vector<size_t> value_sizes;           // for adjoint slots: 0 for arrays
};

std::string Where(const KernelSignature& k, const ParamInfo& p) {
  return "kernel `" + k.name + "`, parameter `" + p.name + "`";
}

void CheckArray(const Kernel& kernel, const ParamInfo& p, const KernelArg& arg,
                const Device& device) {
  const KernelSignature& k = kernel.signature();
  // Named only for an error: every launch checks every array.
  auto expected = [&] { return ParamTypeName(p, kernel.structs()); };
  if (arg.kind() != KernelArg::Kind::Array)
    throw Error(Where(k, p) + ": expected `" + expected() + "`, got " + arg.Describe());
  if (arg.array().is_null()) return;  // None: an empty array, false in a condition (as in Warp)
  const Array& a = arg.array();
  bool same_dtype;
  if (p.type.is_struct()) {
    const StructLayout& s = kernel.structs()[p.type.struct_index];
    same_dtype = a.dtype().is_struct() && a.dtype().layout->name == s.name &&
                 a.dtype().layout->size == s.size;
  } else {
    same_dtype = !a.dtype().is_struct() && a.dtype().scalar == p.type.scalar;
  }
  if (!same_dtype || a.ndim() != p.ndim)
    throw Error(Where(k, p) + ": expected `" + expected() + "`, got `" + arg.Describe() + "`");
  if (!(a.device() == device))
    throw Error(Where(k, p) + ": the array is on `" + a.device().Name() +
                "` but the launch is on `" + device.Name() + "`");
}

// "module `kernels.tlm`" for a loaded module, "module" for others.
std::string ModuleName(const Kernel& kernel) {
  const std::string& origin = kernel.module().origin();
  return origin == "module" ? origin : "module " + origin;
}

int ArchNumber(const std::string& arch) {  // "sm_80" -> 80, -1 when it is not of that form
  if (arch.size() < 4 || arch.compare(0, 3, "sm_") != 0) return -1;
  char* end = nullptr;
  long v = std::strtol(arch.c_str() + 3, &end, 10);
  return *end == '\0' && v > 0 ? static_cast<int>(v) : -1;
}

// The device's compute capability (major*10+minor), asked of the driver once per device.
int CachedComputeCapability(int ordinal) {
  static std::mutex mutex;
  static std::map<int, int> known;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = known.find(ordinal);
  if (it == known.end()) it = known.emplace(ordinal, cuda::ComputeCapability(ordinal)).first;
  return it->second;
}

// TILEC_GPU_IMAGE=ptx makes launches ignore cubins and have the driver JIT-compile the PTX
// (to compare the two, or to work around a cubin the driver refuses).
bool CubinsAllowed() {
  const char* env = std::getenv("TILEC_GPU_IMAGE");
  return !(env && std::string(env) == "ptx");
}

// Which GPU code a launch on `device` runs: one of the kernel's AOT variants (ChooseGpuVariant),
// else its single variant (JIT modules).
GpuCode SelectGpuCode(const Kernel& kernel, const Device& device, int block_dim) {
  const KernelSignature& k = kernel.signature();
  GpuCode code;
  if (k.gpu_variants.empty()) {
    if (k.ptx.empty())
      throw Error("kernel `" + k.name + "` has no GPU code in this module; it cannot run on `" +
                  device.Name() + "`");
    code.image = &k.ptx;
    code.shared_bytes = k.shared_bytes;
    code.adjoint_shared_bytes = k.adjoint_shared_bytes;
    code.threads = k.block_dim > 0 ? k.block_dim : TILEC_GPU_THREADS;
    return code;
  }
  const std::vector<GpuImage>& images = kernel.module().signature().gpu_images;
  GpuChoice c = ChooseGpuVariant(kernel, CachedComputeCapability(device.ordinal), block_dim, CubinsAllowed());
  code.image = c.cubin ? &images[c.variant->image].cubin : &images[c.variant->image].ptx;
  code.shared_bytes = c.variant->shared_bytes;
  code.adjoint_shared_bytes = c.variant->adjoint_shared_bytes;
  code.threads = TILEC_GPU_THREADS;
  return code;
}

Packed Prepare(const Kernel& kernel, const std::vector<int64_t>& dim,
               const std::vector<KernelArg>& args, int block_dim, std::optional<Device> device,
               bool tiled_launch, bool hybrid = false) {
  if (kernel.is_null()) throw Error("launch of a null kernel");
  const KernelSignature& k = kernel.signature();
  if (!tiled_launch && k.tiled)
    throw Error("kernel `" + k.name + "` uses tile operations; launch it tiled (LaunchTiled) or in blocks of "
                "threads (LaunchHybrid)");
  if (tiled_launch && k.tiled && k.hybrid != hybrid)
    throw Error("kernel `" + k.name + "` was compiled for " + (k.hybrid ? "hybrid" : "tiled") + " launches, launched " +
                (hybrid ? "hybrid" : "tiled"));
  if (dim.empty() || dim.size() > TILEC_MAX_DIMS)
    throw Error("kernel `" + k.name + "`: `dim` must have 1 to 4 entries, got " +
                std::to_string(dim.size()));
  for (size_t i = 0; i < dim.size(); ++i) {
    if (dim[i] < 0)
      throw Error("kernel `" + k.name + "`: `dim` entries must be >= 0, got " +
                  std::to_string(dim[i]) + " at position " + std::to_string(i));
    // wp.tid() is signed 32-bit: a larger extent would hand kernels wrapped, negative indices.
    if (dim[i] > INT32_MAX)
      throw Error("kernel `" + k.name + "`: `dim` entry " + std::to_string(dim[i]) + " at position " +
                  std::to_string(i) + " is more than 2147483647, the largest index `wp.tid()` returns");
  }
  if (tiled_launch && (block_dim < 1 || block_dim > 1024))
    throw Error("kernel `" + k.name + "`: `block_dim` must be 1 to 1024, got " +
                std::to_string(block_dim));

  Packed out;
  out.device = device ? *device : GetDefaultDevice();
  CheckDevice(out.device);
  if (out.device.is_cpu() && !kernel.module().has_host_code())
    throw Error("kernel `" + k.name + "` cannot run on `cpu`: " + ModuleName(kernel) +
                " is a GPU module with no host code (compile with `tilec compile --arch=... -o "
                "kernels.so` for one module that runs on both)");
  if (out.device.is_cuda()) out.gpu = SelectGpuCode(kernel, out.device, tiled_launch ? block_dim : 0);
  // block_dim is a compile-time constant of a variant on every device (0: any); AOT GPU
  // variants were matched to it just above.
  bool gpu_aot = out.device.is_cuda() && !k.gpu_variants.empty();
  if (tiled_launch && !gpu_aot && k.block_dim > 0 && k.block_dim != block_dim)
    throw Error("kernel `" + k.name + "` was compiled for block_dim " +
                std::to_string(k.block_dim) + ", launched with block_dim " +
                std::to_string(block_dim));

  if (args.size() != k.params.size()) {
    std::string names;
    for (const ParamInfo& p : k.params) names += (names.empty() ? "`" : ", `") + p.name + "`";
    throw Error("kernel `" + k.name + "` takes " + std::to_string(k.params.size()) +
                " argument(s)" + (names.empty() ? "" : " (" + names + ")") + ", got " +
                std::to_string(args.size()));
  }

  out.values.reserve(args.size());
  out.value_sizes.reserve(args.size());
  out.pointers.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamInfo& p = k.params[i];
    const KernelArg& arg = args[i];
    std::vector<uint8_t> value;
    switch (p.kind) {
      case ParamKind::Array: {
        CheckArray(kernel, p, arg, out.device);
        // None arrives with every extent zero, so that checked access skips it and `if a:`
        // reads false; its unused extents are 1 as for any array.
        tilec_array a{};
        if (arg.array().is_null())
          for (int d = 0; d < TILEC_MAX_DIMS; ++d) a.shape[d] = d < p.ndim ? 0 : 1;
        else
          a = arg.array().ToAbi();
        value.resize(sizeof a);
        std::memcpy(value.data(), &a, sizeof a);
        out.value_sizes.push_back(0);
        break;
      }
      case ParamKind::Scalar:
        if (p.type.is_struct())
          throw Error(Where(k, p) + ": scalar parameter with a struct type in the signature");
        value = arg.PackScalar(Where(k, p), p.type.scalar);
        out.value_sizes.push_back(value.size());
        break;
      case ParamKind::Struct: {
        if (!p.type.is_struct())
          throw Error(Where(k, p) + ": struct parameter without a struct type in the signature");
        const StructLayout& s = kernel.structs()[p.type.struct_index];
        if (arg.kind() != KernelArg::Kind::Struct || arg.struct_name() != s.name)
          throw Error(Where(k, p) + ": expected `" + s.name + "`, got " + arg.Describe());
        if (arg.struct_bytes().size() != s.size)
          throw Error(Where(k, p) + ": a `" + s.name + "` value has " + std::to_string(s.size) +
                      " bytes, got " + std::to_string(arg.struct_bytes().size()));
        value = arg.struct_bytes();
        out.value_sizes.push_back(value.size());
        break;
      }
    }
    out.values.push_back(std::move(value));
  }
  for (auto& v : out.values) out.pointers.push_back(v.data());

  out.launch.ndim = static_cast<int32_t>(dim.size());
  out.launch.block_dim = tiled_launch ? block_dim : 0;
  out.launch.stream_bytes = CpuLastLevelCacheBytes();
  out.total = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    out.launch.dim[d] = d < static_cast<int>(dim.size()) ? dim[d] : 1;
    if (out.launch.dim[d] != 0 && out.total > (int64_t(1) << 62) / out.launch.dim[d])
      throw Error("kernel `" + k.name + "`: the launch grid has more than 2^62 indices");
    out.total *= out.launch.dim[d];
  }
  // A hybrid launch runs its threads as whole blocks: the block programs are the groups of
  // block_dim consecutive threads. As in Warp, a last block that the threads do not fill runs
  // with its extra lanes inactive: they take part in the block's tile operations and have no
  // effects of their own (the kernel guards them, see codegen/common/dispatch.cpp).
  if (hybrid) out.total = (out.total + block_dim - 1) / block_dim;
  return out;
}

// The runtime side of checked access: a zeroed record on the launch's device for a checked
// kernel to report into, and the error raised from it after the launch.
class AccessReport {
 public:
  AccessReport(const Kernel& kernel, Packed& p) : name_(kernel.name()), stream_(p.stream) {
    if (!kernel.signature().checked_access) return;
    buf_ = AllocBuffer(sizeof(tilec_access_error), p.device, true);
    p.launch.error = static_cast<tilec_access_error*>(buf_->ptr);
    p.zeroed_scratch = true;
  }
  void RaiseIfReported() const {
    if (!buf_) return;
    // The copy below runs on the legacy default stream, which does not wait for a
    // non-blocking stream.
    if (stream_ && buf_->device.is_cuda()) cuda::StreamSynchronize(buf_->device.ordinal, stream_);
    tilec_access_error e{};
    CopyDeviceToHost(buf_->device, &e, buf_->ptr, sizeof e);
    if (e.line == 0) return;
    if (e.ndim == TILEC_ASSERT_FAILED)
      throw AssertError("kernel `" + name_ + "`" + (e.line > 0 ? ", line " + std::to_string(e.line) : std::string()) +
                        ": assertion failed");
    auto tuple = [&](const int64_t* v) {
      std::string s = "(";
      for (int d = 0; d < e.ndim; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
      return s + (e.ndim == 1 ? ",)" : ")");
    };
    std::string where = e.line > 0 ? ", line " + std::to_string(e.line) : "";
    throw AccessError("kernel `" + name_ + "`" + where + ": index " + tuple(e.index) + " is out of bounds for " +
                      (e.of_tile ? "a tile" : "an array") + " of shape " + tuple(e.shape));
  }

 private:
  std::string name_;
  void* stream_ = nullptr;
  std::shared_ptr<Buffer> buf_;
};

// Enough chunks to balance uneven work, not so many that scheduling dominates.
int64_t Grain(int64_t total, bool tiled) {
  int64_t per = (total + CpuWorkerCount() * 8 - 1) / (CpuWorkerCount() * 8);
  return std::max<int64_t>(per, tiled ? 1 : 256);
}

std::atomic<const char*> cpu_kernel_in_flight{nullptr};

// Marks a CPU launch as running for CpuKernelInFlight, also when it ends by an exception.
class InFlight {
 public:
  explicit InFlight(const std::string& name) : saved_(cpu_kernel_in_flight.exchange(name.c_str())) {}
  ~InFlight() { cpu_kernel_in_flight.store(saved_); }
  InFlight(const InFlight&) = delete;
  InFlight& operator=(const InFlight&) = delete;

 private:
  const char* saved_;
};

// `args[w]` for worker w, or `args[0]` for all when `workers` is 1.
void RunCpu(tilec_cpu_kernel_fn fn, const std::vector<void*>* args, size_t workers,
            const tilec_launch& launch, int64_t total, bool in_order = false) {
  bool tiled = launch.block_dim > 0;
  // A chunk runs in pieces so that an interrupt request stops a long launch within about one
  // piece's time (16 block programs, or a few thousand threads) instead of the whole grid's;
  // a piece is one call of the kernel, which ends with one fence for its streaming stores.
  const int64_t piece = tiled ? 16 : 4096;
  if (in_order) {
    // Deterministic tile atomics: block programs one after another in launch order, each
    // adding its elements in row-major order, as the mode defines the result.
    for (int64_t begin = 0; begin < total; begin += piece) {
      if (InterruptPending()) throw Interrupted();
      fn(args[0].data(), &launch, begin, std::min(total, begin + piece));
    }
    return;
  }
  CpuParallelFor(total, Grain(total, tiled), [&](int64_t first, int64_t last, int worker) {
    void* const* mine = args[workers == 1 ? 0 : worker].data();
    for (int64_t begin = first; begin < last; begin += piece) {
      if (InterruptPending()) return;
      fn(mine, &launch, begin, std::min(last, begin + piece));
    }
  });
  if (InterruptPending()) throw Interrupted();
}

void RunCuda(const Kernel& kernel, Packed& p, bool adjoint, const std::vector<void*>& extra) {
  const KernelSignature& k = kernel.signature();
  const std::string& entry = adjoint ? k.adjoint_symbol : k.entry_symbol;
  uint32_t shared = adjoint ? p.gpu.adjoint_shared_bytes : p.gpu.shared_bytes;
  void* fn = cuda::GetFunction(p.device.ordinal, *p.gpu.image, entry, shared, k.name);
  // Deterministic tile atomics: a zeroed ticket, and one block per block program, so that no
  // block waits for a program that a block still waiting for its own turn would run later.
  std::shared_ptr<Buffer> ticket;
  bool ordered = k.deterministic && !adjoint;
  if (ordered) {
    ticket = AllocBuffer(sizeof(int64_t), p.device, true);
    p.launch.order = static_cast<int64_t*>(ticket->ptr);
    p.zeroed_scratch = true;
  }
  // Scratch memory is zeroed on the legacy default stream; a kernel on a non-blocking stream
  // would not wait for that.
  if (p.stream && p.zeroed_scratch) cuda::Synchronize(p.device.ordinal);
  std::vector<void*> params = p.pointers;
  params.insert(params.end(), extra.begin(), extra.end());
  params.push_back(&p.launch);
  uint32_t threads, grid;
  if (p.launch.block_dim > 0) {
    threads = static_cast<uint32_t>(p.launch.block_dim);
    grid = static_cast<uint32_t>(std::min<int64_t>(p.total, ordered ? INT32_MAX : TILEC_GPU_MAX_BLOCKS));
  } else {
    threads = static_cast<uint32_t>(p.gpu.threads);
    grid = static_cast<uint32_t>(std::min<int64_t>((p.total + threads - 1) / threads, INT32_MAX));
  }
  cuda::LaunchKernel(p.device.ordinal, fn, grid, threads, shared, params.data(), k.name, p.stream);
  if (ordered) {
    cuda::Synchronize(p.device.ordinal);  // the ticket must outlive the kernel
    p.launch.order = nullptr;
  }
}

void Run(const Kernel& kernel, const std::vector<int64_t>& dim,
         const std::vector<KernelArg>& args, int block_dim, std::optional<Device> device,
         bool tiled, bool hybrid = false, void* stream = nullptr) {
  Packed p = Prepare(kernel, dim, args, block_dim, device, tiled, hybrid);
  if (p.device.is_cuda()) p.stream = stream;  // CPU launches are synchronous: no stream
  if (p.total > 0) {
    AccessReport report(kernel, p);
    if (p.device.is_cpu()) {
      InFlight mark(kernel.name());
      RunCpu(kernel.CpuEntry(), &p.pointers, 1, p.launch, p.total, kernel.signature().deterministic);
    } else {
      RunCuda(kernel, p, false, {});
    }
    report.RaiseIfReported();
  }
  if (Tape* tape = Tape::Current())
    tape->Record({kernel, dim, args, tiled ? block_dim : 0, p.device, hybrid, p.stream});
}

}  // namespace

GpuChoice ChooseGpuVariant(const Kernel& kernel, int cc, int block_dim, bool allow_cubin) {
  const KernelSignature& k = kernel.signature();
  const std::vector<GpuImage>& images = kernel.module().signature().gpu_images;
  const GpuVariant* cubin = nullptr;
  const GpuVariant* ptx = nullptr;
  int ptx_arch = -1;
  for (const GpuVariant& v : k.gpu_variants) {
    if (k.tiled && v.block_dim != block_dim) continue;
    const GpuImage& g = images[v.image];
    int arch = ArchNumber(g.arch);
    if (arch < 0 || arch > cc) continue;
    if (allow_cubin && arch == cc && !g.cubin.empty() && !cubin) cubin = &v;
    if (!g.ptx.empty() && arch > ptx_arch) {
      ptx = &v;
      ptx_arch = arch;
    }
  }
  if (cubin) return {cubin, true};
  if (ptx) return {ptx, false};
  std::string have;
  std::vector<std::string> seen;
  for (const GpuVariant& v : k.gpu_variants) {
    std::string one = images[v.image].arch;
    if (k.tiled) one += " with block_dim " + std::to_string(v.block_dim);
    if (std::find(seen.begin(), seen.end(), one) != seen.end()) continue;
    seen.push_back(one);
    have += (have.empty() ? "" : ", ") + one;
  }
  std::string want = "sm_" + std::to_string(cc);
  if (k.tiled) want += " with block_dim " + std::to_string(block_dim);
  throw Error(ModuleName(kernel) + " has no variant of kernel `" + k.name + "` for " + want +
              " (it has " + (have.empty() ? "none" : have) + "); recompile it with `tilec compile --arch=...`" +
              (k.tiled ? " and `--block-dim=...`" : "") + " for this launch");
}

Device ValidateLaunch(const Kernel& kernel, const std::vector<int64_t>& dim,
                      const std::vector<KernelArg>& args, int block_dim,
                      std::optional<Device> device) {
  return Prepare(kernel, dim, args, block_dim, device, block_dim != 0).device;
}

void Launch(const Kernel& kernel, const std::vector<int64_t>& dim,
            const std::vector<KernelArg>& args, std::optional<Device> device) {
  Run(kernel, dim, args, 0, device, false);
}

void LaunchTiled(const Kernel& kernel, const std::vector<int64_t>& dim,
                 const std::vector<KernelArg>& args, int block_dim,
                 std::optional<Device> device) {
  Run(kernel, dim, args, block_dim, device, true);
}

void LaunchOnStream(const Kernel& kernel, const std::vector<int64_t>& dim,
                    const std::vector<KernelArg>& args, int block_dim,
                    std::optional<Device> device, void* stream) {
  // A hybrid variant (KernelSignature::hybrid) takes only hybrid launches: route it there.
  const bool hybrid = !kernel.is_null() && kernel.signature().hybrid;
  Run(kernel, dim, args, block_dim, device, block_dim != 0, hybrid, stream);
}

void LaunchHybrid(const Kernel& kernel, const std::vector<int64_t>& dim,
                  const std::vector<KernelArg>& args, int block_dim,
                  std::optional<Device> device) {
  Run(kernel, dim, args, block_dim, device, true, true);
}

void LaunchAdjoint(const RecordedLaunch& r) {
  bool tiled = r.block_dim > 0;
  Packed p = Prepare(r.kernel, r.dim, r.args, r.block_dim, r.device, tiled, r.hybrid);
  if (p.total == 0) return;
  if (p.device.is_cuda()) p.stream = r.stream;  // the adjoint runs where its forward ran
  AccessReport report(r.kernel, p);
  const size_t n = p.values.size();
  if (p.device.is_cpu()) {
    tilec_cpu_kernel_fn fn = r.kernel.CpuAdjoint();
    // Each worker gets its own zeroed adjoint slots: the runtime discards scalar adjoints,
    // and private slots keep the kernels' plain (non-atomic) accumulation race-free.
    int workers = CpuWorkerCount();
    std::vector<std::vector<uint8_t>> slots(static_cast<size_t>(workers) * n);
    std::vector<std::vector<void*>> per_worker(workers, p.pointers);
    for (int w = 0; w < workers; ++w) {
      for (size_t i = 0; i < n; ++i) {
        auto& s = slots[w * n + i];
        s.assign(std::max<size_t>(p.value_sizes[i], 1), 0);
        per_worker[w].push_back(p.value_sizes[i] ? s.data() : nullptr);
      }
    }
    {
      InFlight mark(r.kernel.name());
      RunCpu(fn, per_worker.data(), per_worker.size(), p.launch, p.total);
    }
    report.RaiseIfReported();
    return;
  }
  if (!r.kernel.signature().has_adjoint || r.kernel.signature().adjoint_symbol.empty())
    throw Error("kernel `" + r.kernel.name() + "` has no adjoint");
  // One zeroed device block holds every scalar slot; arrays get a null pointer.
  std::vector<size_t> offsets(n, 0);
  size_t bytes = 0;
  for (size_t i = 0; i < n; ++i) {
    offsets[i] = bytes;
    bytes += (p.value_sizes[i] + 15) / 16 * 16;
  }
  auto scratch = AllocBuffer(std::max<size_t>(bytes, 16), p.device, true);
  p.zeroed_scratch = true;
  std::vector<uint64_t> slot_values(n, 0);
  std::vector<void*> extra(n);
  for (size_t i = 0; i < n; ++i) {
    if (p.value_sizes[i])
      slot_values[i] = reinterpret_cast<uint64_t>(static_cast<char*>(scratch->ptr) + offsets[i]);
    extra[i] = &slot_values[i];
  }
  RunCuda(r.kernel, p, true, extra);
  cuda::Synchronize(p.device.ordinal);  // the kernel must finish before scratch is freed
  report.RaiseIfReported();
}

const char* CpuKernelInFlight() { return cpu_kernel_in_flight.load(); }

}  // namespace tilec::rt
