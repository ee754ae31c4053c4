// Python's built-in exception classes as host values: `except ValueError as e`, `raise
// KeyError(k)`, isinstance checks. Errors raised inside the interpreter carry only a type name;
// these classes give that name its place in CPython's hierarchy.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "host/interp/errors.h"
#include "host/interp/value.h"

namespace tilec::host {

struct ExcTypeObj : Object {
  ExcTypeObj(std::string qualname, std::vector<const ExcTypeObj*> bases)
      : qualname(std::move(qualname)), bases(std::move(bases)) {}
  std::string TypeName() const override { return "type"; }
  std::string Repr() const override { return "<class '" + qualname + "'>"; }
  bool Callable() const override { return true; }
  Value Call(Interpreter& in, CallArgs& args) override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  bool IsSubclassOf(const ExcTypeObj* base) const;
  std::string qualname;  // what tracebacks print: "ValueError", "numpy.AxisError"
  std::vector<const ExcTypeObj*> bases;
};

struct ExcObj : Object {
  ExcObj(std::shared_ptr<const ExcTypeObj> type, std::vector<Value> args)
      : type(std::move(type)), args(std::move(args)) {}
  std::string TypeName() const override { return type->qualname; }
  std::string Repr() const override;
  std::string Str() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::shared_ptr<const ExcTypeObj> type;
  std::vector<Value> args;
};

// The class named by a PyError type ("ValueError", "numpy.AxisError"); unknown names become
// subclasses of Exception, made once.
std::shared_ptr<const ExcTypeObj> ExceptionType(const std::string& qualname);
// The exception object of `e`: its own, or one made from its type and message.
std::shared_ptr<ExcObj> ExceptionValue(const PyError& e);
// A PyError that raises `exc` (an exception class or instance); TypeError for anything else.
PyError MakeRaise(Interpreter& in, const Value& exc);
// Whether `cls` (an exception class or a tuple of them, as `except` and `assertRaises` take)
// catches `raised`; TypeError when `cls` is neither.
bool ExceptionMatches(const Value& cls, const ExcTypeObj& raised);
void InstallExceptions(std::map<std::string, Value>& builtins);

}  // namespace tilec::host
