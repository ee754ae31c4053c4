// Python's `set`: an open-addressing table laid out exactly as CPython 3.11 lays it out (same
// hashes for ints, floats, bools and tuples, same probing and resizing), so that a set prints
// its elements in CPython's order. Strings hash with a fixed function: CPython randomises
// theirs per process, so no order of a set of strings is reproducible there either.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "host/interp/value.h"

namespace tilec::host {

// hash(v) as CPython computes it for numbers and tuples; nullopt for unhashable values.
std::optional<int64_t> PyHash(const Value& v);

struct SetObj : Object {
  SetObj() : table(8) {}
  std::string TypeName() const override { return "set"; }
  std::string Repr() const override;
  bool Truth() const override { return used > 0; }
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  std::optional<int64_t> Len() const override { return int64_t(used); }
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override { return Items(); }
  std::optional<Value> BinOp(Interpreter& in, ast::BinaryOp op, const Value& other, bool reflected) override;
  std::optional<Value> CmpOp(Interpreter& in, ast::CmpOp op, const Value& other, bool reflected) override;

  void Add(const Value& v);       // TypeError for unhashable values
  // set_merge: all of `other`'s elements, with CPython's one up-front resize and its
  // slot-for-slot copy into an empty table of the same size.
  void Merge(const SetObj& other);
  bool Discard(const Value& v);   // whether it was there
  bool Has(const Value& v) const;
  std::vector<Value> Items() const;  // in table order, as CPython iterates

  struct Entry {
    Value key;
    int64_t hash = 0;
    bool active = false, dummy = false;
  };
  std::vector<Entry> table;
  size_t fill = 0, used = 0;

 private:
  void Resize(size_t minused);
  void AddHashed(const Value& v, int64_t hash);
  void InsertClean(const Value& v, int64_t hash);
};

// set(iterable) / the elements of a set display, added in order; set(a_set) merges.
std::shared_ptr<SetObj> MakeSet(Interpreter& in, const std::vector<Value>& items);
std::shared_ptr<SetObj> CopySet(const SetObj& s);

}  // namespace tilec::host
