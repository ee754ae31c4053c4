// Block-serial lowering of scalar values: LLVM types of elements, constants, arithmetic with
// the project's integer rules (wrap-around, truncating `/` and `%` that yield 0 for a zero
// divisor instead of trapping, flooring `//`), casts (saturating float-to-int) and 16-bit
// floats, which are computed in float32 and rounded to nearest even after every op.
#include <algorithm>

#include <llvm/ADT/APFloat.h>
#include <llvm/IR/Intrinsics.h>

#include "codegen/block_serial/emitter.h"
#include "ir/op_cases.h"
#include "support/half.h"

namespace tilec::codegen::bs {

using ir::OpCode;

llvm::Type* Emitter::ValTy(ScalarType s) {
  switch (s) {
    case ScalarType::Bool: return b_.getInt1Ty();
    case ScalarType::Int8: case ScalarType::UInt8: return b_.getInt8Ty();
    case ScalarType::Int16: case ScalarType::UInt16: case ScalarType::Float16: case ScalarType::BFloat16:
      return b_.getInt16Ty();
    case ScalarType::Int32: case ScalarType::UInt32: return b_.getInt32Ty();
    case ScalarType::Int64: case ScalarType::UInt64: return b_.getInt64Ty();
    case ScalarType::Float32: return b_.getFloatTy();
    case ScalarType::Float64: return b_.getDoubleTy();
  }
  return b_.getInt32Ty();
}

llvm::Type* Emitter::MemTy(const ir::ElemType& e) {
  if (!e.is_struct()) return e.scalar == ScalarType::Bool ? b_.getInt8Ty() : ValTy(e.scalar);
  auto it = struct_types_.find(e.struct_index);
  if (it != struct_types_.end()) return it->second;
  const ir::StructDef& s = irm_.structs()[e.struct_index];
  std::vector<llvm::Type*> fields;
  for (const ir::StructField& f : s.fields) fields.push_back(MemTy(f.type));
  auto* st = llvm::StructType::create(ctx_, fields, "struct." + s.name);
  struct_types_[e.struct_index] = st;
  return st;
}

llvm::Value* Emitter::ToMem(llvm::Value* v, const ir::ElemType& e) {
  if (!e.is_struct() && e.scalar == ScalarType::Bool) return b_.CreateZExt(v, b_.getInt8Ty());
  return v;
}

llvm::Value* Emitter::FromMem(llvm::Value* v, const ir::ElemType& e) {
  if (!e.is_struct() && e.scalar == ScalarType::Bool) return b_.CreateICmpNE(v, b_.getInt8(0));
  return v;
}

llvm::Value* Emitter::Zero(const ir::ElemType& e) {
  return llvm::Constant::getNullValue(e.is_struct() ? MemTy(e) : ValTy(e.scalar));
}

llvm::Value* Emitter::EmitConst(const ir::Op& op) {
  const ir::Type& t = op.result()->type();
  if (t.is_struct()) return Zero(t.elem);
  ScalarType s = t.elem.scalar;
  switch (s) {
    case ScalarType::Float32: return llvm::ConstantFP::get(b_.getFloatTy(), double(float(op.value().f)));
    case ScalarType::Float64: return llvm::ConstantFP::get(b_.getDoubleTy(), op.value().f);
    case ScalarType::Float16: return b_.getInt16(FloatToHalf(float(op.value().f)));
    case ScalarType::BFloat16: return b_.getInt16(FloatToBFloat16(float(op.value().f)));
    case ScalarType::Bool: case ScalarType::Int8: case ScalarType::Int16: case ScalarType::Int32:
    case ScalarType::Int64: case ScalarType::UInt8: case ScalarType::UInt16: case ScalarType::UInt32:
    case ScalarType::UInt64:
      return llvm::ConstantInt::get(ValTy(s), uint64_t(op.value().i), IsSigned(s));
  }
  return Zero(t.elem);
}

llvm::Value* Emitter::AsI64(llvm::Value* v, ScalarType t) {
  if (v->getType()->isIntegerTy(64)) return v;
  return IsSigned(t) ? b_.CreateSExt(v, b_.getInt64Ty()) : b_.CreateZExt(v, b_.getInt64Ty());
}

// The conversions between 16-bit floats and float32 live in small always-inline functions,
// written with integer operations only, so that no compiler-runtime helper is needed.
llvm::Function* Emitter::HalfHelper(const char* name) {
  if (llvm::Function* f = mod_.getFunction(name)) return f;
  std::string fname = name;
  bool to_f32 = fname.find("to_f32") != std::string::npos;
  bool bf = fname.find("bf16") != std::string::npos;
  llvm::Type* i16 = b_.getInt16Ty();
  llvm::Type* i32 = b_.getInt32Ty();
  llvm::Type* f32 = b_.getFloatTy();
  auto* fty = llvm::FunctionType::get(to_f32 ? f32 : i16, {to_f32 ? i16 : f32}, false);
  auto* f = llvm::Function::Create(fty, llvm::GlobalValue::InternalLinkage, name, mod_);
  f->addFnAttr(llvm::Attribute::AlwaysInline);
  f->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::IRBuilder<> b(llvm::BasicBlock::Create(ctx_, "entry", f));
  llvm::Value* x = f->getArg(0);
  auto c32 = [&](uint32_t v) { return b.getInt32(v); };
  if (to_f32 && bf) {
    b.CreateRet(b.CreateBitCast(b.CreateShl(b.CreateZExt(x, i32), 16), f32));
    return f;
  }
  if (to_f32) {
    llvm::Value* h = b.CreateZExt(x, i32);
    llvm::Value* sign = b.CreateShl(b.CreateAnd(h, c32(0x8000)), 16);
    llvm::Value* exp = b.CreateAnd(b.CreateLShr(h, 10), c32(0x1f));
    llvm::Value* man = b.CreateAnd(h, c32(0x3ff));
    llvm::Value* man13 = b.CreateShl(man, 13);
    llvm::Value* normal = b.CreateOr(sign, b.CreateOr(b.CreateShl(b.CreateAdd(exp, c32(112)), 23), man13));
    llvm::Value* special = b.CreateOr(sign, b.CreateOr(c32(0x7f800000), man13));
    // Subnormal: man * 2^-24 is exact in float; the sign is or'ed into its bits.
    llvm::Value* sub = b.CreateFMul(b.CreateUIToFP(man, f32), llvm::ConstantFP::get(f32, 1.0 / 16777216.0));
    llvm::Value* subbits = b.CreateOr(b.CreateBitCast(sub, i32), sign);
    llvm::Value* bits = b.CreateSelect(b.CreateICmpEQ(exp, c32(0x1f)), special,
                                       b.CreateSelect(b.CreateICmpEQ(exp, c32(0)), subbits, normal));
    b.CreateRet(b.CreateBitCast(bits, f32));
    return f;
  }
  llvm::Value* xb = b.CreateBitCast(x, i32);
  if (bf) {
    llvm::Value* nan = b.CreateICmpUGT(b.CreateAnd(xb, c32(0x7fffffff)), c32(0x7f800000));
    llvm::Value* quiet = b.CreateOr(b.CreateLShr(xb, 16), c32(0x40));
    llvm::Value* rounded =
        b.CreateLShr(b.CreateAdd(xb, b.CreateAdd(c32(0x7fff), b.CreateAnd(b.CreateLShr(xb, 16), c32(1)))), 16);
    b.CreateRet(b.CreateTrunc(b.CreateSelect(nan, quiet, rounded), i16));
    return f;
  }
  llvm::Value* sign = b.CreateAnd(b.CreateLShr(xb, 16), c32(0x8000));
  llvm::Value* ax = b.CreateAnd(xb, c32(0x7fffffff));
  llvm::Value* infnan = b.CreateOr(sign, b.CreateOr(c32(0x7c00), b.CreateSelect(b.CreateICmpUGT(ax, c32(0x7f800000)),
                                                                                   c32(0x200), c32(0))));
  llvm::Value* overflow = b.CreateOr(sign, c32(0x7c00));
  // Subnormal result: count ulps of 2^-24 and round half to even.
  llvm::Value* scaled = b.CreateFMul(b.CreateBitCast(ax, f32), llvm::ConstantFP::get(f32, 16777216.0));
  llvm::Value* n = b.CreateFPToUI(b.CreateFreeze(scaled), i32);
  llvm::Value* rem = b.CreateFSub(scaled, b.CreateUIToFP(n, f32));
  llvm::Value* half = llvm::ConstantFP::get(f32, 0.5);
  llvm::Value* up = b.CreateOr(b.CreateFCmpOGT(rem, half),
                               b.CreateAnd(b.CreateFCmpOEQ(rem, half), b.CreateICmpNE(b.CreateAnd(n, c32(1)), c32(0))));
  llvm::Value* sub = b.CreateOr(sign, b.CreateAdd(n, b.CreateZExt(up, i32)));
  llvm::Value* mr = b.CreateAdd(ax, b.CreateAdd(c32(0xfff), b.CreateAnd(b.CreateLShr(ax, 13), c32(1))));
  llvm::Value* normal = b.CreateOr(sign, b.CreateLShr(b.CreateSub(mr, c32(0x38000000)), 13));
  llvm::Value* r = b.CreateSelect(
      b.CreateICmpUGE(ax, c32(0x7f800000)), infnan,
      b.CreateSelect(b.CreateICmpUGE(ax, c32(0x477ff000)), overflow,
                     b.CreateSelect(b.CreateICmpULT(ax, c32(0x38800000)), sub, normal)));
  b.CreateRet(b.CreateTrunc(r, i16));
  return f;
}

llvm::Value* Emitter::ToF32(llvm::Value* v, ScalarType t) {
  if (t == ScalarType::Float16) return b_.CreateCall(HalfHelper("tilec.f16_to_f32"), {v});
  if (t == ScalarType::BFloat16) return b_.CreateCall(HalfHelper("tilec.bf16_to_f32"), {v});
  return v;
}

llvm::Value* Emitter::FromF32(llvm::Value* f, ScalarType t) {
  if (t == ScalarType::Float16) return b_.CreateCall(HalfHelper("tilec.f32_to_f16"), {f});
  if (t == ScalarType::BFloat16) return b_.CreateCall(HalfHelper("tilec.f32_to_bf16"), {f});
  return f;
}

namespace {
bool Is16BitFloat(ScalarType t) { return t == ScalarType::Float16 || t == ScalarType::BFloat16; }
}  // namespace

llvm::Value* Emitter::EmitCast(llvm::Value* v, ScalarType from, ScalarType to) {
  if (from == to) return v;
  if (Is16BitFloat(from)) return EmitCast(ToF32(v, from), ScalarType::Float32, to);
  if (Is16BitFloat(to)) {
    llvm::Value* f = EmitCast(v, from, ScalarType::Float32);
    return FromF32(f, to);
  }
  llvm::Type* dt = ValTy(to);
  bool from_float = IsFloat(from), to_float = IsFloat(to);
  if (to == ScalarType::Bool) {
    if (from_float) return b_.CreateFCmpUNE(v, llvm::ConstantFP::get(v->getType(), 0.0));
    return b_.CreateICmpNE(v, llvm::ConstantInt::get(v->getType(), 0));
  }
  if (from_float && to_float) return b_.CreateFPCast(v, dt);
  if (from_float) {
    // Saturating conversion: out-of-range values clamp and NaN gives 0 instead of poison.
    auto id = IsSigned(to) ? llvm::Intrinsic::fptosi_sat : llvm::Intrinsic::fptoui_sat;
    return b_.CreateIntrinsic(id, {dt, v->getType()}, {v});
  }
  bool src_signed = IsSigned(from) && from != ScalarType::Bool;
  if (to_float) return src_signed ? b_.CreateSIToFP(v, dt) : b_.CreateUIToFP(v, dt);
  return b_.CreateIntCast(v, dt, src_signed);
}

llvm::Value* Emitter::EmitCmp(ir::CmpPred p, ScalarType t, llvm::Value* a, llvm::Value* b) {
  using P = llvm::CmpInst::Predicate;
  if (Is16BitFloat(t)) {
    a = ToF32(a, t);
    b = ToF32(b, t);
  }
  if (IsFloat(t)) {
    static const P fp[] = {P::FCMP_OEQ, P::FCMP_UNE, P::FCMP_OLT, P::FCMP_OLE, P::FCMP_OGT, P::FCMP_OGE};
    return b_.CreateFCmp(fp[int(p)], a, b);
  }
  static const P sp[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_SLT, P::ICMP_SLE, P::ICMP_SGT, P::ICMP_SGE};
  static const P up[] = {P::ICMP_EQ, P::ICMP_NE, P::ICMP_ULT, P::ICMP_ULE, P::ICMP_UGT, P::ICMP_UGE};
  bool is_signed = IsSigned(t) && t != ScalarType::Bool;
  return b_.CreateICmp(is_signed ? sp[int(p)] : up[int(p)], a, b);
}

llvm::Value* Emitter::EmitScalarElementwise(OpCode code, ScalarType in, ScalarType out,
                                            const std::vector<llvm::Value*>& args_in) {
  if (code == OpCode::Cast) return EmitCast(args_in[0], in, out);
  if (Is16BitFloat(in)) {
    std::vector<llvm::Value*> wide;
    for (llvm::Value* a : args_in) wide.push_back(ToF32(a, in));
    return FromF32(EmitScalarElementwise(code, ScalarType::Float32, ScalarType::Float32, wide), in);
  }
  const std::vector<llvm::Value*>& a = args_in;
  llvm::Type* ty = a[0]->getType();
  bool is_float = IsFloat(in);
  bool is_signed = IsSigned(in) && in != ScalarType::Bool;
  auto unary_intrinsic = [&](llvm::Intrinsic::ID id) { return b_.CreateUnaryIntrinsic(id, a[0]); };
  auto zero = [&] { return llvm::ConstantInt::get(ty, 0); };
  switch (code) {
    case OpCode::Add: return is_float ? b_.CreateFAdd(a[0], a[1]) : b_.CreateAdd(a[0], a[1]);
    case OpCode::Sub: return is_float ? b_.CreateFSub(a[0], a[1]) : b_.CreateSub(a[0], a[1]);
    case OpCode::Mul: return is_float ? b_.CreateFMul(a[0], a[1]) : b_.CreateMul(a[0], a[1]);
    case OpCode::Div: case OpCode::Mod: case OpCode::FloorDiv: {
      if (is_float) {
        if (code == OpCode::Mod) return b_.CreateFRem(a[0], a[1]);
        llvm::Value* q = b_.CreateFDiv(a[0], a[1]);
        return code == OpCode::FloorDiv ? b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q) : q;
      }
      // Integer division never traps: a zero divisor gives 0, and x / -1 is computed as -x.
      llvm::Value* is_zero = b_.CreateICmpEQ(a[1], zero());
      llvm::Value* is_m1 = is_signed ? b_.CreateICmpEQ(a[1], llvm::ConstantInt::get(ty, -1, true)) : b_.getFalse();
      llvm::Value* safe = b_.CreateSelect(b_.CreateOr(is_zero, is_m1), llvm::ConstantInt::get(ty, 1), a[1]);
      llvm::Value* q = is_signed ? b_.CreateSDiv(a[0], safe) : b_.CreateUDiv(a[0], safe);
      llvm::Value* r = is_signed ? b_.CreateSRem(a[0], safe) : b_.CreateURem(a[0], safe);
      llvm::Value* result;
      if (code == OpCode::Mod) {
        result = r;  // x % -1 == 0, and r is 0 there already since safe == 1
      } else {
        if (code == OpCode::FloorDiv && is_signed) {
          llvm::Value* adjust = b_.CreateAnd(b_.CreateICmpNE(r, zero()),
                                             b_.CreateICmpNE(b_.CreateICmpSLT(r, zero()), b_.CreateICmpSLT(safe, zero())));
          q = b_.CreateSub(q, b_.CreateZExt(adjust, ty));
        }
        result = b_.CreateSelect(is_m1, b_.CreateSub(zero(), a[0]), q);
      }
      return b_.CreateSelect(is_zero, zero(), result);
    }
    case OpCode::Pow: return b_.CreateBinaryIntrinsic(llvm::Intrinsic::pow, a[0], a[1]);
    case OpCode::Min:
      if (is_float) return b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, a[0], a[1]);
      return b_.CreateSelect(is_signed ? b_.CreateICmpSLT(a[0], a[1]) : b_.CreateICmpULT(a[0], a[1]), a[0], a[1]);
    case OpCode::Max:
      if (is_float) return b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, a[0], a[1]);
      return b_.CreateSelect(is_signed ? b_.CreateICmpSGT(a[0], a[1]) : b_.CreateICmpUGT(a[0], a[1]), a[0], a[1]);
    case OpCode::Clamp: {
      llvm::Value* lo = EmitScalarElementwise(OpCode::Max, in, in, {a[0], a[1]});
      return EmitScalarElementwise(OpCode::Min, in, in, {lo, a[2]});
    }
    case OpCode::BitAnd: return b_.CreateAnd(a[0], a[1]);
    case OpCode::BitOr: return b_.CreateOr(a[0], a[1]);
    case OpCode::BitXor: return b_.CreateXor(a[0], a[1]);
    case OpCode::Shl: case OpCode::Shr: {
      // Shift counts are taken modulo the width, so that no count yields poison.
      unsigned bits = ty->getIntegerBitWidth();
      llvm::Value* n = b_.CreateAnd(a[1], llvm::ConstantInt::get(ty, bits - 1));
      if (code == OpCode::Shl) return b_.CreateShl(a[0], n);
      return is_signed ? b_.CreateAShr(a[0], n) : b_.CreateLShr(a[0], n);
    }
    case OpCode::Neg: return is_float ? b_.CreateFNeg(a[0]) : b_.CreateSub(zero(), a[0]);
    case OpCode::BitNot: return b_.CreateNot(a[0]);
    case OpCode::Not: return b_.CreateNot(a[0]);
    case OpCode::Abs:
      if (is_float) return unary_intrinsic(llvm::Intrinsic::fabs);
      if (!is_signed) return a[0];
      return b_.CreateSelect(b_.CreateICmpSLT(a[0], zero()), b_.CreateSub(zero(), a[0]), a[0]);
    case OpCode::Sqrt: return unary_intrinsic(llvm::Intrinsic::sqrt);
    case OpCode::Exp: return in == ScalarType::Float32 ? ExpF32(a[0]) : unary_intrinsic(llvm::Intrinsic::exp);
    case OpCode::Log: return unary_intrinsic(llvm::Intrinsic::log);
    case OpCode::Sin: return unary_intrinsic(llvm::Intrinsic::sin);
    case OpCode::Cos: return unary_intrinsic(llvm::Intrinsic::cos);
    case OpCode::Floor: return unary_intrinsic(llvm::Intrinsic::floor);
    case OpCode::Ceil: return unary_intrinsic(llvm::Intrinsic::ceil);
    case OpCode::Tan: return unary_intrinsic(llvm::Intrinsic::tan);
    case OpCode::Asin: case OpCode::Acos: {
      // Warp clamps to [-1, 1] first with fmax/fmin, so a NaN input reads as -1.
      llvm::Value* lo = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, a[0], llvm::ConstantFP::get(ty, -1.0));
      llvm::Value* c = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, lo, llvm::ConstantFP::get(ty, 1.0));
      return b_.CreateUnaryIntrinsic(code == OpCode::Asin ? llvm::Intrinsic::asin : llvm::Intrinsic::acos, c);
    }
    case OpCode::Atan: return unary_intrinsic(llvm::Intrinsic::atan);
    case OpCode::Sinh: return unary_intrinsic(llvm::Intrinsic::sinh);
    case OpCode::Cosh: return unary_intrinsic(llvm::Intrinsic::cosh);
    case OpCode::Tanh: return unary_intrinsic(llvm::Intrinsic::tanh);
    case OpCode::Log2: return unary_intrinsic(llvm::Intrinsic::log2);
    case OpCode::Log10: return unary_intrinsic(llvm::Intrinsic::log10);
    case OpCode::Exp2: return unary_intrinsic(llvm::Intrinsic::exp2);
    case OpCode::Round: return unary_intrinsic(llvm::Intrinsic::round);
    case OpCode::Rint: return unary_intrinsic(llvm::Intrinsic::rint);
    case OpCode::Trunc: return unary_intrinsic(llvm::Intrinsic::trunc);
    case OpCode::Fma: return b_.CreateIntrinsic(llvm::Intrinsic::fma, {ty}, {a[0], a[1], a[2]});
    case OpCode::Copysign: return b_.CreateIntrinsic(llvm::Intrinsic::copysign, {ty}, {a[0], a[1]});
    case OpCode::Cbrt: case OpCode::Erf: case OpCode::Erfc: case OpCode::Atan2: {
      // No LLVM intrinsic: the C library's function, which the NVPTX target maps to libdevice
      // (codegen/nvptx/ptx_emit.cpp, LinkMath).
      bool f32 = ty->isFloatTy();
      const char* name = code == OpCode::Cbrt  ? (f32 ? "cbrtf" : "cbrt")
                         : code == OpCode::Erf ? (f32 ? "erff" : "erf")
                         : code == OpCode::Erfc ? (f32 ? "erfcf" : "erfc")
                                               : (f32 ? "atan2f" : "atan2");
      std::vector<llvm::Type*> params(a.size(), ty);
      llvm::FunctionCallee fn = mod_.getOrInsertFunction(name, llvm::FunctionType::get(ty, params, false));
      if (auto* f = llvm::dyn_cast<llvm::Function>(fn.getCallee())) {
        f->setDoesNotAccessMemory();
        f->setDoesNotThrow();
      }
      return b_.CreateCall(fn, a);
    }
    case OpCode::Cast: return EmitCast(a[0], in, out);  // taken above, before any widening
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Compare) TILEC_CASES(Logic)
    TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(code, "scalar elementwise emitter");
  }
  ir::op_cases::NotHandledHere(code, "scalar elementwise emitter");
}

