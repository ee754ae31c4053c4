// Tile IR text parser: recursive descent over the printer's line format. Op names, operand and
// result counts and attribute names come from ops.def/attrs.def through InfoOf, so a new op
// parses without a change here unless the printer gives it a form of its own.
#include "ir/parser.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace tilec::ir {

namespace {

using diag::Code;

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' ||
         c == '.';
}

const std::unordered_map<std::string_view, OpCode>& OpsByName() {
  static const std::unordered_map<std::string_view, OpCode> map = [] {
    std::unordered_map<std::string_view, OpCode> m;
    for (int i = 0; i < kNumOpCodes; ++i) m.emplace(InfoOf(OpCode(i)).name, OpCode(i));
    return m;
  }();
  return map;
}

// CmpPred and ReduceKind have no count; their name functions answer "?" past the last one, so
// the spellings come from the same functions the printer uses.
template <class E, class NameFn>
bool EnumFromName(std::string_view word, NameFn name_of, E& out) {
  for (int i = 0; i < 256; ++i) {
    std::string_view n = name_of(E(i));
    if (n == "?") return false;
    if (n == word) {
      out = E(i);
      return true;
    }
  }
  return false;
}

class Parser {
 public:
  Parser(std::string_view text, const SourceFile* file, diag::DiagnosticEngine& diags)
      : src_(text), file_(file), diags_(diags) {}

  std::unique_ptr<Module> Run() {
    auto m = std::make_unique<Module>();
    m_ = m.get();
    for (SkipAll(); !AtEnd(); SkipAll()) {
      std::string_view w = PeekWord();
      bool ok = w == "struct"   ? ParseStruct()
                : w == "kernel" ? ParseKernel()
                                : Fail(Code::IrSyntax,
                                       "expected `struct` or `kernel` at the top level, found " + Found());
      if (!ok) return nullptr;
    }
    return m;
  }

 private:
  // --- characters and tokens ---
  bool AtEnd() const { return pos_ >= src_.size(); }
  char Cur() const { return AtEnd() ? '\0' : src_[pos_]; }

