// Parser API tests: exact byte ranges, literal decoding, block structure, recovery after
// errors, diagnostics located in the enclosing file, and inputs that must not crash.
#include <gtest/gtest.h>

#include <chrono>

#include "frontend/ast/ast_printer.h"
#include "frontend/parse/parse.h"
#include "tests/unit/parse/ast_walk.h"

namespace tilec {
namespace {

struct Parsed {
  std::unique_ptr<SourceFile> file;
  diag::DiagnosticEngine diags;
  std::unique_ptr<ast::Module> module;

  std::string Text(SourceRange r) const { return file->text().substr(r.begin, r.end - r.begin); }
  std::vector<std::string> Codes() const {
    std::vector<std::string> out;
    for (const auto& d : diags.diagnostics()) out.push_back(diag::Info(d.code).id);
    return out;
  }
};

std::unique_ptr<Parsed> Parse(const std::string& text, int line_base = 0, int col_base = 0) {
  auto p = std::make_unique<Parsed>();
  p->file = std::make_unique<SourceFile>("t.tile", text, line_base, col_base);
  p->module = parse::ParseFile(*p->file, p->diags);
  return p;
}

TEST(Parse, RangesCoverExactSourceText) {
  auto p = Parse("y = wp.zeros((2, 4), dtype=float)[0].T  # c\n");
  ASSERT_TRUE(p->diags.diagnostics().empty());
  ASSERT_EQ(p->module->body.size(), 1u);
  const auto* assign = p->module->body[0]->As<ast::Assign>();
  ASSERT_NE(assign, nullptr);
  EXPECT_EQ(p->Text(assign->range), "y = wp.zeros((2, 4), dtype=float)[0].T");
  const auto* attr = assign->value->As<ast::Attribute>();
  ASSERT_NE(attr, nullptr);
  EXPECT_EQ(p->Text(attr->attr_range), "T");
  const auto* sub = attr->value->As<ast::Subscript>();
  ASSERT_NE(sub, nullptr);
  EXPECT_EQ(p->Text(sub->range), "wp.zeros((2, 4), dtype=float)[0]");
  const auto* call = sub->value->As<ast::Call>();
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->args.size(), 1u);
  EXPECT_EQ(p->Text(call->args[0]->range), "(2, 4)");
  EXPECT_TRUE(call->args[0]->As<ast::Tuple>()->parenthesized);
  ASSERT_EQ(call->keywords.size(), 1u);
  EXPECT_EQ(call->keywords[0].name, "dtype");
  EXPECT_EQ(p->Text(call->keywords[0].range), "dtype=float");
  EXPECT_EQ(p->Text(call->keywords[0].name_range), "dtype");
}

TEST(Parse, BinaryRangesIncludeParenthesesAndOperator) {
  auto p = Parse("z = (a + b) * c\n");
  const auto* bin = p->module->body[0]->As<ast::Assign>()->value->As<ast::Binary>();
  ASSERT_NE(bin, nullptr);
  EXPECT_EQ(bin->op, ast::BinaryOp::Mul);
  EXPECT_EQ(p->Text(bin->range), "(a + b) * c");
  EXPECT_EQ(p->Text(bin->op_range), "*");
  EXPECT_EQ(p->Text(bin->lhs->range), "a + b");
}

TEST(Parse, FunctionDefinitionParts) {
  auto p = Parse("@wp.kernel(enable_backward=False)\n@wp.func\ndef f(a: wp.array2d[float], n: int = 3) -> float:\n    return a[n, 0]\n");
  ASSERT_TRUE(p->diags.diagnostics().empty());
  const auto* f = p->module->body[0]->As<ast::FunctionDef>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->name, "f");
  EXPECT_EQ(p->Text(f->name_range), "f");
  EXPECT_EQ(p->file->Locate(f->range.begin).line, 3);  // a definition starts at `def`
  ASSERT_EQ(f->decorators.size(), 2u);
  EXPECT_TRUE(f->decorators[0]->Is<ast::Call>());
  EXPECT_TRUE(f->decorators[1]->Is<ast::Attribute>());
  ASSERT_EQ(f->params.size(), 2u);
  EXPECT_EQ(p->Text(f->params[0].range), "a: wp.array2d[float]");
  EXPECT_EQ(p->Text(f->params[0].annotation->range), "wp.array2d[float]");
  EXPECT_EQ(f->params[0].default_value, nullptr);
  EXPECT_EQ(p->Text(f->params[1].default_value->range), "3");
  EXPECT_EQ(p->Text(f->returns->range), "float");
  ASSERT_EQ(f->body.size(), 1u);
  const auto* ret = f->body[0]->As<ast::Return>();
  ASSERT_NE(ret, nullptr);
  EXPECT_TRUE(ret->value->As<ast::Subscript>()->index->Is<ast::Tuple>());
}