llvm::Value* Emitter::EmitLogic(OpCode code, llvm::Value* a, llvm::Value* b) {
  switch (code) {
    case OpCode::And: return b_.CreateAnd(a, b);
    case OpCode::Or: return b_.CreateOr(a, b);
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Array) TILEC_CASES(Struct) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(code, "logic emitter");
  }
  ir::op_cases::NotHandledHere(code, "logic emitter");
}

llvm::Value* Emitter::EmitStructOp(const ir::Op& op, llvm::Value* s, llvm::Value* v) {
  const ir::StructDef& def = irm_.structs()[size_t(op.operand(0)->type().elem.struct_index)];
  unsigned field = unsigned(op.field());
  switch (op.code()) {
    case OpCode::FieldGet: return FromMem(b_.CreateExtractValue(s, {field}), def.fields[field].type);
    case OpCode::FieldSet: return b_.CreateInsertValue(s, ToMem(v, def.fields[field].type), {field});
    TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Select) TILEC_CASES(Elementwise) TILEC_CASES(Compare)
    TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(TileBuild) TILEC_CASES(TileMap) TILEC_CASES(TileReduce)
    TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape) TILEC_CASES(TileElement) TILEC_CASES(TileMemory)
    TILEC_CASES(Print) TILEC_CASES(Control) TILEC_CASES(Terminator)
      ir::op_cases::NotHandledHere(op.code(), "struct emitter");
  }
  ir::op_cases::NotHandledHere(op.code(), "struct emitter");
}

