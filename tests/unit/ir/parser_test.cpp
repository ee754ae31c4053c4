// The Tile IR text parser against the printer: everything the golden files print reads back
// to the same text and a verified module, hand-written IR covers every attribute kind, and
// malformed IR gives one diagnostic at the right place with the right code instead of a crash.
#include "ir/parser.h"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "ir/printer.h"
#include "ir/verifier.h"

namespace fs = std::filesystem;
using namespace tilec;

namespace {

struct Parsed {
  std::unique_ptr<ir::Module> module;
  diag::DiagnosticEngine diags;
  std::unique_ptr<SourceFile> file;
};

std::unique_ptr<Parsed> Parse(const std::string& text) {
  auto p = std::make_unique<Parsed>();
  p->file = std::make_unique<SourceFile>("t.tir", text);
  p->module = ir::ParseModule(p->file->text(), p->file.get(), p->diags);
  return p;
}

std::string Rendered(const diag::DiagnosticEngine& d) {
  std::ostringstream os;
  d.Render(os);
  return os.str();
}

std::string Verified(const ir::Module& m) {
  std::string all;
  for (const std::string& s : ir::Verify(m)) all += s + "\n";
  return all;
}

// --- round trip over the golden files: tilec prints, we parse and print again ---

struct Case {
  std::string file;  // relative to tests/golden
  std::string emit;  // tile-ir or grad-ir
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file << " --emit=" << c.emit; }

std::vector<Case> Cases() {
  std::vector<Case> out;
  for (const char* dir : {"tile_ir", "grad_ir"}) {
    for (const auto& e : fs::directory_iterator(fs::path(TILEC_GOLDEN_DIR) / dir)) {
      std::string name = e.path().filename().string();
      if (e.path().extension() != ".tile" || name.rfind("fail_", 0) == 0) continue;
      std::string rel = std::string(dir) + "/" + name;
      out.push_back({rel, "tile-ir"});
      if (std::string(dir) == "grad_ir") out.push_back({rel, "grad-ir"});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const Case& a, const Case& b) { return a.file + a.emit < b.file + b.emit; });
  return out;
}

std::string RunTilec(const std::string& args, int& status) {
  std::string cmd = std::string(TILEC_BINARY) + " " + args + " 2>/dev/null";
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int st = pclose(p);
  status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
  return out;
}

class RoundTrip : public ::testing::TestWithParam<Case> {};

TEST_P(RoundTrip, PrintParsePrintIsIdentical) {
  const Case& c = GetParam();
  int status = -1;
  std::string text = RunTilec(
      "compile --emit=" + c.emit + " '" + std::string(TILEC_GOLDEN_DIR) + "/" + c.file + "'", status);
  ASSERT_EQ(status, 0) << "tilec failed on " << c.file;
  ASSERT_FALSE(text.empty());
  if (c.emit == "grad-ir" && text.rfind("struct ", 0) != 0) {
    // --emit=grad-ir prints the adjoint kernels without the module's struct definitions
    // (compiler/pipeline.cpp, AdjointsToString); they are the forward module's, so take them
    // from --emit=tile-ir to make the text parseable on its own.
    std::string fwd =
        RunTilec("compile --emit=tile-ir '" + std::string(TILEC_GOLDEN_DIR) + "/" + c.file + "'", status);
    std::string structs;
    for (size_t at = 0; fwd.compare(at, 7, "struct ") == 0;) {
      size_t nl = fwd.find('\n', at);
      structs += fwd.substr(at, nl + 1 - at);
      at = nl + 1;
    }
    if (!structs.empty()) text = structs + "\n" + text;
  }
  auto p = Parse(text);
  ASSERT_TRUE(p->module) << Rendered(p->diags);
  EXPECT_EQ(p->diags.error_count(), 0);
  EXPECT_EQ(ir::ModuleToString(*p->module), text);
  EXPECT_EQ(Verified(*p->module), "");
  if (c.emit == "grad-ir") {
    for (auto& f : p->module->functions()) EXPECT_FALSE(f->adjoint_of.empty()) << f->name();
  }
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  std::string n = info.param.file.substr(0, info.param.file.size() - 5) + "_" + info.param.emit;
  for (char& ch : n)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Golden, RoundTrip, ::testing::ValuesIn(Cases()), CaseName);

// --- hand-written IR: the forms the frontend does not produce yet ---

// Every attribute kind, shared tiles, nested structs, float and unsigned literals.
const char* kAllForms = R"(struct V { x: float32 @0, y: float32 @4 } size 8 align 4
struct P { v: V @0, n: int64 @8, b: bool @16 } size 24 align 8

kernel @forms(%a: array2d<float32>, %s: array1d<P>, %u: uint64) tiled no_backward {
  %0 = const 0 : int32
  %1 = tile_load %a, %0, %0 : tile<float32, 2x4, shared>
  %2 = tile_reduce %1 {kind = max, axis = 1} : tile<float32, 2>
  %3 = tile_scan %1 {kind = mul, inclusive = true} : tile<float32, 2x4>
  %4 = tile_permute %3 {perm = [1, 0]} : tile<float32, 4x2>
  %5 = tile_reshape %4 : tile<float32, 8>
  %6 = tile_arange start 0.5 step -0.25 : tile<float32, 8>
  %7 = add %5, %6 : tile<float32, 8>
  %8 = tile_arange start 0 step 3 : tile<int32, 4>
  %9 = const 18446744073709551615 : uint64
  %10 = cmp ne %u, %9 : bool
  %11 = const nan : float64
  %12 = const -inf : float32
  %13 = const 1e+20 : float32
  %14 = const zero : P
  %15 = field_get %14 {field = 0} : V
  %16 = array_dim %a {dim = 1} : int32
  print "a \"quoted\"\n", %16, "\tand ", %10, ""
  print "no operands"
  %17 = tile_sum %7 : tile<float32, 1>
  %18 = tile_scan %8 {kind = bit_xor, inclusive = false} : tile<int32, 4>
  return
}
)";

