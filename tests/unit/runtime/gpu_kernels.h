// Hand-written PTX stand-ins for compiled GPU kernels, following abi.h's GPU convention:
// arguments by value (tilec_array = 80 bytes), adjoint slot pointers, then tilec_launch.
#pragma once

namespace tilec::rt::test {

// add_one(x: array1d[float32], amount: int32): x[i] += amount, grid-stride over total.
// Its adjoint adds 1 to x.grad[i] so that a test can see it ran.
inline const char* kAddOnePtx = R"(.version 7.0
.target sm_75
.address_size 64

.visible .entry tk_add_one(
  .param .align 8 .b8 x[80],
  .param .b32 amount,
  .param .align 8 .b8 launch[40]
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [x];
  ld.param.u64 %rd2, [x+48];
  ld.param.u32 %r1, [amount];
  ld.param.u64 %rd3, [launch];
  ld.param.u64 %rd4, [launch+8];
  ld.param.u64 %rd5, [launch+16];
  ld.param.u64 %rd6, [launch+24];
  mul.lo.s64 %rd7, %rd3, %rd4;
  mul.lo.s64 %rd7, %rd7, %rd5;
  mul.lo.s64 %rd7, %rd7, %rd6;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd8, %r2, %r3;
  cvt.u64.u32 %rd9, %r4;
  add.s64 %rd8, %rd8, %rd9;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd10, %r5, %r3;
  cvt.rn.f32.s32 %f1, %r1;
LOOP:
  setp.ge.s64 %p1, %rd8, %rd7;
  @%p1 bra DONE;
  mul.lo.s64 %rd11, %rd8, %rd2;
  add.s64 %rd11, %rd1, %rd11;
  ld.global.f32 %f2, [%rd11];
  add.f32 %f3, %f2, %f1;
  st.global.f32 [%rd11], %f3;
  add.s64 %rd8, %rd8, %rd10;
  bra LOOP;
DONE:
  ret;
}

.visible .entry tk_add_one_adj(
  .param .align 8 .b8 x[80],
  .param .b32 amount,
  .param .u64 adj_x,
  .param .u64 adj_amount,
  .param .align 8 .b8 launch[40]
)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  .reg .f32 %f<4>;
  ld.param.u64 %rd1, [x+8];
  ld.param.u64 %rd2, [x+48];
  ld.param.u64 %rd3, [launch];
  ld.param.u64 %rd4, [launch+8];
  ld.param.u64 %rd5, [launch+16];
  ld.param.u64 %rd6, [launch+24];
  mul.lo.s64 %rd7, %rd3, %rd4;
  mul.lo.s64 %rd7, %rd7, %rd5;
  mul.lo.s64 %rd7, %rd7, %rd6;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %tid.x;
  mul.wide.u32 %rd8, %r2, %r3;
  cvt.u64.u32 %rd9, %r4;
  add.s64 %rd8, %rd8, %rd9;
  mov.u32 %r5, %nctaid.x;
  mul.wide.u32 %rd10, %r5, %r3;
LOOP:
  setp.ge.s64 %p1, %rd8, %rd7;
  @%p1 bra DONE;
  mul.lo.s64 %rd11, %rd8, %rd2;
  add.s64 %rd11, %rd1, %rd11;
  ld.global.f32 %f2, [%rd11];
  add.f32 %f3, %f2, 0f3F800000;
  st.global.f32 [%rd11], %f3;
  add.s64 %rd8, %rd8, %rd10;
  bra LOOP;
DONE:
  ret;
}
)";

// block_sum(out: array1d[int32]) as a tiled kernel: every lane writes its lane id to dynamic
// shared memory, lane 0 sums them, so out[b] = B * (B - 1) / 2 for every block program b.
inline const char* kBlockSumPtx = R"(.version 7.0
.target sm_75
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry tk_block_sum(
  .param .align 8 .b8 out[80],
  .param .align 8 .b8 launch[40]
)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [out+48];
  ld.param.u64 %rd3, [launch];
  ld.param.u64 %rd4, [launch+8];
  ld.param.u64 %rd5, [launch+16];
  ld.param.u64 %rd6, [launch+24];
  mul.lo.s64 %rd7, %rd3, %rd4;
  mul.lo.s64 %rd7, %rd7, %rd5;
  mul.lo.s64 %rd7, %rd7, %rd6;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %nctaid.x;
  cvt.u64.u32 %rd8, %r3;
  cvt.u64.u32 %rd9, %r4;
  mov.u32 %r5, smem;
BLOCK:
  setp.ge.s64 %p1, %rd8, %rd7;
  @%p1 bra DONE;
  shl.b32 %r6, %r1, 2;
  add.u32 %r6, %r5, %r6;
  st.shared.u32 [%r6], %r1;
  bar.sync 0;
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra NEXT;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
SUM:
  setp.ge.u32 %p3, %r8, %r2;
  @%p3 bra STORE;
  shl.b32 %r9, %r8, 2;
  add.u32 %r9, %r5, %r9;
  ld.shared.u32 %r10, [%r9];
  add.u32 %r7, %r7, %r10;
  add.u32 %r8, %r8, 1;
  bra SUM;
STORE:
  mul.lo.s64 %rd11, %rd8, %rd2;
  add.s64 %rd11, %rd1, %rd11;
  st.global.u32 [%rd11], %r7;
NEXT:
  bar.sync 0;
  add.s64 %rd8, %rd8, %rd9;
  bra BLOCK;
DONE:
  ret;
}
)";

}  // namespace tilec::rt::test
