// `tilec compile --emit=header`: a C++ header of typed launchers for a module's kernels, made
// from the same ModuleSignature the shared object carries. Arguments of the wrong C++ type
// are compile errors that name the parameter; loading checks the module against the header.
#pragma once
#include <string>

#include "tilec/signature.h"

namespace tilec::compiler {

struct CppHeaderOptions {
  // The C++ namespace of everything generated ("kernels", "physics::kernels").
  std::string cpp_namespace = "kernels";
  // How the header names itself in comments and in load errors ("kernels.h").
  std::string header_name = "kernels.h";
  // The Tile source it was generated from, for the opening comment.
  std::string source_name;
};

// Returns false with `error` set when a name cannot be generated: the namespace is not a C++
// name, or a kernel or struct would clash with what the header itself declares.
bool GenerateCppHeader(const rt::ModuleSignature& signature, const CppHeaderOptions& options,
                       std::string& text, std::string& error);

// The namespace a header gets by default: the stem of `path` ("out/kernels.h" -> "kernels")
// made a C++ identifier.
std::string DefaultHeaderNamespace(const std::string& path);

}  // namespace tilec::compiler
