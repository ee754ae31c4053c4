// The checker against independent references: C struct layout from the C++ compiler itself,
// Python's arithmetic written out by hand, the spec pages' own example kernels, the examples,
// the uniformity analysis through the test-only builtin, and error recovery across kernels.
#include <cmath>
#include <gtest/gtest.h>

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "tests/unit/sema/sema_test_util.h"

namespace tilec::sema {
namespace {

using testing::ParseAndCheck;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string Rendered(const diag::DiagnosticEngine& d) {
  std::ostringstream os;
  d.Render(os);
  return os.str();
}

using testing::TestCode;

TEST(SemaLayout, NestedStructMatchesCLayout) {
  // The same fields as C++ structs: the compiler's own offsetof is the reference.
  struct Inner { bool flag; double value; };
  struct Outer { int8_t a; Inner inner; uint16_t b; };
  auto c = ParseAndCheck(
      "import warp as wp\n"
      "@wp.struct\nclass Inner:\n    flag: bool\n    value: wp.float64\n"
      "@wp.struct\nclass Outer:\n    a: wp.int8\n    inner: Inner\n    b: wp.float16\n");
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  ASSERT_EQ(c->checked->structs.size(), 2u);
  const StructInfo& in = c->checked->structs[0];
  const StructInfo& out = c->checked->structs[1];
  EXPECT_EQ(in.fields[1].offset, offsetof(Inner, value));
  EXPECT_EQ(in.size, sizeof(Inner));
  EXPECT_EQ(in.align, alignof(Inner));
  EXPECT_EQ(out.fields[1].offset, offsetof(Outer, inner));
  EXPECT_EQ(out.fields[2].offset, offsetof(Outer, b));
  EXPECT_EQ(out.size, sizeof(Outer));
  rt::ModuleSignature sig = c->checked->Signature();
  ASSERT_EQ(sig.structs.size(), 2u);
  EXPECT_EQ(sig.structs[1].fields[1].type.struct_index, 0);
  EXPECT_EQ(sig.structs[1].fields[2].offset, offsetof(Outer, b));
}

TEST(SemaSignature, KernelParamsMapToRuntime) {
  auto c = ParseAndCheck(
      "import warp as wp\n"
      "@wp.struct\nclass P:\n    x: float\n"
      "@wp.kernel(enable_backward=False)\n"
      "def k(a: wp.array3d[wp.float16], n: int, p: P):\n"
      "    t = wp.tile_zeros(4, dtype=float)\n");
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  rt::ModuleSignature sig = c->checked->Signature();
  ASSERT_EQ(sig.kernels.size(), 1u);
  const rt::KernelSignature& k = sig.kernels[0];
  EXPECT_TRUE(k.tiled);
  EXPECT_FALSE(k.has_adjoint);
  ASSERT_EQ(k.params.size(), 3u);
  EXPECT_EQ(k.params[0].kind, rt::ParamKind::Array);
  EXPECT_EQ(k.params[0].ndim, 3);
  EXPECT_EQ(k.params[0].type.scalar, ScalarType::Float16);
  EXPECT_EQ(k.params[1].kind, rt::ParamKind::Scalar);
  EXPECT_EQ(k.params[1].type.scalar, ScalarType::Int32);
  EXPECT_EQ(k.params[2].kind, rt::ParamKind::Struct);
  EXPECT_EQ(k.params[2].type.struct_index, 0);
}

TEST(SemaConst, PythonArithmetic) {
  // Values as CPython computes them.
  std::string err;
  auto I = ConstValue::MakeInt;
  EXPECT_EQ(FoldBinary(ast::BinaryOp::FloorDiv, I(-7), I(2), err)->i, -4);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Mod, I(-7), I(3), err)->i, 2);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Mod, I(7), I(-3), err)->i, -2);
  EXPECT_DOUBLE_EQ(FoldBinary(ast::BinaryOp::Div, I(7), I(2), err)->f, 3.5);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Pow, I(2), I(10), err)->i, 1024);
  EXPECT_FALSE(FoldBinary(ast::BinaryOp::Div, I(1), I(0), err).has_value());
  // Kernel rules, as the generated code computes (C): truncation, fmod, IEEE division.
  const FoldRules K = FoldRules::Kernel;
  auto F = ConstValue::MakeFloat;
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Mod, I(-7), I(3), err, K)->i, -1);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Mod, I(7), I(-3), err, K)->i, 1);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::Div, I(-7), I(2), err, K)->i, -3);
  EXPECT_EQ(FoldBinary(ast::BinaryOp::FloorDiv, I(-7), I(2), err, K)->i, -4);
  EXPECT_DOUBLE_EQ(FoldBinary(ast::BinaryOp::Mod, F(7.5), F(-2.0), err, K)->f, 1.5);
  EXPECT_TRUE(std::isinf(FoldBinary(ast::BinaryOp::Div, F(2.0), F(0.0), err, K)->f));
  EXPECT_TRUE(std::isnan(FoldBinary(ast::BinaryOp::Mod, F(2.0), F(0.0), err, K)->f));
  EXPECT_FALSE(FoldBinary(ast::BinaryOp::Mod, I(1), I(0), err, K).has_value());
  EXPECT_EQ(FormatConst(ConstValue::MakeFloat(0.1)), "0.1");
  EXPECT_EQ(FormatConst(ConstValue::MakeFloat(2)), "2.0");
  EXPECT_EQ(FormatConst(ConstValue::MakeTuple({I(4)})), "(4,)");
}

