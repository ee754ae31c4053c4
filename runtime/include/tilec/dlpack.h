// Zero-copy exchange of arrays with other frameworks through DLPack (dlpack/dlpack.h, 0.6):
// FromDLPack views a DLManagedTensor's memory as an rt::Array and owns the tensor until the
// last view dies; ToDLPack hands an Array's memory out as a DLManagedTensor that keeps it alive.
// Header-only, so that the runtime library itself does not depend on the DLPack headers.
#pragma once
#include <dlpack/dlpack.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "support/composite.h"
#include "tilec/array.h"
#include "tilec/error.h"

namespace tilec::rt {

namespace dlpack_detail {

// DLPack 0.8 added kDLBool (6); producers on newer versions send it for bool tensors.
constexpr uint8_t kBoolCode = 6;

inline std::string DTypeText(const DLDataType& t) {
  return "code " + std::to_string(t.code) + ", " + std::to_string(t.bits) + " bits, " + std::to_string(t.lanes) +
         " lanes";
}

inline ScalarType ScalarFromDL(const DLDataType& t) {
  if (t.lanes != 1)
    throw Error("FromDLPack: vector dtypes (lanes > 1) are not supported, got " + DTypeText(t) +
                "; pass the lanes as a trailing dimension");
  switch (t.code) {
    case kDLInt:
      switch (t.bits) {
        case 8: return ScalarType::Int8;
        case 16: return ScalarType::Int16;
        case 32: return ScalarType::Int32;
        case 64: return ScalarType::Int64;
      }
      break;
    case kDLUInt:
      switch (t.bits) {
        case 8: return ScalarType::UInt8;
        case 16: return ScalarType::UInt16;
        case 32: return ScalarType::UInt32;
        case 64: return ScalarType::UInt64;
      }
      break;
    case kDLFloat:
      switch (t.bits) {
        case 16: return ScalarType::Float16;
        case 32: return ScalarType::Float32;
        case 64: return ScalarType::Float64;
      }
      break;
    case kDLBfloat:
      if (t.bits == 16) return ScalarType::BFloat16;
      break;
    case kBoolCode:
      if (t.bits == 8) return ScalarType::Bool;
      break;
    default:
      break;
  }
  throw Error("FromDLPack: unsupported dtype (" + DTypeText(t) +
              "); supported: int and uint of 8 to 64 bits, float16/32/64, bfloat16, bool");
}

inline DLDataType ScalarToDL(ScalarType s) {
  uint8_t bits = static_cast<uint8_t>(ScalarSize(s) * 8);
  if (s == ScalarType::Bool) return {kBoolCode, 8, 1};
  if (s == ScalarType::BFloat16) return {kDLBfloat, 16, 1};
  if (IsFloat(s)) return {kDLFloat, bits, 1};
  return {static_cast<uint8_t>(IsSigned(s) ? kDLInt : kDLUInt), bits, 1};
}

// What a ToDLPack tensor points into: the Array (keeping its storage alive) and the shape and
// stride arrays the DLTensor refers to.
struct Exported {
  DLManagedTensor tensor{};
  Array array;
  std::vector<int64_t> shape, strides;
};

}  // namespace dlpack_detail

// Views `tensor`'s memory without copying: shape as given, strides in elements (null: C
// order), data + byte_offset as element (0, ..., 0). kDLCPU (and kDLCUDAHost, pinned host
// memory) becomes `cpu`, kDLCUDA `cuda:<device_id>`. On success the Array owns the tensor: its
// deleter runs once, when the last view of the array (and of its slices) is gone. On error
// (an unsupported dtype or device) Error is thrown and the tensor stays the caller's.
inline Array FromDLPack(DLManagedTensor* tensor) {
  if (!tensor) throw Error("FromDLPack: null tensor");
  const DLTensor& t = tensor->dl_tensor;
  if (t.ndim < 0 || t.ndim > TILEC_MAX_DIMS)
    throw Error("FromDLPack: arrays have 0 to " + std::to_string(TILEC_MAX_DIMS) + " dimensions, got " +
                std::to_string(t.ndim));
  ScalarType scalar = dlpack_detail::ScalarFromDL(t.dtype);
  Device device;
  switch (t.device.device_type) {
    case kDLCPU:
    case kDLCUDAHost:
      device = Device::Cpu();
      break;
    case kDLCUDA:
      device = Device::Cuda(t.device.device_id);
      break;
    default:
      throw Error("FromDLPack: unsupported device type " + std::to_string(int(t.device.device_type)) +
                  " (supported: kDLCPU, kDLCUDAHost, kDLCUDA)");
  }
  const int64_t elem = static_cast<int64_t>(ScalarSize(scalar));
  std::vector<int64_t> shape(t.shape, t.shape + t.ndim), strides(t.ndim);
  int64_t run = 1;  // the C-order stride of dimension i, in elements
  for (int i = t.ndim - 1; i >= 0; --i) {
    if (shape[i] < 0)
      throw Error("FromDLPack: negative extent " + std::to_string(shape[i]) + " in dimension " + std::to_string(i));
    strides[i] = (t.strides ? t.strides[i] : run) * elem;
    run *= shape[i];
  }
  void* data = static_cast<char*>(t.data) + t.byte_offset;
  // Wrap may still throw (a CUDA device that does not exist): the guard is made only after it
  // would have, via a holder that does nothing until armed.
  struct Owner {
    DLManagedTensor* tensor = nullptr;
    ~Owner() {
      if (tensor && tensor->deleter) tensor->deleter(tensor);
    }
  };
  auto owner = std::make_shared<Owner>();
  Array a = Array::Wrap(data, std::move(shape), std::move(strides), scalar, device, owner);
  owner->tensor = tensor;
  return a;
}

// Hands `array`'s memory out without copying. The tensor keeps the array's storage alive
// until its deleter is called (exactly once, by the consumer). Composite elements (vec3f,
// mat33d, ...) become trailing dimensions of their scalar, as Warp exports them; other structs
// cannot be expressed in DLPack and are an Error, as are byte strides that are not a multiple
// of the scalar size.
inline DLManagedTensor* ToDLPack(const Array& array) {
  if (array.is_null()) throw Error("ToDLPack: null array");
  auto out = std::make_unique<dlpack_detail::Exported>();
  out->array = array;
  out->shape = array.shape();
  out->strides = array.strides();
  ScalarType scalar = array.dtype().scalar;
  if (array.dtype().is_struct()) {
    const Composite& c = array.dtype().layout->composite;
    if (!c.valid())
      throw Error("ToDLPack: arrays of struct `" + array.dtype().Name() + "` have no DLPack dtype");
    scalar = c.scalar;
    const int64_t es = static_cast<int64_t>(ScalarSize(scalar));
    if (c.is_matrix()) {
      out->shape.insert(out->shape.end(), {c.rows, c.cols});
      out->strides.insert(out->strides.end(), {c.cols * es, es});
    } else {
      out->shape.push_back(c.length());
      out->strides.push_back(es);
    }
  }
  const int64_t es = static_cast<int64_t>(ScalarSize(scalar));
  for (int64_t& s : out->strides) {
    if (s % es != 0)
      throw Error("ToDLPack: byte stride " + std::to_string(s) + " is not a multiple of the element size " +
                  std::to_string(es) + "; DLPack strides count elements");
    s /= es;
  }
  DLTensor& t = out->tensor.dl_tensor;
  t.data = array.data();
  t.device = array.device().is_cuda() ? DLDevice{kDLCUDA, array.device().ordinal} : DLDevice{kDLCPU, 0};
  t.ndim = static_cast<int>(out->shape.size());
  t.dtype = dlpack_detail::ScalarToDL(scalar);
  t.shape = out->shape.data();
  t.strides = out->strides.data();
  t.byte_offset = 0;
  out->tensor.manager_ctx = out.get();
  out->tensor.deleter = [](DLManagedTensor* self) { delete static_cast<dlpack_detail::Exported*>(self->manager_ctx); };
  return &out.release()->tensor;
}

}  // namespace tilec::rt
