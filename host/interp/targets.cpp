// Assignment and deletion targets, as CPython binds and deletes them: names in the current
// scope, unpacking (with a starred target), items and attributes.
#include "host/interp/errors.h"
#include "host/interp/interpreter.h"

namespace tilec::host {

void Interpreter::Delete(const ast::Expr& target) {
  if (auto* n = target.As<ast::Name>()) {
    const bool local = frame_ && frame_->locals && !frame_->global_names.count(n->id);
    auto& scope = local ? *frame_->locals : globals_;
    if (!scope.erase(n->id)) Raise("NameError", "name '" + n->id + "' is not defined");
  } else if (auto* t = target.As<ast::Tuple>()) {
    for (const auto& e : t->elts) Delete(*e);
  } else if (auto* l = target.As<ast::List>()) {
    for (const auto& e : l->elts) Delete(*e);
  } else if (auto* sub = target.As<ast::Subscript>()) {
    Value obj = Eval(*sub->value);
    Value key = EvalSubscriptIndex(*sub->index);
    if (!obj.IsObj() || !obj.obj()->DelItem(*this, key))
      TypeError("'" + TypeName(obj) + "' object doesn't support item deletion");
  } else if (auto* at = target.As<ast::Attribute>()) {
    Value obj = Eval(*at->value);
    if (!obj.IsObj() || !obj.obj()->DelAttr(*this, at->attr))
      AttributeError("'" + TypeName(obj) + "' object has no attribute '" + at->attr + "'");
  } else {
    Raise("SyntaxError", "cannot delete expression");
  }
}

void Interpreter::Assign(const ast::Expr& target, const Value& v) {
  switch (target.kind) {
    case ast::ExprKind::Name:
      StoreName(target.As<ast::Name>()->id, v);
      return;
    case ast::ExprKind::Tuple:
    case ast::ExprKind::List: {
      const auto& elts = target.Is<ast::Tuple>() ? target.As<ast::Tuple>()->elts
                                                 : target.As<ast::List>()->elts;
      std::optional<std::vector<Value>> iterated = v.IsObj() ? v.obj()->Iterate(*this) : std::nullopt;
      if (!iterated) TypeError("cannot unpack non-iterable " + TypeName(v) + " object");
      std::vector<Value> items = std::move(*iterated);
      // `first, *rest, last = v`: the starred target takes the middle, as a list.
      for (size_t s = 0; s < elts.size(); ++s) {
        if (!dynamic_cast<const ast::Starred*>(elts[s].get())) continue;
        const size_t after = elts.size() - s - 1;
        if (items.size() < elts.size() - 1)
          ValueError("not enough values to unpack (expected at least " + std::to_string(elts.size() - 1) +
                     ", got " + std::to_string(items.size()) + ")");
        for (size_t k = 0; k < s; ++k) Assign(*elts[k], items[k]);
        std::vector<Value> middle(items.begin() + long(s), items.end() - long(after));
        Assign(*static_cast<const ast::Call&>(*elts[s]).args[0], MakeList(std::move(middle)));
        for (size_t k = 0; k < after; ++k) Assign(*elts[s + 1 + k], items[items.size() - after + k]);
        return;
      }
      if (items.size() > elts.size())
        ValueError("too many values to unpack (expected " + std::to_string(elts.size()) + ")");
      if (items.size() < elts.size())
        ValueError("not enough values to unpack (expected " + std::to_string(elts.size()) +
                   ", got " + std::to_string(items.size()) + ")");
      for (size_t k = 0; k < elts.size(); ++k) Assign(*elts[k], items[k]);
      return;
    }
    case ast::ExprKind::Subscript: {
      auto* sub = target.As<ast::Subscript>();
      Value obj = Eval(*sub->value);
      Value key = EvalSubscriptIndex(*sub->index);
      if (!obj.IsObj()) TypeError("'" + TypeName(obj) + "' object does not support item assignment");
      obj.obj()->SetItem(*this, key, v);
      return;
    }
    case ast::ExprKind::Attribute: {
      auto* at = target.As<ast::Attribute>();
      Value obj = Eval(*at->value);
      if (!obj.IsObj() || !obj.obj()->SetAttr(*this, at->attr, v)) {
        if (obj.IsObj() && obj.obj()->GetAttr(*this, at->attr))
          AttributeError("attribute '" + at->attr + "' of '" + TypeName(obj) + "' objects is not writable");
        AttributeError("'" + TypeName(obj) + "' object has no attribute '" + at->attr + "'");
      }
      return;
    }
    default:
      Raise("SyntaxError", "cannot assign to expression");
  }
}

}  // namespace tilec::host