TEST(ParseIr, EveryAttributeKindRoundTrips) {
  auto p = Parse(kAllForms);
  ASSERT_TRUE(p->module) << Rendered(p->diags);
  EXPECT_EQ(ir::ModuleToString(*p->module), kAllForms);
  const ir::Function& f = *p->module->functions()[0];
  EXPECT_TRUE(f.tiled);
  EXPECT_FALSE(f.enable_backward);
  const auto& ops = f.body()->ops();
  EXPECT_EQ(ops[2]->kind(), ir::ReduceKind::Max);
  EXPECT_EQ(ops[2]->axis(), 1);
  EXPECT_TRUE(ops[3]->inclusive());
  EXPECT_EQ(ops[20]->kind(), ir::ReduceKind::BitXor);
  EXPECT_FALSE(ops[20]->inclusive());
  EXPECT_EQ(ops[4]->perm(), (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(ops[6]->start().f, 0.5);
  EXPECT_EQ(ops[6]->step().f, -0.25);
  EXPECT_EQ(uint64_t(ops[9]->value().i), 18446744073709551615ull);
  EXPECT_EQ(ops[17]->texts(), (std::vector<std::string>{"a \"quoted\"\n", "\tand ", ""}));
  EXPECT_EQ(ops[1]->result()->type().storage, ir::Storage::Shared);
  EXPECT_EQ(p->module->structs()[1].fields[0].type.struct_index, 0);
  EXPECT_EQ(Verified(*p->module), "");
}

// `#` lines (a file test's RUN and CHECK lines) and `  # line:col` suffixes are comments; op
// locations point into the IR text.
TEST(ParseIr, CommentsAndLocationSuffixesAreSkipped) {
  std::string text =
      "# RUN: compile --input=tile-ir %s --emit=tile-ir\n"
      "kernel @k(%x: array1d<float32>) {\n"
      "  %0 = tid : int32  # 4:9\n"
      "# CHECK: anything\n"
      "  %1 = array_load %x, %0 : float32  # 5:9\n"
      "  array_store %x, %0, %1  # 5:5\n"
      "  return\n"
      "}\n";
  auto p = Parse(text);
  ASSERT_TRUE(p->module) << Rendered(p->diags);
  EXPECT_EQ(ir::ModuleToString(*p->module),
            "kernel @k(%x: array1d<float32>) {\n  %0 = tid : int32\n  %1 = array_load %x, %0 : float32\n"
            "  array_store %x, %0, %1\n  return\n}\n");
  const ir::Op& load = *p->module->functions()[0]->body()->ops()[1];
  LineCol lc = load.loc().file->Locate(load.loc().range.begin);
  EXPECT_EQ(lc.line, 5);
  EXPECT_EQ(lc.col, 3);
}

// The printer does not print Function::adjoint_of; the parser takes it from autodiff's name.
TEST(ParseIr, AdjointNameSetsAdjointOf) {
  auto p = Parse("kernel @k$adjoint(%x: array1d<float32>) {\n  return\n}\n");
  ASSERT_TRUE(p->module) << Rendered(p->diags);
  EXPECT_EQ(p->module->functions()[0]->adjoint_of, "k");
}

TEST(ParseIr, EmptyInputIsAnEmptyModule) {
  auto p = Parse("# nothing but comments\n\n");
  ASSERT_TRUE(p->module);
  EXPECT_TRUE(p->module->functions().empty());
}

// --- errors: one diagnostic, its code and position ---

struct ErrorCase {
  const char* name;
  const char* text;
  const char* code;
  int line, col;
  const char* message_part;
};

const ErrorCase kErrors[] = {
    {"unknown_op", "kernel @k() {\n  %0 = frobnicate : int32\n  return\n}\n", "E0901", 2, 8,
     "unknown op `frobnicate`"},
    {"unknown_type", "kernel @k(%x: array1d<float33>) {\n  return\n}\n", "E0902", 1, 23,
     "unknown element type `float33`"},
    {"undefined_value", "kernel @k() {\n  %0 = const 1 : int32\n  %1 = add %0, %7 : int32\n  return\n}\n",
     "E0903", 3, 16, "use of undefined value `%7`"},
    {"value_out_of_region",
     "kernel @k(%c: bool) {\n  if %c {\n    %0 = const 1 : int32\n    yield\n  } else {\n    yield\n  }\n"
     "  %1 = neg %0 : int32\n  return\n}\n",
     "E0903", 8, 12, "defined in a region that does not enclose this use"},
    {"redefinition", "kernel @k() {\n  %0 = const 1 : int32\n  %0 = const 2 : int32\n  return\n}\n", "E0904",
     3, 3, "value `%0` is defined twice"},
    {"missing_colon", "kernel @k() {\n  %0 = const 1 int32\n  return\n}\n", "E0900", 2, 16,
     "expected `:` before the result types, found `int32`"},
    {"missing_close", "kernel @k() {\n  return\n", "E0900", 3, 1,
     "expected `}` to close the region opened at 1:1"},
    {"bad_attr_name",
     "kernel @k(%a: array1d<float32>) {\n  %0 = array_dim %a {axis = 0} : int32\n  return\n}\n", "E0905", 2,
     22, "`array_dim` has no attribute `axis` (it has `dim`)"},
    {"missing_attr", "kernel @k(%a: array1d<float32>) {\n  %0 = array_dim %a : int32\n  return\n}\n", "E0900",
     2, 21, "expected `{` before the attributes of `array_dim`"},
    {"bad_reduce_kind",
     "kernel @k(%a: array1d<float32>) tiled {\n  %0 = const 0 : int32\n  %1 = tile_load %a, %0 : "
     "tile<float32, 8>\n"
     "  %2 = tile_reduce %1 {kind = avg, axis = 0} : tile<float32, 1>\n  return\n}\n",
     "E0905", 4, 31, "expected a reduction kind"},
    {"arity", "kernel @k() {\n  %0 = const 1 : int32\n  %1 = neg %0, %0 : int32\n  return\n}\n", "E0906", 3,
     8, "`neg` takes 1 operand, found 2"},
    {"bad_literal", "kernel @k() {\n  %0 = const 1.5 : int32\n  return\n}\n", "E0907", 2, 14,
     "invalid constant `1.5` for type `int32`"},
    {"struct_layout", "struct P { a: int8 @0, b: int32 @1 } size 8 align 4\n", "E0907", 1, 34,
     "field `b` of `P` is at offset 4, not 1"},
    {"operands_on_next_line", "kernel @k(%x: array1d<float32>) {\n  array_store\n  %x\n  return\n}\n",
     "E0900", 3, 5, "expected `=` after the results, found end of line"},
    {"unterminated_string", "kernel @k() {\n  print \"abc\n  return\n}\n", "E0900", 2, 9,
     "unterminated string literal"},
    {"top_level", "func @k() {\n}\n", "E0900", 1, 1,
     "expected `struct` or `kernel` at the top level, found `func`"},
};

void PrintTo(const ErrorCase& c, std::ostream* os) { *os << c.name; }

class ParseError : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(ParseError, ReportsCodeAndPosition) {
  const ErrorCase& c = GetParam();
  auto p = Parse(c.text);
  EXPECT_FALSE(p->module);
  ASSERT_EQ(p->diags.diagnostics().size(), 1u) << Rendered(p->diags);
  const diag::Diagnostic& d = p->diags.diagnostics()[0];
  EXPECT_STREQ(diag::Info(d.code).id, c.code) << Rendered(p->diags);
  EXPECT_EQ(d.Where().line, c.line) << Rendered(p->diags);
  EXPECT_EQ(d.Where().col, c.col) << Rendered(p->diags);
  EXPECT_NE(d.message.find(c.message_part), std::string::npos) << d.message;
}

INSTANTIATE_TEST_SUITE_P(Cases, ParseError, ::testing::ValuesIn(kErrors),
                         [](const ::testing::TestParamInfo<ErrorCase>& i) {
                           return std::string(i.param.name);
                         });

// Every prefix of a valid module is either valid or one clean diagnostic: never a crash.
TEST(ParseIr, EveryPrefixFailsCleanly) {
  std::string text(kAllForms);
  for (size_t n = 0; n < text.size(); ++n) {
    auto p = Parse(text.substr(0, n));
    if (!p->module) {
      EXPECT_EQ(p->diags.diagnostics().size(), 1u) << "prefix of " << n << " bytes";
    }
  }
}

}  // namespace
