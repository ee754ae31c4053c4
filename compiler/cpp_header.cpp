// The C++ header generator of `tilec compile --emit=header`: POD structs (with static_asserts
// that pin the checker's layout), ElementTraits for them, one launcher struct per kernel whose
// template `launch` static_asserts each argument's type with a message naming the parameter,
// and a Module that binds every kernel at load, checking it against the generated signature.
#include "compiler/cpp_header.h"

#include <cctype>
#include <functional>
#include <algorithm>
#include <set>
#include <sstream>

#include "support/composite.h"
#include "tilec/module.h"

namespace tilec::compiler {

namespace {

bool IsIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// C++ keywords and alternative tokens that Python accepts as names (`int`, `new`, `this`...).
const std::set<std::string>& CppKeywords() {
  static const std::set<std::string> k = {
      "alignas", "alignof", "and", "and_eq", "asm", "auto", "bitand", "bitor", "bool", "case", "catch",
      "char", "char8_t", "char16_t", "char32_t", "class", "compl", "concept", "const", "consteval",
      "constexpr", "constinit", "const_cast", "co_await", "co_return", "co_yield", "decltype", "default",
      "delete", "do", "double", "dynamic_cast", "enum", "explicit", "export", "extern", "float",
      "friend", "goto", "inline", "int", "long", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "nullptr", "operator", "or", "or_eq", "private", "protected", "public", "register",
      "reinterpret_cast", "requires", "short", "signed", "sizeof", "static", "static_assert",
      "static_cast", "struct", "switch", "template", "this", "thread_local", "throw", "typedef",
      "typeid", "typename", "union", "unsigned", "using", "virtual", "void", "volatile", "wchar_t",
      "xor", "xor_eq", "NULL", "offsetof"};
  return k;
}

// A Tile name as a C++ identifier: keywords get a trailing underscore.
std::string CppName(const std::string& name) { return CppKeywords().count(name) ? name + "_" : name; }

const char* ScalarCType(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::Int8: return "int8_t";
    case ScalarType::Int16: return "int16_t";
    case ScalarType::Int32: return "int32_t";
    case ScalarType::Int64: return "int64_t";
    case ScalarType::UInt8: return "uint8_t";
    case ScalarType::UInt16: return "uint16_t";
    case ScalarType::UInt32: return "uint32_t";
    case ScalarType::UInt64: return "uint64_t";
    case ScalarType::Float16: return "tilec::half";
    case ScalarType::BFloat16: return "tilec::bfloat16";
    case ScalarType::Float32: return "float";
    case ScalarType::Float64: return "double";
  }
  return "?";
}

const char* ScalarEnumerator(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "Bool";
    case ScalarType::Int8: return "Int8";
    case ScalarType::Int16: return "Int16";
    case ScalarType::Int32: return "Int32";
    case ScalarType::Int64: return "Int64";
    case ScalarType::UInt8: return "UInt8";
    case ScalarType::UInt16: return "UInt16";
    case ScalarType::UInt32: return "UInt32";
    case ScalarType::UInt64: return "UInt64";
    case ScalarType::Float16: return "Float16";
    case ScalarType::BFloat16: return "BFloat16";
    case ScalarType::Float32: return "Float32";
    case ScalarType::Float64: return "Float64";
  }
  return "?";
}

// tilec/vec.h's alias for a composite (vec3f, mat33d, quatf), or its template spelling for the
// sizes that have none (vec_t<float, 5>, mat_t<double, 2, 3>).
std::string CompositeCType(const Composite& c) {
  bool aliased = c.scalar != ScalarType::Bool;
  switch (c.kind) {
    case CompositeKind::Vector: aliased &= c.rows >= 2 && c.rows <= 4; break;
    case CompositeKind::Matrix: aliased &= c.rows == c.cols && c.rows >= 2 && c.rows <= 4; break;
    case CompositeKind::Quaternion:
    case CompositeKind::Transform:
    case CompositeKind::SpatialVector:
    case CompositeKind::SpatialMatrix:
      aliased &= IsFloat(c.scalar) && c.scalar != ScalarType::BFloat16;
      break;
    case CompositeKind::None: return "?";
  }
  if (aliased) return "tilec::" + CompositeName(c);
  std::string s = ScalarCType(c.scalar);
  switch (c.kind) {
    case CompositeKind::Quaternion: return "tilec::quat_t<" + s + ">";
    case CompositeKind::Transform: return "tilec::transform_t<" + s + ">";
    case CompositeKind::Matrix:
    case CompositeKind::SpatialMatrix:
      return "tilec::mat_t<" + s + ", " + std::to_string(c.rows) + ", " + std::to_string(c.cols) + ">";
    default: return "tilec::vec_t<" + s + ", " + std::to_string(c.length()) + ">";
  }
}

