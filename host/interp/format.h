// Python's string formatting beyond format() (declared in value.h): the str.format engine
// that f-strings compile to, and printf-style `str % args`.
#pragma once
#include <string>

#include "host/interp/value.h"

namespace tilec::host {

// `fmt.format(*args.pos, **args.kw)`.
std::string StrFormat(Interpreter& in, const std::string& fmt, const CallArgs& args);
// `fmt % args`: a tuple gives the positional values, a dict the `%(name)s` ones.
std::string PercentFormat(Interpreter& in, const std::string& fmt, const Value& args);

}  // namespace tilec::host
