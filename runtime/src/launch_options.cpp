// Launch(kernel, LaunchOptions, args): the one-value form of a launch that C++ hosts and the
// typed launchers of `tilec compile --emit=header` use; it picks the plain or tiled launch.
#include "tilec/launch_options.h"

#include "runtime/src/internal.h"
#include "tilec/error.h"
#include "tilec/launch.h"

namespace tilec::rt {

void Launch(const Kernel& kernel, const LaunchOptions& options, const std::vector<KernelArg>& args) {
  // A CUDA launch goes on options.stream (null: the legacy default stream). block_dim != 0
  // is a tiled launch, whose checks refuse a negative one with their message.
  // A tiled kernel without block_dim is said in the options' terms (the plain launch would
  // name LaunchTiled, which a LaunchOptions user does not call).
  if (!kernel.is_null() && kernel.signature().tiled && options.block_dim == 0)
    throw Error("kernel `" + kernel.name() + "` uses tile operations; set LaunchOptions::block_dim "
                "(1 to 1024) for a tiled launch");
  LaunchOnStream(kernel, options.dim, args, options.block_dim, options.device, options.stream);
}

}  // namespace tilec::rt