TEST(SemaBuiltins, TableCoversLanguageOps) {
  const char* wp_ops[] = {"tile_zeros", "tile_ones", "tile_full", "tile_arange", "tile_load", "tile_store",
                          "tile_atomic_add", "tile_load_indexed", "tile_store_indexed",
                          "tile_atomic_add_indexed", "tile_map", "tile_sum", "tid", "atomic_add", "abs",
                          "min", "max", "sqrt", "exp", "log", "sin", "cos", "floor", "ceil", "pow", "clamp"};
  for (const char* op : wp_ops) {
    const Builtin* b = FindBuiltin("wp", op);
    ASSERT_NE(b, nullptr) << op;
    EXPECT_FALSE(std::string(b->doc).empty()) << op;
    EXPECT_EQ(b->tile_op, std::string(op).rfind("tile_", 0) == 0) << op;
  }
  for (const char* op : {"print", "range", "min", "max", "abs"}) EXPECT_NE(FindBuiltin("", op), nullptr) << op;
  for (const char* op : {"tile_add", "tile_sub", "tile_mul", "tile_div", "tile_neg", "tile_extract", "cast"})
    EXPECT_EQ(OperatorBuiltin(op).name, std::string(op));
  // Shape-taking builtins resolve a plain int and a tuple through separate rows.
  EXPECT_EQ(FindBuiltin("wp", "tile_load")->overloads.size(), 2u);
  EXPECT_EQ(FindBuiltin("wp", "tile_arange")->overloads.size(), 3u);
}

TEST(SemaSpec, BothSpecPagesCheckClean) {
  // The normative pages and the project's copies of them.
  std::vector<std::string> pages;
  for (const std::string dir : {std::string(TILEC_SHARED_DIR) + "/spec/", std::string(TILEC_SOURCE_DIR) + "/tests/spec_pages/"})
    for (const char* name : {"tile_load_indexed.rst", "tile_atomic_add_indexed.rst"})
      if (std::filesystem::exists(dir + name)) pages.push_back(dir + name);
  ASSERT_GE(pages.size(), 2u);
  for (const std::string& page : pages) {
    std::string code = TestCode(ReadFile(page));
    ASSERT_NE(code.find("@wp.kernel"), std::string::npos) << page;
    auto c = ParseAndCheck("import warp as wp\nimport numpy as np\n" + code);
    EXPECT_FALSE(c->diags.has_errors()) << page << "\n" << Rendered(c->diags);
    ASSERT_EQ(c->checked->kernels.size(), 1u);
    const FunctionInfo& k = c->checked->kernels[0];
    EXPECT_TRUE(k.tiled);
    bool promoted = false;
    for (const auto& l : k.locals) promoted |= l->name == "rows" && l->promoted_to_shared &&
                                               l->type->storage == Storage::Shared;
    EXPECT_TRUE(promoted) << page;
  }
}