class Generator {
 public:
  Generator(const rt::ModuleSignature& sig, const CppHeaderOptions& o) : sig_(sig), o_(o) {}

  bool Run(std::string& text, std::string& error) {
    if (!CheckNames(error)) return false;
    ns_ = "::" + o_.cpp_namespace;
    Prologue();
    Structs();
    Launchers();
    ModuleClass();
    text = out_.str();
    return true;
  }

 private:
  const rt::ModuleSignature& sig_;
  const CppHeaderOptions& o_;
  std::ostringstream out_;
  std::string ns_;  // "::kernels"

  bool CheckNames(std::string& error) {
    std::string ns = o_.cpp_namespace;
    for (size_t start = 0;;) {
      size_t end = ns.find("::", start);
      std::string part = ns.substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (!IsIdentifier(part) || CppKeywords().count(part)) {
        error = "`" + ns + "` is not a C++ namespace name";
        return false;
      }
      if (end == std::string::npos) break;
      start = end + 2;
    }
    // What the header declares itself, beside the structs (namespace scope) and the kernels
    // (Module members).
    const std::set<std::string> taken_ns = {"Module", "launchers"};
    const std::set<std::string> taken_member = {"Module", "Load", "tilec_module", "tilec_module_"};
    for (const rt::StructLayout& s : sig_.structs)
      if (!s.composite.valid() && taken_ns.count(CppName(s.name))) {
        error = "struct `" + s.name + "` clashes with `" + o_.cpp_namespace + "::" + s.name +
                "`, which the header declares; rename the struct";
        return false;
      }
    for (const rt::KernelSignature& k : sig_.kernels)
      if (taken_member.count(CppName(k.name))) {
        error = "kernel `" + k.name + "` clashes with `" + o_.cpp_namespace + "::Module::" + k.name +
                "`, which the header declares; rename the kernel";
        return false;
      }
    return true;
  }

  // The C++ type of an element (a scalar or a struct of the table).
  std::string ElemCType(const rt::ElemType& t, bool qualified) const {
    if (!t.is_struct()) return ScalarCType(t.scalar);
    const rt::StructLayout& s = sig_.structs[t.struct_index];
    if (s.composite.valid()) return CompositeCType(s.composite);
    return (qualified ? ns_ + "::" : "") + CppName(s.name);
  }

  // The C++ parameter type: `::tilec::ArrayND<float, 2>` in code, `tilec::Array2D<float>` in
  // messages.
  std::string ParamCType(const rt::ParamInfo& p, bool for_message) const {
    std::string elem = ElemCType(p.type, !for_message);
    if (p.kind != rt::ParamKind::Array) return elem;
    if (for_message) return "tilec::Array" + std::to_string(p.ndim) + "D<" + elem + ">";
    return "::tilec::ArrayND<" + elem + ", " + std::to_string(p.ndim) + ">";
  }

  // Qualifies tilec:: names for use in code (a parameter called `tilec` must not shadow them).
  static std::string Code(std::string type) {
    if (type.rfind("tilec::", 0) == 0) type = "::" + type;
    for (size_t at = type.find("<tilec::"); at != std::string::npos; at = type.find("<tilec::", at + 1))
      type.insert(at + 1, "::");
    return type;
  }

  void Prologue() {
    out_ << "// Generated by `tilec compile --emit=header`"
         << (o_.source_name.empty() ? "" : " from " + o_.source_name) << "; do not edit.\n"
         << "// Typed C++ launchers for the kernels of the module that `tilec compile -o` builds from\n"
         << "// the same source: " << o_.cpp_namespace << "::Module::Load(\"kernels.so\") binds them, checking\n"
         << "// the module against this header; an argument of the wrong type does not compile.\n"
         << "#pragma once\n#include <cstddef>\n#include <cstdint>\n#include <string>\n#include <utility>\n\n"
         << "#include \"tilec/typed_array.h\"\n\n";
  }

  // The table's plain structs, each after the structs its fields use.
  std::vector<int> StructOrder() const {
    std::vector<int> order;
    std::vector<int> state(sig_.structs.size(), 0);  // 0 new, 1 visiting, 2 done
    std::function<void(int)> visit = [&](int i) {
      if (state[i]) return;
      state[i] = 1;
      for (const rt::StructField& f : sig_.structs[i].fields)
        if (f.type.is_struct() && f.type.struct_index >= 0 && f.type.struct_index < int(sig_.structs.size()))
          visit(f.type.struct_index);
      state[i] = 2;
      if (!sig_.structs[i].composite.valid()) order.push_back(i);
    };
    for (size_t i = 0; i < sig_.structs.size(); ++i) visit(int(i));
    return order;
  }