TEST(Parse, ElifBecomesNestedIf) {
  auto p = Parse("if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n");
  const auto* s = p->module->body[0]->As<ast::If>();
  ASSERT_NE(s, nullptr);
  EXPECT_FALSE(s->is_elif);
  ASSERT_EQ(s->orelse.size(), 1u);
  const auto* elif = s->orelse[0]->As<ast::If>();
  ASSERT_NE(elif, nullptr);
  EXPECT_TRUE(elif->is_elif);
  EXPECT_EQ(elif->cond->As<ast::Name>()->id, "b");
  ASSERT_EQ(elif->orelse.size(), 1u);
  EXPECT_TRUE(elif->orelse[0]->Is<ast::Assign>());
}

TEST(Parse, LiteralValues) {
  auto p = Parse("a = 0x_ff + 0o17 + 0b101 + 1_000\nb = 2.5e-1\nc = 'x\\ty' \"\\u00e9\" r'\\n'\n");
  ASSERT_TRUE(p->diags.diagnostics().empty());
  std::vector<uint64_t> ints;
  testing::WalkBody(p->module->body, [](SourceRange, const char*) {});
  const auto* sum = p->module->body[0]->As<ast::Assign>()->value.get();
  while (const auto* b = sum->As<ast::Binary>()) {
    ints.insert(ints.begin(), b->rhs->As<ast::IntLit>()->value);
    sum = b->lhs.get();
  }
  ints.insert(ints.begin(), sum->As<ast::IntLit>()->value);
  EXPECT_EQ(ints, (std::vector<uint64_t>{255, 15, 5, 1000}));
  EXPECT_DOUBLE_EQ(p->module->body[1]->As<ast::Assign>()->value->As<ast::FloatLit>()->value, 0.25);
  EXPECT_EQ(p->module->body[2]->As<ast::Assign>()->value->As<ast::StrLit>()->value,
            "x\ty\xc3\xa9\\n");
}

TEST(Parse, NestedBlocksEndingWithoutNewline) {
  auto p = Parse("def f(x):\n    if x:\n        for i in range(3):\n            x = i");
  ASSERT_TRUE(p->diags.diagnostics().empty());
  const auto* f = p->module->body[0]->As<ast::FunctionDef>();
  ASSERT_NE(f, nullptr);
  const auto* i = f->body[0]->As<ast::If>();
  ASSERT_NE(i, nullptr);
  EXPECT_TRUE(i->body[0]->Is<ast::For>());
}

TEST(Parse, EmptyCommentOnlyAndBlankFiles) {
  for (const char* text : {"", "\n\n", "# only a comment", "   \n\t\n# c\n   # d\n"}) {
    auto p = Parse(text);
    EXPECT_TRUE(p->diags.diagnostics().empty()) << text;
    EXPECT_TRUE(p->module->body.empty()) << text;
  }
}

TEST(Parse, LineEndingsCrLfAndCr) {
  for (const char* text : {"if x:\r\n    y = 1\r\nz = 2\r\n", "if x:\r    y = 1\rz = 2\r"}) {
    auto p = Parse(text);
    EXPECT_TRUE(p->diags.diagnostics().empty());
    ASSERT_EQ(p->module->body.size(), 2u);
    EXPECT_EQ(p->file->Locate(p->module->body[1]->range.begin).line, 3);
  }
}

TEST(Parse, ColumnsAreBytes) {
  auto p = Parse("s = 'é'; t = 1\n");
  ASSERT_EQ(p->module->body.size(), 2u);
  EXPECT_EQ(p->file->Locate(p->module->body[1]->range.begin).col, 11);  // 'é' is two bytes
}

TEST(Parse, ThreeIndependentErrorsAndTheGoodStatementsKept) {
  auto p = Parse(
      "def a():\n    x = = 1\n    return x\n"
      "def b(x):\n    if x\n        return 1\n"
      "def c():\n    return (1 2)\n"
      "def d():\n    return 4\n"
      "e = 5\n");
  EXPECT_EQ(p->Codes(), (std::vector<std::string>{"E0010", "E0009", "E0010"}));
  ASSERT_EQ(p->module->body.size(), 2u);  // `d` and `e = 5`; the broken definitions are left out
  EXPECT_EQ(p->module->body[0]->As<ast::FunctionDef>()->name, "d");
  EXPECT_TRUE(p->module->body[1]->Is<ast::Assign>());
}