TEST(SemaExamples, EveryExampleChecksClean) {
  int n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(TILEC_SOURCE_DIR) + "/examples")) {
    if (e.path().extension() != ".tile") continue;
    ++n;
    auto c = ParseAndCheck(ReadFile(e.path().string()), {}, e.path().string());
    EXPECT_FALSE(c->diags.has_errors()) << e.path() << "\n" << Rendered(c->diags);
    EXPECT_FALSE(c->checked->kernels.empty()) << e.path();
  }
  EXPECT_GE(n, 4);
}

TEST(SemaRecovery, ThreeKernelsThreeErrorsNoCascade) {
  auto c = ParseAndCheck(
      "import warp as wp\n"
      "@wp.kernel\ndef a(x: wp.array1d[float], n: int):\n"
      "    t = wp.tile_load(x, shape=n)\n"        // line 4: non-constant shape
      "    u = t * 2.0\n    wp.tile_store(x, u)\n"
      "@wp.kernel\ndef b(x: wp.array2d[float]):\n"
      "    t = wp.tile_load(x, shape=(2, 4), storage='global')\n"  // line 9: bad storage
      "    wp.tile_store(x, t + t)\n"
      "@wp.kernel\ndef c(x: wp.array1d[wp.int8]):\n"
      "    t = wp.tile_ones(4, dtype=wp.int8)\n"
      "    p = wp.tile_atomic_add(x, t)\n"  // line 14: unsupported dtype
      "    q = p + p\n");
  ASSERT_EQ(c->parse_errors, 0) << Rendered(c->diags);
  std::vector<int> lines;
  for (const diag::Diagnostic& d : c->diags.diagnostics())
    if (d.severity == diag::Severity::Error) lines.push_back(d.Where().line);
  EXPECT_EQ(lines, (std::vector<int>{4, 9, 14})) << Rendered(c->diags);
  EXPECT_EQ(c->checked->kernels.size(), 3u);
}

TEST(SemaUniformity, TileOpUnderLaneVaryingConditionIsRejected) {
  const std::string src =
      "import warp as wp\n"
      "@wp.kernel\ndef k(x: wp.array1d[float]):\n"
      "    lane = wp.lane_id()\n"
      "    if lane < 2:\n"
      "        t = wp.tile_load(x, shape=4)\n"
      "    if x[0] > 0.0:\n"
      "        u = wp.tile_load(x, shape=4)\n";
  CheckOptions opts;
  opts.enable_test_builtins = true;
  auto c = ParseAndCheck(src, opts);
  ASSERT_EQ(c->diags.error_count(), 1) << Rendered(c->diags);
  const diag::Diagnostic& d = c->diags.diagnostics()[0];
  EXPECT_EQ(d.code, diag::Code::NonUniformTileOp);
  EXPECT_EQ(d.Where().line, 6);
  EXPECT_NE(d.message.find("`lane < 2`"), std::string::npos) << d.message;
  ASSERT_FALSE(d.notes.empty());
  EXPECT_EQ(c->file->Locate(d.notes[0].range.begin).line, 5);
  // The uniform branch (an array element is block-uniform) is accepted; the variable is varying.
  const FunctionInfo& k = c->checked->kernels[0];
  for (const auto& l : k.locals) {
    if (l->name == "lane") {
      EXPECT_FALSE(l->uniform);
    }
  }
  // Without the option the builtin does not exist.
  auto plain = ParseAndCheck(src);
  ASSERT_GE(plain->diags.error_count(), 1);
  EXPECT_EQ(plain->diags.diagnostics()[0].code, diag::Code::UnknownAttribute);
}