  // Spaces and a trailing `#` comment on the current line; never the newline itself, so that
  // an op's operands cannot run into the next line.
  void SkipInline() {
    while (!AtEnd()) {
      char c = src_[pos_];
      if (c == ' ' || c == '\t' || c == '\r') {
        ++pos_;
      } else if (c == '#') {
        while (!AtEnd() && src_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
  }
  void SkipAll() {
    for (SkipInline(); Cur() == '\n'; SkipInline()) ++pos_;
  }

  std::string_view PeekWord() {
    SkipInline();
    size_t e = pos_;
    while (e < src_.size() && IsWordChar(src_[e])) ++e;
    return src_.substr(pos_, e - pos_);
  }
  std::string_view ReadWord() {
    std::string_view w = PeekWord();
    pos_ += w.size();
    return w;
  }

  bool Peek(char c) {
    SkipInline();
    return Cur() == c;
  }
  bool Eat(std::string_view s) {
    SkipInline();
    if (src_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  bool EatWord(std::string_view w) {
    if (PeekWord() != w) return false;
    pos_ += w.size();
    return true;
  }

  // What stands at the current position, for "found ..." in messages.
  std::string Found() {
    SkipInline();
    if (AtEnd()) return "end of input";
    if (Cur() == '\n') return "end of line";
    size_t e = pos_;
    if (src_[e] == '%' || src_[e] == '@') ++e;
    while (e < src_.size() && IsWordChar(src_[e])) ++e;
    if (e == pos_) ++e;
    return "`" + std::string(src_.substr(pos_, e - pos_)) + "`";
  }
  uint32_t FoundLength() {
    size_t e = pos_;
    if (e < src_.size() && (src_[e] == '%' || src_[e] == '@')) ++e;
    while (e < src_.size() && IsWordChar(src_[e])) ++e;
    return uint32_t(std::max<size_t>(e - pos_, 1));
  }

  bool FailAt(Code code, size_t begin, size_t end, std::string msg) {
    diags_.Report(code, file_, {uint32_t(begin), uint32_t(end)}, std::move(msg));
    return false;
  }
  // Reports at the current token.
  bool Fail(Code code, std::string msg) {
    SkipInline();
    return FailAt(code, pos_, pos_ + FoundLength(), std::move(msg));
  }
  bool Expect(std::string_view s, std::string_view where) {
    if (Eat(s)) return true;
    return Fail(Code::IrSyntax,
                "expected `" + std::string(s) + "` " + std::string(where) + ", found " + Found());
  }
  bool ExpectWord(std::string_view w, std::string_view where) {
    if (EatWord(w)) return true;
    return Fail(Code::IrSyntax,
                "expected `" + std::string(w) + "` " + std::string(where) + ", found " + Found());
  }
  bool ExpectEol(std::string_view after) {
    SkipInline();
    if (AtEnd()) return true;
    if (Cur() == '\n') {
      ++pos_;
      return true;
    }
    return Fail(Code::IrSyntax, "expected end of line after " + std::string(after) + ", found " + Found());
  }

  // `-12`, `3.5`, `1e+20`, `nan`, `-inf`: the text of one number, interpreted by the caller
  // once the type is known.
  std::string_view ReadNumberText() {
    SkipInline();
    size_t b = pos_, e = pos_;
    if (e < src_.size() && (src_[e] == '-' || src_[e] == '+')) ++e;
    while (e < src_.size()) {
      char c = src_[e];
      bool exp_sign = (c == '-' || c == '+') && (src_[e - 1] == 'e' || src_[e - 1] == 'E');
      if (IsWordChar(c) || exp_sign)
        ++e;
      else
        break;
    }
    pos_ = e;
    return src_.substr(b, e - b);
  }

  bool ReadInt(int64_t& out, std::string_view what) {
    SkipInline();
    size_t b = pos_;
    std::string_view t = ReadNumberText();
    if (t.empty()) {
      pos_ = b;
      return Fail(Code::IrSyntax, "expected an integer " + std::string(what) + ", found " + Found());
    }
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    if (ec != std::errc() || p != t.data() + t.size())
      return FailAt(Code::IrBadLiteral, b, pos_,
                    "invalid integer `" + std::string(t) + "` " + std::string(what));
    return true;
  }

  bool ReadString(std::string& out) {
    SkipInline();
    size_t b = pos_;
    if (Cur() != '"') return Fail(Code::IrSyntax, "expected a string literal, found " + Found());
    ++pos_;
    out.clear();
    while (true) {
      if (AtEnd() || Cur() == '\n') return FailAt(Code::IrSyntax, b, pos_, "unterminated string literal");
      char c = src_[pos_++];
      if (c == '"') return true;
      if (c != '\\') {
        out += c;
        continue;
      }
      char n = Cur();
      if (n == 'n')
        out += '\n';
      else if (n == 't')
        out += '\t';
      else if (n == '"' || n == '\\')
        out += n;
      else
        return FailAt(Code::IrBadLiteral, pos_ - 1, pos_ + 1,
                      "invalid escape `\\" + std::string(1, n) + "` in a string literal");
      ++pos_;
    }
  }

  // --- values ---
  bool ReadValueName(std::string& name, std::string_view where) {
    SkipInline();
    size_t e = pos_ + 1;
    while (e < src_.size() && IsWordChar(src_[e])) ++e;
    if (Cur() != '%' || e == pos_ + 1)
      return Fail(Code::IrSyntax, "expected a value `%name` " + std::string(where) + ", found " + Found());
    name = std::string(src_.substr(pos_, e - pos_));
    pos_ = e;
    return true;
  }

  bool Use(std::string_view where, Value*& out) {
    SkipInline();
    size_t b = pos_;
    std::string name;
    if (!ReadValueName(name, where)) return false;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto f = it->find(name); f != it->end()) {
        out = f->second;
        return true;
      }
    return FailAt(Code::IrUndefinedValue, b, pos_,
                  "use of undefined value `" + name + "`" +
                      (defined_.count(name) ? " (defined in a region that does not enclose this use)" : ""));
  }

  struct Pending {
    std::string name;
    size_t begin, end;
  };
  bool Define(const Pending& p, Value* v) {
    if (!defined_.insert(p.name).second)
      return FailAt(Code::IrRedefinition, p.begin, p.end,
                    "value `" + p.name + "` is defined twice in this kernel");
    scopes_.back()[p.name] = v;
    return true;
  }
  bool ReadPending(Pending& p, std::string_view where) {
    SkipInline();
    p.begin = pos_;
    if (!ReadValueName(p.name, where)) return false;
    p.end = pos_;
    return true;
  }

  // --- types ---
  bool LookupElem(std::string_view w, ElemType& out) const {
    for (int i = 0; i < kNumScalarTypes; ++i)
      if (ScalarName(ScalarType(i)) == w) {
        out = ElemType::Of(ScalarType(i));
        return true;
      }
    for (size_t i = 0; i < m_->structs().size(); ++i)
      if (m_->structs()[i].name == w) {
        out = ElemType::Struct(int(i));
        return true;
      }
    return false;
  }

  bool ParseElem(ElemType& out) {
    SkipInline();
    size_t b = pos_;
    std::string_view w = PeekWord();
    if (w.empty()) return Fail(Code::IrSyntax, "expected an element type, found " + Found());
    pos_ += w.size();
    if (LookupElem(w, out)) return true;
    return FailAt(Code::IrUnknownType, b, pos_, "unknown element type `" + std::string(w) + "`");
  }

  // `varying` before a result or region-argument type is the uniformity mark
  // (Value::lane_varying); the lists below record it in marks_ for AddResults/AddArgs.
  bool ParseType(Type& out) {
    marks_.push_back(EatWord("varying"));
    SkipInline();
    size_t b = pos_;
    std::string_view w = PeekWord();
    if (w == "none") {
      pos_ += w.size();
      out = Type::None();
      return true;
    }
    if (w == "tile") {
      pos_ += w.size();
      ElemType e;
      if (!Expect("<", "after `tile`") || !ParseElem(e) || !Expect(",", "after a tile's element type"))
        return false;
      // Extents are `2x4`: digits joined by `x`, read by hand since `x4` would be a word.
      std::vector<int64_t> shape;
      SkipInline();
      while (true) {
        size_t s = pos_;
        while (!AtEnd() && Cur() >= '0' && Cur() <= '9') ++pos_;
        if (s == pos_) return Fail(Code::IrSyntax, "expected a tile extent, found " + Found());
        int64_t n = 0;
        auto [p, ec] = std::from_chars(src_.data() + s, src_.data() + pos_, n);
        if (ec != std::errc() || n <= 0)
          return FailAt(Code::IrBadLiteral, s, pos_,
                        "invalid tile extent `" + std::string(src_.substr(s, pos_ - s)) + "`");
        shape.push_back(n);
        if (Cur() != 'x') break;
        ++pos_;
      }
      if (int(shape.size()) > kMaxDims)
        return FailAt(Code::IrUnknownType, b, pos_,
                      "a tile has at most " + std::to_string(kMaxDims) + " dimensions");
      Storage st = Storage::Register;
      if (Eat(",")) {
        if (!ExpectWord("shared", "as a tile's storage")) return false;
        st = Storage::Shared;
      }
      if (!Expect(">", "to close the tile type")) return false;
      out = Type::Tile(e, shape, st);
      return true;
    }
    if (w.size() > 6 && w.substr(0, 5) == "array" && w.back() == 'd') {
      int nd = 0;
      std::string_view digits = w.substr(5, w.size() - 6);
      auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), nd);
      if (ec == std::errc() && p == digits.data() + digits.size() && nd >= 1 && nd <= kMaxDims) {
        pos_ += w.size();
        ElemType e;
        if (!Expect("<", "after `" + std::string(w) + "`") || !ParseElem(e) ||
            !Expect(">", "to close the array type"))
          return false;
        out = Type::Array(e, nd);
        return true;
      }
    }
    ElemType e;
    if (w.empty()) return Fail(Code::IrSyntax, "expected a type, found " + Found());
    pos_ += w.size();
    if (!LookupElem(w, e))
      return FailAt(Code::IrUnknownType, b, pos_, "unknown type `" + std::string(w) + "`");
    out = Type::Elem(e);
    return true;
  }

  bool ParseTypeList(std::vector<Type>& out) {
    marks_.clear();
    do {
      Type t;
      if (!ParseType(t)) return false;
      out.push_back(t);
    } while (Eat(","));
    return true;
  }

  // `-> (t, ...)` of if/for/while; absent when the op has no results.
  bool ParseArrowTypes(std::vector<Type>& out) {
    marks_.clear();
    if (!Eat("->")) return true;
    if (!Expect("(", "after `->`")) return false;
    if (Eat(")")) return true;
    return ParseTypeList(out) && Expect(")", "after the result types");
  }

  // --- structs and kernels ---
  bool ParseStruct() {
    EatWord("struct");
    SkipInline();
    size_t nb = pos_;
    std::string name(ReadWord());
    if (name.empty()) return Fail(Code::IrSyntax, "expected a struct name, found " + Found());
    for (const StructDef& s : m_->structs())
      if (s.name == name)
        return FailAt(Code::IrRedefinition, nb, pos_, "struct `" + name + "` is defined twice");
    StructDef def;
    def.name = name;
    // Vector-like types are known by their names (vec3f, mat33d, ...), as in the signature.
    if (std::optional<Composite> c = CompositeFromName(name)) def.composite = *c;
    std::vector<std::pair<int64_t, size_t>> offsets;  // as written, and where
    if (!Expect("{", "after the struct name")) return false;
    if (!Eat("}")) {
      do {
        StructField f;
        f.name = std::string(ReadWord());
        if (f.name.empty()) return Fail(Code::IrSyntax, "expected a field name, found " + Found());
        int64_t off = 0;
        if (!Expect(":", "after the field name") || !ParseElem(f.type) ||
            !Expect("@", "before the field offset"))
          return false;
        SkipInline();
        size_t ob = pos_;
        if (!ReadInt(off, "as the field offset")) return false;
        offsets.push_back({off, ob});
        def.fields.push_back(f);
      } while (Eat(","));
      if (!Expect("}", "after the struct fields")) return false;
    }
    int64_t size = 0, align = 0;
    SkipInline();
    size_t sb = pos_;
    if (!ExpectWord("size", "after the struct fields") || !ReadInt(size, "as the struct size")) return false;
    SkipInline();
    size_t ab = pos_;
    if (!ExpectWord("align", "after the struct size") || !ReadInt(align, "as the struct alignment"))
      return false;
    if (!ExpectEol("the struct")) return false;
    // The layout is C's natural one, computed here; text that disagrees describes another ABI.
    int idx = m_->AddStruct(std::move(def));
    const StructDef& s = m_->structs()[idx];
    for (size_t i = 0; i < s.fields.size(); ++i)
      if (int64_t(s.fields[i].offset) != offsets[i].first)
        return FailAt(Code::IrBadLiteral, offsets[i].second, offsets[i].second + 1,
                      "field `" + s.fields[i].name + "` of `" + s.name + "` is at offset " +
                          std::to_string(s.fields[i].offset) + ", not " + std::to_string(offsets[i].first));
    if (int64_t(s.size) != size)
      return FailAt(
          Code::IrBadLiteral, sb, sb + 4,
          "struct `" + s.name + "` has size " + std::to_string(s.size) + ", not " + std::to_string(size));
    if (int64_t(s.align) != align)
      return FailAt(Code::IrBadLiteral, ab, ab + 5,
                    "struct `" + s.name + "` has alignment " + std::to_string(s.align) + ", not " +
                        std::to_string(align));
    return true;
  }

  bool ParseKernel() {
    size_t b = pos_;
    EatWord("kernel");
    if (!Expect("@", "before the kernel name")) return false;
    size_t nb = pos_;
    std::string name(ReadWord());
    if (name.empty()) return Fail(Code::IrSyntax, "expected a kernel name after `@`, found " + Found());
    if (m_->FindFunction(name))
      return FailAt(Code::IrRedefinition, nb - 1, pos_, "kernel `@" + name + "` is defined twice");
    Function* f = m_->AddFunction(name, Loc{file_, {uint32_t(b), uint32_t(pos_)}});
    // The printer does not print Function::adjoint_of; autodiff names adjoints `k$adjoint`.
    constexpr std::string_view kAdj = "$adjoint";
    if (name.size() > kAdj.size() && name.compare(name.size() - kAdj.size(), kAdj.size(), kAdj) == 0)
      f->adjoint_of = name.substr(0, name.size() - kAdj.size());
    scopes_.assign(1, {});
    defined_.clear();
    if (!Expect("(", "after the kernel name")) return false;
    if (!Eat(")")) {
      do {
        Pending p;
        Type t;
        if (!ReadPending(p, "as a kernel parameter") || !Expect(":", "after the parameter name") ||
            !ParseType(t))
          return false;
        Value* v = f->AddParam(p.name.substr(1), t, Loc{file_, {uint32_t(p.begin), uint32_t(p.end)}});
        if (!Define(p, v)) return false;
      } while (Eat(","));
      if (!Expect(")", "after the kernel parameters")) return false;
    }
    for (std::string_view w = PeekWord(); !w.empty(); w = PeekWord()) {
      if (w == "tiled")
        f->tiled = true;
      else if (w == "deterministic")
        f->deterministic = true;
      else if (w == "no_backward")
        f->enable_backward = false;
      else
        return Fail(Code::IrSyntax,
                    "expected `tiled`, `deterministic`, `no_backward` or `{` after the kernel parameters, found " + Found());
      pos_ += w.size();
    }
    if (!Expect("{", "to open the kernel body") || !ExpectEol("`{`")) return false;
    return ParseRegionBody(f->body(), b) && ExpectClose("the kernel");
  }

  bool ExpectClose(std::string_view what) {
    return Expect("}", "to close " + std::string(what)) && ExpectEol("`}`");
  }

  // Ops up to (not including) the `}` that closes the region opened at `open`.
  bool ParseRegionBody(Block* block, size_t open) {
    while (true) {
      SkipAll();
      if (AtEnd()) {
        std::string where;
        if (file_) {
          LineCol lc = file_->Locate(uint32_t(open));
          where = " opened at " + std::to_string(lc.line) + ":" + std::to_string(lc.col);
        }
        return Fail(Code::IrSyntax, "expected `}` to close the region" + where + ", found end of input");
      }
      if (Cur() == '}') return true;
      if (!ParseOp(block)) return false;
    }
  }

  // Pushes a scope holding `args` (a region's block arguments), parses the region's ops.
  bool ParseRegion(Block* block, const std::vector<Pending>& args, size_t open) {
    scopes_.emplace_back();
    for (size_t i = 0; i < args.size(); ++i)
      if (!Define(args[i], block->arg(int(i)))) return false;
    bool ok = ParseRegionBody(block, open);
    scopes_.pop_back();
    return ok;
  }

  // `(%a: t, ...)`: the printed block arguments of tile_map and of the `do` region.
  bool ParseBlockArgs(std::vector<Pending>& names, std::vector<Type>& types) {
    if (!Expect("(", "before the region arguments")) return false;
    marks_.clear();
    if (Eat(")")) return true;
    do {
      Pending p;
      Type t;
      if (!ReadPending(p, "as a region argument") || !Expect(":", "after the region argument") ||
          !ParseType(t))
        return false;
      names.push_back(p);
      types.push_back(t);
    } while (Eat(","));
    return Expect(")", "after the region arguments");
  }

  bool UseList(std::vector<Value*>& out, std::string_view where) {
    do {
      Value* v;
      if (!Use(where, v)) return false;
      out.push_back(v);
    } while (Eat(","));
    return true;
  }

  bool DefineResults(Op* op, const std::vector<Pending>& results) {
    for (size_t i = 0; i < results.size(); ++i)
      if (!Define(results[i], op->result(int(i)))) return false;
    return true;
  }

  bool CheckResultTypes(const std::vector<Pending>& results, const std::vector<Type>& types,
                        std::string_view op, size_t at) {
    if (results.size() == types.size()) return true;
    return FailAt(Code::IrArity, at, pos_,
                  "`" + std::string(op) + "` names " + std::to_string(results.size()) +
                      " results but gives " + std::to_string(types.size()) + " result types");
  }

  bool ParseOp(Block* block) {
    SkipInline();
    size_t b = pos_;
    std::vector<Pending> results;
    if (Cur() == '%') {
      do {
        Pending p;
        if (!ReadPending(p, "as a result")) return false;
        results.push_back(p);
      } while (Eat(","));
      if (!Expect("=", "after the results")) return false;
    }
    SkipInline();
    size_t nb = pos_;
    std::string_view name = ReadWord();
    if (name.empty()) return Fail(Code::IrSyntax, "expected an op name, found " + Found());
    auto it = OpsByName().find(name);
    if (it == OpsByName().end())
      return FailAt(Code::IrUnknownOp, nb, pos_, "unknown op `" + std::string(name) + "`");
    OpCode code = it->second;
    auto op = std::make_unique<Op>(code, Loc{file_, {uint32_t(b), uint32_t(pos_)}});
    Op* raw = op.get();
    // Not a switch: every op without a form of its own is generic, and a catch-all branch over
    // OpCode is what the design rules out.
    bool ok = code == OpCode::If        ? ParseIf(raw, results, nb)
              : code == OpCode::For     ? ParseFor(raw, results, nb)
              : code == OpCode::While   ? ParseWhile(raw, results, nb)
              : code == OpCode::TileMap ? ParseTileMap(raw, results, nb)
                                        : ParseGeneric(raw, results, nb);
    if (!ok) return false;
    block->Append(std::move(op));
    return true;
  }

  bool ParseIf(Op* op, const std::vector<Pending>& results, size_t nb) {
    Value* cond;
    std::vector<Type> types;
    if (!Use("as the `if` condition", cond) || !ParseArrowTypes(types) ||
        !CheckResultTypes(results, types, "if", nb))
      return false;
    op->operands().push_back(cond);
    AddResults(op, types);
    Block* then_b = op->AddRegion();
    Block* else_b = op->AddRegion();
    if (!Expect("{", "to open the `if` region") || !ExpectEol("`{`") || !ParseRegion(then_b, {}, nb))
      return false;
    if (!Expect("}", "to close the `if` region") || !ExpectWord("else", "after the `if` region") ||
        !Expect("{", "to open the `else` region") || !ExpectEol("`{`") || !ParseRegion(else_b, {}, nb) ||
        !ExpectClose("the `else` region"))
      return false;
    return DefineResults(op, results);
  }

  bool ParseFor(Op* op, const std::vector<Pending>& results, size_t nb) {
    std::vector<Pending> args(1);
    Value *lo, *hi, *step;
    if (!ReadPending(args[0], "as the loop variable") || !Expect("=", "after the loop variable") ||
        !Use("as the lower bound", lo) || !ExpectWord("to", "after the lower bound") ||
        !Use("as the upper bound", hi) || !ExpectWord("step", "after the upper bound") ||
        !Use("as the step", step))
      return false;
    op->operands() = {lo, hi, step};
    Block* body = op->AddRegion();
    body->AddArg(lo->type());
    if (EatWord("iter")) {
      if (!Expect("(", "after `iter`")) return false;
      if (!ParseCarried(op, body, args)) return false;
    }
    std::vector<Type> types;
    if (!ParseArrowTypes(types) || !CheckResultTypes(results, types, "for", nb)) return false;
    AddResults(op, types);
    if (!Expect("{", "to open the `for` body") || !ExpectEol("`{`") || !ParseRegion(body, args, nb) ||
        !ExpectClose("the `for` body"))
      return false;
    return DefineResults(op, results);
  }

  // `%a = %init, ...)`: loop-carried values of a for or while, each an operand of `op` and an
  // argument of `region`; reads up to and including the closing parenthesis.
  bool ParseCarried(Op* op, Block* region, std::vector<Pending>& args) {
    do {
      Pending p;
      Value* init;
      if (!ReadPending(p, "as a loop-carried value") || !Expect("=", "after the loop-carried value") ||
          !Use("as the initial value", init))
        return false;
      args.push_back(p);
      op->operands().push_back(init);
      region->AddArg(init->type());
    } while (Eat(","));
    return Expect(")", "after the loop-carried values");
  }

  bool ParseWhile(Op* op, const std::vector<Pending>& results, size_t nb) {
    std::vector<Pending> before_args;
    Block* before = op->AddRegion();
    if (!Expect("(", "after `while`")) return false;
    if (!Eat(")")) {
      if (!ParseCarried(op, before, before_args)) return false;
    }
    std::vector<Type> types;
    if (!ParseArrowTypes(types) || !CheckResultTypes(results, types, "while", nb)) return false;
    AddResults(op, types);
    if (!Expect("{", "to open the `while` condition region") || !ExpectEol("`{`") ||
        !ParseRegion(before, before_args, nb))
      return false;
    std::vector<Pending> after_args;
    std::vector<Type> after_types;
    if (!Expect("}", "to close the `while` condition region") ||
        !ExpectWord("do", "after the condition region") || !ParseBlockArgs(after_args, after_types))
      return false;
    Block* after = op->AddRegion();
    AddArgs(after, after_types);
    if (!Expect("{", "to open the `do` region") || !ExpectEol("`{`") || !ParseRegion(after, after_args, nb) ||
        !ExpectClose("the `do` region"))
      return false;
    return DefineResults(op, results);
  }

  bool ParseTileMap(Op* op, const std::vector<Pending>& results, size_t nb) {
    if (Peek('%') && !UseList(op->operands(), "as a `tile_map` operand")) return false;
    std::vector<Type> types;
    if (!Expect(":", "before the `tile_map` result type") || !ParseTypeList(types) ||
        !CheckResultTypes(results, types, "tile_map", nb))
      return false;
    AddResults(op, types);
    std::vector<Pending> args;
    std::vector<Type> arg_types;
    if (!ParseBlockArgs(args, arg_types)) return false;
    Block* body = op->AddRegion();
    AddArgs(body, arg_types);
    if (!Expect("{", "to open the `tile_map` body") || !ExpectEol("`{`") || !ParseRegion(body, args, nb) ||
        !ExpectClose("the `tile_map` body"))
      return false;
    return CheckArity(op, nb) && DefineResults(op, results);
  }

  // Values for the types just read, with the marks the list carried.
  void AddResults(Op* op, const std::vector<Type>& types) {
    for (size_t i = 0; i < types.size(); ++i) op->AddResult(types[i])->set_lane_varying(i < marks_.size() && marks_[i]);
  }
  void AddArgs(Block* b, const std::vector<Type>& types) {
    for (size_t i = 0; i < types.size(); ++i) b->AddArg(types[i])->set_lane_varying(i < marks_.size() && marks_[i]);
  }

  bool CheckArity(Op* op, size_t nb) {
    const OpInfo& info = InfoOf(op->code());
    std::string n(info.name);
    if (info.operands != kVariadic && op->num_operands() != info.operands)
      return FailAt(Code::IrArity, nb, nb + n.size(),
                    "`" + n + "` takes " + std::to_string(info.operands) + " operand" +
                        (info.operands == 1 ? "" : "s") + ", found " + std::to_string(op->num_operands()));
    if (info.results != kVariadic && op->num_results() != info.results)
      return FailAt(Code::IrArity, nb, nb + n.size(),
                    "`" + n + "` has " + std::to_string(info.results) + " result" +
                        (info.results == 1 ? "" : "s") + ", found " + std::to_string(op->num_results()));
    return true;
  }

  // A number or word as a constant of type `t`, in the printer's spelling (ConstStr).
  bool ConstFromText(std::string_view text, size_t at, const Type& t, ConstVal& out) {
    auto bad = [&](std::string why) {
      return FailAt(
          Code::IrBadLiteral, at, at + std::max<size_t>(text.size(), 1),
          "invalid constant `" + std::string(text) + "` for type `" + TypeName(t, m_->structs()) + "`" + why);
    };
    const char* b = text.data();
    const char* e = text.data() + text.size();
    out = ConstVal{};
    if (t.is_struct()) return text == "zero" ? true : bad(": a struct constant is `zero`");
    if (t.is_bool()) {
      if (text != "true" && text != "false") return bad(": expected `true` or `false`");
      out.i = text == "true";
      out.f = double(out.i);
      return true;
    }
    if (t.is_float()) {
      double v;
      if (text == "nan")
        v = std::numeric_limits<double>::quiet_NaN();
      else if (text == "inf")
        v = std::numeric_limits<double>::infinity();
      else if (text == "-inf")
        v = -std::numeric_limits<double>::infinity();
      else if (auto [p, ec] = std::from_chars(b, e, v); ec != std::errc() || p != e || text.empty())
        return bad("");
      out.f = v;
      // Builder::ConstFloat keeps the truncated integer too; out of range it stays 0.
      if (std::isfinite(v) && std::fabs(v) < 9.2e18) out.i = int64_t(v);
      return true;
    }
    if (t.Is(ScalarType::UInt64)) {
      uint64_t u;
      if (auto [p, ec] = std::from_chars(b, e, u); ec != std::errc() || p != e || text.empty())
        return bad("");
      out.i = int64_t(u);
    } else {
      if (auto [p, ec] = std::from_chars(b, e, out.i); ec != std::errc() || p != e || text.empty())
        return bad("");
    }
    out.f = double(out.i);
    return true;
  }

  bool ParseAttrValue(AttrKind kind, AttrValue& out, std::string_view attr) {
    std::string where = "as the value of `" + std::string(attr) + "`";
    switch (kind) {
      case AttrKind::Scalar:
      case AttrKind::Int: {
        int64_t v;
        if (!ReadInt(v, where)) return false;
        if (kind == AttrKind::Int)
          out = v;
        else
          out = ConstVal{v, double(v)};
        return true;
      }
      case AttrKind::Pred: {
        CmpPred p;
        if (!EnumFromName(PeekWord(), CmpPredName, p))
          return Fail(Code::IrBadAttribute,
                      "expected a predicate (eq, ne, lt, le, gt, ge) " + where + ", found " + Found());
        ReadWord();
        out = p;
        return true;
      }
      case AttrKind::Reduce: {
        ReduceKind k;
        if (!EnumFromName(PeekWord(), ReduceKindName, k))
          return Fail(Code::IrBadAttribute,
                      "expected a reduction kind (add, mul, min, max, bit_and, bit_or, bit_xor) " + where +
                          ", found " + Found());
        ReadWord();
        out = k;
        return true;
      }
      case AttrKind::Atomic: {
        AtomicKind k;
        if (!EnumFromName(PeekWord(), AtomicKindName, k))
          return Fail(Code::IrBadAttribute,
                      "expected an atomic kind (sub, min, max, exch, cas, bit_and, bit_or, bit_xor) " + where +
                          ", found " + Found());
        ReadWord();
        out = k;
        return true;
      }
      case AttrKind::Bool:
        if (EatWord("true"))
          out = true;
        else if (EatWord("false"))
          out = false;
        else
          return Fail(Code::IrBadAttribute, "expected `true` or `false` " + where + ", found " + Found());
        return true;
      case AttrKind::IntList: {
        std::vector<int64_t> l;
        if (!Expect("[", where)) return false;
        if (!Eat("]")) {
          do {
            int64_t v;
            if (!ReadInt(v, "in the list")) return false;
            l.push_back(v);
          } while (Eat(","));
          if (!Expect("]", "to close the list")) return false;
        }
        out = std::move(l);
        return true;
      }
      case AttrKind::Strings: {
        std::vector<std::string> l;
        if (!Expect("[", where)) return false;
        if (!Eat("]")) {
          do {
            std::string s;
            if (!ReadString(s)) return false;
            l.push_back(std::move(s));
          } while (Eat(","));
          if (!Expect("]", "to close the list")) return false;
        }
        out = std::move(l);
        return true;
      }
    }
    return false;
  }

  // ` {name = value, ...}`: every declared attribute exactly once, in any order.
  bool ParseGenericAttrs(Op* op, size_t nb) {
    const std::vector<AttrId>& ids = InfoOf(op->code()).attrs;
    std::string opname(InfoOf(op->code()).name);
    if (ids.empty()) {
      if (Peek('{')) return Fail(Code::IrBadAttribute, "`" + opname + "` has no attributes");
      return true;
    }
    std::vector<bool> seen(ids.size(), false);
    if (!Expect("{", "before the attributes of `" + opname + "`")) return false;
    do {
      SkipInline();
      size_t ab = pos_;
      std::string_view an = ReadWord();
      if (an.empty()) return Fail(Code::IrSyntax, "expected an attribute name, found " + Found());
      size_t k = 0;
      while (k < ids.size() && InfoOf(ids[k]).name != an) ++k;
      if (k == ids.size()) {
        std::string names;
        for (AttrId id : ids) names += (names.empty() ? "`" : ", `") + std::string(InfoOf(id).name) + "`";
        return FailAt(Code::IrBadAttribute, ab, pos_,
                      "`" + opname + "` has no attribute `" + std::string(an) + "` (it has " + names + ")");
      }
      if (seen[k])
        return FailAt(Code::IrBadAttribute, ab, pos_, "attribute `" + std::string(an) + "` is given twice");
      seen[k] = true;
      if (!Expect("=", "after the attribute name") ||
          !ParseAttrValue(InfoOf(ids[k]).kind, op->attr(ids[k]), an))
        return false;
    } while (Eat(","));
    if (!Expect("}", "to close the attributes")) return false;
    for (size_t k = 0; k < ids.size(); ++k)
      if (!seen[k])
        return FailAt(Code::IrBadAttribute, nb, nb + opname.size(),
                      "`" + opname + "` is missing its attribute `" + std::string(InfoOf(ids[k]).name) + "`");
    return true;
  }

  // `name operands {attrs} : types`, with the custom pieces of const, cmp, tile_arange, print.
  bool ParseGeneric(Op* op, const std::vector<Pending>& results, size_t nb) {
    OpCode code = op->code();
    std::string_view literal, start_text, step_text;
    size_t literal_at = 0, start_at = 0, step_at = 0;
    if (code == OpCode::Const) {
      SkipInline();
      literal_at = pos_;
      literal = ReadNumberText();
      if (literal.empty()) return Fail(Code::IrSyntax, "expected a constant after `const`, found " + Found());
    } else if (code == OpCode::Cmp) {
      CmpPred p;
      if (!EnumFromName(PeekWord(), CmpPredName, p))
        return Fail(Code::IrBadAttribute,
                    "expected a predicate (eq, ne, lt, le, gt, ge) after `cmp`, found " + Found());
      ReadWord();
      op->pred() = p;
    } else if (code == OpCode::TileArange) {
      if (!ExpectWord("start", "after `tile_arange`")) return false;
      SkipInline();
      start_at = pos_;
      start_text = ReadNumberText();
      if (!ExpectWord("step", "after the start value")) return false;
      SkipInline();
      step_at = pos_;
      step_text = ReadNumberText();
    }
    if (code == OpCode::Print) {
      // "text", %v, "text", ..., "text": one more text than operands.
      std::vector<std::string> texts(1);
      if (!ReadString(texts[0])) return false;
      while (Eat(",")) {
        Value* v;
        if (!Use("as a `print` operand", v)) return false;
        op->operands().push_back(v);
        texts.emplace_back();
        if (!Expect(",", "after a `print` operand") || !ReadString(texts.back())) return false;
      }
      op->texts() = std::move(texts);
    } else if (Peek('%')) {
      if (!UseList(op->operands(), std::string("as an operand of `") + std::string(OpName(code)) + "`"))
        return false;
    }
    bool custom =
        code == OpCode::Const || code == OpCode::Cmp || code == OpCode::TileArange || code == OpCode::Print;
    if (!custom && !ParseGenericAttrs(op, nb)) return false;
    std::vector<Type> types;
    if (!results.empty()) {
      if (!Expect(":", "before the result types") || !ParseTypeList(types) ||
          !CheckResultTypes(results, types, OpName(code), nb))
        return false;
    } else if (Peek(':')) {
      return Fail(Code::IrArity,
                  "result types given to `" + std::string(OpName(code)) + "` without result names");
    }
    AddResults(op, types);
    if (!CheckArity(op, nb)) return false;
    if (code == OpCode::Const && !ConstFromText(literal, literal_at, types[0], op->value())) return false;
    if (code == OpCode::TileArange) {
      Type elem = types[0].ElemValueType();
      if (!types[0].is_tile())
        return FailAt(Code::IrBadLiteral, nb, nb + 11,
                      "`tile_arange` gives a tile, not `" + TypeName(types[0], m_->structs()) + "`");
      if (!ConstFromText(start_text, start_at, elem, op->start()) ||
          !ConstFromText(step_text, step_at, elem, op->step()))
        return false;
    }
    if (!ExpectEol("`" + std::string(OpName(code)) + "`")) return false;
    return DefineResults(op, results);
  }

  std::string_view src_;
  const SourceFile* file_;
  diag::DiagnosticEngine& diags_;
  size_t pos_ = 0;
  std::vector<bool> marks_;  // uniformity marks of the last type list (ParseType)
  Module* m_ = nullptr;
  // Names visible at this point of the current kernel, innermost region last.
  std::vector<std::unordered_map<std::string, Value*>> scopes_;
  std::unordered_set<std::string> defined_;  // every name of the current kernel
};

}  // namespace

std::unique_ptr<Module> ParseModule(std::string_view text, const SourceFile* file,
                                    diag::DiagnosticEngine& diags) {
  return Parser(text, file, diags).Run();
}

}  // namespace tilec::ir