// float32 exp is tilec's own, branch-free, so that loops over tiles vectorize (a libm call
// does not) and every device computes the same bits. Cody-Waite reduction x = n ln2 + r with
// |r| <= ln2/2, e^r by its Taylor polynomial to degree 7 (truncation below 0.1 ulp) in fused
// multiply-adds, and 2^n applied as two exact powers of two so that results near overflow and
// in the subnormal range round once. NaN stays NaN; x is clamped to [-104, 89], beyond which
// the result is 0 or inf anyway.
llvm::Value* Emitter::ExpF32(llvm::Value* x) {
  llvm::Type* ft = x->getType();
  llvm::Type* it = ft->isVectorTy() ? llvm::VectorType::get(b_.getInt32Ty(), llvm::cast<llvm::VectorType>(ft))
                                    : static_cast<llvm::Type*>(b_.getInt32Ty());
  auto f = [&](float v) { return llvm::ConstantFP::get(ft, double(v)); };
  auto fma = [&](llvm::Value* a, llvm::Value* b, llvm::Value* c) {
    return b_.CreateIntrinsic(llvm::Intrinsic::fma, {ft}, {a, b, c});
  };
  llvm::Value* xc = b_.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, x, f(-104.0f));
  xc = b_.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, xc, f(89.0f));
  llvm::Value* n = b_.CreateUnaryIntrinsic(llvm::Intrinsic::rint, b_.CreateFMul(xc, f(1.44269502162933349609375f)));
  // ln2 split so that n * ln2_hi is exact for every n in range (ln2_hi has 16 trailing zero bits).
  llvm::Value* r = fma(b_.CreateFNeg(n), f(0.693145751953125f), xc);
  r = fma(b_.CreateFNeg(n), f(1.428606765330187045e-06f), r);
  llvm::Value* p = f(1.0f / 5040.0f);
  for (float c : {1.0f / 720.0f, 1.0f / 120.0f, 1.0f / 24.0f, 1.0f / 6.0f, 0.5f, 1.0f, 1.0f}) p = fma(p, r, f(c));
  llvm::Value* ni = b_.CreateFPToSI(n, it);
  llvm::Value* half = b_.CreateAShr(ni, llvm::ConstantInt::get(it, 1));
  auto pow2 = [&](llvm::Value* e) {
    return b_.CreateBitCast(b_.CreateShl(b_.CreateAdd(e, llvm::ConstantInt::get(it, 127)), llvm::ConstantInt::get(it, 23)), ft);
  };
  llvm::Value* y = b_.CreateFMul(b_.CreateFMul(p, pow2(half)), pow2(b_.CreateSub(ni, half)));
  return b_.CreateSelect(b_.CreateFCmpUNO(x, x), x, y);
}

