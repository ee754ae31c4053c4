// The text form of ModuleSignature that AOT artifacts carry: one record per line, words
// separated by spaces, names without spaces; PTX as a byte-counted block, cubins as base64
// blocks (the text is embedded as a C string, so it must hold no NUL). Versioned by ABI.
#include <algorithm>
#include <iterator>
#include <optional>
#include <sstream>

#include "tilec/abi.h"
#include "tilec/error.h"
#include "tilec/module.h"

namespace tilec::rt {

StructLayout CompositeLayout(const Composite& c) {
  StructLayout s;
  s.name = CompositeName(c);
  s.composite = c;
  uint32_t es = static_cast<uint32_t>(ScalarSize(c.scalar));
  for (int i = 0; i < c.length(); ++i) s.fields.push_back({CompositeFieldName(c, i), ElemType{c.scalar, -1}, i * es});
  s.size = es * static_cast<uint32_t>(c.length());
  s.align = es;
  return s;
}


namespace {

constexpr std::string_view kMagic = "tilec-module-signature";

std::string TypeWord(const ElemType& t) {
  return t.is_struct() ? "%" + std::to_string(t.struct_index) : std::string(ScalarName(t.scalar));
}

const char* KindWord(ParamKind k) {
  switch (k) {
    case ParamKind::Scalar: return "scalar";
    case ParamKind::Array: return "array";
    case ParamKind::Struct: return "struct";
  }
  return "?";
}

void CheckName(const std::string& name, const char* what) {
  if (name.empty() || name.find_first_of(" \t\r\n") != std::string::npos)
    throw Error(std::string("cannot serialize ") + what + " `" + name +
                "`: names must be non-empty and free of whitespace");
}

void PutBlock(std::ostringstream& out, const char* key, const std::string& text) {
  out << "  " << key << " " << text.size() << "\n" << text << "\n";
}

constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::string Base64Encode(const std::string& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t v = static_cast<uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 1]) << 8;
    if (i + 2 < bytes.size()) v |= static_cast<uint8_t>(bytes[i + 2]);
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kBase64[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kBase64[v & 63] : '=';
  }
  return out;
}

// Empty optional on a character outside the alphabet or a length that is not a multiple of 4.
std::optional<std::string> Base64Decode(const std::string& text) {
  if (text.size() % 4 != 0) return std::nullopt;
  int8_t value[256];
  std::fill(std::begin(value), std::end(value), int8_t(-1));
  for (int i = 0; i < 64; ++i) value[static_cast<uint8_t>(kBase64[i])] = static_cast<int8_t>(i);
  std::string out;
  out.reserve(text.size() / 4 * 3);
  for (size_t i = 0; i < text.size(); i += 4) {
    int pad = (text[i + 3] == '=') + (text[i + 2] == '=' && text[i + 3] == '=');
    if (pad > 0 && i + 4 != text.size()) return std::nullopt;  // '=' only at the very end
    uint32_t v = 0;
    for (int j = 0; j < 4; ++j) {
      int8_t d = j >= 4 - pad ? 0 : value[static_cast<uint8_t>(text[i + j])];
      if (d < 0) return std::nullopt;
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 255);
    if (pad < 2) out += static_cast<char>((v >> 8) & 255);
    if (pad < 1) out += static_cast<char>(v & 255);
  }
  return out;
}

}  // namespace

std::string SerializeSignature(const ModuleSignature& sig) {
  std::ostringstream out;
  out << kMagic << " " << TILEC_ABI_VERSION << "\n";
  for (const StructLayout& s : sig.structs) {
    CheckName(s.name, "struct");
    out << "struct " << s.name << " " << s.size << " " << s.align << "\n";
    for (const StructField& f : s.fields) {
      CheckName(f.name, "field");
      out << "  field " << f.name << " " << TypeWord(f.type) << " " << f.offset << "\n";
    }
    out << "end\n";
  }
  for (const GpuImage& g : sig.gpu_images) {
    CheckName(g.arch, "GPU architecture");
    out << "gpu_image " << g.arch << " " << g.block_dim << "\n";
    PutBlock(out, "ptx", g.ptx);
    if (!g.cubin.empty()) PutBlock(out, "cubin_base64", Base64Encode(g.cubin));
    out << "end\n";
  }
  for (const KernelSignature& k : sig.kernels) {
    CheckName(k.name, "kernel");
    out << "kernel " << k.name << "\n";
    if (!k.entry_symbol.empty()) out << "  entry " << k.entry_symbol << "\n";
    if (!k.adjoint_symbol.empty()) out << "  adjoint " << k.adjoint_symbol << "\n";
    out << "  tiled " << (k.tiled ? 1 : 0) << "\n";
    out << "  has_adjoint " << (k.has_adjoint ? 1 : 0) << "\n";
    out << "  block_dim " << k.block_dim << "\n";
    if (k.hybrid) out << "  hybrid 1\n";
    if (k.checked_access) out << "  checked_access 1\n";
    if (k.deterministic) out << "  deterministic 1\n";
    out << "  shared_bytes " << k.shared_bytes << " " << k.adjoint_shared_bytes << "\n";
    for (const ParamInfo& p : k.params) {
      CheckName(p.name, "parameter");
      out << "  param " << KindWord(p.kind) << " " << p.name << " " << TypeWord(p.type) << " "
          << p.ndim << "\n";
    }
    if (!k.ptx.empty()) PutBlock(out, "ptx", k.ptx);
    if (!k.adjoint_error.empty()) PutBlock(out, "adjoint_error", k.adjoint_error);
    for (const GpuVariant& v : k.gpu_variants)
      out << "  gpu_variant " << v.image << " " << v.block_dim << " " << v.shared_bytes << " "
          << v.adjoint_shared_bytes << "\n";
    out << "end\n";
  }
  return out.str();
}

