// `wp.config` (Warp's settable module of global options, with Warp's defaults) and
// `wp.ScopedTimer` (a context manager that prints "<name> took <ms> ms" as Warp's does,
// indented four spaces per enclosing timer), Warp's version and log levels, and
// `wp.clear_kernel_cache()` (removes the entries of tilec's on-disk kernel cache).
#include <chrono>
#include <cstdio>

#include "host/interp/args.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_enum.h"
#include "host/interp/wp_values.h"
#include "tilec/cache.h"
#include "tilec/runtime.h"

namespace tilec::host {

namespace {

struct ScopedTimerObj : Object {
  std::string TypeName() const override { return "ScopedTimer"; }
  std::string Repr() const override {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", static_cast<const void*>(this));
    return std::string("<warp.utils.ScopedTimer object at ") + buf + ">";
  }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override {
    if (name == "elapsed") return Value::Float(elapsed);
    if (name == "name") return MakeStr(name_);
    if (name == "extra_msg") return MakeStr(extra_msg);
    if (name == "active") return Value::Bool(active);
    if (name == "print") return Value::Bool(print);
    if (name == "timing_results") return MakeList({});
    return std::nullopt;
  }
  bool SetAttr(Interpreter& in, const std::string& name, const Value& v) override {
    if (name == "extra_msg") {
      extra_msg = host::Str(v);
      return true;
    }
    return false;
  }
  std::optional<Value> Enter(Interpreter& in) override {
    if (active) {
      if (synchronize) rt::Synchronize();
      if (print) {
        ++in.wp().timer_indent;
        if (WarpConfigFlag(in, "verbose")) in.out() << Indent(in) << name_ << " ..." << std::endl;
      }
      start = std::chrono::steady_clock::now();
    }
    return Value(shared_from_this());
  }
  void Exit(Interpreter& in) override {
    if (!active) return;
    if (synchronize) rt::Synchronize();
    elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (dict) {
      Value key = MakeStr(name_);
      const Value* list = dict->Find(key);
      if (auto* l = list ? list->As<ListObj>() : nullptr) l->items.push_back(Value::Float(elapsed));
    }
    if (print) {
      char ms[64];
      std::snprintf(ms, sizeof ms, "%.2f", elapsed);
      in.out() << Indent(in) << name_ << " took " << ms << " ms" << (extra_msg.empty() ? "" : " " + extra_msg) << "\n";
      --in.wp().timer_indent;
    }
  }
  static std::string Indent(Interpreter& in) {
    int n = in.wp().timer_indent;
    return n > 0 ? std::string(size_t(n) * 4, ' ') : "";
  }
  std::string name_, extra_msg;
  bool active = true, print = true, synchronize = false;
  std::shared_ptr<DictObj> dict;
  double elapsed = 0.0;
  std::chrono::steady_clock::time_point start;
};

// ScopedTimer the class: callable, with the class attribute `enabled`.
struct ScopedTimerType : PyTypeObj {
  using PyTypeObj::PyTypeObj;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override {
    if (name == "enabled") return Value::Bool(in.wp().timers_enabled);
    if (name == "indent") return Value::Int(in.wp().timer_indent);
    return std::nullopt;
  }
  bool SetAttr(Interpreter& in, const std::string& name, const Value& v) override {
    if (name == "enabled") {
      in.wp().timers_enabled = host::Truth(v);
      return true;
    }
    return false;
  }
};

}  // namespace

namespace {
const Value* ModuleOption(Interpreter& in, const std::string& name) {
  auto it = in.wp().module_options.find(name);
  return it == in.wp().module_options.end() ? nullptr : &it->second;
}
}  // namespace

bool WarpConfigFlag(Interpreter& in, const std::string& name) {
  if (const Value* v = ModuleOption(in, name)) return Truth(*v);
  const auto& config = in.wp().config;
  if (!config) return false;
  auto it = config->attrs.find(name);
  return it != config->attrs.end() && Truth(it->second);
}

int64_t WarpConfigInt(Interpreter& in, const std::string& name, int64_t fallback) {
  if (const Value* v = ModuleOption(in, name); v && v->IsInt()) return v->i();
  const auto& config = in.wp().config;
  if (!config) return fallback;
  auto it = config->attrs.find(name);
  return it != config->attrs.end() && it->second.IsInt() ? it->second.i() : fallback;
}

namespace {
std::string& DefaultMode() {
  static std::string mode = "release";
  return mode;
}
}  // namespace

void SetDefaultWarpMode(const std::string& mode) { DefaultMode() = mode; }

bool WarpDebugMode(Interpreter& in) {
  if (const Value* v = ModuleOption(in, "mode"); v && v->As<StrObj>()) return v->As<StrObj>()->s == "debug";
  const auto& config = in.wp().config;
  if (!config) return false;
  auto it = config->attrs.find("mode");
  auto* s = it != config->attrs.end() ? it->second.As<StrObj>() : nullptr;
  return s && s->s == "debug";
}

void DefineWarpConfigAndTimer(Interpreter& in, ModuleObj& m) {
  // One config per session, shared by every `import warp`.
  if (!in.wp().config) {
    auto config = std::make_shared<ModuleObj>("warp.config");
    auto& c = config->attrs;
    c["version"] = MakeStr("1.19.0");
    c["log_level"] = Value::Int(20);
    c["verify_fp"] = Value::Bool(false);
    c["verify_cuda"] = Value::Bool(false);
    c["print_launches"] = Value::Bool(false);
    c["mode"] = MakeStr(DefaultMode());
    c["verbose"] = Value::Bool(false);
    c["verbose_warnings"] = Value::Bool(false);
    c["quiet"] = Value::Bool(false);
    c["verify_autograd_array_access"] = Value::Bool(false);
    c["cache_kernels"] = Value::Bool(true);
    c["kernel_cache_dir"] = Value();
    c["cuda_output"] = Value();
    c["ptx_target_arch"] = Value();
    c["enable_backward"] = Value::Bool(true);
    c["llvm_cuda"] = Value::Bool(false);
    c["enable_graph_capture_module_load_by_default"] = Value::Bool(true);
    c["enable_mempools_at_init"] = Value::Bool(true);
    c["max_unroll"] = Value::Int(16);
    // Warp's determinism modes; NOT_GUARANTEED is 0, so the setting reads false as before.
    c["DeterministicMode"] = MakeEnumClass(in, "warp.config", "DeterministicMode", EnumFlavor::IntEnum,
                                           {{"NOT_GUARANTEED", Value::Int(0)}, {"RUN_TO_RUN", Value::Int(1)},
                                            {"GPU_TO_GPU", Value::Int(2)}});
    c["deterministic"] = c["DeterministicMode"].obj()->GetAttr(in, "NOT_GUARANTEED").value();
    // Warp's CPU runs one lane per block unless this is set; tilec's CPU always runs whole
    // blocks, so it reads true: a program that asks which results to expect from the CPU
    // (one lane's or the block's) learns the block's.
    c["enable_cpu_blocks"] = Value::Bool(true);
    in.wp().config = config;
  }
  m.attrs["config"] = Value(in.wp().config);
  m.attrs["DeterministicMode"] = in.wp().config->attrs.at("DeterministicMode");
  m.attrs["__version__"] = MakeStr("1.19.0");
  // Warp's log levels, for `wp.config.log_level = wp.LOG_WARNING`.
  const std::pair<const char*, int> kLevels[] = {{"LOG_DEBUG", 10}, {"LOG_INFO", 20}, {"LOG_WARNING", 30}, {"LOG_ERROR", 40}};
  for (auto [name, level] : kLevels) m.attrs[name] = Value::Int(level);
  m.Def("clear_kernel_cache", [](Interpreter&, CallArgs& a) {
    ArgBinder b("clear_kernel_cache", a, {}, 0);
    rt::ClearKernelCache();
    return Value();
  });
  m.Def("set_module_options", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("set_module_options", a, {"options", "module"}, 1);
    auto* d = b.Get(0).As<DictObj>();
    if (!d) TypeError("set_module_options(): options must be a dict, not " + TypeName(b.Get(0)));
    for (const auto& [k, v] : d->items) in.wp().module_options[ToStr(k, "set_module_options()")] = v;
    return Value();
  });
  m.Def("get_module_options", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("get_module_options", a, {"module"}, 0);
    auto d = std::make_shared<DictObj>();
    for (const char* k : {"enable_backward", "max_unroll", "mode"}) {
      Value v = std::string(k) == "mode" ? Value(MakeStr(WarpDebugMode(in) ? "debug" : "release"))
                : std::string(k) == "max_unroll" ? Value::Int(WarpConfigInt(in, k, 16))
                                                 : Value::Bool(WarpConfigFlag(in, k));
      d->Put(MakeStr(k), v);
    }
    for (const auto& [k, v] : in.wp().module_options) d->Put(MakeStr(k), v);
    return Value(d);
  });
  m.attrs["ScopedTimer"] = Value(std::make_shared<ScopedTimerType>("ScopedTimer", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("ScopedTimer", a,
                {"name", "active", "print", "detailed", "dict", "use_nvtx", "color", "synchronize", "cuda_filter",
                 "report_func", "skip_tape"},
                1);
    auto t = std::make_shared<ScopedTimerObj>();
    t->name_ = Str(b.Get(0));
    t->active = (!b.Has(1) || Truth(b.Get(1))) && in.wp().timers_enabled;
    t->print = !b.Has(2) || Truth(b.Get(2));
    t->synchronize = b.Has(7) && Truth(b.Get(7));
    if (b.Has(4) && !b.Get(4).IsNone()) {
      t->dict = b.Get(4).AsRef<DictObj>();
      if (!t->dict) TypeError("ScopedTimer(): dict must be a dict, not " + TypeName(b.Get(4)));
      Value key = MakeStr(t->name_);
      if (!t->dict->Find(key)) t->dict->Put(key, MakeList({}));
    }
    return Value(t);
  }));
}

}  // namespace tilec::host