// ---------------------------------------------------------------- reductions and scans

ScalarType Emitter::AccType(ScalarType elem) { return Is16BitFloat(elem) ? ScalarType::Float32 : elem; }

llvm::Value* Emitter::Combine(ir::ReduceKind k, ScalarType acc, llvm::Value* a, llvm::Value* b) {
  // The elementwise ops already have the semantics asked of the kinds: minnum/maxnum for
  // floats (a NaN operand is missing, as C fmin/fmax), signed or unsigned by type for ints,
  // wrap-around integer adds and multiplies.
  OpCode code = OpCode::Add;
  switch (k) {
    case ir::ReduceKind::Add: code = OpCode::Add; break;
    case ir::ReduceKind::Mul: code = OpCode::Mul; break;
    case ir::ReduceKind::Min: code = OpCode::Min; break;
    case ir::ReduceKind::Max: code = OpCode::Max; break;
    case ir::ReduceKind::BitAnd: code = OpCode::BitAnd; break;
    case ir::ReduceKind::BitOr: code = OpCode::BitOr; break;
    case ir::ReduceKind::BitXor: code = OpCode::BitXor; break;
  }
  return EmitScalarElementwise(code, acc, acc, {a, b});
}

llvm::Value* Emitter::AddElems(const ir::ElemType& e, llvm::Value* a, llvm::Value* b) {
  if (!e.is_struct()) return EmitScalarElementwise(OpCode::Add, e.scalar, e.scalar, {a, b});
  const ir::StructDef& s = irm_.structs()[e.struct_index];
  llvm::Value* r = a;
  for (size_t k = 0; k < s.fields.size(); ++k) {
    const ir::ElemType& f = s.fields[k].type;
    if (!f.is_struct() && f.scalar == ScalarType::Bool) continue;
    llvm::Value* sum = AddElems(f, b_.CreateExtractValue(a, {unsigned(k)}), b_.CreateExtractValue(b, {unsigned(k)}));
    r = b_.CreateInsertValue(r, sum, {unsigned(k)});
  }
  return r;
}