namespace {

class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool Next() {  // reads the next non-empty line into words_
    while (pos_ < text_.size()) {
      size_t end = text_.find('\n', pos_);
      if (end == std::string_view::npos) end = text_.size();
      std::string_view line = text_.substr(pos_, end - pos_);
      pos_ = end + 1;
      ++line_;
      words_.clear();
      std::istringstream in{std::string(line)};
      std::string w;
      while (in >> w) words_.push_back(w);
      if (!words_.empty()) return true;
    }
    return false;
  }
  std::string Block(size_t bytes) {  // raw bytes after the current line, then a newline
    if (pos_ + bytes > text_.size()) Fail("block of " + std::to_string(bytes) + " bytes runs past the end");
    std::string out(text_.substr(pos_, bytes));
    line_ += static_cast<int>(std::count(out.begin(), out.end(), '\n'));
    pos_ += bytes;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    ++line_;
    return out;
  }
  const std::vector<std::string>& words() const { return words_; }
  void Expect(size_t n) const {
    if (words_.size() != n)
      Fail("`" + words_[0] + "` takes " + std::to_string(n - 1) + " value(s), got " +
           std::to_string(words_.size() - 1));
  }
  long long Int(size_t i, long long lo, long long hi) const {
    const std::string& w = words_[i];
    size_t used = 0;
    long long v = 0;
    try {
      v = std::stoll(w, &used);
    } catch (...) {
      used = 0;
    }
    if (used != w.size() || v < lo || v > hi)
      Fail("expected an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
           "], got `" + w + "`");
    return v;
  }
  ElemType Type(size_t i) const {
    const std::string& w = words_[i];
    ElemType t;
    if (!w.empty() && w[0] == '%') {
      if (w.size() < 2 || w.size() > 7 || w.find_first_not_of("0123456789", 1) != std::string::npos)
        Fail("bad struct reference `" + w + "`");
      t.struct_index = std::stoi(w.substr(1));
      return t;
    }
    auto s = ScalarFromName(w);
    if (!s) Fail("unknown type `" + w + "`");
    t.scalar = *s;
    return t;
  }
  [[noreturn]] void Fail(const std::string& msg) const {
    throw Error("module signature line " + std::to_string(line_) + ": " + msg);
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  int line_ = 0;
  std::vector<std::string> words_;
};

}  // namespace

