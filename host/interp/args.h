// Binding call arguments to a Python-like signature, with Python's messages for missing,
// surplus and unexpected arguments; numeric conversions with TypeErrors.
#pragma once
#include <string>
#include <vector>

#include "host/interp/errors.h"
#include "host/interp/value.h"

namespace tilec::host {

class ArgBinder {
 public:
  // `names` are the parameters in order; the first `required` of them must be given.
  // `variadic_kw`: unknown keywords are kept in extra() instead of raising.
  ArgBinder(std::string fname, const CallArgs& args, std::vector<std::string> names,
            size_t required, bool variadic_kw = false);
  bool Has(size_t idx) const { return bound_[idx] != nullptr; }
  const Value& Get(size_t idx) const { return *bound_[idx]; }
  Value Get(size_t idx, const Value& def) const { return bound_[idx] ? *bound_[idx] : def; }
  const std::string& fname() const { return fname_; }
  const std::vector<std::pair<std::string, Value>>& extra() const { return extra_; }

 private:
  std::string fname_;
  std::vector<std::string> names_;
  std::vector<const Value*> bound_;
  std::vector<std::pair<std::string, Value>> extra_;
};

double ToDouble(const Value& v, const std::string& context);
int64_t ToInt(const Value& v, const std::string& context);
const std::string& ToStr(const Value& v, const std::string& context);

}  // namespace tilec::host
