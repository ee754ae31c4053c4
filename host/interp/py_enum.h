// CPython's `enum` module for host programs: `Enum`, `IntEnum`, `Flag`, `IntFlag`, `auto`,
// `unique`. An enum class is a host class whose body's names become member objects
// (classes.cpp makes the class, py_enum.cpp the members and their behaviour).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "host/interp/value.h"

namespace tilec::host {

// What an enum class derives from; None for other classes.
enum class EnumFlavor : uint8_t { None, Enum, IntEnum, Flag, IntFlag };

Value MakeEnumModule();

// The members of a new enum class `cls` from its body's names and values, in the body's
// order (`auto()` numbered as CPython does): name → member, aliases naming the member of an
// equal value.
std::vector<std::pair<std::string, Value>> MakeEnumMembers(Interpreter& in, const Value& cls, const std::string& cls_name,
                                                           EnumFlavor flavor,
                                                           const std::vector<std::pair<std::string, Value>>& body);
// `Cls(value)`: the member of that value (for flags, the combination of members).
Value EnumLookup(Interpreter& in, const Value& cls, const Value& value);
// The class of an enum member; nullopt for other values.
std::optional<Value> EnumClassOf(const Value& member);
// The integer an IntEnum or IntFlag member stands for (kernels read it as a constant).
std::optional<int64_t> EnumIntValue(const Value& member);

// Host-class hooks (classes.cpp): the base classes of the `enum` module, and an enum class's
// members in definition order, aliases left out.
Value MakeEnumBase(const std::string& name, EnumFlavor flavor);
// An enum class the host defines itself (`wp.DeterministicMode`), as its class statement would.
Value MakeEnumClass(Interpreter& in, const std::string& module, const std::string& name, EnumFlavor flavor,
                    const std::vector<std::pair<std::string, Value>>& body);
EnumFlavor EnumFlavorOf(const Value& cls);
const std::vector<Value>* EnumMembersOf(const Value& cls);
// `obj.fn` for a method read through an instance: `fn` with `self` bound.
Value MakeBoundMethod(Value self, Value fn, std::string name);

}  // namespace tilec::host
