// Module lowering: the struct table (same indices as the checker's) and one IR kernel per
// checked @wp.kernel, its parameters bound as the first variables.
#include "frontend/lower_to_ir/lowerer.h"

namespace tilec::lower {

void Lowerer::LowerKernel(const sema::FunctionInfo& k) {
  ir::Function* f = m_.AddFunction(k.name, LocOf(k.def->name_range));
  f->tiled = k.tiled;
  f->enable_backward = k.enable_backward;
  kernel_ = f;
  b_.SetInsertionPoint(f->body());
  env_.clear();
  loops_.clear();
  CollectAliases(k.def->body);
  struct_arrays_.clear();
  for (int i = 0; i < k.num_params; ++i) {
    const sema::LocalSymbol* p = k.Param(i);
    env_[p].value = f->AddParam(p->name, IrType(p->type), LocOf(p->decl_range));
    // The signature's order (sema::CheckedModule::Signature): the struct, then its arrays.
    if (p->type->kind == sema::TypeKind::Struct && cm_.structs[size_t(p->type->struct_index)].holds_arrays)
      for (auto& [path, t] : cm_.ArrayFieldPaths(p->type->struct_index))
        struct_arrays_[p][path] = f->AddParam(p->name + "." + path, IrType(t), LocOf(p->decl_range));
  }
  FuncCtx ctx;
  ctx.info = &k;
  ctx.has_return_flag = HasReturn(k.def->body);
  funcs_.push_back(&ctx);
  b_.set_loc(LocOf(k.def->range));
  if (ctx.has_return_flag) env_[&ctx.ret].value = b_.ConstBool(false);
  LowerBody(k.def->body);
  funcs_.pop_back();
  b_.set_loc(LocOf(k.def->range));
  b_.Return();
}

std::unique_ptr<ir::Module> LowerToIr(const sema::CheckedModule& checked, const SourceFile* file,
                                      diag::DiagnosticEngine& diags) {
  auto m = std::make_unique<ir::Module>();
  for (const sema::StructInfo& s : checked.structs) {
    ir::StructDef def;
    def.name = s.name;
    def.composite = s.composite;
    for (const sema::FieldInfo& fld : s.fields) {
      ir::StructField f;
      f.name = fld.name;
      sema::ElemType e = fld.type->AsElem();
      f.type = e.is_struct() ? ir::ElemType::Struct(e.struct_index) : ir::ElemType::Of(e.scalar);
      def.fields.push_back(f);
    }
    m->AddStruct(std::move(def));
  }
  Lowerer l(checked, file, diags, *m);
  for (const sema::FunctionInfo& k : checked.kernels) {
    if (k.has_errors) continue;
    l.LowerKernel(k);
  }
  if (l.failed()) return nullptr;
  return m;
}

}  // namespace tilec::lower