llvm::Value* Emitter::ReduceIdentity(ir::ReduceKind k, ScalarType acc) {
  llvm::Type* ty = ValTy(acc);
  if (IsFloat(acc)) {
    const llvm::fltSemantics& sem = ty->getFltSemantics();
    switch (k) {
      case ir::ReduceKind::Mul: return llvm::ConstantFP::get(ty, 1.0);
      case ir::ReduceKind::Min: return llvm::ConstantFP::get(ty, llvm::APFloat::getInf(sem, false));
      case ir::ReduceKind::Max: return llvm::ConstantFP::get(ty, llvm::APFloat::getInf(sem, true));
      case ir::ReduceKind::Add: case ir::ReduceKind::BitAnd: case ir::ReduceKind::BitOr: case ir::ReduceKind::BitXor:
        return llvm::ConstantFP::get(ty, 0.0);
    }
  }
  unsigned bits = ty->getIntegerBitWidth();
  bool is_signed = IsSigned(acc) && acc != ScalarType::Bool;
  switch (k) {
    case ir::ReduceKind::Mul: return llvm::ConstantInt::get(ty, 1);
    case ir::ReduceKind::Min:
      return llvm::ConstantInt::get(ctx_, is_signed ? llvm::APInt::getSignedMaxValue(bits) : llvm::APInt::getMaxValue(bits));
    case ir::ReduceKind::Max:
      return llvm::ConstantInt::get(ctx_, is_signed ? llvm::APInt::getSignedMinValue(bits) : llvm::APInt::getMinValue(bits));
    case ir::ReduceKind::BitAnd: return llvm::ConstantInt::get(ctx_, llvm::APInt::getAllOnes(bits));
    case ir::ReduceKind::Add: case ir::ReduceKind::BitOr: case ir::ReduceKind::BitXor: return llvm::ConstantInt::get(ty, 0);
  }
  return llvm::ConstantInt::get(ty, 0);
}

