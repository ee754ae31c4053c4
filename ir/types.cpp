// Construction, comparison, naming and struct layout of Tile IR types.
#include "ir/types.h"

#include <algorithm>

namespace tilec::ir {

Type Type::Scalar(ScalarType s) {
  Type t;
  t.kind = TypeKind::Scalar;
  t.elem = ElemType::Of(s);
  return t;
}

Type Type::Struct(int index) {
  Type t;
  t.kind = TypeKind::Struct;
  t.elem = ElemType::Struct(index);
  return t;
}

Type Type::Elem(ElemType e) { return e.is_struct() ? Struct(e.struct_index) : Scalar(e.scalar); }

Type Type::Array(ElemType e, int ndim) {
  Type t;
  t.kind = TypeKind::Array;
  t.elem = e;
  t.ndim = ndim;
  return t;
}

Type Type::Tile(ElemType e, const std::vector<int64_t>& shape, Storage storage) {
  Type t;
  t.kind = TypeKind::Tile;
  t.elem = e;
  t.ndim = int(std::min<size_t>(shape.size(), kMaxDims));
  for (int d = 0; d < t.ndim; ++d) t.shape[d] = shape[d];
  t.storage = storage;
  return t;
}

int64_t Type::NumElements() const {
  if (!is_tile()) return 1;
  int64_t n = 1;
  for (int d = 0; d < ndim; ++d) n *= shape[d];
  return n;
}

bool Type::SameTileShapeAndElem(const Type& o) const {
  if (!is_tile() || !o.is_tile() || ndim != o.ndim || !(elem == o.elem)) return false;
  for (int d = 0; d < ndim; ++d)
    if (shape[d] != o.shape[d]) return false;
  return true;
}

bool Type::operator==(const Type& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case TypeKind::None: return true;
    case TypeKind::Scalar:
    case TypeKind::Struct: return elem == o.elem;
    case TypeKind::Array: return elem == o.elem && ndim == o.ndim;
    case TypeKind::Tile: return SameTileShapeAndElem(o) && storage == o.storage;
  }
  return false;
}

void ComputeStructLayout(std::vector<StructDef>& structs, int index) {
  StructDef& s = structs[index];
  uint32_t offset = 0, align = 1;
  for (StructField& f : s.fields) {
    uint32_t fsize, falign;
    if (f.type.is_struct()) {
      const StructDef& inner = structs[f.type.struct_index];
      fsize = inner.size;
      falign = inner.align;
    } else {
      fsize = falign = uint32_t(ScalarSize(f.type.scalar));
    }
    offset = (offset + falign - 1) / falign * falign;
    f.offset = offset;
    offset += fsize;
    align = std::max(align, falign);
  }
  s.size = (offset + align - 1) / align * align;
  if (s.size == 0) s.size = align;  // an empty struct still occupies a byte-sized slot
  s.align = align;
}

std::string ElemTypeName(const ElemType& e, const std::vector<StructDef>& structs) {
  if (e.is_struct()) {
    if (e.struct_index < int(structs.size())) return structs[e.struct_index].name;
    return "struct#" + std::to_string(e.struct_index);
  }
  return std::string(ScalarName(e.scalar));
}

std::string TypeName(const Type& t, const std::vector<StructDef>& structs) {
  switch (t.kind) {
    case TypeKind::None: return "none";
    case TypeKind::Scalar:
    case TypeKind::Struct: return ElemTypeName(t.elem, structs);
    case TypeKind::Array:
      return "array" + std::to_string(t.ndim) + "d<" + ElemTypeName(t.elem, structs) + ">";
    case TypeKind::Tile: {
      std::string s = "tile<" + ElemTypeName(t.elem, structs) + ", ";
      for (int d = 0; d < t.ndim; ++d) {
        if (d) s += "x";
        s += std::to_string(t.shape[d]);
      }
      if (t.storage == Storage::Shared) s += ", shared";
      return s + ">";
    }
  }
  return "?";
}

}  // namespace tilec::ir
