// NumPy structured arrays in the interpreter: what `.numpy()` of an array of Warp structs
// returns. Field access (`x['a']`) gives ndarray views; integer indexing gives records.
#include "host/interp/np_records.h"

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/ndarray/elements.h"
#include "host/ndarray/print.h"

namespace tilec::host {

namespace {

// `x.dtype` of a structured array: prints as NumPy's structured dtype.
struct RecordDTypeObj : Object {
  explicit RecordDTypeObj(std::shared_ptr<const RecordType> t) : type(std::move(t)) {}
  std::string TypeName() const override { return "numpy.dtype[void]"; }
  std::string Repr() const override { return "dtype(" + type->Str() + ")"; }
  std::string Str() const override { return type->Str(); }
  std::optional<Value> GetAttr(Interpreter&, const std::string& name) override {
    if (name == "itemsize") return Value::Int(type->itemsize);
    if (name == "names") {
      std::vector<Value> names;
      for (const RecordField& f : type->fields) names.push_back(Value(std::make_shared<StrObj>(f.name)));
      return Value(std::make_shared<TupleObj>(std::move(names)));
    }
    return std::nullopt;
  }
  std::shared_ptr<const RecordType> type;
};

// A field's value as NumPy's record.item() gives it: a Python scalar, or for a subarray
// field an ndarray (a copy).
Value FieldValue(ScalarType s, const Shape& sub, const uint8_t* p) {
  if (sub.empty()) return ScalarToValue(LoadScalar(p, s));
  NdArray view(s, sub, {}, const_cast<uint8_t*>(p), nullptr);
  return WrapNd(view.Copy(), false);
}

// A record as tolist() gives it: a tuple of Python values.
Value RecordValue(const RecordType& t, const uint8_t* p) {
  std::vector<Value> items;
  for (const RecordField& f : t.fields)
    items.push_back(f.record ? RecordValue(*f.record, p + f.offset) : FieldValue(f.scalar, f.sub, p + f.offset));
  return Value(std::make_shared<TupleObj>(std::move(items)));
}

Value ToList(const RecordArray& a, size_t axis, const uint8_t* p) {
  if (axis == a.shape().size()) return RecordValue(a.type(), p);
  std::vector<Value> items;
  for (int64_t i = 0; i < a.shape()[axis]; ++i) items.push_back(ToList(a, axis + 1, p + i * a.strides()[axis]));
  return Value(std::make_shared<ListObj>(std::move(items)));
}

}  // namespace

Value WrapRecords(RecordArray a) {
  bool scalar = a.ndim() == 0;
  return Value(std::make_shared<RecordArrayObj>(std::move(a), scalar));
}

std::string RecordArrayObj::TypeName() const { return scalar ? "numpy.void" : "numpy.ndarray"; }
std::string RecordArrayObj::Repr() const { return scalar ? RecordsStr(a) : RecordsRepr(a); }
std::string RecordArrayObj::Str() const { return RecordsStr(a); }

std::optional<Value> RecordArrayObj::GetAttr(Interpreter&, const std::string& name) {
  if (name == "shape") return ShapeTuple(a.shape());
  if (name == "ndim") return Value::Int(a.ndim());
  if (name == "size") return Value::Int(a.size());
  if (name == "dtype") return Value(std::make_shared<RecordDTypeObj>(a.type_ptr()));
  if (name == "itemsize") return Value::Int(a.type().itemsize);
  if (name == "tolist" || name == "item") {
    RecordArray self = a;
    return Value(std::make_shared<BuiltinFn>(name, [self, name](Interpreter&, CallArgs& args) {
      ArgBinder b(name, args, {}, 0);
      if (name == "item" && self.size() != 1)
        ValueError("can only convert an array of size 1 to a Python scalar");
      if (name == "item") {
        const uint8_t* p = self.data();
        return RecordValue(self.type(), p);
      }
      return ToList(self, 0, self.data());
    }));
  }
  return std::nullopt;
}

Value RecordArrayObj::GetItem(Interpreter& in, const Value& key) {
  if (auto* s = key.As<StrObj>()) {
    const RecordField* f = a.type().Find(s->s);
    if (!f) ValueError("no field of name " + s->s);
    if (f->record) return WrapRecords(a.RecordAt(s->s));
    // A field of one record is a NumPy scalar (or, for a vector field, an array).
    return WrapNd(a.Field(s->s), /*zero_d_is_scalar=*/true);
  }
  if (scalar) IndexError("invalid index to scalar variable.");
  std::vector<IndexItem> items = IndexKeyItems(in, key);
  if (NdArray::IsAdvanced(items)) TypeError("index arrays into structured arrays are not supported");
  return WrapRecords(a.Index(items));
}

void RecordArrayObj::SetItem(Interpreter& in, const Value& key, const Value& v) {
  auto* s = key.As<StrObj>();
  if (!s) TypeError("structured arrays take assignments by field name only (x['name'] = value)");
  const RecordField* f = a.type().Find(s->s);
  if (!f) ValueError("no field of name " + s->s);
  if (f->record) TypeError("assigning to the nested record field `" + s->s + "` is not supported; assign its fields");
  NdArray view = a.Field(s->s);
  view.CopyFrom(ToNdArray(in, v, "field assignment", view.dtype()));
}

std::optional<int64_t> RecordArrayObj::Len() const {
  if (scalar) return int64_t(a.type().fields.size());
  if (a.ndim() == 0) TypeError("len() of unsized object");
  return a.shape()[0];
}

std::optional<std::vector<Value>> RecordArrayObj::Iterate(Interpreter& in) {
  std::vector<Value> out;
  // A record (np.void) iterates over its fields' values: `for key, value in records`.
  if (scalar) {
    for (const RecordField& f : a.type().fields) out.push_back(GetItem(in, MakeStr(f.name)));
    return out;
  }
  if (a.ndim() == 0) TypeError("iteration over a 0-d array");
  for (int64_t i = 0; i < a.shape()[0]; ++i) {
    IndexItem at = IndexItem::At(i);
    out.push_back(WrapRecords(a.Index(std::span<const IndexItem>(&at, 1))));
  }
  return out;
}

}  // namespace tilec::host
