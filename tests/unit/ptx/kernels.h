// Tile IR kernels built by hand for the SIMT tests: the two spec examples and parametrised
// gather/scatter kernels (2-D/3-D, any axis, runtime offsets, shared or register storage).
#pragma once
#include <memory>
#include <vector>

#include "ir/builder.h"
#include "ir/passes/uniformity.h"
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
// a shared and of a register tile, a used scalar atomic (once per lane: counter ends at
// G * block_dim), a scalar store read back by every lane, an if yielding a tile, tile_map with
// a region, and a non-indexed atomic add.
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
  // Each lane's previous value differs; times 0 it keeps the stored value the same on all lanes.
  ir::Value* none = b.Binary(OpCode::Mul, b.Cast(old, ScalarType::Float32), f32(0.0));
  b.ArrayStore(sums, {g}, b.Binary(OpCode::Add, total, none));
  // Every lane reads back the value all lanes stored.
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
  ir::AnalyzeUniformity(m);
}

// lanes(counter: i32[1], seen: i32[G*B], ids: i32[G*B], fcount: f32[1], tiles: f32[G*8],
//       ext: f32[G*B], evens: f32[1], mat: f32[4, 8], rows: f32[G*8]): the per-lane rule of
// LANGUAGE.md §4 on block g, lane l.
//   - scalar side effects once per lane: counter and fcount end at G*B, each lane's previous
//     counter value is its own (seen[old] = 1 marks all G*B of them), ids[g*B + l] = l;
//   - a tile operation reads lane 0's value of a lane-varying scalar: tile_full(l + 1) stored
//     at offset g*8 + l fills tiles[g*8 .. g*8+8) with 1; a tile_load of the view mat[l % 4]
//     times 2 (l + 1) stores row 0 doubled into rows[g*8 .. g*8+8);
//   - tile_extract at a per-lane index is per lane: ext[g*B + l] = l % 8 + 100 g;
//   - scalar code under a lane-varying if (even lanes) reads what the tile_store wrote, so a
//     barrier is needed, and goes before the if: evens ends at G * ceil(B/2).
inline void AddLanesKernel(ir::Module& m) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction("lanes");
  f->tiled = true;
  ir::Value* counter = f->AddParam("counter", Arr(ScalarType::Int32, 1));
  ir::Value* seen = f->AddParam("seen", Arr(ScalarType::Int32, 1));
  ir::Value* ids = f->AddParam("ids", Arr(ScalarType::Int32, 1));
  ir::Value* fcount = f->AddParam("fcount", Arr(ScalarType::Float32, 1));
  ir::Value* tiles = f->AddParam("tiles", Arr(ScalarType::Float32, 1));
  ir::Value* ext = f->AddParam("ext", Arr(ScalarType::Float32, 1));
  ir::Value* evens = f->AddParam("evens", Arr(ScalarType::Float32, 1));
  ir::Value* mat = f->AddParam("mat", Arr(ScalarType::Float32, 2));
  ir::Value* rows = f->AddParam("rows", Arr(ScalarType::Float32, 1));
  b.SetInsertionPoint(f->body());
  auto i32 = [&](int64_t v) { return b.ConstInt(ScalarType::Int32, v); };
  auto f32 = [&](double v) { return b.ConstFloat(ScalarType::Float32, v); };
  ir::Value* g = b.Tid(1)[0];
  ir::Value* lane = b.LaneId();
  ir::Value* gl = b.Binary(OpCode::Add, b.Binary(OpCode::Mul, g, b.BlockDim()), lane);
  ir::Value* old = b.AtomicAdd(counter, {i32(0)}, i32(1));
  b.ArrayStore(seen, {old}, i32(1));
  b.ArrayStore(ids, {gl}, lane);
  b.AtomicAdd(fcount, {i32(0)}, f32(1.0));
  ir::Value* x = b.Binary(OpCode::Add, b.Cast(lane, ScalarType::Float32), f32(1.0));
  ir::Value* t = b.TileFull(x, {8});
  ir::Value* ar = b.TileArange(ScalarType::Float32, 0, 1, 8);
  ir::Value* e = b.TileExtract(ar, {b.Binary(OpCode::Mod, lane, i32(8))});
  b.ArrayStore(ext, {gl}, b.Binary(OpCode::Add, e, b.Binary(OpCode::Mul, b.Cast(g, ScalarType::Float32), f32(100.0))));
  ir::Value* g8 = b.Binary(OpCode::Mul, g, i32(8));
  ir::Value* view = b.ArraySlice(mat, {b.Binary(OpCode::Mod, lane, i32(4))});
  ir::Value* row = b.TileLoad(view, {8}, {i32(0)});
  b.TileStore(rows, b.Binary(OpCode::Mul, row, b.Binary(OpCode::Add, x, x)), {g8});
  b.TileStore(tiles, t, {b.Binary(OpCode::Add, g8, lane)});
  ir::Op* br = b.If(b.Cmp(ir::CmpPred::Eq, b.Binary(OpCode::Mod, lane, i32(2)), i32(0)), {});
  {
    ir::Builder::InsertionGuard guard(b);
    b.SetInsertionPoint(br->region(0));
    ir::Value* back = b.ArrayLoad(tiles, {b.Binary(OpCode::Add, g8, b.Binary(OpCode::Mod, lane, i32(8)))});
    b.AtomicAdd(evens, {i32(0)}, back);
    b.Yield({});
    b.SetInsertionPoint(br->region(1));
    b.Yield({});
  }
  b.Return();
  ir::AnalyzeUniformity(m);
}

