// Tile IR kernels built by hand for the SIMT tests: the two spec examples and parametrised
// gather/scatter kernels (2-D/3-D, any axis, runtime offsets, shared or register storage).
#pragma once
#include <memory>
#include <vector>

#include "ir/builder.h"
#include "ir/verifier.h"

namespace tilec::testing {

using ir::OpCode;
using ir::Type;

inline Type Arr(ScalarType s, int nd) { return Type::Array(ir::ElemType::Of(s), nd); }

// The spec page's gather_even_rows(x, y).
inline void AddGatherEvenRows(ir::Module& m) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("gather_even_rows");
  f->tiled = true;
  ir::Value* x = f->AddParam("x", Arr(ScalarType::Float32, 2));
  ir::Value* y = f->AddParam("y", Arr(ScalarType::Float32, 2));
  b.SetInsertionPoint(f->body());
  ir::Value* rows = b.Binary(OpCode::Mul, b.TileArange(ScalarType::Int32, 0, 1, 2), b.ConstInt(ScalarType::Int32, 2));
  ir::Value* zero = b.ConstInt(ScalarType::Int32, 0);
  ir::Value* t = b.TileLoadIndexed(x, rows, {2, 4}, {zero, zero}, 0);
  b.TileStore(y, t, {zero, zero});
  b.Return();
}

// The spec page's accumulate_even_rows(x, y, previous).
inline void AddAccumulateEvenRows(ir::Module& m) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("accumulate_even_rows");
  f->tiled = true;
  ir::Value* x = f->AddParam("x", Arr(ScalarType::Float32, 2));
  ir::Value* y = f->AddParam("y", Arr(ScalarType::Float32, 2));
  ir::Value* prev = f->AddParam("previous", Arr(ScalarType::Float32, 2));
  b.SetInsertionPoint(f->body());
  ir::Value* zero = b.ConstInt(ScalarType::Int32, 0);
  ir::Value* t = b.TileLoad(x, {2, 4}, {zero, zero});
  ir::Value* rows = b.Binary(OpCode::Mul, b.TileArange(ScalarType::Int32, 0, 1, 2), b.ConstInt(ScalarType::Int32, 2));
  ir::Value* p = b.TileAtomicAddIndexed(y, rows, t, {zero, zero}, 0);
  b.TileStore(prev, p, {zero, zero});
  b.Return();
}

// What a parametrised gather/scatter kernel does.
enum class IndexedKind { Load, Store, AtomicAdd, AtomicAddUnused };

struct IndexedSpec {
  IndexedKind kind = IndexedKind::Load;
  ScalarType dtype = ScalarType::Float32;
  std::vector<int64_t> shape;  // tile shape; the data array has the same rank
  int axis = 0;
  ir::Storage storage = ir::Storage::Register;  // of the data tile (load result / stored tile)
  bool shared_indices = false;                   // index tile loaded into shared memory
};

// kernel(a: array<nd>, idx: array1d[int32], tiles: array<nd>, prev: array<nd>, o_0..o_{nd-1}: int32)
// `tiles` and `prev` stack one tile per block program along dimension 0 (G*shape0, shape1..).
// Block program g takes indices idx[g*M : (g+1)*M] (M = shape[axis]) and:
//   Load:      tiles[g] = tile_load_indexed(a, indices, shape, offset=o, axis)
//   Store:     tile_store_indexed(a, indices, tiles[g], offset=o, axis)
//   AtomicAdd: prev[g] = tile_atomic_add_indexed(a, indices, tiles[g], offset=o, axis)
//   AtomicAddUnused: the same, previous values dropped.
inline void AddIndexedKernel(ir::Module& m, const std::string& name, const IndexedSpec& s) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction(name);
  f->tiled = true;
  int nd = int(s.shape.size());
  ir::Value* a = f->AddParam("a", Arr(s.dtype, nd));
  ir::Value* idx = f->AddParam("idx", Arr(ScalarType::Int32, 1));
  ir::Value* tiles = f->AddParam("tiles", Arr(s.dtype, nd));
  ir::Value* prev = f->AddParam("prev", Arr(s.dtype, nd));
  std::vector<ir::Value*> offs;
  for (int d = 0; d < nd; ++d) offs.push_back(f->AddParam("o" + std::to_string(d), Type::Scalar(ScalarType::Int32)));
  b.SetInsertionPoint(f->body());
  ir::Value* g = b.Tid(1)[0];
  ir::Value* zero = b.ConstInt(ScalarType::Int32, 0);
  int64_t m_len = s.shape[size_t(s.axis)];
  ir::Value* start = b.Binary(OpCode::Mul, g, b.ConstInt(ScalarType::Int32, m_len));
  ir::Value* indices = b.TileLoad(idx, {m_len}, {start},
                                  s.shared_indices ? ir::Storage::Shared : ir::Storage::Register);
  std::vector<ir::Value*> so = {b.Binary(OpCode::Mul, g, b.ConstInt(ScalarType::Int32, s.shape[0]))};
  for (int d = 1; d < nd; ++d) so.push_back(zero);
  if (s.kind == IndexedKind::Load) {
    ir::Value* t = b.TileLoadIndexed(a, indices, s.shape, offs, s.axis, s.storage);
    b.TileStore(tiles, t, so);
  } else {
    ir::Value* t = b.TileLoad(tiles, s.shape, so, s.storage);
    if (s.kind == IndexedKind::Store) {
      b.TileStoreIndexed(a, indices, t, offs, s.axis);
    } else {
      ir::Value* p = b.TileAtomicAddIndexed(a, indices, t, offs, s.axis);
      if (s.kind == IndexedKind::AtomicAdd) b.TileStore(prev, p, so);
    }
  }
  b.Return();
}

}  // namespace tilec::testing
