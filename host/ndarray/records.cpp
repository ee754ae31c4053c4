// Record types and views for NumPy structured arrays: field views share the records' buffer,
// so `x['a'][0] = 1` writes through, as in NumPy.
#include "host/ndarray/records.h"

namespace tilec::host {

namespace {

// NumPy's array-interface typestr of a scalar: byte order only where it can matter.
std::string TypeStr(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "?";
    case ScalarType::Int8: return "i1";
    case ScalarType::UInt8: return "u1";
    case ScalarType::Int16: return "<i2";
    case ScalarType::UInt16: return "<u2";
    case ScalarType::Int32: return "<i4";
    case ScalarType::UInt32: return "<u4";
    case ScalarType::Int64: return "<i8";
    case ScalarType::UInt64: return "<u8";
    case ScalarType::Float16: return "<f2";
    case ScalarType::Float32: return "<f4";
    case ScalarType::Float64: return "<f8";
    case ScalarType::BFloat16: break;
  }
  throw NdError("TypeError", "bfloat16 has no NumPy dtype");
}

bool IsPacked(const RecordType& t) {
  int64_t at = 0;
  for (const RecordField& f : t.fields) {
    if (f.offset != at) return false;
    at += f.Size();
  }
  return at == t.itemsize;
}

std::string Quote(const std::string& s) { return "'" + s + "'"; }

// A field's format as str(dtype) writes it inside the list or dict form.
std::string FormatOf(const RecordField& f) {
  if (f.record) return f.record->Str();
  if (f.sub.empty()) return Quote(TypeStr(f.scalar));
  return "(" + Quote(TypeStr(f.scalar)) + ", " + ShapeString(f.sub) + ")";
}

}  // namespace

int64_t RecordField::Size() const {
  if (record) return record->itemsize;
  int64_t n = static_cast<int64_t>(ScalarSize(scalar));
  for (int64_t d : sub) n *= d;
  return n;
}

const RecordField* RecordType::Find(const std::string& name) const {
  for (const RecordField& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

std::string RecordType::Str() const {
  std::string s;
  if (IsPacked(*this)) {
    s = "[";
    for (size_t i = 0; i < fields.size(); ++i) {
      const RecordField& f = fields[i];
      if (i) s += ", ";
      s += "(" + Quote(f.name) + ", ";
      if (f.record) s += f.record->Str();
      else s += Quote(TypeStr(f.scalar));
      if (!f.record && !f.sub.empty()) s += ", " + ShapeString(f.sub);
      s += ")";
    }
    return s + "]";
  }
  std::string names, formats, offsets;
  for (size_t i = 0; i < fields.size(); ++i) {
    std::string sep = i ? ", " : "";
    names += sep + Quote(fields[i].name);
    formats += sep + FormatOf(fields[i]);
    offsets += sep + std::to_string(fields[i].offset);
  }
  return "{'names': [" + names + "], 'formats': [" + formats + "], 'offsets': [" + offsets +
         "], 'itemsize': " + std::to_string(itemsize) + "}";
}

RecordArray::RecordArray(std::shared_ptr<const RecordType> type, Shape shape,
                         std::vector<int64_t> byte_strides, uint8_t* data,
                         std::shared_ptr<void> owner)
    : type_(std::move(type)), shape_(std::move(shape)), strides_(std::move(byte_strides)),
      data_(data), owner_(std::move(owner)) {
  if (strides_.empty()) {
    strides_.assign(shape_.size(), 0);
    int64_t s = type_->itemsize;
    for (size_t d = shape_.size(); d-- > 0;) {
      strides_[d] = s;
      s *= shape_[d];
    }
  }
}

int64_t RecordArray::size() const {
  int64_t n = 1;
  for (int64_t d : shape_) n *= d;
  return n;
}

const RecordField& RecordArray::Lookup(const std::string& name) const {
  if (const RecordField* f = type_->Find(name)) return *f;
  throw NdError("ValueError", "no field of name " + name);
}

NdArray RecordArray::Field(const std::string& name) const {
  const RecordField& f = Lookup(name);
  if (f.record) throw NdError("TypeError", "internal: field `" + name + "` holds records");
  Shape shape = shape_;
  std::vector<int64_t> strides = strides_;
  // The subarray's elements are packed in C order inside the record.
  int64_t s = static_cast<int64_t>(ScalarSize(f.scalar));
  std::vector<int64_t> sub_strides(f.sub.size());
  for (size_t d = f.sub.size(); d-- > 0;) {
    sub_strides[d] = s;
    s *= f.sub[d];
  }
  shape.insert(shape.end(), f.sub.begin(), f.sub.end());
  strides.insert(strides.end(), sub_strides.begin(), sub_strides.end());
  return NdArray(f.scalar, shape, strides, data_ + f.offset, owner_);
}

RecordArray RecordArray::RecordAt(const std::string& name) const {
  const RecordField& f = Lookup(name);
  if (!f.record) throw NdError("TypeError", "internal: field `" + name + "` holds no records");
  return RecordArray(f.record, shape_, strides_, data_ + f.offset, owner_);
}

RecordArray RecordArray::Index(std::span<const IndexItem> items) const {
  // Basic indexing only moves the start and rewrites shape and strides, which a byte view
  // with this array's strides computes exactly.
  NdArray bytes(ScalarType::UInt8, shape_, strides_, data_, owner_);
  NdArray view = bytes.Index(items);
  return RecordArray(type_, view.shape(), view.strides(), static_cast<uint8_t*>(view.data()), owner_);
}

}  // namespace tilec::host
