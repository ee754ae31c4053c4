// Cubins for AOT GPU modules: PTX assembled for one architecture by the CUDA toolkit's
// libnvJitLink, which is dlopen'ed when present at compile time (never linked), so that tilec
// builds and runs without the toolkit and simply writes PTX-only variants there.
#pragma once
#include <string>

namespace tilec::compiler {

// Where libnvJitLink was found ($CUDA_HOME/lib64, /usr/local/cuda/lib64, the default library
// path), or empty with `why` saying what was tried.
std::string NvJitLinkLibrary(std::string* why = nullptr);

// Assembles `ptx` for `arch` ("sm_80") into `cubin`. False with `error` set (our words, then
// nvJitLink's log) when the library is missing or refuses the PTX.
bool CompilePtxToCubin(const std::string& ptx, const std::string& arch, std::string& cubin,
                       std::string& error);

}  // namespace tilec::compiler
