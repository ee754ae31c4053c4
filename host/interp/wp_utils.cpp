// `wp.utils`: Warp's whole-array helpers (array_scan, radix_sort_pairs, segmented_sort_pairs,
// runlength_encode, array_sum, array_inner) over the runtime's algorithms, with Warp's argument
// rules and error messages. Inside a graph capture each is recorded and runs at every replay.
#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/py_std_modules.h"
#include "host/interp/wp_values.h"
#include "tilec/algorithms.h"

namespace tilec::host {

namespace {

std::string DeviceName(const rt::Array& a) { return a.device().Name(); }

// Runs `op` now, or records it when a graph is being captured.
void RunOrRecord(Interpreter& in, std::function<void()> op) {
  if (!RecordInCapture(in, op)) op();
}

// Warp's `axis` rule for reductions: an int in [-ndim, ndim), negative counting from the end.
std::optional<int> ReductionAxis(const Value& v, int ndim, const char* op) {
  if (v.IsNone()) return std::nullopt;
  int64_t axis = ToInt(v, std::string(op) + "() axis");
  if (axis < -ndim || axis >= ndim)
    IndexError(std::string(op) + "() axis " + std::to_string(axis) + " is out of bounds for array of dimension " +
               std::to_string(ndim));
  return int(axis < 0 ? axis + ndim : axis);
}

std::vector<int64_t> ReducedShape(const rt::Array& a, std::optional<int> axis) {
  if (!axis) return {1};
  std::vector<int64_t> s = a.shape();
  s[*axis] = 1;
  return s;
}

// `out.numpy()[0]`: what Warp returns from a whole-array reduction without `out`.
Value FirstElement(Interpreter& in, const rt::Array& out) {
  CallArgs none;
  Value nd = in.CallValue(in.GetAttr(Wrap(out), "numpy"), none);
  return nd.obj()->GetItem(in, Value::Int(0));
}

Value ArrayScan(Interpreter& in, CallArgs& a) {
  ArgBinder b("array_scan", a, {"in_array", "out_array", "inclusive"}, 2);
  const rt::Array& src = ArrayArg(b.Get(0), "array_scan() in_array");
  const rt::Array& dst = ArrayArg(b.Get(1), "array_scan() out_array");
  const bool inclusive = Truth(b.Get(2, Value::Bool(true)));
  if (!(src.device() == dst.device()))
    RuntimeError("In and out array storage devices do not match (" + DeviceName(src) + " vs " + DeviceName(dst) + ")");
  if (src.size() != dst.size())
    RuntimeError("In and out array storage sizes do not match (" + std::to_string(src.size()) + " vs " +
                 std::to_string(dst.size()) + ")");
  if (!(src.dtype() == dst.dtype()))
    RuntimeError("In and out array data types do not match (" + src.dtype().Name() + " vs " + dst.dtype().Name() + ")");
  if (src.size() == 0) return Value();
  if (!src.is_contiguous() && src.ndim() != 1) RuntimeError("Input array must be contiguous or one-dimensional");
  if (!dst.is_contiguous() && dst.ndim() != 1) RuntimeError("Output array must be contiguous or one-dimensional");
  std::optional<std::pair<ScalarType, int>> comps = rt::ElementComponents(src.dtype());
  const bool ok = comps && (comps->first == ScalarType::Int32 || comps->first == ScalarType::Int64 ||
                            comps->first == ScalarType::Float32 || comps->first == ScalarType::Float64);
  if (!ok) RuntimeError("Unsupported data type: " + src.dtype().Name());
  RunOrRecord(in, [src, dst, inclusive] { rt::ArrayScan(src, dst, inclusive); });
  return Value();
}

Value RadixSortPairs(Interpreter& in, CallArgs& a) {
  ArgBinder b("radix_sort_pairs", a, {"keys", "values", "count", "begin_bit", "end_bit"}, 3);
  const rt::Array& keys = ArrayArg(b.Get(0), "radix_sort_pairs() keys");
  const rt::Array& values = ArrayArg(b.Get(1), "radix_sort_pairs() values");
  const int64_t count = ToInt(b.Get(2), "radix_sort_pairs() count");
  const std::string types = keys.dtype().Name() + ", " + values.dtype().Name();
  if (!(keys.device() == values.device()))
    RuntimeError("Keys and values array storage devices do not match (" + DeviceName(keys) + " vs " +
                 DeviceName(values) + ")");
  if (count == 0) return Value();
  if (keys.size() < 2 * count || values.size() < 2 * count)
    RuntimeError("Keys and values array storage must be large enough to contain 2*count elements");
  if (values.elem_size() != 4 && values.elem_size() != 8)
    RuntimeError("Unsupported keys and values data types: " + types);
  if (!keys.is_contiguous())
    RuntimeError("radix_sort_pairs() requires a contiguous keys array, got non-contiguous keys with data types: " + types);
  if (!values.is_contiguous())
    RuntimeError("radix_sort_pairs() requires a contiguous values array, got non-contiguous values with data types: " +
                 types);
  const ScalarType k = keys.dtype().scalar;
  const bool key_ok = !keys.dtype().is_struct() &&
                      (k == ScalarType::Int32 || k == ScalarType::UInt32 || k == ScalarType::Float32 ||
                       k == ScalarType::Int64 || k == ScalarType::UInt64 || k == ScalarType::Float64);
  if (!key_ok) RuntimeError("Unsupported keys and values data types: " + types);
  const int width = int(keys.elem_size()) * 8;
  const Value begin_v = b.Get(3, Value::Int(0)), end_v = b.Get(4, Value());
  if (!begin_v.IsInt() || !(end_v.IsInt() || end_v.IsNone())) RuntimeError("begin_bit and end_bit must be integers");
  const int64_t begin = begin_v.i(), end = end_v.IsNone() ? width : end_v.i();
  if (!(0 <= begin && begin <= end && end <= width))
    RuntimeError("Invalid radix sort bit range [" + std::to_string(begin) + ", " + std::to_string(end) + ") for " +
                 std::to_string(width) + "-bit keys");
  if (begin == end) return Value();
  RunOrRecord(in, [keys, values, count, begin, end] { rt::RadixSortPairs(keys, values, count, int(begin), int(end)); });
  return Value();
}

Value SegmentedSortPairs(Interpreter& in, CallArgs& a) {
  ArgBinder b("segmented_sort_pairs", a, {"keys", "values", "count", "segment_start_indices", "segment_end_indices"},
              4);
  const rt::Array& keys = ArrayArg(b.Get(0), "segmented_sort_pairs() keys");
  const rt::Array& values = ArrayArg(b.Get(1), "segmented_sort_pairs() values");
  const Value& count_v = b.Get(2);
  if (count_v.IsBool() || !(count_v.IsInt() || (count_v.IsObj() && count_v.obj()->AsIndex())))
    TypeError("count must be an integer");
  const int64_t count = count_v.IsInt() ? count_v.i() : *count_v.obj()->AsIndex();
  if (count < 0) ValueError("count must be non-negative, got " + std::to_string(count));
  if (count > 2147483647) ValueError("count must not exceed 2147483647, got " + std::to_string(count));
  const rt::Array& starts = ArrayArg(b.Get(3), "segmented_sort_pairs() segment_start_indices");
  const Value end_v = b.Get(4, Value());
  const rt::Array* ends = end_v.IsNone() ? nullptr : &ArrayArg(end_v, "segmented_sort_pairs() segment_end_indices");
  const bool same = starts.device() == keys.device() && (!ends || ends->device() == keys.device());
  if (!(keys.device() == values.device()) || !same)
    RuntimeError("Keys, values, and segment index array storage devices must match");
  if (count == 0) return Value();
  if (keys.size() < 2 * count || values.size() < 2 * count)
    RuntimeError("Array storage must be large enough to contain 2*count elements");
  if (!keys.is_contiguous()) RuntimeError("segmented_sort_pairs() requires a contiguous keys array");
  if (!values.is_contiguous()) RuntimeError("segmented_sort_pairs() requires a contiguous values array");
  auto index_array = [](const rt::Array& s, const std::string& name) {
    if (s.dtype().is_struct() || s.dtype().scalar != ScalarType::Int32)
      RuntimeError(name + " array must be of type int32");
    if (s.ndim() != 1) RuntimeError(name + " must be one-dimensional");
    if (!s.is_contiguous()) RuntimeError("segmented_sort_pairs() requires a contiguous " + name + " array");
    return s.ToVector<int32_t>();
  };
  std::vector<int32_t> first = index_array(starts, "segment_start_indices"), last;
  if (ends) {
    last = index_array(*ends, "segment_end_indices");
    if (first.size() != last.size())
      RuntimeError("segment_start_indices and segment_end_indices must have the same size (" +
                   std::to_string(first.size()) + " vs " + std::to_string(last.size()) + ")");
  } else {
    if (first.size() < 2) return Value();
    last.assign(first.begin() + 1, first.end());
    first.pop_back();
  }
  if (first.empty()) return Value();
  const bool key_ok = !keys.dtype().is_struct() &&
                      (keys.dtype().scalar == ScalarType::Int32 || keys.dtype().scalar == ScalarType::Float32);
  if (!key_ok || values.dtype().is_struct() || values.dtype().scalar != ScalarType::Int32)
    RuntimeError("Unsupported data type: " + keys.dtype().Name());
  std::vector<std::pair<int64_t, int64_t>> segments;
  for (size_t k = 0; k < first.size(); ++k) segments.emplace_back(first[k], last[k]);
  // Bounds are checked when the call runs, as Warp's CPU path does (a ValueError then).
  for (size_t k = 0; k < segments.size(); ++k) {
    auto [s, e] = segments[k];
    if (s < 0 || e < s || e > count)
      ValueError("Warp sort error: Invalid segment range at index " + std::to_string(k) + ": [" + std::to_string(s) +
                 ", " + std::to_string(e) + ") for count " + std::to_string(count));
  }
  RunOrRecord(in, [keys, values, count, segments] { rt::SegmentedSortPairs(keys, values, count, segments); });
  return Value();
}

Value RunlengthEncode(Interpreter& in, CallArgs& a) {
  ArgBinder b("runlength_encode", a, {"values", "run_values", "run_lengths", "run_count", "value_count"}, 3);
  const rt::Array& values = ArrayArg(b.Get(0), "runlength_encode() values");
  const rt::Array& run_values = ArrayArg(b.Get(1), "runlength_encode() run_values");
  const rt::Array& run_lengths = ArrayArg(b.Get(2), "runlength_encode() run_lengths");
  if (!(run_values.device() == values.device()) || !(run_lengths.device() == values.device()))
    RuntimeError("run_values, run_lengths and values storage devices do not match");
  const Value count_v = b.Get(4, Value());
  const int64_t count = count_v.IsNone() ? values.size() : ToInt(count_v, "runlength_encode() value_count");
  if (count < 0) RuntimeError("value_count must be non-negative, got " + std::to_string(count));
  if (run_values.size() < count || run_lengths.size() < count)
    RuntimeError("Output array storage sizes must be at least equal to value_count (" + std::to_string(count) + ")");
  if (!(values.dtype() == run_values.dtype()))
    RuntimeError("values and run_values data types do not match (" + values.dtype().Name() + " vs " +
                 run_values.dtype().Name() + ")");
  if (run_lengths.dtype().is_struct() || run_lengths.dtype().scalar != ScalarType::Int32)
    RuntimeError("run_lengths array must be of type int32");
  const Value run_count_v = b.Get(3, Value());
  const bool int32_values = !values.dtype().is_struct() && values.dtype().scalar == ScalarType::Int32;
  if (run_count_v.IsNone()) {
    if (count == 0) return Value::Int(0);
    RefuseInCapture(in, "runlength_encode() without a run_count array");
    if (!int32_values) RuntimeError("Unsupported data type: " + values.dtype().Name());
    return Value::Int(rt::RunlengthEncode(values, run_values, run_lengths, count));
  }
  const rt::Array& run_count = ArrayArg(run_count_v, "runlength_encode() run_count");
  if (!(run_count.device() == values.device())) RuntimeError("run_count storage device does not match other arrays");
  if (run_count.dtype().is_struct() || run_count.dtype().scalar != ScalarType::Int32)
    RuntimeError("run_count array must be of type int32");
  if (!int32_values && count > 0) RuntimeError("Unsupported data type: " + values.dtype().Name());
  RunOrRecord(in, [values, run_values, run_lengths, run_count, count] {
    const int32_t runs = int32_t(rt::RunlengthEncode(values, run_values, run_lengths, count));
    rt::Array(run_count).Reshape({-1}).Slice({rt::SliceSpec::Range(0, 1)}).CopyFromHost(&runs);
  });
  return run_count_v;
}

// array_sum and array_inner: one reduction per position of the other axes, or of the whole.
Value Reduce(Interpreter& in, CallArgs& a, bool inner) {
  const char* op = inner ? "array_inner" : "array_sum";
  std::vector<std::string> names = inner ? std::vector<std::string>{"a", "b", "out", "count", "axis"}
                                         : std::vector<std::string>{"values", "out", "value_count", "axis"};
  ArgBinder b(op, a, names, inner ? 2 : 1);
  const size_t o = inner ? 2 : 1;  // binder slot of `out`
  const rt::Array& x = ArrayArg(b.Get(0), std::string(op) + "()");
  const rt::Array* y = inner ? &ArrayArg(b.Get(1), std::string(op) + "() b") : nullptr;
  if (y) {
    if (x.shape() != y->shape())
      ValueError("array_inner() arguments must have the same shape, got " + Repr(ShapeTuple(x.shape())) + " and " +
                 Repr(ShapeTuple(y->shape())));
    if (!(x.device() == y->device()))
      RuntimeError("A and b array storage devices do not match (" + DeviceName(x) + " vs " + DeviceName(*y) + ")");
    if (!(x.dtype() == y->dtype()))
      RuntimeError("A and b array data types do not match (" + x.dtype().Name() + " vs " + y->dtype().Name() + ")");
  }
  const std::optional<int> axis = ReductionAxis(b.Get(o + 2, Value()), x.ndim(), op);
  const Value count_v = b.Get(o + 1, Value());
  const int64_t count = !count_v.IsNone() ? ToInt(count_v, std::string(op) + "() count")
                        : axis                ? x.shape()[*axis]
                                              : x.size();
  std::optional<std::pair<ScalarType, int>> comps = rt::ElementComponents(x.dtype());
  const ScalarType scalar = comps ? comps->first : ScalarType::Float32;
  const std::vector<int64_t> out_shape = ReducedShape(x, axis);
  const rt::ArrayDType out_dtype = inner ? rt::ArrayDType(scalar) : x.dtype();
  const Value out_v = b.Get(o, Value());
  const bool host_return = out_v.IsNone();
  rt::Array out;
  if (host_return) {
    if (inner && count == 0 && !axis) return Value::Float(0.0);
    out = rt::Array::Empty(out_shape, out_dtype, x.device());
  } else {
    out = ArrayArg(out_v, std::string(op) + "() out");
    if (!(out.device() == x.device())) RuntimeError("out storage device should match values array");
    if (!(out.dtype() == out_dtype))
      RuntimeError("out array should have type " + (inner ? std::string(ScalarName(scalar)) : x.dtype().Name()));
    if (out.shape() != out_shape) RuntimeError("out array should have shape " + Repr(ShapeTuple(out_shape)));
  }
  if (count == 0) {
    RunOrRecord(in, [out]() mutable { out.Zero(); });
  } else {
    if (!comps || (scalar != ScalarType::Float32 && scalar != ScalarType::Float64))
      RuntimeError("Unsupported data type: " + x.dtype().Name());
    rt::Array second = y ? *y : rt::Array();
    RunOrRecord(in, [x, second, out, count, axis, inner] {
      if (inner) rt::ArrayInner(x, second, out, count, axis);
      else rt::ArraySum(x, out, count, axis);
    });
  }
  if (!host_return) return out_v;
  if (axis) return Wrap(out);
  return FirstElement(in, out);
}

}  // namespace

void DefineWarpUtils(ModuleObj& wp) {
  auto m = std::make_shared<UnprovidedModule>("warp.utils", "Warp's `warp.utils` package");
  m->Def("array_scan", ArrayScan);
  m->Def("radix_sort_pairs", RadixSortPairs);
  m->Def("segmented_sort_pairs", SegmentedSortPairs);
  m->Def("runlength_encode", RunlengthEncode);
  m->Def("array_sum", [](Interpreter& in, CallArgs& a) { return Reduce(in, a, false); });
  m->Def("array_inner", [](Interpreter& in, CallArgs& a) { return Reduce(in, a, true); });
  wp.attrs["utils"] = Value(m);
}

}  // namespace tilec::host
