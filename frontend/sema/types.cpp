// Interning and printing of checker types. The interning key is the printed name plus the
// fields printing leaves out (struct and callee indices), so equal keys mean equal types.
#include "frontend/sema/types.h"

namespace tilec::sema {

const char* StorageName(Storage s) { return s == Storage::Shared ? "shared" : "register"; }

ElemType Type::AsElem() const {
  ElemType e;
  if (kind == TypeKind::Struct) {
    e.struct_index = struct_index;
  } else {
    e.scalar = scalar;
  }
  return e;
}

std::string ElemName(ElemType e, const std::string& struct_name) {
  if (e.is_struct()) return struct_name.empty() ? "struct#" + std::to_string(e.struct_index) : struct_name;
  return std::string(ScalarName(e.scalar));
}

std::string TypeName(const Type* t) {
  if (!t) return "<null>";
  switch (t->kind) {
    case TypeKind::Error: return "<error>";
    case TypeKind::Void: return "void";
    case TypeKind::None: return "None";
    case TypeKind::Scalar: return std::string(ScalarName(t->scalar));
    case TypeKind::Struct: return t->struct_name;
    case TypeKind::Array:
      return "array" + std::to_string(t->ndim) + "d[" + ElemName(t->elem, t->elem_struct_name) + "]";
    case TypeKind::Tile: {
      std::string s = "tile[" + ElemName(t->elem, t->elem_struct_name) + ", (";
      for (size_t i = 0; i < t->shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t->shape[i]);
      if (t->shape.size() == 1) s += ",";
      return s + "), " + StorageName(t->storage) + "]";
    }
    case TypeKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < t->elems.size(); ++i) s += (i ? ", " : "") + TypeName(t->elems[i]);
      if (t->elems.size() == 1) s += ",";
      return s + ")";
    }
    case TypeKind::String: return "str";
    case TypeKind::TypeRef: return "type[" + TypeName(t->referent) + "]";
    case TypeKind::Module: return t->module == ModuleId::Warp ? "module wp" : "module np";
    case TypeKind::Function:
      switch (t->callee.kind) {
        case CalleeKind::Builtin: return "builtin";
        case CalleeKind::UserFunc: return "function";
        case CalleeKind::Kernel: return "kernel";
        case CalleeKind::Composite:
        case CalleeKind::Overloads: return "builtin";
        case CalleeKind::Lambda: return "lambda";
      }
      return "function";
    case TypeKind::Range: return "range";
    case TypeKind::TileStack:
      return "tile_stack[" + (t->elem.is_struct() ? t->elem_struct_name : std::string(ScalarName(t->scalar))) + ", " +
             std::to_string(t->capacity) + "]";
  }
  return "<?>";
}

TypeContext::TypeContext() {
  Type e;
  e.kind = TypeKind::Error;
  error_ = Intern(e);
  e.kind = TypeKind::Void;
  void_ = Intern(e);
  e.kind = TypeKind::None;
  none_ = Intern(e);
  e.kind = TypeKind::String;
  string_ = Intern(e);
  e.kind = TypeKind::Range;
  range_ = Intern(e);
}

const Type* TypeContext::Intern(Type t) {
  std::string key = TypeName(&t) + "|" + std::to_string(t.struct_index) + "|" +
                    std::to_string(t.elem.struct_index) + "|" +
                    std::to_string(int(t.callee.kind)) + ":" + std::to_string(t.callee.index);
  // Tuple and TypeRef members are interned already: their addresses identify them.
  for (const Type* e : t.elems) key += "|" + std::to_string(reinterpret_cast<uintptr_t>(e));
  key += "|" + std::to_string(reinterpret_cast<uintptr_t>(t.referent));
  key += "|" + std::to_string(t.lanes);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return it->second;
  types_.push_back(std::move(t));
  by_key_[key] = &types_.back();
  return &types_.back();
}

void TypeContext::SetStructName(int index, const std::string& name) {
  if (index >= int(struct_names_.size())) struct_names_.resize(index + 1);
  struct_names_[index] = name;
}

const std::string& TypeContext::StructName(int index) const {
  static const std::string empty;
  return index >= 0 && index < int(struct_names_.size()) ? struct_names_[index] : empty;
}

const Type* TypeContext::Scalar(ScalarType s) {
  Type t;
  t.kind = TypeKind::Scalar;
  t.scalar = s;
  return Intern(t);
}

const Type* TypeContext::Struct(int index, const std::string& name) {
  Type t;
  t.kind = TypeKind::Struct;
  t.struct_index = index;
  t.struct_name = name;
  return Intern(t);
}

const Type* TypeContext::FromElem(ElemType e) {
  return e.is_struct() ? Struct(e.struct_index, StructName(e.struct_index)) : Scalar(e.scalar);
}

const Type* TypeContext::Array(ElemType elem, int ndim) {
  Type t;
  t.kind = TypeKind::Array;
  t.elem = elem;
  if (elem.is_struct()) t.elem_struct_name = StructName(elem.struct_index);
  t.ndim = ndim;
  return Intern(t);
}

const Type* TypeContext::Tile(ElemType elem, std::vector<int64_t> shape, Storage storage) {
  Type t;
  t.kind = TypeKind::Tile;
  t.elem = elem;
  if (elem.is_struct()) t.elem_struct_name = StructName(elem.struct_index);
  t.ndim = int(shape.size());
  t.shape = std::move(shape);
  t.storage = storage;
  return Intern(t);
}

const Type* TypeContext::WithStorage(const Type* tile, Storage storage) {
  if (!tile->IsTile() || tile->storage == storage) return tile;
  return Tile(tile->elem, tile->shape, storage);
}

const Type* TypeContext::Tuple(std::vector<const Type*> elems) {
  Type t;
  t.kind = TypeKind::Tuple;
  t.elems = std::move(elems);
  return Intern(t);
}

const Type* TypeContext::TypeRef(const Type* referent) {
  Type t;
  t.kind = TypeKind::TypeRef;
  t.referent = referent;
  return Intern(t);
}

const Type* TypeContext::Module(ModuleId m) {
  Type t;
  t.kind = TypeKind::Module;
  t.module = m;
  return Intern(t);
}

const Type* TypeContext::Function(Callee c) {
  Type t;
  t.kind = TypeKind::Function;
  t.callee = c;
  return Intern(t);
}

const Type* TypeContext::TileStack(ElemType elem, int64_t capacity, int64_t lanes) {
  Type t;
  t.kind = TypeKind::TileStack;
  t.elem = elem;
  t.scalar = elem.scalar;
  if (elem.is_struct()) t.elem_struct_name = StructName(elem.struct_index);
  t.capacity = capacity;
  t.lanes = lanes;
  return Intern(t);
}

}  // namespace tilec::sema