TEST(SemaConstants, ExternalConstantsActAsModuleConstants) {
  const std::string src =
      "import warp as wp\n"
      "@wp.kernel\ndef k(x: wp.array1d[float]):\n"
      "    t = wp.tile_load(x, shape=N)\n";
  CheckOptions opts;
  opts.external_constants["N"] = ConstValue::MakeInt(16);
  auto c = ParseAndCheck(src, opts);
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  // The tile's type carries the external value.
  bool found = false;
  for (const auto& [e, info] : c->checked->expr_info)
    if (info.type->IsTile()) {
      EXPECT_EQ(info.type->shape, std::vector<int64_t>{16});
      found = true;
    }
  EXPECT_TRUE(found);
  auto missing = ParseAndCheck(src);
  EXPECT_EQ(missing->diags.error_count(), 1);
}

TEST(SemaCalls, ResolvedBuiltinAndDefaultsRecorded) {
  auto c = ParseAndCheck(
      "import warp as wp\n"
      "@wp.kernel\ndef k(x: wp.array2d[float]):\n"
      "    t = wp.tile_load(x, shape=(2, 4), storage='shared')\n");
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  const auto* assign = c->module->body[1]->As<ast::FunctionDef>()->body[0]->As<ast::Assign>();
  const CallInfo* call = c->checked->Call(assign->value.get());
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(std::string(call->builtin->name), "tile_load");
  ASSERT_EQ(call->const_args.size(), 6u);
  EXPECT_EQ(FormatConst(*call->const_args[2]), "(0, 0)");  // offset default, one per dimension
  EXPECT_EQ(FormatConst(*call->const_args[4]), "1");       // bounds_check=True
  EXPECT_EQ(FormatConst(*call->const_args[5]), "0");       // aligned=False
  EXPECT_EQ(call->args[2], nullptr);
  const Type* t = c->checked->TypeOf(assign->value.get());
  EXPECT_EQ(TypeName(t), "tile[float32, (2, 4), shared]");
  const LocalSymbol* sym = c->checked->Symbol(assign->targets[0].get());
  ASSERT_NE(sym, nullptr);
  EXPECT_EQ(sym->name, "t");
}

// The prelude is parsed one function at a time, on first use; cut wrongly, a function would lose
// its decorator or take its neighbour's body, and only programs calling it would notice.
TEST(SemaPrelude, CutIntoFunctionsAsParsedWhole) { EXPECT_EQ(CheckPreludeSplit(), ""); }

// Both float instances declare the same names. A `_helper` called by a float64 function is
// declared from the float64 instance only, and nothing of the prelude is declared unless named.
TEST(SemaPrelude, HelpersStayWithinTheirInstance) {
  auto c = ParseAndCheck(
      "import warp as wp\n"
      "@wp.kernel\ndef k(m: wp.array[wp.mat33d], out: wp.array[wp.quatd]):\n"
      "    i = wp.tid()\n"
      "    out[i] = wp.quat_from_matrix(m[i])\n");
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  std::map<std::string, std::set<int>> declared;
  for (const FunctionInfo& f : c->checked->funcs)
    if (f.is_prelude() && f.declared) declared[f.name].insert(f.prelude_instance);
  EXPECT_EQ(declared["quat_from_matrix"], (std::set<int>{0, 1}));  // the overload set: both
  EXPECT_EQ(declared["_quat_normalize"], (std::set<int>{1}));      // called from float64 only
  EXPECT_EQ(declared.count("quat_slerp"), 0u);
}

}  // namespace
}  // namespace tilec::sema
