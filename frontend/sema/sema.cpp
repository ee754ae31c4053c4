// The entry point and the CheckedModule accessors, including the runtime-facing signature
// (ParamInfo/StructLayout) that launches are validated against.
#include "frontend/sema/sema.h"

#include "frontend/sema/checker.h"

namespace tilec::sema {

std::unique_ptr<CheckedModule> Check(const ast::Module& module, diag::DiagnosticEngine& diags,
                                     const CheckOptions& options) {
  auto out = std::make_unique<CheckedModule>(module);
  out->block_dim = options.block_dim;
  Checker checker(module, diags, options, *out);
  checker.Run();
  return out;
}

const ExprInfo* CheckedModule::Info(const ast::Expr* e) const {
  auto it = expr_info.find(e);
  return it == expr_info.end() ? nullptr : &it->second;
}

const Type* CheckedModule::TypeOf(const ast::Expr* e) const {
  const ExprInfo* i = Info(e);
  return i ? i->type : nullptr;
}

const CallInfo* CheckedModule::Call(const ast::Expr* e) const {
  auto it = call_info.find(e);
  return it == call_info.end() ? nullptr : &it->second;
}

const TileAccess* CheckedModule::Access(const ast::Expr* subscript) const {
  auto it = tile_access.find(subscript);
  return it == tile_access.end() ? nullptr : &it->second;
}

const UnrolledLoop* CheckedModule::Unrolled(const ast::For& loop) const {
  auto it = unrolled.find(&loop);
  return it == unrolled.end() ? nullptr : &it->second;
}

const LocalSymbol* CheckedModule::Symbol(const ast::Expr* name) const {
  auto it = symbols.find(name);
  return it == symbols.end() ? nullptr : it->second;
}

const FunctionInfo* CheckedModule::FindKernel(const std::string& name) const {
  for (const FunctionInfo& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const FunctionInfo* CheckedModule::FindFunc(const std::string& name) const {
  for (const FunctionInfo& f : funcs)
    if (f.name == name) return &f;
  return nullptr;
}

rt::ParamInfo CheckedModule::ToParamInfo(const LocalSymbol& p) const {
  rt::ParamInfo info;
  info.name = p.name;
  const Type* t = p.type;
  if (t->IsArray()) {
    info.kind = rt::ParamKind::Array;
    info.type = t->elem;
    info.ndim = t->ndim;
  } else if (t->kind == TypeKind::Struct) {
    info.kind = rt::ParamKind::Struct;
    info.type = t->AsElem();
  } else {
    info.kind = rt::ParamKind::Scalar;
    info.type = t->AsElem();
  }
  return info;
}

std::vector<std::pair<std::string, const Type*>> CheckedModule::ArrayFieldPaths(int struct_index) const {
  std::vector<std::pair<std::string, const Type*>> out;
  const StructInfo& s = structs[size_t(struct_index)];
  for (const FieldInfo& f : s.array_fields) out.emplace_back(f.name, f.type);
  for (const FieldInfo& f : s.fields)
    if (f.type->kind == TypeKind::Struct && structs[size_t(f.type->struct_index)].holds_arrays)
      for (auto& [path, t] : ArrayFieldPaths(f.type->struct_index)) out.emplace_back(f.name + "." + path, t);
  return out;
}

rt::StructLayout CheckedModule::ToStructLayout(const StructInfo& s) const {
  rt::StructLayout l;
  l.name = s.name;
  l.composite = s.composite;
  l.size = s.size;
  l.align = s.align;
  for (const FieldInfo& f : s.fields) l.fields.push_back({f.name, f.type->AsElem(), f.offset});
  for (const FieldInfo& f : s.array_fields)
    l.array_fields.push_back({f.name, f.type->elem, f.type->ndim, f.value_fields_before});
  return l;
}

rt::ModuleSignature CheckedModule::Signature() const {
  rt::ModuleSignature sig;
  for (const StructInfo& s : structs) sig.structs.push_back(ToStructLayout(s));
  for (const FunctionInfo& k : kernels) {
    rt::KernelSignature ks;
    ks.name = k.name;
    ks.tiled = k.tiled;
    ks.has_adjoint = k.enable_backward;
    for (int i = 0; i < k.num_params; ++i) {
      const LocalSymbol& p = *k.Param(i);
      ks.params.push_back(ToParamInfo(p));
      // A struct's array fields follow it as array parameters named `s.x`.
      if (p.type->kind == TypeKind::Struct && structs[size_t(p.type->struct_index)].holds_arrays)
        for (auto& [path, t] : ArrayFieldPaths(p.type->struct_index)) {
          rt::ParamInfo a;
          a.name = p.name + "." + path;
          a.kind = rt::ParamKind::Array;
          a.type = t->elem;
          a.ndim = t->ndim;
          ks.params.push_back(a);
        }
    }
    sig.kernels.push_back(std::move(ks));
  }
  return sig;
}

}  // namespace tilec::sema
