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

namespace tilec::testing {

// mixed(x: array2d[f32] (G*4, 8), out: array2d[f32] (G*4, 8), counter: array1d[i32],
//       sums: array1d[f32], probe: array1d[f32]) exercises the non-memory ops of the SIMT
// lowering: a shared tile, elementwise ops, a loop-carried tile, tile_sum, tile_extract of
// a shared and of a register tile, a used scalar atomic (broadcast), a scalar store read back
// by every lane, an if yielding a tile, tile_map with a region, and a non-indexed atomic add.
inline void AddMixedKernel(ir::Module& m) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("mixed");
  f->tiled = true;
  ir::Value* x = f->AddParam("x", Arr(ScalarType::Float32, 2));
  ir::Value* out = f->AddParam("out", Arr(ScalarType::Float32, 2));
  ir::Value* counter = f->AddParam("counter", Arr(ScalarType::Int32, 1));
  ir::Value* sums = f->AddParam("sums", Arr(ScalarType::Float32, 1));
  ir::Value* probe = f->AddParam("probe", Arr(ScalarType::Float32, 1));
  b.SetInsertionPoint(f->body());
  auto i32 = [&](int64_t v) { return b.ConstInt(ScalarType::Int32, v); };
  auto f32 = [&](double v) { return b.ConstFloat(ScalarType::Float32, v); };
  ir::Value* g = b.Tid(1)[0];
  ir::Value* row = b.Binary(OpCode::Mul, g, i32(4));
  ir::Value* t = b.TileLoad(x, {4, 8}, {row, i32(0)}, ir::Storage::Shared);
  ir::Value* u = b.Binary(OpCode::Mul, t, f32(0.5));
  ir::Value* acc0 = b.TileFull(f32(0.25), {4, 8});
  ir::Op* loop = b.For(i32(0), i32(3), i32(1), {acc0});
  {
    ir::Builder::InsertionGuard guard(b);
    ir::Block* body = loop->region(0);
    b.SetInsertionPoint(body);
    ir::Value* scaled = b.Binary(OpCode::Mul, u, b.Cast(body->arg(0), ScalarType::Float32));
    b.Yield({b.Binary(OpCode::Add, body->arg(1), scaled)});
  }
  ir::Value* acc = loop->result(0);
  ir::Value* s = b.TileSum(acc);
  ir::Value* total = b.TileExtract(s, {i32(0)});
  ir::Value* old = b.AtomicAdd(counter, {i32(0)}, i32(1));
  b.ArrayStore(sums, {g}, b.Binary(OpCode::Add, total, b.Cast(old, ScalarType::Float32)));
  // Every lane reads back what lane 0 stored.
  ir::Value* back = b.ArrayLoad(sums, {g});
  ir::Value* e = b.TileExtract(t, {i32(1), i32(2)});
  ir::Value* ea = b.TileExtract(acc, {i32(3), i32(7)});
  b.ArrayStore(probe, {g}, b.Binary(OpCode::Add, b.Binary(OpCode::Mul, e, f32(1000)), ea));
  ir::Op* br = b.If(b.Cmp(ir::CmpPred::Gt, e, f32(40.0)), {acc->type()});
  {
    ir::Builder::InsertionGuard guard(b);
    b.SetInsertionPoint(br->region(0));
    b.Yield({b.Binary(OpCode::Mul, acc, back)});
    b.SetInsertionPoint(br->region(1));
    b.Yield({b.Binary(OpCode::Sub, acc, e)});
  }
  ir::Op* map = b.TileMap({br->result(0), t}, ir::ElemType::Of(ScalarType::Float32));
  {
    ir::Builder::InsertionGuard guard(b);
    ir::Block* body = map->region(0);
    b.SetInsertionPoint(body);
    ir::Value* sq = b.Binary(OpCode::Mul, body->arg(0), body->arg(1));
    b.Yield({b.Binary(OpCode::Add, sq, b.Unary(OpCode::Sqrt, b.Unary(OpCode::Abs, body->arg(1))))});
  }
  b.TileStore(out, map->result(0), {row, i32(0)});
  b.TileAtomicAdd(out, t, {row, i32(0)});
  b.Return();
}

}  // namespace tilec::testing
