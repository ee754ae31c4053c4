// Argument binding with Python's wording: "f() missing 1 required positional argument: 'x'".
#include "host/interp/args.h"

namespace tilec::host {

ArgBinder::ArgBinder(std::string fname, const CallArgs& args, std::vector<std::string> names,
                     size_t required, bool variadic_kw)
    : fname_(std::move(fname)), names_(std::move(names)), bound_(names_.size(), nullptr) {
  if (args.pos.size() > names_.size()) {
    std::string takes = required == names_.size()
                            ? std::to_string(names_.size())
                            : "from " + std::to_string(required) + " to " + std::to_string(names_.size());
    TypeError(fname_ + "() takes " + takes + " positional argument" +
              (names_.size() == 1 && required == 1 ? "" : "s") + " but " +
              std::to_string(args.pos.size()) + (args.pos.size() == 1 ? " was" : " were") +
              " given");
  }
  for (size_t k = 0; k < args.pos.size(); ++k) bound_[k] = &args.pos[k];
  for (auto& [name, value] : args.kw) {
    size_t idx = 0;
    while (idx < names_.size() && names_[idx] != name) ++idx;
    if (idx == names_.size()) {
      if (variadic_kw) {
        extra_.emplace_back(name, value);
        continue;
      }
      TypeError(fname_ + "() got an unexpected keyword argument '" + name + "'");
    }
    if (bound_[idx]) TypeError(fname_ + "() got multiple values for argument '" + name + "'");
    bound_[idx] = &value;
  }
  std::vector<std::string> missing;
  for (size_t k = 0; k < required; ++k)
    if (!bound_[k]) missing.push_back("'" + names_[k] + "'");
  if (!missing.empty()) {
    std::string list;
    for (size_t k = 0; k < missing.size(); ++k) {
      if (k) list += k + 1 == missing.size() ? (missing.size() > 2 ? ", and " : " and ") : ", ";
      list += missing[k];
    }
    TypeError(fname_ + "() missing " + std::to_string(missing.size()) + " required positional argument" +
              (missing.size() == 1 ? "" : "s") + ": " + list);
  }
}

double ToDouble(const Value& v, const std::string& context) {
  if (v.IsNumber()) return v.AsDouble();
  if (v.IsObj())
    if (auto s = v.obj()->AsScalar(); s && s->IsNumber()) return s->AsDouble();
  TypeError(context + ": must be a real number, not " + TypeName(v));
}

int64_t ToInt(const Value& v, const std::string& context) {
  if (v.IsIntLike()) return v.i();
  if (v.IsObj())
    if (auto i = v.obj()->AsIndex()) return *i;
  TypeError(context + ": expected an int, got " + TypeName(v));
}

const std::string& ToStr(const Value& v, const std::string& context) {
  if (auto* s = v.As<StrObj>()) return s->s;
  TypeError(context + ": expected a str, got " + TypeName(v));
}

}  // namespace tilec::host
