/* The binary interface between compiled kernels and the runtime, shared by the CPU code
 * generator, the AOT artifacts and libtilec_rt. Plain C so that any host can read it.
 * Changing anything here changes TILEC_ABI_VERSION. */
#ifndef TILEC_ABI_H
#define TILEC_ABI_H
#include <stdint.h>

#define TILEC_ABI_VERSION 4
#define TILEC_MAX_DIMS 4

#ifdef __cplusplus
extern "C" {
#endif

/* An array argument as a kernel sees it. Strides are in bytes, so strided host views pass
 * unchanged; grad is null when the array carries no gradient. */
typedef struct tilec_array {
  void* data;
  void* grad;
  int64_t shape[TILEC_MAX_DIMS];
  int64_t strides[TILEC_MAX_DIMS];
} tilec_array;

/* tilec_access_error::ndim of a failed `assert` (debug mode) rather than an access. */
#define TILEC_ASSERT_FAILED (-1)

/* The first scalar array access (or tile element read) of a launch that fell outside its array
 * (tile), in a kernel compiled with checked access (wp.config.mode = "debug"): line is 0 until a
 * kernel claims the record (-1 where the source line is unknown); the access itself is skipped
 * (a load reads zero). of_tile is 1 for a tile element read. */
typedef struct tilec_access_error {
  int32_t line;
  int32_t column;
  int32_t ndim;
  int32_t of_tile;
  int64_t index[TILEC_MAX_DIMS];
  int64_t shape[TILEC_MAX_DIMS];
} tilec_access_error;

/* The launch grid: `dim` holds ndim extents (unused ones are 1). For launch_tiled each index
 * is one block program of block_dim cooperating lanes; for launch block_dim is 0. `error` is
 * where checked kernels report (null: nowhere; on a GPU, device memory). `order` is the block
 * ticket of a kernel with deterministic tile atomics on a GPU: a zeroed counter of the block
 * programs that have finished, which a program waits to equal its index before its first
 * ordered commit and sets past it when done (null: programs already run in order).
 * `stream_bytes`, on the CPU: whole rows stored into an array of at least this many bytes
 * bypass the caches (non-temporal stores); the runtime passes the last-level cache's size
 * (0: TILEC_DEFAULT_STREAM_BYTES). GPU code ignores it. */
typedef struct tilec_launch {
  int64_t dim[TILEC_MAX_DIMS];
  int32_t ndim;
  int32_t block_dim;
  tilec_access_error* error;
  int64_t* order;
  int64_t stream_bytes;
} tilec_launch;

#define TILEC_DEFAULT_STREAM_BYTES (INT64_C(16) << 20)

/* A CPU kernel entry runs the grid indices [first, last) in row-major linear order.
 * args[i] points at argument i: a tilec_array for arrays, the value for scalars and structs
 * (structs in their natural C layout). The runtime splits the grid over its worker threads. */
typedef void (*tilec_cpu_kernel_fn)(void* const* args, const tilec_launch* launch,
                                    int64_t first, int64_t last);

/* A GPU (PTX) entry takes the same arguments by value as .param entries, in order (a
 * tilec_array as an 8-aligned 80-byte aggregate, scalars and structs as themselves), then
 * for an adjoint entry one 64-bit pointer per parameter (see signature.h), and last a
 * tilec_launch by value. The runtime launches
 *   launch:        grid.x = ceil(total / threads), threads = KernelSignature::block_dim or
 *                  TILEC_GPU_THREADS; an entry handles the linear indices
 *                  blockIdx.x * blockDim.x + threadIdx.x, stepping by gridDim.x * blockDim.x,
 *                  while below total = product of launch->dim;
 *   launch_tiled:  grid.x = min(total, TILEC_GPU_MAX_BLOCKS) blocks of block_dim lanes; a block
 *                  runs block programs blockIdx.x, stepping by gridDim.x, while below total.
 * Dynamic shared memory is KernelSignature::shared_bytes (adjoint_shared_bytes). */
#define TILEC_GPU_THREADS 256
#define TILEC_GPU_MAX_BLOCKS 65535

/* An AOT kernels.so exports `const char* tilec_module_signature`, the text of
 * tilec::rt::SerializeSignature, plus every entry named there. */
#define TILEC_MODULE_SIGNATURE_SYMBOL "tilec_module_signature"

/* A GPU module file (`tilec compile --target=nvptx -o kernels.tlm`) is that same text alone,
 * carrying only GPU code (gpu_image records); it starts with these bytes. */
#define TILEC_GPU_MODULE_MAGIC "tilec-module-signature"

#ifdef __cplusplus
}
#endif
#endif /* TILEC_ABI_H */