// scatter_lanes(acc: E[G*4], wr: i32[G*4]) on block g, lane l (tile_scatter_lanes, the bridge
// of wp.tile / tile_scatter_add / tile_scatter_masked):
//   acc[g*4 + k] = 0.5 plus, in increasing lane order, v(l) for each lane with l % 3 != 1 and
//                  l % 5 == k (l % 5 == 4 is outside the tile: skipped), v(l) = (l + 1) * 0.1
//                  in E (with `as_struct`, E is {x, y, z} of `elem`, every field starting
//                  at 0.5, and lane l adds (v, 2 v, 0));
//   wr[g*4 + k]  = the highest lane l with l % 4 == k, -1 if none.
inline void AddScatterLanesKernel(ir::Module& m, const std::string& name, ScalarType elem, bool as_struct) {
  ir::Builder b(m);
  ir::ElemType et = ir::ElemType::Of(elem);
  if (as_struct) {
    ir::StructDef d;
    d.name = name + "_v3";
    for (const char* fname : {"x", "y", "z"}) d.fields.push_back({fname, ir::ElemType::Of(elem), 0});
    et = ir::ElemType::Struct(m.AddStruct(d));
  }
  ir::Function* f = m.AddFunction(name);
  f->tiled = true;
  ir::Value* acc = f->AddParam("acc", Type::Array(et, 1));
  ir::Value* wr = f->AddParam("wr", Arr(ScalarType::Int32, 1));
  b.SetInsertionPoint(f->body());
  auto i32 = [&](int64_t v) { return b.ConstInt(ScalarType::Int32, v); };
  auto fl = [&](double v) { return b.ConstFloat(elem, v); };
  ir::Value* g = b.Tid(1)[0];
  ir::Value* lane = b.LaneId();
  ir::Value* v = b.Binary(OpCode::Mul, b.Cast(b.Binary(OpCode::Add, lane, i32(1)), elem), fl(0.1));
  ir::Value* start = fl(0.5);
  if (as_struct) {
    ir::Value* s = b.FieldSet(b.ZeroOf(Type::Struct(et.struct_index)), 0, v);
    v = b.FieldSet(s, 1, b.Binary(OpCode::Add, v, v));
    ir::Value* z = b.FieldSet(b.ZeroOf(Type::Struct(et.struct_index)), 0, start);
    z = b.FieldSet(z, 1, start);
    start = b.FieldSet(z, 2, start);
  }
  ir::Value* has = b.Cmp(ir::CmpPred::Ne, b.Binary(OpCode::Mod, lane, i32(3)), i32(1));
  ir::Value* sa = b.TileScatterLanes(b.TileFull(start, {4}), v, has, {b.Binary(OpCode::Mod, lane, i32(5))}, true);
  ir::Value* g4 = b.Binary(OpCode::Mul, g, i32(4));
  b.TileStore(acc, sa, {g4});
  ir::Value* sw = b.TileScatterLanes(b.TileFull(i32(-1), {4}), lane, b.ConstBool(true),
                                     {b.Binary(OpCode::Mod, lane, i32(4))}, false);
  b.TileStore(wr, sw, {g4});
  b.Return();
  ir::AnalyzeUniformity(m);
}

}  // namespace tilec::testing

namespace tilec::testing {

// gather_map_scatter(x: f32 (R, C), src: i32[G*M], dst: i32[G*M], y: f32 (R, C)) for a tile of
// shape (M, N): block program g gathers rows src[g*M .. g*M+M) of x (columns from 0), computes
// u = t * 0.5 + (with `sin`) sin(t), else t * t, and adds u into rows dst[g*M .. g*M+M) of y: one
// run of per-element tile ops, whose slots the SIMT lowering takes a chunk at a time.
inline void AddGatherMapScatter(ir::Module& m, const std::string& name, int64_t rows, int64_t cols, bool sin) {
  ir::Builder b(m);
  ir::Function* f = m.AddFunction(name);
  f->tiled = true;
  ir::Value* x = f->AddParam("x", Arr(ScalarType::Float32, 2));
  ir::Value* src = f->AddParam("src", Arr(ScalarType::Int32, 1));
  ir::Value* dst = f->AddParam("dst", Arr(ScalarType::Int32, 1));
  ir::Value* y = f->AddParam("y", Arr(ScalarType::Float32, 2));
  b.SetInsertionPoint(f->body());
  ir::Value* g = b.Tid(1)[0];
  ir::Value* zero = b.ConstInt(ScalarType::Int32, 0);
  ir::Value* start = b.Binary(OpCode::Mul, g, b.ConstInt(ScalarType::Int32, rows));
  ir::Value* si = b.TileLoad(src, {rows}, {start});
  ir::Value* di = b.TileLoad(dst, {rows}, {start});
  ir::Value* t = b.TileLoadIndexed(x, si, {rows, cols}, {zero, zero}, 0);
  ir::Op* map = b.TileMap({t}, ir::ElemType::Of(ScalarType::Float32));
  {
    ir::Builder::InsertionGuard guard(b);
    b.SetInsertionPoint(map->region(0));
    ir::Value* a = map->region(0)->arg(0);
    b.Yield({sin ? b.Unary(OpCode::Sin, a) : b.Binary(OpCode::Mul, a, a)});
  }
  ir::Value* u = b.Binary(OpCode::Add, b.Binary(OpCode::Mul, t, b.ConstFloat(ScalarType::Float32, 0.5)), map->result(0));
  b.TileAtomicAddIndexed(y, di, u, {zero, zero}, 0);
  b.Return();
  ir::AnalyzeUniformity(m);
}

}  // namespace tilec::testing