int Emitter::ReduceAxis(const ir::Op& op) {
  const ir::Type& in = op.operand(0)->type();
  if (op.axis() < 0 || in.ndim <= 1) return -1;
  return int(std::min<int64_t>(op.axis(), in.ndim - 1));  // as ir::Builder shapes the result
}

int64_t Emitter::ReduceStride(const ir::Type& in, int axis) {
  int64_t stride = 1;
  for (int d = axis < 0 ? in.ndim : axis + 1; d < in.ndim; ++d) stride *= in.shape[d];
  return stride;
}

llvm::Type* Emitter::FoldType(ScalarType acc) { return llvm::FixedVectorType::get(ValTy(acc), kFoldLanes); }

llvm::Value* Emitter::FoldInOrder(ir::ReduceKind k, const ir::ElemType& in_elem, int64_t n, int64_t stride,
                                  llvm::Value* partials, const std::function<llvm::Value*(llvm::Value*)>& elem_ptr) {
  const ScalarType s = in_elem.scalar, acc = AccType(s);
  llvm::Type* mt = MemTy(in_elem);
  llvm::Type* vt = FoldType(acc);
  auto load = [&](llvm::Value* at) { return ToF32(FromMem(b_.CreateLoad(mt, elem_ptr(at)), in_elem), s); };
  // Padding leaves a partial's value exact: -0.0 for float adds (x + -0.0 == x, also for
  // x == -0.0), 1 for products, all ones / zero for the bitwise kinds; min and max pad with the
  // first element, so an all-NaN input still gives NaN.
  llvm::Value* pad_elem = nullptr;
  switch (k) {
    case ir::ReduceKind::Min: case ir::ReduceKind::Max: pad_elem = load(I64(0)); break;
    case ir::ReduceKind::Add:
      pad_elem = IsFloat(acc) ? llvm::ConstantFP::get(ValTy(acc), -0.0) : ReduceIdentity(k, acc);
      break;
    case ir::ReduceKind::Mul: case ir::ReduceKind::BitAnd: case ir::ReduceKind::BitOr: case ir::ReduceKind::BitXor:
      pad_elem = ReduceIdentity(k, acc);
      break;
  }
  llvm::Value* pad = b_.CreateVectorSplat(kFoldLanes, pad_elem);
  const int64_t full = n / kFoldLanes, rest = n % kFoldLanes;
  // Adjacent elements already in the accumulator's type load as one vector.
  const bool direct = stride == 1 && !in_elem.is_struct() && mt == ValTy(acc) && s != ScalarType::Bool;
  const llvm::Align elem_align(mod_.getDataLayout().getTypeAllocSize(mt).getFixedValue());
  auto gather = [&](llvm::Value* base, int64_t count, llvm::Value* into) {
    for (int64_t j = 0; j < count; ++j)
      into = b_.CreateInsertElement(into, load(b_.CreateAdd(base, I64(j))), uint64_t(j));
    return into;
  };
  b_.CreateStore(pad, partials);
  if (full > 0)
    EmitCountedLoop(I64(full), [&](llvm::Value* c) {
      llvm::Value* k0 = b_.CreateMul(c, I64(kFoldLanes));
      llvm::Value* chunk = direct ? b_.CreateAlignedLoad(vt, elem_ptr(k0), elem_align)
                                  : gather(k0, kFoldLanes, llvm::PoisonValue::get(vt));
      b_.CreateStore(Combine(k, acc, b_.CreateLoad(vt, partials), chunk), partials);
    });
  llvm::Value* p = b_.CreateLoad(vt, partials);
  if (rest > 0) p = Combine(k, acc, p, gather(I64(full * kFoldLanes), rest, pad));
  for (int w = kFoldLanes / 2; w >= 1; w /= 2) {
    std::vector<int> lo(static_cast<size_t>(w)), hi(static_cast<size_t>(w));
    for (int i = 0; i < w; ++i) lo[size_t(i)] = i, hi[size_t(i)] = i + w;
    p = Combine(k, acc, b_.CreateShuffleVector(p, lo), b_.CreateShuffleVector(p, hi));
  }
  return b_.CreateExtractElement(p, uint64_t(0));
}

