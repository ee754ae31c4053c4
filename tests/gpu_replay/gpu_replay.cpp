// gpu_replay: replays the execution tests' recorded kernel launches (TILEC_GPU_RECORD, format in
// record_format.h) on a GPU through the runtime alone and compares with the CPU results, so the
// GPU check runs on a machine without LLVM or ANTLR. Without a GPU it validates every record.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "support/half.h"
#include "tests/gpu_replay/record_format.h"
#include "tilec/runtime.h"

using namespace tilec;
namespace fs = std::filesystem;

namespace {

constexpr double kAbsTolerance = 1e-6;

struct Options {
  rt::Device device = rt::Device::Cuda(0);
  double rel = 1e-5;
  std::string dir;
};

struct Failure {
  std::string why;
};

std::string ReadFile(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw Failure{"cannot read " + p.filename().string()};
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// A record made ready to launch: its kernel, regions on the device, views and scalars.
struct Prepared {
  rt::Module module;
  rt::Kernel kernel;
  std::vector<rt::Array> regions;
  std::vector<std::vector<uint8_t>> host_regions;  // CPU validation keeps the bytes here
  std::vector<rt::KernelArg> args;
  std::vector<rt::ArrayDType> dtypes;  // per argument
};

rt::KernelArg ScalarArg(ScalarType t, const std::vector<uint8_t>& b) {
  auto as = [&](auto v) {
    std::memcpy(&v, b.data(), sizeof v);
    return v;
  };
  switch (t) {
    case ScalarType::Bool: return rt::KernelArg::Typed(t, b[0] ? 1.0 : 0.0);
    case ScalarType::Int8: return rt::KernelArg::TypedInt(t, as(int8_t()));
    case ScalarType::Int16: return rt::KernelArg::TypedInt(t, as(int16_t()));
    case ScalarType::Int32: return rt::KernelArg::TypedInt(t, as(int32_t()));
    case ScalarType::Int64: return rt::KernelArg::TypedInt(t, as(int64_t()));
    case ScalarType::UInt8: return rt::KernelArg::TypedInt(t, as(uint8_t()));
    case ScalarType::UInt16: return rt::KernelArg::TypedInt(t, as(uint16_t()));
    case ScalarType::UInt32: return rt::KernelArg::TypedInt(t, as(uint32_t()));
    case ScalarType::UInt64: return rt::KernelArg::TypedInt(t, int64_t(as(uint64_t())));
    case ScalarType::Float16: return rt::KernelArg::Typed(t, HalfToFloat(as(uint16_t())));
    case ScalarType::BFloat16: return rt::KernelArg::Typed(t, BFloat16ToFloat(as(uint16_t())));
    case ScalarType::Float32: return rt::KernelArg::Typed(t, as(float()));
    case ScalarType::Float64: return rt::KernelArg::Typed(t, as(double()));
  }
  throw Failure{"unknown scalar type"};
}

// Everything that can be checked without running: the signature parses and holds the kernel
// with PTX, the recorded arguments agree with its parameters, and the runtime's own launch
// validation accepts them on `device` (cpu: views over host copies).
Prepared Prepare(const gpu_record::Record& r, const fs::path& sig_path, const rt::Device& device) {
  Prepared p;
  try {
    p.module = rt::Module::FromResolver(rt::ParseSignature(ReadFile(sig_path)), {});
    p.kernel = p.module.GetKernel(r.kernel);
  } catch (const rt::Error& e) {
    throw Failure{std::string("bad signature: ") + e.what()};
  }
  const rt::KernelSignature& k = p.kernel.signature();
  const std::vector<rt::StructLayout>& structs = p.kernel.structs();
  if (k.ptx.empty()) throw Failure{"the signature has no PTX"};
  if (k.ptx.find(".entry " + k.entry_symbol) == std::string::npos &&
      k.ptx.find(".entry\t" + k.entry_symbol) == std::string::npos)
    throw Failure{"the PTX has no .entry " + k.entry_symbol};
  if (k.tiled != r.tiled) throw Failure{"the record and the signature disagree on `tiled`"};
  if (k.tiled && (r.block_dim < 1 || r.block_dim > 1024 || (k.block_dim > 0 && k.block_dim != r.block_dim)))
    throw Failure{"block_dim " + std::to_string(r.block_dim) + " does not fit the PTX variant"};
  if (k.params.size() != r.args.size())
    throw Failure{"the record has " + std::to_string(r.args.size()) + " arguments, the kernel " +
                  std::to_string(k.params.size()) + " parameters"};

  for (size_t i = 0; i < r.before.size(); ++i) {
    if (device.is_cuda()) {
      // A zero-byte region still gets storage so that empty views have an address.
      std::vector<uint8_t> bytes = r.before[i];
      if (bytes.empty()) bytes.push_back(0);
      p.regions.push_back(rt::Array::FromHost(bytes.data(), {int64_t(bytes.size())}, ScalarType::UInt8, device));
    } else {
      p.host_regions.push_back(r.before[i]);
      p.host_regions.back().push_back(0);
    }
  }
  for (size_t i = 0; i < r.args.size(); ++i) {
    const gpu_record::Arg& a = r.args[i];
    const rt::ParamInfo& param = k.params[i];
    const std::string where = "argument " + std::to_string(i) + " (`" + param.name + "`)";
    rt::ArrayDType dtype;
    std::string want_name;
    if (param.type.is_struct()) {
      if (param.type.struct_index < 0 || size_t(param.type.struct_index) >= structs.size())
        throw Failure{where + ": the signature names no struct"};
      const rt::StructLayout& s = structs[size_t(param.type.struct_index)];
      dtype = rt::ArrayDType::Struct(s);
      want_name = "struct:" + s.name;
    } else {
      dtype = param.type.scalar;
      want_name = std::string(ScalarName(param.type.scalar));
    }
    if (a.dtype != want_name || a.elem_size != dtype.size())
      throw Failure{where + ": recorded as " + a.dtype + " (" + std::to_string(a.elem_size) + " bytes), the kernel takes " +
                    want_name};
    p.dtypes.push_back(dtype);
    if ((param.kind == rt::ParamKind::Array) != a.is_array)
      throw Failure{where + ": recorded as " + (a.is_array ? "an array" : "a value") + ", the kernel takes " +
                    rt::ParamTypeName(param, structs)};
    if (a.is_array) {
      if (int(a.array.shape.size()) != param.ndim) throw Failure{where + ": wrong number of dimensions"};
      void* base;
      std::shared_ptr<void> keep;
      if (device.is_cuda()) {
        const rt::Array& region = p.regions[size_t(a.array.region)];
        base = static_cast<uint8_t*>(region.data()) + a.array.offset;
        keep = std::make_shared<rt::Array>(region);
      } else {
        base = p.host_regions[size_t(a.array.region)].data() + a.array.offset;
      }
      p.args.push_back(rt::Array::Wrap(base, a.array.shape, a.array.strides, dtype, device, keep));
    } else if (param.kind == rt::ParamKind::Struct) {
      p.args.push_back(rt::KernelArg::Struct(structs[size_t(param.type.struct_index)].name, a.bytes));
    } else {
      rt::KernelArg arg = ScalarArg(param.type.scalar, a.bytes);
      if (arg.PackScalar(where, param.type.scalar) != a.bytes)
        throw Failure{where + ": the recorded value does not round-trip"};
      p.args.push_back(arg);
    }
  }
  try {
    rt::ValidateLaunch(p.kernel, r.dim, p.args, r.tiled ? r.block_dim : 0, device);
  } catch (const rt::Error& e) {
    throw Failure{std::string("launch rejected: ") + e.what()};
  }
  return p;
}

double ToDouble(ScalarType t, const uint8_t* b) {
  uint16_t h;
  float f;
  double d;
  switch (t) {
    case ScalarType::Float16: std::memcpy(&h, b, 2); return HalfToFloat(h);
    case ScalarType::BFloat16: std::memcpy(&h, b, 2); return BFloat16ToFloat(h);
    case ScalarType::Float32: std::memcpy(&f, b, 4); return f;
    default: std::memcpy(&d, b, 8); return d;
  }
}

// Compares the regions after the GPU launch with the CPU's: bytes exactly, except float
// elements (any NaN matches any NaN; within tolerance where the record says the order of
// summation differs) and arrays holding atomics' previous values (shape only).
std::string Compare(const gpu_record::Record& r, const Prepared& p, const std::vector<std::vector<uint8_t>>& got,
                    double rel) {
  enum : uint8_t { kExact, kFloat, kCovered, kUnchecked };
  for (size_t ri = 0; ri < r.after.size(); ++ri) {
    const std::vector<uint8_t>& want = r.after[ri];
    std::vector<uint8_t> cls(want.size(), kExact);
    std::vector<ScalarType> ftype(want.size(), ScalarType::Float32);
    for (size_t ai = 0; ai < r.args.size(); ++ai) {
      const gpu_record::Arg& a = r.args[ai];
      if (!a.is_array || a.array.region != int(ri)) continue;
      const bool shape_only = std::count(r.flags.shape_only.begin(), r.flags.shape_only.end(), int(ai)) > 0;
      const rt::ArrayDType& dt = p.dtypes[ai];
      const bool is_float = !dt.is_struct() && IsFloat(dt.scalar);
      if (!shape_only && !is_float) continue;
      std::vector<int64_t> shape = a.array.shape, idx(shape.size(), 0);
      int64_t n = 1;
      for (int64_t s : shape) n *= s;
      for (int64_t e = 0; e < n; ++e) {
        int64_t off = a.array.offset;
        for (size_t d = 0; d < shape.size(); ++d) off += idx[d] * a.array.strides[d];
        for (uint32_t b = 0; b < a.elem_size; ++b) {
          uint8_t& c = cls[size_t(off) + b];
          if (shape_only) c = kUnchecked;
          else if (c != kUnchecked) c = b == 0 ? kFloat : kCovered;
        }
        if (!shape_only) ftype[size_t(off)] = dt.scalar;
        for (int d = int(shape.size()) - 1; d >= 0 && ++idx[size_t(d)] == shape[size_t(d)]; --d) idx[size_t(d)] = 0;
      }
    }
    size_t bad = 0, first = 0;
    std::string first_what;
    for (size_t i = 0; i < want.size(); ++i) {
      bool ok = true;
      std::string what;
      if (cls[i] == kExact) {
        ok = got[ri][i] == want[i];
        if (!ok) what = "byte " + std::to_string(got[ri][i]) + ", CPU " + std::to_string(want[i]);
      } else if (cls[i] == kFloat) {
        const ScalarType t = ftype[i];
        const size_t size = ScalarSize(t);
        const double g = ToDouble(t, &got[ri][i]), w = ToDouble(t, &want[i]);
        if (std::isnan(g) || std::isnan(w)) ok = std::isnan(g) && std::isnan(w);
        else if (r.flags.tolerant) {
          const double tr = t == ScalarType::Float16 ? std::max(rel, 1e-3)
                            : t == ScalarType::BFloat16 ? std::max(rel, 1e-2) : rel;
          ok = std::fabs(g - w) <= kAbsTolerance + tr * std::fabs(w);
        } else {
          ok = std::memcmp(&got[ri][i], &want[i], size) == 0;
        }
        if (!ok) {
          char buf[96];
          std::snprintf(buf, sizeof buf, "%s %.9g, CPU %.9g", std::string(ScalarName(t)).c_str(), g, w);
          what = buf;
        }
      }
      if (!ok && bad++ == 0) first = i, first_what = what;
    }
    if (bad)
      return std::to_string(bad) + " mismatch(es) in region " + std::to_string(ri) + ", first at byte " +
             std::to_string(first) + ": GPU " + first_what;
  }
  return "";
}

int Usage() {
  std::fprintf(stderr,
               "usage: gpu_replay [--device cuda:N|cpu] [--tolerance R] DIR\n"
               "  replays DIR's *.rec/*.sig kernel records (TILEC_GPU_RECORD=DIR exec_test) and compares\n"
               "  with the CPU results: bit-exact, floats where summation order differs within relative R\n"
               "  (default 1e-5; float16 at least 1e-3, bfloat16 at least 1e-2) plus absolute 1e-6\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      try {
        opt.device = rt::Device::Parse(argv[++i]);
      } catch (const rt::Error& e) {
        std::fprintf(stderr, "gpu_replay: %s\n", e.what());
        return 2;
      }
    } else if (a == "--tolerance" && i + 1 < argc) {
      char* end = nullptr;
      opt.rel = std::strtod(argv[++i], &end);
      if (!end || *end || !(opt.rel >= 0)) return Usage();
    } else if (a == "-h" || a == "--help") {
      Usage();
      return 0;
    } else if (!a.empty() && a[0] != '-' && opt.dir.empty()) {
      opt.dir = a;
    } else {
      return Usage();
    }
  }
  if (opt.dir.empty()) return Usage();
  std::vector<fs::path> records;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(opt.dir, ec))
    if (e.path().extension() == ".rec") records.push_back(e.path());
  if (ec) {
    std::fprintf(stderr, "gpu_replay: cannot read %s: %s\n", opt.dir.c_str(), ec.message().c_str());
    return 2;
  }
  std::sort(records.begin(), records.end());

  rt::SetNoticeHandler(nullptr);
  bool run_gpu = opt.device.is_cuda();
  std::string no_gpu;
  if (run_gpu && !rt::IsCudaAvailable()) {
    no_gpu = rt::CudaUnavailableReason();
    run_gpu = false;
  } else if (run_gpu && opt.device.ordinal >= rt::CudaDeviceCount()) {
    no_gpu = opt.device.Name() + " does not exist";
    run_gpu = false;
  } else if (!run_gpu) {
    no_gpu = "--device cpu";
  }
  if (!run_gpu) std::printf("no GPU: device part skipped (%s); validating the records only\n", no_gpu.c_str());
  const rt::Device device = run_gpu ? opt.device : rt::Device::Cpu();

  int passed = 0, failed = 0, not_recorded = 0, validated = 0, tolerant = 0, shape_only = 0;
  for (const fs::path& rec_path : records) {
    const std::string name = rec_path.stem().string();
    gpu_record::Record r;
    try {
      r = gpu_record::Parse(ReadFile(rec_path));
      if (!r.skip.empty()) {
        ++not_recorded;
        continue;
      }
      Prepared p = Prepare(r, fs::path(rec_path).replace_extension(".sig"), device);
      if (!run_gpu) {
        ++validated;
        continue;
      }
      if (r.tiled) rt::LaunchTiled(p.kernel, r.dim, p.args, r.block_dim, device);
      else rt::Launch(p.kernel, r.dim, p.args, device);
      rt::Synchronize(device);
      std::vector<std::vector<uint8_t>> got;
      for (size_t i = 0; i < p.regions.size(); ++i) {
        got.push_back(p.regions[i].ToHostBytes());
        got.back().resize(r.after[i].size());
      }
      std::string diff = Compare(r, p, got, opt.rel);
      if (!diff.empty()) throw Failure{diff + (r.flags.tolerant ? " (within-tolerance record: " + r.flags.why + ")" : "")};
      ++passed;
      tolerant += r.flags.tolerant;
      for (int i : r.flags.shape_only) {
        ++shape_only;
        std::printf("note %s: argument %d holds values derived from atomic_add's returned previous values, "
                    "which depend on the update order: checked for shape only\n",
                    name.c_str(), i);
      }
    } catch (const Failure& f) {
      ++failed;
      std::printf("FAIL %s (kernel %s): %s\n", name.c_str(), r.kernel.empty() ? "?" : r.kernel.c_str(), f.why.c_str());
    } catch (const std::exception& e) {
      ++failed;
      std::printf("FAIL %s (kernel %s): %s\n", name.c_str(), r.kernel.empty() ? "?" : r.kernel.c_str(), e.what());
    }
    std::fflush(stdout);
  }
  std::string reasons;
  auto add = [&](int n, const std::string& why) {
    if (n) reasons += (reasons.empty() ? "" : ", ") + std::to_string(n) + " " + why;
  };
  add(validated, "no GPU: device part skipped, records validated");
  add(not_recorded, "not recorded at record time");
  const int skipped = validated + not_recorded;
  std::printf("gpu_replay: %zu records, %d passed, %d failed, %d skipped%s\n", records.size(), passed, failed,
              skipped, reasons.empty() ? "" : (" (" + reasons + ")").c_str());
  if (run_gpu && (tolerant || shape_only))
    std::printf("gpu_replay: %d passed records compared floats within relative %g + absolute %g; %d arrays "
                "checked for shape only\n",
                tolerant, opt.rel, kAbsTolerance, shape_only);
  if (records.empty()) {
    std::printf("gpu_replay: no records in %s\n", opt.dir.c_str());
    return 1;
  }
  return failed ? 1 : 0;
}
