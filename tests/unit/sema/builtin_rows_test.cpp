// The builtin table as rows: the v2 reductions and the transpose type and reject as their rows
// say, their rows carry the lowering and differentiability the later stages read, and their
// documentation pages (ours and Warp's) check clean.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/unit/sema/sema_test_util.h"

namespace tilec::sema {
namespace {

using testing::ParseAndCheck;

std::string Rendered(const diag::DiagnosticEngine& d) {
  std::ostringstream os;
  d.Render(os);
  return os.str();
}

// The type of `r` in the kernel's locals, as TypeName prints it.
std::string LocalType(const CheckedModule& m, const std::string& name) {
  for (const auto& l : m.kernels.at(0).locals)
    if (l->name == name) return TypeName(l->type);
  return "<none>";
}

std::string Kernel(const std::string& params, const std::string& body) {
  return "import warp as wp\n"
         "@wp.struct\nclass S:\n    x: float\n"
         "@wp.kernel\ndef k(" + params + "):\n" + body;
}

TEST(BuiltinRows, MaxMinGiveOneElementOfTheTilesDType) {
  for (const char* op : {"tile_max", "tile_min"}) {
    auto c = ParseAndCheck(Kernel("x: wp.array2d[float], y: wp.array[wp.int32]",
                                  "    t = wp.tile_load(x, shape=(2, 4))\n"
                                  "    r = wp." + std::string(op) + "(t)\n"
                                  "    u = wp.tile_load(y, shape=8, storage='shared')\n"
                                  "    q = wp." + std::string(op) + "(a=u)\n"));
    ASSERT_FALSE(c->diags.has_errors()) << op << "\n" << Rendered(c->diags);
    EXPECT_EQ(LocalType(*c->checked, "r"), "tile[float32, (1,), register]") << op;
    EXPECT_EQ(LocalType(*c->checked, "q"), "tile[int32, (1,), register]") << op;
    EXPECT_TRUE(c->checked->kernels[0].tiled) << op;
  }
}

TEST(BuiltinRows, TransposeSwapsTheShapeIntoARegisterTile) {
  auto c = ParseAndCheck(Kernel("x: wp.array2d[float]",
                                "    t = wp.tile_load(x, shape=(2, 3), storage='shared')\n"
                                "    r = wp.tile_transpose(t)\n"));
  ASSERT_FALSE(c->diags.has_errors()) << Rendered(c->diags);
  EXPECT_EQ(LocalType(*c->checked, "r"), "tile[float32, (3, 2), register]");
}

struct Reject {
  const char* what;
  std::string source;
  diag::Code code;
  const char* message_part;
};

TEST(BuiltinRows, RejectionsCarryTheirRulesCode) {
  const Reject cases[] = {
      {"transpose of a 1-D tile",
       Kernel("x: wp.array[float]", "    t = wp.tile_load(x, shape=4)\n    r = wp.tile_transpose(t)\n"),
       diag::Code::TransposeNeeds2DTile, "`wp.tile_transpose` needs a 2-D tile, but `t` is"},
      {"transpose of a 3-D tile",
       Kernel("x: wp.array3d[float]", "    t = wp.tile_load(x, shape=(2, 2, 2))\n    r = wp.tile_transpose(t)\n"),
       diag::Code::TransposeNeeds2DTile, "with 3 dimensions"},
      {"max of a struct tile",
       Kernel("x: wp.array[S]", "    t = wp.tile_load(x, shape=4)\n    r = wp.tile_max(t)\n"),
       diag::Code::StructTileUnsupported, "`wp.tile_max` is not defined for tiles of Warp struct `S`"},
      {"min of a struct tile",
       Kernel("x: wp.array[S]", "    t = wp.tile_load(x, shape=4)\n    r = wp.tile_min(t)\n"),
       diag::Code::StructTileUnsupported, "is not defined for tiles of Warp struct `S`"},
      {"max of a bool tile",
       Kernel("x: wp.array[bool]", "    t = wp.tile_load(x, shape=4)\n    r = wp.tile_max(t)\n"),
       diag::Code::TileOperatorUnsupported, "`wp.tile_max` needs a tile of a numeric element type, but `t` holds `bool`"},
      {"min of a bool tile", Kernel("x: wp.array[float]", "    r = wp.tile_min(wp.tile_ones(4, dtype=bool))\n"),
       diag::Code::TileOperatorUnsupported, "holds `bool`"},
      {"max of an array", Kernel("x: wp.array[float]", "    r = wp.tile_max(x)\n"),
       diag::Code::ArgumentTypeMismatch, "argument `a` of `wp.tile_max` must be a tile"},
      {"transpose with no argument", Kernel("x: wp.array[float]", "    r = wp.tile_transpose()\n"),
       diag::Code::MissingArgument, "missing required argument `a`"},
  };
  for (const Reject& r : cases) {
    auto c = ParseAndCheck(r.source);
    ASSERT_EQ(c->diags.error_count(), 1) << r.what << "\n" << Rendered(c->diags);
    const diag::Diagnostic& d = c->diags.diagnostics()[0];
    EXPECT_EQ(d.code, r.code) << r.what << "\n" << Rendered(c->diags);
    EXPECT_NE(d.message.find(r.message_part), std::string::npos) << r.what << ": " << d.message;
  }
}

TEST(BuiltinRows, NewRowsLowerToGenericOpsAndAreDifferentiable) {
  const Builtin* mx = FindBuiltin("wp", "tile_max");
  const Builtin* mn = FindBuiltin("wp", "tile_min");
  const Builtin* tr = FindBuiltin("wp", "tile_transpose");
  ASSERT_TRUE(mx && mn && tr);
  EXPECT_EQ(mx->lower.kind, LowerKind::TileReduce);
  EXPECT_EQ(mx->lower.reduce, ir::ReduceKind::Max);
  EXPECT_EQ(mn->lower.kind, LowerKind::TileReduce);
  EXPECT_EQ(mn->lower.reduce, ir::ReduceKind::Min);
  EXPECT_EQ(tr->lower.kind, LowerKind::TilePermute);
  EXPECT_EQ(tr->lower.perm, (std::vector<int64_t>{1, 0}));
  for (const Builtin* b : {mx, mn, tr}) {
    EXPECT_EQ(b->diff, FindBuiltin("wp", "tile_sum")->diff) << b->name;
    EXPECT_TRUE(b->tile_op) << b->name;
    EXPECT_TRUE(std::filesystem::exists(std::string(TILEC_SOURCE_DIR) + "/" + b->doc)) << b->doc;
  }
}

TEST(BuiltinRows, EveryRowHasAResultAndEveryCallableRowLowers) {
  // Building the table validates each rule's parameters; reaching here means it held.
  for (const Builtin& b : BuiltinTable()) {
    for (const Overload& o : b.overloads) {
      ASSERT_NE(o.result, nullptr) << b.name;
      for (const ParamSpec& p : o.params) EXPECT_STREQ(p.name, ParamName(p.id)) << b.name;
    }
    if (std::string(b.name) != "range") EXPECT_NE(b.lower.kind, LowerKind::None) << b.name;
  }
}

using testing::TestCode;

TEST(BuiltinRows, DocPagesCheckClean) {
  std::vector<std::string> pages;
  for (const char* name : {"tile_max", "tile_min", "tile_transpose"})
    pages.push_back(std::string(TILEC_SOURCE_DIR) + "/docs/" + name + ".rst");
  for (const char* name : {"tile_min", "tile_transpose"}) {
    std::string warp = std::string(TILEC_SHARED_DIR) + "/warp-docs/" + name + ".rst";
    if (std::filesystem::exists(warp)) pages.push_back(warp);
  }
  for (const std::string& page : pages) {
    std::ifstream in(page);
    std::string code = TestCode(std::string(std::istreambuf_iterator<char>(in), {}));
    ASSERT_NE(code.find("@wp.kernel"), std::string::npos) << page;
    auto c = ParseAndCheck("import warp as wp\nimport numpy as np\n" + code);
    EXPECT_FALSE(c->diags.has_errors()) << page << "\n" << Rendered(c->diags);
    ASSERT_EQ(c->checked->kernels.size(), 1u) << page;
    EXPECT_TRUE(c->checked->kernels[0].tiled) << page;
  }
}

}  // namespace
}  // namespace tilec::sema
