// The tilec runtime library's C++ API in one include: devices, arrays, modules and kernels,
// launches, whole-array algorithms, the Tape and the kernel cache. Everything throws
// tilec::rt::Error on misuse.
#pragma once
#include "tilec/abi.h"
#include "tilec/algorithms.h"
#include "tilec/array.h"
#include "tilec/cache.h"
#include "tilec/device.h"
#include "tilec/error.h"
#include "tilec/interrupt.h"
#include "tilec/launch.h"
#include "tilec/launch_options.h"
#include "tilec/module.h"
#include "tilec/signature.h"
#include "tilec/tape.h"
