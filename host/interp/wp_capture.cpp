// Graph capture (wp.ScopedCapture, capture_begin/capture_end, capture_launch): the kernel
// launches and array clears/fills issued during a capture are recorded, not run, and
// capture_launch replays them in order, as Warp's graphs do on the CPU and on GPUs. Operations
// a graph cannot replay here (copies, assigns, tape passes) raise inside a capture rather than
// being left out of the replay.
#include "host/interp/args.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/wp_values.h"

namespace tilec::host {
namespace {

struct GraphObj : Object {
  std::string TypeName() const override { return "warp.Graph"; }
  std::string Repr() const override {
    return "<warp.Graph of " + std::to_string(ops.size()) + " operation" + (ops.size() == 1 ? "" : "s") + ">";
  }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "device") return MakeStr(device.Name());
    return std::nullopt;
  }
  rt::Device device = rt::Device::Cpu();
  std::vector<std::function<void()>> ops;
};

void Begin(Interpreter& in, const Value& device_arg) {
  WpState& st = in.wp();
  if (st.capture) RuntimeError("Graph capture already in progress");
  auto g = std::make_shared<GraphObj>();
  g->device = DeviceArg(device_arg, "capture_begin()").value_or(rt::GetDefaultDevice());
  st.capture = g;
}

Value End(Interpreter& in) {
  WpState& st = in.wp();
  if (!st.capture) RuntimeError("capture_end(): no graph capture is in progress");
  Value g(std::static_pointer_cast<GraphObj>(st.capture));
  st.capture.reset();
  return g;
}

// wp.ScopedCapture: capture_begin on entry, capture_end on exit; `.graph` is the result.
struct ScopedCaptureObj : Object {
  std::string TypeName() const override { return "warp.ScopedCapture"; }
  std::optional<Value> Enter(Interpreter& in) override {
    Begin(in, device);
    return Value(shared_from_this());
  }
  void Exit(Interpreter& in) override { graph = End(in); }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "graph") return graph;
    if (name == "device") return device;
    return std::nullopt;
  }
  Value device, graph;
};

}  // namespace

bool RecordInCapture(Interpreter& in, const std::function<void()>& op) {
  const std::shared_ptr<Object>& c = in.wp().capture;
  if (!c) return false;
  static_cast<GraphObj*>(c.get())->ops.push_back(op);
  return true;
}

void RefuseInCapture(Interpreter& in, const std::string& what) {
  if (in.wp().capture)
    RuntimeError(what + " inside a graph capture: tilec's graphs replay kernel launches, zero_() and fill_() only");
}

void DefineWarpCapture(ModuleObj& m) {
  m.attrs["ScopedCapture"] = Value(std::make_shared<PyTypeObj>("ScopedCapture", [](Interpreter&, CallArgs& a) {
    ArgBinder b("ScopedCapture", a, {"device", "stream", "force_module_load", "external", "apic", "capture_mode"}, 0);
    auto s = std::make_shared<ScopedCaptureObj>();
    s->device = b.Get(0, Value());
    return Value(s);
  }));
  m.Def("capture_begin", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("capture_begin", a, {"device", "stream", "force_module_load", "external", "apic", "capture_mode"}, 0);
    Begin(in, b.Get(0, Value()));
    return Value();
  });
  m.Def("capture_end", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("capture_end", a, {"device", "stream"}, 0);
    return End(in);
  });
  m.Def("capture_launch", [](Interpreter& in, CallArgs& a) {
    ArgBinder b("capture_launch", a, {"graph", "stream"}, 1);
    auto* g = b.Get(0).As<GraphObj>();
    if (!g) TypeError("capture_launch(): expected a warp.Graph, got " + host::TypeName(b.Get(0)));
    // A graph launched inside another capture is one operation of that graph.
    std::vector<std::function<void()>> ops = g->ops;
    auto replay = [ops] {
      for (const auto& op : ops) op();
    };
    if (!RecordInCapture(in, replay)) replay();
    return Value();
  });
  // Warp compiles a module's kernels ahead of their launch; tilec compiles each kernel at its
  // first launch, so there is nothing to do ahead, and results are the same.
  m.Def("load_module", [](Interpreter&, CallArgs& a) {
    ArgBinder b("load_module", a, {"module", "device", "recursive", "block_dim", "max_workers"}, 0);
    return Value();
  });
}

}  // namespace tilec::host
