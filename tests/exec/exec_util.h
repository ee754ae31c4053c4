// Helpers for execution tests: host buffers viewed as tilec_array (any shape, element
// strides), and launching a compiled entry over a grid on the calling thread. With
// TILEC_GPU_RECORD=DIR each launch is also recorded for gpu_replay (tests/gpu_replay).
#pragma once
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "runtime/include/tilec/abi.h"
#include "runtime/include/tilec/module.h"
#include "runtime/include/tilec/signature.h"
#include "tests/gpu_replay/record_format.h"

namespace tilec::testing {

// The order docs/semantics.md gives every reduction, written out independently of the
// compiler: 32 partials (element k into partial k % 32, in increasing k, each starting from
// `pad`), a last chunk that also combines the partials it does not reach with `pad`, then
// partial i with partial i + w for w = 16, 8, 4, 2, 1. `pad` is -0.0 for float sums, 1 for
// products, the first element for min and max.
template <class T, class F>
T FoldInDocumentedOrder(const std::vector<T>& v, T pad, F f) {
  constexpr size_t kLanes = 32;
  std::vector<T> p(kLanes, pad);
  for (size_t k = 0; k < v.size(); ++k) p[k % kLanes] = f(p[k % kLanes], v[k]);
  if (v.size() % kLanes != 0)
    for (size_t j = v.size() % kLanes; j < kLanes; ++j) p[j] = f(p[j], pad);
  for (size_t w = kLanes / 2; w >= 1; w /= 2)
    for (size_t i = 0; i < w; ++i) p[i] = f(p[i], p[i + w]);
  return p[0];
}

// A view over `data` (not owned). Strides are in elements; empty means row-major.
template <class T>
tilec_array View(T* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {}) {
  tilec_array a{};
  a.data = data;
  a.grad = nullptr;
  int nd = int(shape.size());
  if (strides.empty()) {
    strides.assign(nd, 1);
    for (int d = nd - 2; d >= 0; --d) strides[d] = strides[d + 1] * shape[d + 1];
  }
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    a.shape[d] = d < nd ? shape[d] : 1;
    a.strides[d] = d < nd ? strides[d] * int64_t(sizeof(T)) : 0;
  }
  return a;
}

// --- GPU recording (TILEC_GPU_RECORD=DIR; format in tests/gpu_replay/record_format.h) ---

// A module whose entries may be recorded: its host signature types the launch arguments, and
// `gpu` gives the sm_90 signature (PTX for `block_dim`) and the replay flags of its kernels.
struct GpuRecordModule {
  rt::ModuleSignature host;
  std::function<bool(int block_dim, rt::ModuleSignature& gpu, std::map<std::string, gpu_record::KernelFlags>& flags,
                     std::string& error)>
      gpu;
};

inline const char* GpuRecordDir() {
  const char* d = std::getenv("TILEC_GPU_RECORD");
  return d && *d ? d : nullptr;
}

// Entry address -> (module, kernel). A later JIT may reuse a freed module's address; its
// registration then replaces the stale one before any launch can reach it.
inline std::map<void*, std::pair<std::shared_ptr<GpuRecordModule>, std::string>>& GpuRecordEntries() {
  static std::map<void*, std::pair<std::shared_ptr<GpuRecordModule>, std::string>> entries;
  return entries;
}

inline void GpuRecordRegister(void* entry, std::shared_ptr<GpuRecordModule> module, const std::string& kernel) {
  if (entry) GpuRecordEntries()[entry] = {std::move(module), kernel};
}

struct GpuRecording {
  gpu_record::Record record;
  std::string name;
  std::shared_ptr<GpuRecordModule> module;
  std::vector<std::pair<const uint8_t*, size_t>> regions;  // host memory of each region
};

inline std::string GpuRecordTestName() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = t ? std::string(t->test_suite_name()) + "." + t->name() : "NoTest";
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') c = '_';
  return name;
}

