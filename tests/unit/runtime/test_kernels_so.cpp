// A stand-in AOT kernel module, built as a shared object the way `tilec compile
// --target=host -o kernels.so` lays one out: the signature text plus the entry symbols.
#include "tilec/abi.h"

#define TILEC_TEST_STR2(x) #x
#define TILEC_TEST_STR(x) TILEC_TEST_STR2(x)

extern "C" {

__attribute__((visibility("default"))) const char* tilec_module_signature =
    "tilec-module-signature " TILEC_TEST_STR(TILEC_ABI_VERSION) "\n"
    "kernel add_one\n"
    "  entry tk_add_one\n"
    "  tiled 0\n"
    "  has_adjoint 0\n"
    "  block_dim 0\n"
    "  shared_bytes 0 0\n"
    "  param array x float32 1\n"
    "  param scalar amount int32 0\n"
    "end\n"
    "kernel missing\n"
    "  entry tk_not_there\n"
    "  tiled 0\n"
    "  has_adjoint 0\n"
    "  block_dim 0\n"
    "  shared_bytes 0 0\n"
    "end\n";

// add_one(x: array1d[float32], amount: int32): x[i] += amount
__attribute__((visibility("default"))) void tk_add_one(void* const* args,
                                                       const tilec_launch*, int64_t first,
                                                       int64_t last) {
  const tilec_array* x = (const tilec_array*)args[0];
  int amount = *(const int*)args[1];
  for (int64_t i = first; i < last; ++i)
    *(float*)((char*)x->data + i * x->strides[0]) += (float)amount;
}

}
