// Must NOT compile: passes an int32 array where gather's `x` wants float32, through the typed
// launcher. check_compile_fails.cmake expects the compiler's message to name `x`. With
// -DTILEC_TYPED_OK the same call is correct, which proves the include paths work.
#include "typed_kernels.h"

void Call(const typed_kernels::Module& m) {
  auto idx = tilec::Array1D<int32_t>::Zeros({4});
#ifdef TILEC_TYPED_OK
  auto x = tilec::Array1D<float>::Zeros({4});
#else
  auto x = tilec::Array1D<int32_t>::Zeros({4});
#endif
  auto y = tilec::Array1D<float>::Zeros({4});
  m.gather.launch(tilec::rt::LaunchOptions({4}), x, idx, y);
}