llvm::Value* Emitter::ReduceSourceIndex(const ir::Type& in, int axis, const std::vector<llvm::Value*>& out_coords,
                                        llvm::Value* k) {
  llvm::Value* lin = I64(0);
  for (int d = 0; d < in.ndim; ++d) {
    llvm::Value* c = d < axis ? out_coords[size_t(d)] : d == axis ? k : out_coords[size_t(d - 1)];
    lin = b_.CreateAdd(b_.CreateMul(lin, I64(in.shape[d])), c);
  }
  return lin;
}

llvm::Value* Emitter::BroadcastSourceIndex(const ir::Type& in, const ir::Type& out,
                                           const std::vector<llvm::Value*>& out_coords) {
  // NumPy's rule: dimensions align at the end; extents of 1 repeat their only element.
  const int lead = out.ndim - in.ndim;
  llvm::Value* lin = I64(0);
  for (int d = 0; d < in.ndim; ++d) {
    llvm::Value* c = in.shape[d] == 1 ? I64(0) : out_coords[size_t(d + lead)];
    lin = b_.CreateAdd(b_.CreateMul(lin, I64(in.shape[d])), c);
  }
  return lin;
}

llvm::Value* Emitter::PermuteSourceIndex(const ir::Type& in, const std::vector<int64_t>& perm,
                                         const std::vector<llvm::Value*>& out_coords) {
  std::vector<int64_t> stride(size_t(in.ndim), 1);
  for (int d = in.ndim - 2; d >= 0; --d) stride[size_t(d)] = stride[size_t(d + 1)] * in.shape[d + 1];
  llvm::Value* lin = I64(0);
  for (size_t d = 0; d < perm.size(); ++d)
    lin = b_.CreateAdd(lin, b_.CreateMul(out_coords[d], I64(stride[size_t(perm[d])])));
  return lin;
}

std::vector<llvm::Value*> Emitter::RegionOffsets(const ir::Op& op, int first,
                                                 const std::function<llvm::Value*(const ir::Value*)>& get) {
  std::vector<llvm::Value*> out;
  for (int i = first; i < op.num_operands(); ++i)
    out.push_back(AsI64(get(op.operand(i)), op.operand(i)->type().elem.scalar));
  return out;
}

llvm::Value* Emitter::RegionIndex(const ir::Type& big, const std::vector<int64_t>& steps,
                                  const std::vector<llvm::Value*>& offs, const std::vector<llvm::Value*>& small_coords,
                                  llvm::Value** inside) {
  llvm::Value* lin = I64(0);
  llvm::Value* inb = b_.getTrue();
  size_t k = 0;
  for (int d = 0; d < big.ndim; ++d) {
    llvm::Value* c = offs[size_t(d)];
    if (steps[size_t(d)] != 0) c = b_.CreateAdd(c, b_.CreateMul(small_coords[k++], I64(steps[size_t(d)])));
    inb = b_.CreateAnd(inb, b_.CreateICmpULT(c, I64(big.shape[d])));
    lin = b_.CreateAdd(b_.CreateMul(lin, I64(big.shape[d])), c);
  }
  *inside = inb;
  return b_.CreateSelect(inb, lin, I64(0));
}

