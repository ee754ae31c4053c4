// Tile IR printer. Generic ops print as `%r = name operands {attrs} : types` (a lane-varying
// value's type after `varying`); control flow ops have their own forms so that loops and
// branches read like the source.
#include "ir/printer.h"

#include <charconv>
#include <cmath>
#include <ostream>
#include <sstream>
#include <unordered_map>

#include "ir/op_cases.h"

namespace tilec::ir {

std::string FormatFloat(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

namespace {

std::string Escape(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else out += c;
  }
  return out + "\"";
}

class Printer {
 public:
  Printer(std::ostream& os, const Module& m, const PrintOptions& opts) : os_(os), m_(m), opts_(opts) {}

  void PrintFunction(const Function& f) {
    names_.clear();
    next_ = 0;
    os_ << "kernel @" << f.name() << "(";
    Block* body = f.body();
    for (int i = 0; i < body->num_args(); ++i) {
      Value* p = body->arg(i);
      names_[p] = "%" + p->name();
      if (i) os_ << ", ";
      os_ << names_[p] << ": " << TypeStr(p->type());
    }
    os_ << ")";
    if (f.tiled) os_ << " tiled";
    if (f.deterministic) os_ << " deterministic";
    if (!f.enable_backward) os_ << " no_backward";
    os_ << " {\n";
    PrintBlockOps(*body, 1);
    os_ << "}\n";
  }

  void PrintStructs() {
    for (const StructDef& s : m_.structs()) {
      os_ << "struct " << s.name << " {";
      for (size_t i = 0; i < s.fields.size(); ++i) {
        os_ << (i ? ", " : " ") << s.fields[i].name << ": " << ElemTypeName(s.fields[i].type, m_.structs())
            << " @" << s.fields[i].offset;
      }
      os_ << " } size " << s.size << " align " << s.align << "\n";
    }
  }

 private:
  std::string TypeStr(const Type& t) { return TypeName(t, m_.structs()); }

  const std::string& Name(Value* v) {
    auto it = names_.find(v);
    if (it != names_.end()) return it->second;
    return names_[v] = "%" + std::to_string(next_++);
  }

  std::string Ref(Value* v) {
    if (!v) return "<null>";
    auto it = names_.find(v);
    if (it == names_.end()) return "<undefined>";
    return it->second;
  }

  void Indent(int depth) {
    for (int i = 0; i < depth; ++i) os_ << "  ";
  }

  std::string OperandList(const Op& op, int from, int to) {
    std::string s;
    for (int i = from; i < to; ++i) {
      if (i > from) s += ", ";
      s += Ref(op.operand(i));
    }
    return s;
  }

  void ResultsPrefix(const Op& op) {
    for (int i = 0; i < op.num_results(); ++i) {
      if (i) os_ << ", ";
      os_ << Name(op.result(i));
    }
    if (op.num_results()) os_ << " = ";
  }

  // A value's type, after `varying` when the uniformity analysis found it lane-varying.
  std::string Marked(const Value* v) { return (v->lane_varying() ? "varying " : "") + TypeStr(v->type()); }

  std::string ResultTypes(const Op& op) {
    std::string s;
    for (int i = 0; i < op.num_results(); ++i) {
      if (i) s += ", ";
      s += Marked(op.result(i));
    }
    return s;
  }

  void LocSuffix(const Op& op) {
    if (!opts_.locations || !op.loc().file) return;
    LineCol lc = op.loc().file->Locate(op.loc().range.begin);
    os_ << "  # " << lc.line << ":" << lc.col;
  }

  std::string ConstStr(const Op& op) {
    const Type& t = op.result()->type();
    if (t.is_struct()) return "zero";
    if (t.is_bool()) return op.value().i ? "true" : "false";
    if (t.is_float()) return FormatFloat(op.value().f);
    if (t.is_int() && !IsSigned(t.elem.scalar) && t.elem.scalar == ScalarType::UInt64)
      return std::to_string(uint64_t(op.value().i));
    return std::to_string(op.value().i);
  }

  std::string GenericAttrs(const Op& op) {
    const std::vector<AttrId>& ids = InfoOf(op.code()).attrs;
    if (ids.empty()) return "";
    std::string s = " {";
    for (size_t i = 0; i < ids.size(); ++i) {
      if (i) s += ", ";
      s += std::string(InfoOf(ids[i]).name) + " = " + AttrText(op.attrs()[i]);
    }
    return s + "}";
  }

  static std::string AttrText(const AttrValue& v) {
    struct Visit {
      std::string operator()(const ConstVal& c) const { return std::to_string(c.i); }
      std::string operator()(int64_t i) const { return std::to_string(i); }
      std::string operator()(CmpPred p) const { return std::string(CmpPredName(p)); }
      std::string operator()(ReduceKind k) const { return std::string(ReduceKindName(k)); }
      std::string operator()(AtomicKind k) const { return std::string(AtomicKindName(k)); }
      std::string operator()(bool b) const { return b ? "true" : "false"; }
      std::string operator()(const std::vector<int64_t>& l) const {
        std::string s = "[";
        for (size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + std::to_string(l[i]);
        return s + "]";
      }
      std::string operator()(const std::vector<std::string>& l) const {
        std::string s = "[";
        for (size_t i = 0; i < l.size(); ++i) s += (i ? ", " : "") + Escape(l[i]);
        return s + "]";
      }
    };
    return std::visit(Visit{}, v);
  }

  void PrintBlockOps(const Block& b, int depth) {
    for (auto& op : b.ops()) PrintOp(*op, depth);
  }

  void PrintBlockArgs(const Block& b) {
    os_ << "(";
    for (int i = 0; i < b.num_args(); ++i) {
      if (i) os_ << ", ";
      os_ << Name(b.arg(i)) << ": " << Marked(b.arg(i));
    }
    os_ << ")";
  }

  void PrintOp(const Op& op, int depth) {
    Indent(depth);
    switch (op.code()) {
      case OpCode::If: {
        ResultsPrefix(op);
        os_ << "if " << Ref(op.operand(0));
        if (op.num_results()) os_ << " -> (" << ResultTypes(op) << ")";
        os_ << " {";
        LocSuffix(op);
        os_ << "\n";
        PrintBlockOps(*op.region(0), depth + 1);
        Indent(depth);
        os_ << "} else {\n";
        PrintBlockOps(*op.region(1), depth + 1);
        Indent(depth);
        os_ << "}\n";
        return;
      }
      case OpCode::For: {
        ResultsPrefix(op);
        Block* body = op.region(0);
        os_ << "for " << Name(body->arg(0)) << " = " << Ref(op.operand(0)) << " to " << Ref(op.operand(1))
            << " step " << Ref(op.operand(2));
        if (op.num_operands() > 3) {
          os_ << " iter(";
          for (int i = 3; i < op.num_operands(); ++i) {
            if (i > 3) os_ << ", ";
            os_ << Name(body->arg(i - 2)) << " = " << Ref(op.operand(i));
          }
          os_ << ")";
        }
        if (op.num_results()) os_ << " -> (" << ResultTypes(op) << ")";
        os_ << " {";
        LocSuffix(op);
        os_ << "\n";
        PrintBlockOps(*body, depth + 1);
        Indent(depth);
        os_ << "}\n";
        return;
      }
      case OpCode::While: {
        ResultsPrefix(op);
        Block* before = op.region(0);
        os_ << "while (";
        for (int i = 0; i < op.num_operands(); ++i) {
          if (i) os_ << ", ";
          os_ << Name(before->arg(i)) << " = " << Ref(op.operand(i));
        }
        os_ << ")";
        if (op.num_results()) os_ << " -> (" << ResultTypes(op) << ")";
        os_ << " {";
        LocSuffix(op);
        os_ << "\n";
        PrintBlockOps(*before, depth + 1);
        Indent(depth);
        os_ << "} do ";
        PrintBlockArgs(*op.region(1));
        os_ << " {\n";
        PrintBlockOps(*op.region(1), depth + 1);
        Indent(depth);
        os_ << "}\n";
        return;
      }
      case OpCode::TileMap: {
        ResultsPrefix(op);
        os_ << "tile_map " << OperandList(op, 0, op.num_operands()) << " : " << ResultTypes(op) << " ";
        PrintBlockArgs(*op.region(0));
        os_ << " {";
        LocSuffix(op);
        os_ << "\n";
        PrintBlockOps(*op.region(0), depth + 1);
        Indent(depth);
        os_ << "}\n";
        return;
      }
      TILEC_CASES(Constant) TILEC_CASES(Tid) TILEC_CASES(Elementwise) TILEC_CASES(Select)
      TILEC_CASES(Compare) TILEC_CASES(Logic) TILEC_CASES(Array) TILEC_CASES(Struct)
      TILEC_CASES(TileBuild) TILEC_CASES(TileReduce) TILEC_CASES(TileScan) TILEC_CASES(TileSort) TILEC_CASES(TileMatmul) TILEC_CASES(TileShape)
      TILEC_CASES(TileElement) TILEC_CASES(TileMemory) TILEC_CASES(Print) TILEC_CASES(Terminator)
        break;
    }
    ResultsPrefix(op);
    os_ << op.name();
    // Const, cmp, tile_arange and print have forms of their own; every other attribute prints
    // generically as `{name = value, ...}` after the operands, in ops.def's order.
    bool custom = op.code() == OpCode::Const || op.code() == OpCode::Cmp ||
                  op.code() == OpCode::TileArange || op.code() == OpCode::Print;
    std::string attrs = custom ? std::string() : GenericAttrs(op);
    if (op.code() == OpCode::Const) os_ << " " << ConstStr(op);
    if (op.code() == OpCode::Cmp) os_ << " " << CmpPredName(op.pred());
    if (op.code() == OpCode::TileArange) {
      bool is_float = op.result()->type().elem.is_struct() ? false : IsFloat(op.result()->type().elem.scalar);
      os_ << " start " << (is_float ? FormatFloat(op.start().f) : std::to_string(op.start().i)) << " step "
          << (is_float ? FormatFloat(op.step().f) : std::to_string(op.step().i));
    }
    if (op.code() == OpCode::Print) {
      for (int i = 0; i <= op.num_operands(); ++i) {
        os_ << (i ? ", " : " ");
        os_ << Escape(i < int(op.texts().size()) ? op.texts()[i] : std::string());
        if (i < op.num_operands()) os_ << ", " << Ref(op.operand(i));
      }
    } else if (op.num_operands()) {
      os_ << " " << OperandList(op, 0, op.num_operands());
    }
    os_ << attrs;
    if (op.num_results() && op.code() != OpCode::Yield) os_ << " : " << ResultTypes(op);
    LocSuffix(op);
    os_ << "\n";
  }

  std::ostream& os_;
  const Module& m_;
  const PrintOptions& opts_;
  std::unordered_map<const Value*, std::string> names_;
  int next_ = 0;
};

}  // namespace

void PrintModule(std::ostream& os, const Module& m, const PrintOptions& opts) {
  Printer p(os, m, opts);
  p.PrintStructs();
  for (size_t i = 0; i < m.functions().size(); ++i) {
    if (i || !m.structs().empty()) os << "\n";
    p.PrintFunction(*m.functions()[i]);
  }
}

void PrintFunction(std::ostream& os, const Module& m, const Function& f, const PrintOptions& opts) {
  Printer(os, m, opts).PrintFunction(f);
}

std::string ModuleToString(const Module& m, const PrintOptions& opts) {
  std::ostringstream os;
  PrintModule(os, m, opts);
  return os.str();
}

}  // namespace tilec::ir