  void Structs() {
    std::vector<int> order = StructOrder();
    if (order.empty()) return;
    out_ << "namespace " << o_.cpp_namespace << " {\n\n";
    for (int i : order) {
      const rt::StructLayout& s = sig_.structs[i];
      std::string name = CppName(s.name);
      out_ << "// @wp.struct " << s.name << ": " << s.size << " bytes, aligned to " << s.align << ".\n";
      for (const rt::StructArrayField& f : s.array_fields)
        out_ << "// Its array field `" << f.name << "` is not in these bytes: a kernel takes it as the argument after the struct's, `param." << f.name << "`.\n";
      out_ << "struct " << name << " {\n";
      uint32_t at = 0;
      int pads = 0;
      for (const rt::StructField& f : s.fields) {
        // The checker lays fields out as C does; explicit padding keeps any other offset exact
        // (and the static_asserts below would catch a difference).
        uint32_t align = FieldAlign(f.type);
        uint32_t natural = (at + align - 1) / align * align;
        if (f.offset > natural) out_ << "  unsigned char pad" << pads++ << "_[" << (f.offset - at) << "];\n";
        out_ << "  " << Code(ElemCType(f.type, true)) << " " << CppName(f.name) << ";\n";
        at = f.offset + FieldSize(f.type);
      }
      out_ << "};\n";
      out_ << "static_assert(sizeof(" << name << ") == " << s.size << " && alignof(" << name << ") == " << s.align
           << ", \"struct " << s.name << ": the C++ layout differs from the kernel's\");\n";
      for (const rt::StructField& f : s.fields)
        out_ << "static_assert(offsetof(" << name << ", " << CppName(f.name) << ") == " << f.offset << ", \"struct "
             << s.name << ": field `" << f.name << "` is not at offset " << f.offset << "\");\n";
      out_ << "\n";
    }
    out_ << "}  // namespace " << o_.cpp_namespace << "\n\n";
    // The runtime's view of each struct: its name and layout, as the kernel's signature has it.
    out_ << "namespace tilec {\n";
    for (int i : order) {
      const rt::StructLayout& s = sig_.structs[i];
      std::string t = ns_ + "::" + CppName(s.name);
      out_ << "template <>\nstruct ElementTraits<" << t << "> : StructElement<" << t << ", ElementTraits<" << t
           << ">> {\n"
           << "  static std::string Name() { return \"" << s.name << "\"; }\n"
           << "  static rt::StructLayout Layout() {\n"
           << "    rt::StructLayout l;\n"
           << "    l.name = \"" << s.name << "\";\n"
           << "    l.size = " << s.size << ";\n"
           << "    l.align = " << s.align << ";\n";
      for (const rt::StructField& f : s.fields) {
        out_ << "    l.fields.emplace_back();\n"
             << "    l.fields.back().name = \"" << f.name << "\";\n"
             << "    l.fields.back().type = rt::ElemType{ScalarType::" << ScalarEnumerator(f.type.scalar) << ", "
             << f.type.struct_index << "};\n"
             << "    l.fields.back().offset = " << f.offset << ";\n";
      }
      out_ << "    return l;\n  }\n};\n";
    }
    out_ << "}  // namespace tilec\n\n";
  }

  uint32_t FieldAlign(const rt::ElemType& t) const {
    return t.is_struct() ? sig_.structs[t.struct_index].align : uint32_t(ScalarSize(t.scalar));
  }
  uint32_t FieldSize(const rt::ElemType& t) const {
    return t.is_struct() ? sig_.structs[t.struct_index].size : uint32_t(ScalarSize(t.scalar));
  }

  // A kernel's parameters as C++ identifiers, unique, none shadowing the launcher's own names.
  static std::vector<std::string> ParamNames(const rt::KernelSignature& k) {
    std::vector<std::string> names;
    std::set<std::string> used = {"options"};
    for (const rt::ParamInfo& p : k.params) {
      std::string n = CppName(p.name);
      std::replace(n.begin(), n.end(), '.', '_');  // a struct's array field `s.x`
      while (used.count(n) || n.rfind("TilecArg", 0) == 0) n += "_";
      used.insert(n);
      names.push_back(n);
    }
    return names;
  }

