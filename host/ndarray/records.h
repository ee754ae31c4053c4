// NumPy structured arrays, as `.numpy()` of an array of Warp structs gives them: a record type
// (named fields at byte offsets; scalars, fixed-shape subarrays for vector fields, nested
// records) and strided views of records whose fields are plain NdArray views.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "host/ndarray/ndarray.h"

namespace tilec::host {

struct RecordType;

struct RecordField {
  std::string name;
  int64_t offset = 0;                    // bytes from the record's start
  ScalarType scalar = ScalarType::Float32;
  Shape sub;                             // subarray shape: (3,) for a vec3, (3, 3) for a mat33
  std::shared_ptr<const RecordType> record;  // set for a nested record (then `scalar` is unused)
  int64_t Size() const;                  // bytes
};

struct RecordType {
  std::vector<RecordField> fields;
  int64_t itemsize = 0;
  // NumPy's str(dtype): `[('a', '<f4'), ('v', '<f4', (3,))]` when the fields are packed,
  // else the `{'names': ..., 'formats': ..., 'offsets': ..., 'itemsize': ...}` form.
  std::string Str() const;
  const RecordField* Find(const std::string& name) const;
};

// An n-d strided view of records (0-d: one record, NumPy's np.void).
class RecordArray {
 public:
  RecordArray(std::shared_ptr<const RecordType> type, Shape shape, std::vector<int64_t> byte_strides,
              uint8_t* data, std::shared_ptr<void> owner);

  const RecordType& type() const { return *type_; }
  const std::shared_ptr<const RecordType>& type_ptr() const { return type_; }
  const Shape& shape() const { return shape_; }
  const std::vector<int64_t>& strides() const { return strides_; }
  int ndim() const { return static_cast<int>(shape_.size()); }
  int64_t size() const;
  uint8_t* data() const { return data_; }

  // x['name'] for a scalar or subarray field: a view whose shape is this shape followed by the
  // subarray's. KeyError-like NdError ("ValueError", NumPy's text) for an unknown name.
  NdArray Field(const std::string& name) const;
  // x['name'] for a nested record field.
  RecordArray RecordAt(const std::string& name) const;
  // Basic indexing (integers, slices, None, ...): a view.
  RecordArray Index(std::span<const IndexItem> items) const;

 private:
  const RecordField& Lookup(const std::string& name) const;
  std::shared_ptr<const RecordType> type_;
  Shape shape_;
  std::vector<int64_t> strides_;
  uint8_t* data_ = nullptr;
  std::shared_ptr<void> owner_;
};

}  // namespace tilec::host