// The argument bytes before the launch; a launch that cannot be recorded keeps its reason in
// `record.skip`.
inline GpuRecording GpuRecordBefore(void* entry, const std::vector<void*>& args, const std::vector<int64_t>& dim,
                                    int block_dim) {
  GpuRecording rec;
  rec.record.test = GpuRecordTestName();
  static std::map<std::string, int> counters;
  rec.name = rec.record.test + "." + std::to_string(counters[rec.record.test]++);
  auto it = GpuRecordEntries().find(entry);
  if (it == GpuRecordEntries().end()) {
    rec.record.kernel = "?";
    rec.record.skip = "the entry was not compiled through JitBuilt or CompileText";
    return rec;
  }
  rec.module = it->second.first;
  rec.record.kernel = it->second.second;
  const rt::KernelSignature* k = nullptr;
  for (const rt::KernelSignature& s : rec.module->host.kernels)
    if (s.name == rec.record.kernel) k = &s;
  if (!k || k->params.size() != args.size()) {
    rec.record.skip = "the arguments do not match the kernel's parameters";
    return rec;
  }
  rec.record.tiled = k->tiled;
  rec.record.block_dim = k->tiled ? (block_dim > 0 ? block_dim : 64) : 0;
  rec.record.dim = dim;
  const std::vector<rt::StructLayout>& structs = rec.module->host.structs;
  auto type_of = [&](const rt::ElemType& e, uint32_t& size) -> std::string {
    if (e.is_struct()) {
      if (e.struct_index >= int(structs.size())) return size = 0, "?";
      size = structs[size_t(e.struct_index)].size;
      return "struct:" + structs[size_t(e.struct_index)].name;
    }
    size = uint32_t(ScalarSize(e.scalar));
    return std::string(ScalarName(e.scalar));
  };
  // Overlapping arrays share a region so that aliasing replays as it ran.
  struct Span { const uint8_t* lo; const uint8_t* hi; size_t arg; };
  std::vector<Span> spans;
  rec.record.args.resize(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const rt::ParamInfo& p = k->params[i];
    gpu_record::Arg& a = rec.record.args[i];
    a.dtype = type_of(p.type, a.elem_size);
    if (a.elem_size == 0) {
      rec.record.skip = "an unknown struct type";
      return rec;
    }
    if (p.kind != rt::ParamKind::Array) {
      const uint8_t* v = static_cast<const uint8_t*>(args[i]);
      a.bytes.assign(v, v + a.elem_size);
      continue;
    }
    const tilec_array* t = static_cast<const tilec_array*>(args[i]);
    if (t->grad) {
      rec.record.skip = "an array with a gradient buffer";
      return rec;
    }
    a.is_array = true;
    a.array.shape.assign(t->shape, t->shape + p.ndim);
    a.array.strides.assign(t->strides, t->strides + p.ndim);
    int64_t lo, hi;
    gpu_record::Span(a.array.shape, a.array.strides, a.elem_size, lo, hi);
    const uint8_t* base = static_cast<const uint8_t*>(t->data);
    if (hi == lo || !base) spans.push_back({nullptr, nullptr, i});
    else spans.push_back({base + lo, base + hi, i});
  }
  std::sort(spans.begin(), spans.end(), [](const Span& x, const Span& y) { return x.lo < y.lo; });
  for (const Span& s : spans) {
    const tilec_array* t = static_cast<const tilec_array*>(args[s.arg]);
    gpu_record::ArrayArg& a = rec.record.args[s.arg].array;
    if (!s.lo) {
      rec.regions.push_back({nullptr, 0});
    } else if (rec.regions.empty() || !rec.regions.back().first ||
               s.lo >= rec.regions.back().first + rec.regions.back().second) {
      rec.regions.push_back({s.lo, size_t(s.hi - s.lo)});
    } else {
      auto& r = rec.regions.back();
      r.second = std::max(r.second, size_t(s.hi - r.first));
    }
    a.region = int(rec.regions.size() - 1);
    a.offset = rec.regions.back().first ? static_cast<const uint8_t*>(t->data) - rec.regions.back().first : 0;
  }
  for (auto [p, n] : rec.regions) rec.record.before.emplace_back(p, p + n);
  return rec;
}

