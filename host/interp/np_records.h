// The interpreter's NumPy structured arrays (arrays of records) and records (np.void), as
// `.numpy()` of a `wp.array` of structs returns them.
#pragma once
#include "host/interp/value.h"
#include "host/ndarray/records.h"

namespace tilec::host {

struct RecordArrayObj : Object {
  RecordArrayObj(RecordArray a, bool scalar) : a(std::move(a)), scalar(scalar) {}
  std::string TypeName() const override;
  std::string Repr() const override;
  std::string Str() const override;
  std::optional<Value> GetAttr(Interpreter& in, const std::string& name) override;
  Value GetItem(Interpreter& in, const Value& key) override;
  void SetItem(Interpreter& in, const Value& key, const Value& v) override;
  std::optional<int64_t> Len() const override;
  std::optional<std::vector<Value>> Iterate(Interpreter& in) override;
  RecordArray a;
  bool scalar;  // one record: np.void
};

// A 0-d result becomes a record (np.void), as NumPy's indexing gives.
Value WrapRecords(RecordArray a);
// `a.numpy()` of a `warp.array` of (non-vector) structs: a view on the CPU, else a copy;
// nullopt for any other value.
std::optional<RecordArray> WpArrayToRecords(const Value& v);

}  // namespace tilec::host