ModuleSignature ParseSignature(std::string_view text) {
  Reader r(text);
  if (!r.Next() || r.words()[0] != kMagic) r.Fail("expected `tilec-module-signature <version>`");
  r.Expect(2);
  long long version = r.Int(1, 0, 1 << 30);
  if (version != TILEC_ABI_VERSION)
    r.Fail("signature has ABI version " + std::to_string(version) + ", this runtime expects " +
           std::to_string(TILEC_ABI_VERSION) + "; recompile the kernels");
  ModuleSignature sig;
  while (r.Next()) {
    const std::string& head = r.words()[0];
    if (head == "struct") {
      r.Expect(4);
      StructLayout s;
      s.name = r.words()[1];
      if (std::optional<Composite> c = CompositeFromName(s.name)) s.composite = *c;
      s.size = static_cast<uint32_t>(r.Int(2, 0, UINT32_MAX));
      s.align = static_cast<uint32_t>(r.Int(3, 1, 4096));
      for (;;) {
        if (!r.Next()) r.Fail("struct `" + s.name + "` lacks `end`");
        if (r.words()[0] == "end") break;
        if (r.words()[0] != "field") r.Fail("expected `field` or `end`, got `" + r.words()[0] + "`");
        r.Expect(4);
        s.fields.push_back({r.words()[1], r.Type(2), static_cast<uint32_t>(r.Int(3, 0, UINT32_MAX))});
      }
      sig.structs.push_back(std::move(s));
    } else if (head == "kernel") {
      r.Expect(2);
      KernelSignature k;
      k.name = r.words()[1];
      for (;;) {
        if (!r.Next()) r.Fail("kernel `" + k.name + "` lacks `end`");
        const std::vector<std::string>& w = r.words();
        const std::string& key = w[0];
        if (key == "end") break;
        if (key == "entry") { r.Expect(2); k.entry_symbol = w[1]; }
        else if (key == "adjoint") { r.Expect(2); k.adjoint_symbol = w[1]; }
        else if (key == "tiled") { r.Expect(2); k.tiled = r.Int(1, 0, 1) != 0; }
        else if (key == "has_adjoint") { r.Expect(2); k.has_adjoint = r.Int(1, 0, 1) != 0; }
        else if (key == "block_dim") { r.Expect(2); k.block_dim = static_cast<int>(r.Int(1, 0, 1024)); }
        else if (key == "hybrid") { r.Expect(2); k.hybrid = r.Int(1, 0, 1) != 0; }
        else if (key == "checked_access") { r.Expect(2); k.checked_access = r.Int(1, 0, 1) != 0; }
        else if (key == "deterministic") { r.Expect(2); k.deterministic = r.Int(1, 0, 1) != 0; }
        else if (key == "shared_bytes") {
          r.Expect(3);
          k.shared_bytes = static_cast<uint32_t>(r.Int(1, 0, UINT32_MAX));
          k.adjoint_shared_bytes = static_cast<uint32_t>(r.Int(2, 0, UINT32_MAX));
        } else if (key == "param") {
          r.Expect(5);
          ParamInfo p;
          if (w[1] == "scalar") p.kind = ParamKind::Scalar;
          else if (w[1] == "array") p.kind = ParamKind::Array;
          else if (w[1] == "struct") p.kind = ParamKind::Struct;
          else r.Fail("unknown parameter kind `" + w[1] + "`");
          p.name = w[2];
          p.type = r.Type(3);
          p.ndim = static_cast<int>(r.Int(4, 0, TILEC_MAX_DIMS));
          if (p.kind == ParamKind::Array && p.ndim < 1)
            r.Fail("array parameter `" + p.name + "` needs ndim 1 to " + std::to_string(TILEC_MAX_DIMS));
          k.params.push_back(std::move(p));
        } else if (key == "ptx") {
          r.Expect(2);
          k.ptx = r.Block(static_cast<size_t>(r.Int(1, 0, 1ll << 40)));
        } else if (key == "gpu_variant") {
          r.Expect(5);
          GpuVariant v;
          v.image = static_cast<int>(r.Int(1, 0, 1 << 20));
          v.block_dim = static_cast<int>(r.Int(2, 0, 1024));
          v.shared_bytes = static_cast<uint32_t>(r.Int(3, 0, UINT32_MAX));
          v.adjoint_shared_bytes = static_cast<uint32_t>(r.Int(4, 0, UINT32_MAX));
          k.gpu_variants.push_back(v);
        } else if (key == "adjoint_error") {
          r.Expect(2);
          k.adjoint_error = r.Block(static_cast<size_t>(r.Int(1, 0, 1ll << 30)));
        } else {
          r.Fail("unknown kernel field `" + key + "`");
        }
      }
      sig.kernels.push_back(std::move(k));
    } else if (head == "gpu_image") {
      r.Expect(3);
      GpuImage g;
      g.arch = r.words()[1];
      g.block_dim = static_cast<int>(r.Int(2, 1, 1024));
      for (;;) {
        if (!r.Next()) r.Fail("GPU image `" + g.arch + "` lacks `end`");
        const std::vector<std::string>& w = r.words();
        if (w[0] == "end") break;
        if (w[0] == "ptx") {
          r.Expect(2);
          g.ptx = r.Block(static_cast<size_t>(r.Int(1, 0, 1ll << 40)));
        } else if (w[0] == "cubin_base64") {
          r.Expect(2);
          std::optional<std::string> bytes = Base64Decode(r.Block(static_cast<size_t>(r.Int(1, 0, 1ll << 40))));
          if (!bytes) r.Fail("the cubin of GPU image `" + g.arch + "` is not valid base64");
          g.cubin = std::move(*bytes);
        } else {
          r.Fail("unknown GPU image field `" + w[0] + "`");
        }
      }
      if (g.ptx.empty()) r.Fail("GPU image `" + g.arch + "` has no PTX");
      sig.gpu_images.push_back(std::move(g));
    } else {
      r.Fail("expected `struct`, `gpu_image` or `kernel`, got `" + head + "`");
    }
  }
  // Struct references must stay inside the table.
  auto check = [&](const ElemType& t, const std::string& where) {
    if (t.is_struct() && t.struct_index >= static_cast<int>(sig.structs.size()))
      throw Error("module signature: " + where + " refers to struct %" +
                  std::to_string(t.struct_index) + " but only " +
                  std::to_string(sig.structs.size()) + " are defined");
  };
  for (const StructLayout& s : sig.structs)
    for (const StructField& f : s.fields) check(f.type, "field `" + s.name + "." + f.name + "`");
  for (const KernelSignature& k : sig.kernels) {
    for (const ParamInfo& p : k.params) check(p.type, "parameter `" + k.name + "." + p.name + "`");
    for (const GpuVariant& v : k.gpu_variants)
      if (v.image >= static_cast<int>(sig.gpu_images.size()))
        throw Error("module signature: kernel `" + k.name + "` refers to GPU image " +
                    std::to_string(v.image) + " but only " + std::to_string(sig.gpu_images.size()) +
                    " are defined");
  }
  return sig;
}

}  // namespace tilec::rt