// The results, the GPU module and both files; a failure here is reported, never the test's.
inline void GpuRecordAfter(GpuRecording& rec) {
  namespace fs = std::filesystem;
  try {
    const fs::path dir = GpuRecordDir();
    fs::create_directories(dir);
    rt::ModuleSignature gpu;
    if (rec.record.skip.empty()) {
      for (auto [p, n] : rec.regions) rec.record.after.emplace_back(p, p + n);
      std::map<std::string, gpu_record::KernelFlags> flags;
      std::string error;
      // Only tiled code depends on block_dim; 64 for the rest shares one compile per module.
      if (!rec.module->gpu(rec.record.tiled ? rec.record.block_dim : 64, gpu, flags, error))
        rec.record.skip = "no PTX: " + error.substr(0, error.find('\n'));
      else if (auto f = flags.find(rec.record.kernel); f != flags.end())
        rec.record.flags = f->second;
    }
    if (rec.record.skip.empty()) {
      std::ofstream(dir / (rec.name + ".sig"), std::ios::binary) << rt::SerializeSignature(gpu);
    } else {
      std::fprintf(stderr, "tilec gpu record: %s not recorded: %s\n", rec.name.c_str(), rec.record.skip.c_str());
    }
    std::ofstream out(dir / (rec.name + ".rec"), std::ios::binary);
    out << gpu_record::Serialize(rec.record);
    if (!out) std::fprintf(stderr, "tilec gpu record: cannot write %s\n", (dir / (rec.name + ".rec")).c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tilec gpu record: %s not recorded: %s\n", rec.name.c_str(), e.what());
  }
}

// Runs the grid `dim` (1-4 extents) through `entry`, all indices in one call. `stream_bytes`
// is tilec_launch::stream_bytes (0: the default threshold for streaming stores).
inline void Launch(void* entry, std::vector<void*> args, std::vector<int64_t> dim, int block_dim = 0,
                   int64_t stream_bytes = 0) {
  ASSERT_NE(entry, nullptr);
  tilec_launch l{};
  l.stream_bytes = stream_bytes;
  l.ndim = int32_t(dim.size());
  int64_t total = 1;
  for (int d = 0; d < TILEC_MAX_DIMS; ++d) {
    l.dim[d] = d < int(dim.size()) ? dim[d] : 1;
    total *= l.dim[d];
  }
  l.block_dim = block_dim;
  std::optional<GpuRecording> rec;
  if (GpuRecordDir()) rec = GpuRecordBefore(entry, args, dim, block_dim);
  reinterpret_cast<tilec_cpu_kernel_fn>(entry)(args.data(), &l, 0, total);
  if (rec) GpuRecordAfter(*rec);
}

// Concurrent atomic adds to one destination may land in any order (LANGUAGE.md §5), so the
// previous values they return are checked against the semantics rather than one order: they
// must be those of SOME sequential order. Each contribution is (previous value, addend); from
// `initial`, every step must find an unused contribution whose previous value equals the
// running value (greedy is enough: equal previous values mean interchangeable steps), and the
// last running value must be `final_value`. `add` rounds as the destination type does.
template <class T, class Add>
::testing::AssertionResult SomeOrderExplains(T initial, std::vector<std::pair<T, T>> contributions,
                                             Add add, T final_value) {
  T cur = initial;
  std::vector<bool> used(contributions.size(), false);
  for (size_t step = 0; step < contributions.size(); ++step) {
    size_t k = 0;
    while (k < contributions.size() && (used[k] || !(contributions[k].first == cur))) ++k;
    if (k == contributions.size())
      return ::testing::AssertionFailure() << "no update returned the running value at step " << step;
    used[k] = true;
    cur = add(cur, contributions[k].second);
  }
  if (!(cur == final_value)) return ::testing::AssertionFailure() << "the final value is not the sum of the updates";
  return ::testing::AssertionSuccess();
}

}  // namespace tilec::testing