TEST(Parse, ErrorsInsideABrokenStatementAreStillFound) {
  auto p = Parse("def f():\n    x = = 1\n    if y:\n        g(a=1, 2)\n    f() = 3\n");
  EXPECT_EQ(p->Codes(), (std::vector<std::string>{"E0010", "E0011", "E0013"}));
  EXPECT_TRUE(p->module->body.empty());
}

TEST(Parse, LocationsKeepTheBlockPlaceInItsPage) {
  auto p = Parse("x = 1\ny = $\n", 40, 7);
  ASSERT_EQ(p->diags.diagnostics().size(), 1u);
  const LineCol lc = p->diags.diagnostics()[0].Where();
  EXPECT_EQ(lc.line, 42);
  EXPECT_EQ(lc.col, 12);
  const std::string printed = ast::PrintAst(*p->module);
  EXPECT_NE(printed.find("Assign @41:8"), std::string::npos) << printed;
}

TEST(Parse, DiagnosticsComeInSourceOrder) {
  auto p = Parse("a = (1,\nb = 'x\n");  // lexer finds the string before the unclosed bracket at EOF
  std::vector<uint32_t> begins;
  for (const auto& d : p->diags.diagnostics()) begins.push_back(d.range.begin);
  EXPECT_TRUE(std::is_sorted(begins.begin(), begins.end()));
  EXPECT_FALSE(begins.empty());
}

TEST(Tokens, DumpShowsLayoutTokens) {
  SourceFile file("t.tile", "if x:\n    y = (1,\n  2)\nz\n");
  diag::DiagnosticEngine diags;
  const std::string dump = parse::DumpTokens(file, diags);
  EXPECT_TRUE(diags.diagnostics().empty());
  EXPECT_EQ(dump,
            "1:1 IF 'if'\n1:4 NAME 'x'\n1:5 COLON ':'\n1:6 NEWLINE '\\n'\n"
            "2:5 INDENT ''\n2:5 NAME 'y'\n2:7 ASSIGN '='\n2:9 LPAREN '('\n2:10 DEC_INTEGER '1'\n"
            "2:11 COMMA ','\n3:3 DEC_INTEGER '2'\n3:4 RPAREN ')'\n3:5 NEWLINE '\\n'\n"
            "4:1 DEDENT ''\n4:1 NAME 'z'\n4:2 NEWLINE '\\n'\n5:1 EOF ''\n");
}

TEST(Robustness, HostileInputsTerminateWithLocatedErrors) {
  std::vector<std::string> inputs = {
      std::string("x = 1\0y = 2\n", 12),
      "\xff\xfe\xfd\n\x80",
      std::string(100000, '('),
      std::string(100000, '['),
      "x = " + std::string(50000, '-') + "1\n",
      "x = 1" + std::string(100000, '+') + "\n",
      "x = " + [] { std::string s; for (int i = 0; i < 50000; ++i) s += "a."; return s + "b\n"; }(),
      [] { std::string s; for (int i = 0; i < 300; ++i) s += std::string(size_t(i), ' ') + "if x:\n"; return s; }(),
      std::string(20000, '\n') + "  x",
      "'''" + std::string(10000, 'a'),
      "\\",
      "@",
      "def",
      "(\n)\n)\n]\n}",
      "x = 1 if 2 else " + [] { std::string s; for (int i = 0; i < 5000; ++i) s += "3 if 4 else "; return s + "5\n"; }(),
  };
  for (const std::string& text : inputs) {
    const auto t0 = std::chrono::steady_clock::now();
    auto p = Parse(text);
    ast::PrintAst(*p->module);
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_LT(secs, 10.0) << text.substr(0, 40);
    EXPECT_TRUE(p->diags.has_errors()) << text.substr(0, 40);
    for (const auto& d : p->diags.diagnostics()) {
      EXPECT_LE(d.range.begin, d.range.end);
      EXPECT_LE(d.range.end, text.size());
    }
  }
}

TEST(Robustness, LongButLegalInputsParse) {
  std::string many;
  for (int i = 0; i < 3000; ++i) many += "x" + std::to_string(i) + " = " + std::to_string(i) + "\n";
  auto p = Parse(many);
  EXPECT_TRUE(p->diags.diagnostics().empty());
  EXPECT_EQ(p->module->body.size(), 3000u);
  auto q = Parse("y = " + std::string(150, '(') + "1" + std::string(150, ')') + "\n");
  EXPECT_TRUE(q->diags.diagnostics().empty());
}

}  // namespace
}  // namespace tilec
