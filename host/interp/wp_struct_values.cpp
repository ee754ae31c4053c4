// Host values of `@wp.struct` types: `S()` makes one, fields read and write through the
// struct's packed layout (the one kernels use), and lists of them become struct arrays.
#include <cstring>

#include "host/interp/args.h"
#include "host/interp/array_values.h"
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"
#include "host/interp/kernel_compile.h"
#include "host/interp/wp_composite.h"
#include "host/interp/wp_values.h"
#include "host/ndarray/elements.h"

namespace tilec::host {

namespace {

const rt::StructField* FindField(const rt::StructLayout& s, const std::string& name) {
  for (const rt::StructField& f : s.fields)
    if (f.name == name) return &f;
  return nullptr;
}

const rt::StructArrayField* FindArrayField(const rt::StructLayout& s, const std::string& name) {
  for (const rt::StructArrayField& f : s.array_fields)
    if (f.name == name) return &f;
  return nullptr;
}

}  // namespace

void WpStructObj::RaiseRejected(const std::string& context) const {
  PyError e("tilec.CompileError", CompileErrorMessage(context + ": struct `" + name + "` failed to compile", rejected));
  e.diagnostics = rejected;
  throw e;
}

Value WpStructObj::Call(Interpreter& in, CallArgs& args) {
  if (!layout) RaiseRejected(name + "()");
  if (!args.pos.empty())
    TypeError(name + "() takes no positional arguments (set fields as attributes or by keyword)");
  auto v = std::make_shared<StructValueObj>(std::make_shared<const rt::StructLayout>(*layout),
                                            std::make_shared<std::vector<uint8_t>>(layout->size, 0), 0);
  for (auto& [field, value] : args.kw)
    if (!v->SetAttr(in, field, value)) TypeError(name + "() got an unexpected keyword argument '" + field + "'");
  return Value(v);
}

std::vector<uint8_t> StructValueObj::Bytes() const {
  return std::vector<uint8_t>(bytes->begin() + offset, bytes->begin() + offset + layout->size);
}

Value StructValueObj::ArrayField(const std::string& path) const {
  auto it = arrays->find(prefix + path);
  return it == arrays->end() ? Value() : it->second;
}

std::optional<Value> StructValueObj::GetAttr(Interpreter&, const std::string& name) {
  if (FindArrayField(*layout, name)) return ArrayField(name);
  const rt::StructField* f = FindField(*layout, name);
  if (!f) return std::nullopt;
  const uint8_t* p = bytes->data() + offset + f->offset;
  if (!f->type.is_struct()) return ScalarToValue(LoadScalar(p, f->type.scalar));
  if (!f->layout) TypeError("field `" + name + "` of `" + layout->name + "` has no known layout");
  if (f->layout->composite.valid()) return CompositeFromBytes(f->layout->composite, p);
  return Value(std::make_shared<StructValueObj>(f->layout, bytes, offset + f->offset, arrays, prefix + name + "."));
}

bool StructValueObj::SetAttr(Interpreter& in, const std::string& name, const Value& v) {
  if (const rt::StructArrayField* af = FindArrayField(*layout, name)) {
    // As Warp: an array of the field's dtype and ndim, or None.
    const std::string ctx = layout->name + "." + name;
    auto* a = v.As<WpArrayObj>();
    if (!a && !v.IsNone()) TypeError(ctx + ": expected a wp.array or None, got " + host::TypeName(v));
    if (a) {
      const rt::ArrayDType& d = a->a.dtype();
      bool same = af->elem.is_struct() ? d.is_struct() : !d.is_struct() && d.scalar == af->elem.scalar;
      if (a->a.ndim() != af->ndim || !same)
        TypeError(ctx + ": expected an array of " + std::to_string(af->ndim) + " dimension" + (af->ndim == 1 ? "" : "s") +
                  (af->elem.is_struct() ? "" : std::string(" of ") + std::string(ScalarName(af->elem.scalar))) + ", got " +
                  std::to_string(a->a.ndim()) + " dimension" + (a->a.ndim() == 1 ? "" : "s") + " of " + d.Name());
    }
    (*arrays)[prefix + name] = v;
    return true;
  }
  const rt::StructField* f = FindField(*layout, name);
  if (!f) AttributeError("'" + layout->name + "' object has no attribute '" + name + "'");
  uint8_t* p = bytes->data() + offset + f->offset;
  const std::string ctx = layout->name + "." + name;
  if (!f->type.is_struct()) {
    auto s = ToNdScalar(v);
    if (!s) TypeError(ctx + ": expected a number, got " + host::TypeName(v));
    StoreScalar(p, f->type.scalar, *s);
    return true;
  }
  if (!f->layout) TypeError(ctx + ": the field has no known layout");
  if (f->layout->composite.valid()) {
    std::vector<uint8_t> b = CompositeFillBytes(in, f->layout->composite, v, ctx);
    std::memcpy(p, b.data(), b.size());
    return true;
  }
  auto* sv = v.As<StructValueObj>();
  if (!sv || sv->layout->name != f->layout->name)
    TypeError(ctx + ": expected a " + f->layout->name + " value, got " + host::TypeName(v));
  std::memmove(p, sv->bytes->data() + sv->offset, f->layout->size);
  // A nested struct's arrays come with it.
  const std::string from = sv->prefix, to = prefix + name + ".";
  std::vector<std::pair<std::string, Value>> copied;  // first: the source may share this map
  for (auto& [path, arr] : *sv->arrays)
    if (path.compare(0, from.size(), from) == 0) copied.emplace_back(to + path.substr(from.size()), arr);
  for (auto it = arrays->lower_bound(to); it != arrays->end() && it->first.compare(0, to.size(), to) == 0;)
    it = arrays->erase(it);
  for (auto& [path, arr] : copied) (*arrays)[path] = arr;
  return true;
}

std::string StructValueObj::Text(int depth, bool use_repr) const {
  if (layout->fields.empty() && layout->array_fields.empty()) return layout->name + "()";
  const std::string indent(size_t(depth) + 1, '\t');
  std::string out = layout->name + "(\n";
  auto line = [&](const std::string& name, const std::string& text) { out += indent + name + "=" + text + ",\n"; };
  auto show = [&](const Value& v) { return use_repr ? host::Repr(v) : host::Str(v); };
  size_t next_array = 0;
  auto arrays_before = [&](size_t value_fields) {
    for (; next_array < layout->array_fields.size() && layout->array_fields[next_array].value_fields_before <= value_fields;
         ++next_array)
      line(layout->array_fields[next_array].name, show(ArrayField(layout->array_fields[next_array].name)));
  };
  for (size_t k = 0; k < layout->fields.size(); ++k) {
    arrays_before(k);
    const rt::StructField& f = layout->fields[k];
    const uint8_t* p = bytes->data() + offset + f.offset;
    std::string text;
    if (!f.type.is_struct()) text = show(ScalarToValue(LoadScalar(p, f.type.scalar)));
    else if (f.layout && f.layout->composite.valid()) text = show(CompositeFromBytes(f.layout->composite, p));
    else if (f.layout) text = StructValueObj(f.layout, bytes, offset + f.offset, arrays, prefix + f.name + ".").Text(depth + 1, use_repr);
    line(f.name, text);
  }
  arrays_before(layout->fields.size());
  return out + std::string(size_t(depth), '\t') + ")";
}

rt::Array StructArrayFromValues(Interpreter& in, const Value& data, const rt::StructLayout& layout,
                                const std::optional<std::vector<int64_t>>& shape, std::optional<rt::Device> device,
                                bool requires_grad) {
  std::vector<Value> items = IterateValue(in, data);
  std::vector<uint8_t> all;
  all.reserve(items.size() * layout.size);
  for (size_t k = 0; k < items.size(); ++k) {
    auto* sv = items[k].As<StructValueObj>();
    if (!sv || sv->layout->name != layout.name)
      TypeError("array(): element " + std::to_string(k) + " of the data is " + host::TypeName(items[k]) +
                ", expected a " + layout.name + " value");
    std::vector<uint8_t> b = sv->Bytes();
    all.insert(all.end(), b.begin(), b.end());
  }
  std::vector<int64_t> dims{int64_t(items.size())};
  if (shape) {
    int64_t n = 1;
    for (int64_t d : *shape) n *= d;
    if (n != int64_t(items.size()))
      ValueError("array(): " + std::to_string(items.size()) + " struct values do not fill shape " + ShapeString(*shape));
    dims = *shape;
  }
  return rt::Array::FromHost(all.data(), dims, rt::ArrayDType::Struct(layout), device, requires_grad);
}

}  // namespace tilec::host