  // One of `launch` / `launch_adjoint`: a template over the argument types whose
  // static_asserts name each parameter, then the runtime call with the converted arguments.
  void LaunchFunction(const rt::KernelSignature& k, const std::vector<std::string>& names, bool adjoint) {
    size_t n = k.params.size();
    std::string tparams, fparams, accepted, args;
    for (size_t i = 0; i < n; ++i) {
      std::string a = "TilecArg" + std::to_string(i);
      std::string p = Code(ParamCType(k.params[i], false));
      tparams += (i ? ", typename " : "typename ") + a;
      fparams += ", const " + a + "& " + names[i];
      accepted += (i ? " && " : "") + std::string("::tilec::typed::Accepts<") + p + ", " + a + ">()";
      args += std::string(i ? ", " : "") + "::tilec::typed::ToArg<" + p + ">(" + names[i] + ", \"" + k.name +
              "\", \"" + k.params[i].name + "\")";
    }
    if (n) out_ << "  template <" << tparams << ">\n";
    out_ << "  void " << (adjoint ? "launch_adjoint" : "launch") << "(const ::tilec::rt::LaunchOptions& options"
         << fparams << ") const {\n";
    for (size_t i = 0; i < n; ++i) {
      const rt::ParamInfo& p = k.params[i];
      out_ << "    static_assert(::tilec::typed::Accepts<" << Code(ParamCType(p, false)) << ", TilecArg" << i
           << ">(),\n                  \"" << k.name << ": argument `" << p.name << "` must be "
           << (p.kind == rt::ParamKind::Array || p.type.is_struct() ? "a " : "a number that converts to ")
           << ParamCType(p, true) << " (kernel parameter `" << p.name << ": "
           << rt::ParamTypeName(p, sig_.structs) << "`)\");\n";
    }
    std::string call = adjoint ? "::tilec::typed::LaunchAdjoint(this->kernel, options, {" + args + "})"
                               : "::tilec::rt::Launch(this->kernel, options, {" + args + "})";
    if (n)
      out_ << "    if constexpr (" << accepted << ")\n      " << call << ";\n";
    else
      out_ << "    " << call << ";\n";
    out_ << "  }\n";
  }

  void Launchers() {
    out_ << "namespace " << o_.cpp_namespace << "::launchers {\n\n";
    for (const rt::KernelSignature& k : sig_.kernels) {
      std::vector<std::string> names = ParamNames(k);
      out_ << "// kernel " << k.name << "(";
      for (size_t i = 0; i < k.params.size(); ++i)
        out_ << (i ? ", " : "") << k.params[i].name << ": " << rt::ParamTypeName(k.params[i], sig_.structs);
      out_ << ")\n";
      if (k.tiled)
        out_ << "// Uses tile operations: launch it with LaunchOptions::block_dim set (a tiled launch).\n";
      out_ << "struct " << CppName(k.name) << " {\n  ::tilec::rt::Kernel kernel;\n\n";
      LaunchFunction(k, names, false);
      if (k.has_adjoint) {
        out_ << "  // The adjoint with the same arguments: accumulates into each array's grad.\n";
        LaunchFunction(k, names, true);
      }
      out_ << "};\n\n";
    }
    out_ << "}  // namespace " << o_.cpp_namespace << "::launchers\n\n";
  }

  void ModuleClass() {
    out_ << "namespace " << o_.cpp_namespace << " {\n\n"
         << "// The module's kernels, bound by name and checked against this header's signatures.\n"
         << "class Module {\n public:\n  Module() = default;\n"
         << "  explicit Module(::tilec::rt::Module loaded) : tilec_module_(::std::move(loaded)) {\n";
    for (const rt::KernelSignature& k : sig_.kernels) {
      out_ << "    " << CppName(k.name) << ".kernel = ::tilec::typed::BindKernel(tilec_module_, \"" << o_.header_name
           << "\", \"" << k.name << "\", {";
      for (size_t i = 0; i < k.params.size(); ++i) {
        const rt::ParamInfo& p = k.params[i];
        uint32_t size = p.type.is_struct() ? sig_.structs[p.type.struct_index].size : 0;
        out_ << (i ? ", " : "") << "{\"" << p.name << "\", \"" << rt::ParamTypeName(p, sig_.structs) << "\", "
             << size << "}";
      }
      out_ << "});\n";
    }
    out_ << "  }\n"
         << "  // Loads `path` (a shared object from `tilec compile -o`) and binds its kernels.\n"
         << "  static Module Load(const ::std::string& path) { return Module(::tilec::rt::Module::Load(path)); }\n"
         << "  const ::tilec::rt::Module& tilec_module() const { return tilec_module_; }\n\n";
    for (const rt::KernelSignature& k : sig_.kernels)
      out_ << "  " << ns_ << "::launchers::" << CppName(k.name) << " " << CppName(k.name) << ";\n";
    out_ << "\n private:\n  ::tilec::rt::Module tilec_module_;\n};\n\n"
         << "}  // namespace " << o_.cpp_namespace << "\n";
  }
};

}  // namespace

bool GenerateCppHeader(const rt::ModuleSignature& signature, const CppHeaderOptions& options,
                       std::string& text, std::string& error) {
  return Generator(signature, options).Run(text, error);
}

std::string DefaultHeaderNamespace(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (size_t dot = stem.find('.'); dot != std::string::npos) stem.resize(dot);
  std::string id;
  for (char c : stem) id += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  if (id.empty() || std::isdigit(static_cast<unsigned char>(id[0]))) id = "kernels_" + id;
  return CppName(id);
}

}  // namespace tilec::compiler