llvm::Value* Emitter::RegionInverse(const ir::Type& big, const ir::Type& small, const std::vector<int64_t>& steps,
                                    const std::vector<llvm::Value*>& offs, const std::vector<llvm::Value*>& big_coords,
                                    llvm::Value** hit) {
  llvm::Value* lin = I64(0);
  llvm::Value* ok = b_.getTrue();
  int k = 0;
  for (int d = 0; d < big.ndim; ++d) {
    llvm::Value* diff = b_.CreateSub(big_coords[size_t(d)], offs[size_t(d)]);
    int64_t step = steps[size_t(d)];
    if (step == 0) {
      ok = b_.CreateAnd(ok, b_.CreateICmpEQ(diff, I64(0)));
      continue;
    }
    llvm::Value* q = b_.CreateSDiv(diff, I64(step));
    ok = b_.CreateAnd(ok, b_.CreateICmpEQ(b_.CreateSRem(diff, I64(step)), I64(0)));
    ok = b_.CreateAnd(ok, b_.CreateICmpULT(q, I64(small.shape[k])));
    lin = b_.CreateAdd(b_.CreateMul(lin, I64(small.shape[k])), q);
    ++k;
  }
  *hit = ok;
  return b_.CreateSelect(ok, lin, I64(0));
}

llvm::Value* Emitter::WrapIndex(llvm::Value* idx, ScalarType t, int64_t extent) {
  llvm::Value* i = AsI64(idx, t);
  if (!IsSigned(t)) return i;
  return b_.CreateSelect(b_.CreateICmpSLT(i, I64(0)), b_.CreateAdd(i, I64(extent)), i);
}

llvm::Value* Emitter::WithCoord(const ir::Type& t, const std::vector<llvm::Value*>& coords, int axis, llvm::Value* at) {
  llvm::Value* lin = I64(0);
  for (int d = 0; d < t.ndim; ++d)
    lin = b_.CreateAdd(b_.CreateMul(lin, I64(t.shape[d])), d == axis ? at : coords[size_t(d)]);
  return lin;
}

llvm::Value* Emitter::KeyLess(llvm::Value* a, llvm::Value* b, ScalarType t) {
  if (!IsFloat(t)) return IsSigned(t) ? b_.CreateICmpSLT(a, b) : b_.CreateICmpULT(a, b);
  if (t != ScalarType::Float64) {
    a = ToF32(a, t);
    b = ToF32(b, t);
  }
  llvm::Value* nan_last = b_.CreateAnd(b_.CreateFCmpUNO(b, b), b_.CreateFCmpORD(a, a));
  return b_.CreateOr(b_.CreateFCmpOLT(a, b), nan_last);
}

llvm::Value* Emitter::SortRank(llvm::Value* keys, const ir::ElemType& e, int64_t n, llvm::Value* i, llvm::Value* ki,
                               llvm::Value* rank) {
  b_.CreateStore(I64(0), rank);
  EmitCountedLoop(I64(n), [&](llvm::Value* j) {
    llvm::Value* kj = FromMem(b_.CreateLoad(MemTy(e), b_.CreateInBoundsGEP(MemTy(e), keys, {j})), e);
    llvm::Value* tie = b_.CreateAnd(b_.CreateNot(KeyLess(ki, kj, e.scalar)), b_.CreateICmpULT(j, i));
    llvm::Value* before = b_.CreateOr(KeyLess(kj, ki, e.scalar), tie);
    llvm::Value* cur = b_.CreateLoad(b_.getInt64Ty(), rank);
    b_.CreateStore(b_.CreateAdd(cur, b_.CreateZExt(before, b_.getInt64Ty())), rank);
  });
  return b_.CreateLoad(b_.getInt64Ty(), rank);
}

llvm::Value* Emitter::MatmulElement(const ir::Op& op, llvm::Value* a, llvm::Value* b, llvm::Value* c_elem,
                                    llvm::Value* i, llvm::Value* j, llvm::Value* acc) {
  const ir::Type& at = op.operand(0)->type();
  const ir::Type& bt = op.operand(1)->type();
  const ScalarType cs = op.operand(2)->type().elem.scalar, acc_s = AccType(cs);
  const int64_t K = at.shape[1], N = bt.shape[1];
  auto load = [&](llvm::Value* buf, const ir::ElemType& e, llvm::Value* lin) {
    llvm::Value* v = FromMem(b_.CreateLoad(MemTy(e), b_.CreateInBoundsGEP(MemTy(e), buf, {lin})), e);
    return EmitCast(v, e.scalar, acc_s);
  };
  b_.CreateStore(EmitCast(c_elem, cs, acc_s), acc);
  EmitCountedLoop(I64(K), [&](llvm::Value* k) {
    llvm::Value* x = load(a, at.elem, b_.CreateAdd(b_.CreateMul(i, I64(K)), k));
    llvm::Value* y = load(b, bt.elem, b_.CreateAdd(b_.CreateMul(k, I64(N)), j));
    llvm::Value* cur = b_.CreateLoad(ValTy(acc_s), acc);
    // One rounding per term (fma.rn on NVPTX), so the CPU's vector kernel (emit_matmul.cpp)
    // can give the same bits.
    b_.CreateStore(b_.CreateIntrinsic(llvm::Intrinsic::fma, {x->getType()}, {x, y, cur}), acc);
  });
  return EmitCast(b_.CreateLoad(ValTy(acc_s), acc), acc_s, cs);
}

}  // namespace tilec::codegen::bs
