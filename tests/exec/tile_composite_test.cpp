// Tiles of vector and matrix elements (wp.vec3, wp.mat33, wp.vec3d): the six memory operations
// (component-wise atomics, -1 and out-of-range indices on both sides, repeated indices),
// reductions in the documented fold order per component, element reads, tile_map with Warp's
// vector builtins, prelude overloads and @wp.func, tile arithmetic, and reverse mode through
// indexed loads, maps and indexed atomic adds checked against central differences in float64.
// References are computed here, component by component, from LANGUAGE.md §5 and
// docs/semantics.md.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "ir/autodiff/autodiff.h"
#include "tests/exec/exec_util.h"
#include "tests/exec/source_util.h"

namespace tilec {
namespace {

using testing::CompileText;
using testing::Launch;
using testing::View;

// An element of N scalars, laid out as the kernel's struct (row-major components).
template <class S, int N>
struct Elem {
  S c[N];
};
using V3 = Elem<float, 3>;
using M33 = Elem<float, 9>;
using V3d = Elem<double, 3>;

template <class E>
constexpr int Comps() {
  return int(sizeof(E) / sizeof(E{}.c[0]));
}

// Small integers (exact in any order of addition), distinct per element and component.
template <class E>
std::vector<E> Iota(int n, float base) {
  std::vector<E> v(static_cast<size_t>(n));
  for (int e = 0; e < n; ++e)
    for (int k = 0; k < Comps<E>(); ++k) v[size_t(e)].c[k] = base + float(e * Comps<E>() + k);
  return v;
}

template <class E>
bool Same(const E& a, const E& b) {
  for (int k = 0; k < Comps<E>(); ++k)
    if (!(a.c[k] == b.c[k])) return false;
  return true;
}

template <class E>
std::string Str(const E& a) {
  std::string s = "(";
  for (int k = 0; k < Comps<E>(); ++k) s += (k ? ", " : "") + std::to_string(a.c[k]);
  return s + ")";
}

// ---------------------------------------------------------------- plain memory operations

template <class E>
void CheckLoadStoreAtomic(const std::string& dtype) {
  // Two blocks of 8 over an 11-element array from offset -3: the first block starts below the
  // array, the second runs past its end.
  auto c = CompileText(testing::WithDType(R"(
@wp.kernel
def mem(a: wp.array(dtype={T}), b: wp.array(dtype={T}), acc: wp.array(dtype={T}), prev: wp.array(dtype={T}), got: wp.array(dtype={T})):
    i = wp.tid()
    t = wp.tile_load(a, shape=8, offset=i * 8 - 3)
    wp.tile_store(got, t, offset=i * 8)
    wp.tile_store(b, t, offset=i * 8 - 3)
    old = wp.tile_atomic_add(acc, t, offset=i * 8 - 3)
    wp.tile_store(prev, old, offset=i * 8)
)",
                                          dtype));
  ASSERT_TRUE(c.module);
  const int n = 11;
  std::vector<E> a = Iota<E>(n, 1.0f), b(n), acc = Iota<E>(n, 100.0f), prev(16), got(16);
  for (E& e : b)
    for (float& x : e.c) x = -7.0f;
  for (E& e : prev)
    for (float& x : e.c) x = -9.0f;
  std::vector<E> acc0 = acc;
  tilec_array va = View(a.data(), {n}), vb = View(b.data(), {n}), vacc = View(acc.data(), {n}),
              vprev = View(prev.data(), {16}), vgot = View(got.data(), {16});
  Launch(c.Entry("mem"), {&va, &vb, &vacc, &vprev, &vgot}, {2}, 8);
  for (int l = 0; l < 16; ++l) {
    int g = (l / 8) * 8 - 3 + l % 8;
    bool in = g >= 0 && g < n;
    E zero{};
    EXPECT_TRUE(Same(got[size_t(l)], in ? a[size_t(g)] : zero)) << "loaded element " << l << ": " << Str(got[size_t(l)]);
    EXPECT_TRUE(Same(prev[size_t(l)], in ? acc0[size_t(g)] : zero)) << "previous value " << l;
  }
  for (int g = 0; g < n; ++g) {
    EXPECT_TRUE(Same(b[size_t(g)], a[size_t(g)])) << "stored element " << g;
    E want = acc0[size_t(g)];
    for (int k = 0; k < Comps<E>(); ++k) want.c[k] += a[size_t(g)].c[k];
    EXPECT_TRUE(Same(acc[size_t(g)], want)) << "added element " << g << ": " << Str(acc[size_t(g)]);
  }
}

TEST(TileComposite, LoadStoreAtomicVec3) { CheckLoadStoreAtomic<V3>("wp.vec3"); }
TEST(TileComposite, LoadStoreAtomicMat33) { CheckLoadStoreAtomic<M33>("wp.mat33"); }

// A 2-D tile of vec3 from a 2-D array with runtime offsets on both sides.
TEST(TileComposite, LoadStore2D) {
  auto c = CompileText(R"(
@wp.kernel
def mem2(a: wp.array2d(dtype=wp.vec3), got: wp.array2d(dtype=wp.vec3), b: wp.array2d(dtype=wp.vec3), o0: int, o1: int):
    t = wp.tile_load(a, shape=(3, 4), offset=(o0, o1))
    wp.tile_store(got, t)
    wp.tile_store(b, t, offset=(o0, o1))
)");
  ASSERT_TRUE(c.module);
  std::vector<V3> a = Iota<V3>(4 * 5, 1.0f), got(12), b(20);
  tilec_array va = View(a.data(), {4, 5}), vg = View(got.data(), {3, 4}), vb = View(b.data(), {4, 5});
  int32_t o0 = -1, o1 = 2;
  Launch(c.Entry("mem2"), {&va, &vg, &vb, &o0, &o1}, {1}, 8);
  for (int r = 0; r < 3; ++r)
    for (int q = 0; q < 4; ++q) {
      int gr = o0 + r, gc = o1 + q;
      bool in = gr >= 0 && gr < 4 && gc >= 0 && gc < 5;
      V3 want = in ? a[size_t(gr * 5 + gc)] : V3{};
      EXPECT_TRUE(Same(got[size_t(r * 4 + q)], want)) << r << "," << q;
      if (in) EXPECT_TRUE(Same(b[size_t(gr * 5 + gc)], want)) << r << "," << q;
    }
}

// ---------------------------------------------------------------- indexed operations

struct IndexedCase {
  std::string name;
  int axis;
  std::vector<int32_t> idx;  // tile extent along `axis`
  int32_t o0, o1;
};

// Array (5, 4); tile (5, 4); a gather, a scatter and a scatter-add along `axis` through `idx`.
template <class E>
void CheckIndexed(const std::string& dtype, const IndexedCase& k) {
  const int ar = 5, ac = 4, tr = k.axis == 0 ? int(k.idx.size()) : 5, tc = k.axis == 1 ? int(k.idx.size()) : 4;
  std::string shape = "(" + std::to_string(tr) + ", " + std::to_string(tc) + ")";
  auto c = CompileText(testing::WithDType(R"(
@wp.kernel
def ix(a: wp.array2d(dtype={T}), idx: wp.array(dtype=int), got: wp.array2d(dtype={T}), b: wp.array2d(dtype={T}), acc: wp.array2d(dtype={T}), prev: wp.array2d(dtype={T}), o0: int, o1: int):
    ind = wp.tile_load(idx, shape=)" + std::to_string(k.idx.size()) + R"()
    t = wp.tile_load_indexed(a, indices=ind, shape=)" + shape + R"(, offset=(o0, o1), axis=)" +
                                              std::to_string(k.axis) + R"()
    wp.tile_store(got, t)
    wp.tile_store_indexed(b, indices=ind, t=t, offset=(o0, o1), axis=)" + std::to_string(k.axis) + R"()
    old = wp.tile_atomic_add_indexed(acc, indices=ind, t=t, offset=(o0, o1), axis=)" +
                                              std::to_string(k.axis) + R"()
    wp.tile_store(prev, old)
)",
                                          dtype));
  ASSERT_TRUE(c.module);
  std::vector<E> a = Iota<E>(ar * ac, 1.0f), got(size_t(tr * tc)), b(size_t(ar * ac)), acc = Iota<E>(ar * ac, 200.0f),
                 prev(size_t(tr * tc));
  for (E& e : b)
    for (auto& x : e.c) x = -7.0f;
  const std::vector<E> acc0 = acc, b0 = b;
  std::vector<int32_t> idx = k.idx;
  tilec_array va = View(a.data(), {ar, ac}), vi = View(idx.data(), {int64_t(idx.size())}),
              vg = View(got.data(), {tr, tc}), vb = View(b.data(), {ar, ac}), vacc = View(acc.data(), {ar, ac}),
              vp = View(prev.data(), {tr, tc});
  int32_t o0 = k.o0, o1 = k.o1;
  Launch(c.Entry("ix"), {&va, &vi, &vg, &vb, &vacc, &vp, &o0, &o1}, {1}, 8);
  // The global element of tile element (r, q), or -1 when it is skipped (-1 index or outside).
  auto global = [&](int r, int q) {
    int gr = o0 + (k.axis == 0 ? idx[size_t(r)] : r), gc = o1 + (k.axis == 1 ? idx[size_t(q)] : q);
    if ((k.axis == 0 && idx[size_t(r)] == -1) || (k.axis == 1 && idx[size_t(q)] == -1)) return -1;
    return gr >= 0 && gr < ar && gc >= 0 && gc < ac ? gr * ac + gc : -1;
  };
  std::vector<E> want_b = b0, want_acc = acc0;
  std::map<int, std::vector<int>> by_dest;  // destination -> tile elements, row-major
  for (int r = 0; r < tr; ++r)
    for (int q = 0; q < tc; ++q) {
      int l = r * tc + q, g = global(r, q);
      E want = g >= 0 ? a[size_t(g)] : E{};
      EXPECT_TRUE(Same(got[size_t(l)], want)) << "gathered " << r << "," << q << ": " << Str(got[size_t(l)]);
      if (g < 0) {
        EXPECT_TRUE(Same(prev[size_t(l)], E{})) << "skipped add " << r << "," << q;
        continue;
      }
      want_b[size_t(g)] = want;  // the last in row-major order wins
      for (int m = 0; m < Comps<E>(); ++m) want_acc[size_t(g)].c[m] += want.c[m];
      by_dest[g].push_back(l);
    }
  for (int g = 0; g < ar * ac; ++g) {
    EXPECT_TRUE(Same(b[size_t(g)], want_b[size_t(g)])) << "scattered " << g << ": " << Str(b[size_t(g)]);
    EXPECT_TRUE(Same(acc[size_t(g)], want_acc[size_t(g)])) << "scatter-added " << g << ": " << Str(acc[size_t(g)]);
  }
  // Per component, the previous values are those of some order of the updates (each
  // component is its own atomic, so the orders may differ between components).
  for (auto& [g, elems] : by_dest)
    for (int m = 0; m < Comps<E>(); ++m) {
      std::vector<std::pair<float, float>> contributions;
      for (int l : elems) contributions.push_back({prev[size_t(l)].c[m], got[size_t(l)].c[m]});
      EXPECT_TRUE(testing::SomeOrderExplains(acc0[size_t(g)].c[m], contributions,
                                             [](float x, float y) { return x + y; }, acc[size_t(g)].c[m]))
          << "destination " << g << " component " << m;
    }
}

std::vector<IndexedCase> IndexedCases() {
  return {
      // -1, past the end, repeats; column 4 is past the end for the last tile column.
      {"axis0", 0, {3, -1, 5, 0, 3}, 0, 1},
      // Row -1 is below the array (o0 = -1), a -1 sentinel, repeats, and index 4 past the end.
      {"axis1", 1, {2, -1, 4, 2}, -1, 0},
      {"axis0_offset", 0, {1, 2, -2}, 2, 0},  // 2 + -2 = 0 is inside; 2 + 2 = 4 inside
  };
}

class TileCompositeIndexed : public ::testing::TestWithParam<IndexedCase> {};
TEST_P(TileCompositeIndexed, Vec3) { CheckIndexed<V3>("wp.vec3", GetParam()); }
TEST_P(TileCompositeIndexed, Mat33) { CheckIndexed<M33>("wp.mat33", GetParam()); }
INSTANTIATE_TEST_SUITE_P(Cases, TileCompositeIndexed, ::testing::ValuesIn(IndexedCases()),
                         [](const ::testing::TestParamInfo<IndexedCase>& i) { return i.param.name; });

// ---------------------------------------------------------------- reductions and reads

float Sum(const std::vector<float>& v) {
  return 0.0f + testing::FoldInDocumentedOrder(v, -0.0f, [](float x, float y) { return x + y; });
}

TEST(TileComposite, ReductionsAndExtract) {
  auto c = CompileText(R"(
@wp.kernel
def red(a: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), i: int):
    t = wp.tile_load(a, shape=45)
    wp.tile_store(out, wp.tile_sum(t), offset=0)
    wp.tile_store(out, wp.tile_reduce(wp.add, t), offset=1)
    wp.tile_store(out, wp.tile_reduce(wp.max, t), offset=2)
    wp.tile_store(out, wp.tile_reduce(wp.min, t), offset=3)
    out[4] = t[i]
    out[5] = wp.tile_extract(t, 44)
    out[6] = t[-1]
)");
  ASSERT_TRUE(c.module);
  const int n = 45;
  std::vector<V3> a(n), out(7);
  // Values whose float sums depend on the order of addition.
  for (int e = 0; e < n; ++e)
    for (int k = 0; k < 3; ++k) a[size_t(e)].c[k] = float(std::sin(0.7 * e + 1.3 * k)) * (1.0f + 1000.0f * float(e % 7 == k));
  tilec_array va = View(a.data(), {n}), vo = View(out.data(), {7});
  int32_t i = 17;
  Launch(c.Entry("red"), {&va, &vo, &i}, {1}, 8);
  for (int k = 0; k < 3; ++k) {
    std::vector<float> col;
    for (const V3& e : a) col.push_back(e.c[k]);
    float s = Sum(col);
    EXPECT_EQ(out[0].c[k], s) << "tile_sum component " << k;
    EXPECT_EQ(out[1].c[k], testing::FoldInDocumentedOrder(col, -0.0f, [](float x, float y) { return x + y; }))
        << "tile_reduce(add) component " << k;
    EXPECT_EQ(out[2].c[k], *std::max_element(col.begin(), col.end())) << "max component " << k;
    EXPECT_EQ(out[3].c[k], *std::min_element(col.begin(), col.end())) << "min component " << k;
  }
  EXPECT_TRUE(Same(out[4], a[17]));
  EXPECT_TRUE(Same(out[5], a[44]));
  EXPECT_TRUE(Same(out[6], a[44]));
}

// Tiles of 8- and 16-byte composites (vec4, quat, mat22, vec2d) move through global memory
// as single vector accesses on GPUs when the element is aligned to its size, and component by
// component when not: both paths must give the same elements. The arrays here start at an
// aligned address and at one 4-byte past it. The PTX must contain the vector accesses.
TEST(TileComposite, VectorAccessesAlignedAndNot) {
  const char* src = R"(
@wp.kernel
def cp(a: wp.array(dtype=wp.vec4), b: wp.array(dtype=wp.vec4), m: wp.array(dtype=wp.mat22), n: wp.array(dtype=wp.mat22),
       d: wp.array(dtype=wp.vec2d), e: wp.array(dtype=wp.vec2d)):
    t = wp.tile_load(a, shape=9)
    wp.tile_store(b, t * 2.0)
    wp.tile_store(n, wp.tile_load(m, shape=9))
    wp.tile_store(e, wp.tile_load(d, shape=9) + wp.tile_load(d, shape=9))
)";
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  for (int shift : {0, 1}) {
    // float buffers with 4 spare floats; `shift` floats in, the elements lose their alignment.
    std::vector<float> fa(40), fb(40, -1.0f), fm(40), fn(40, -1.0f);
    std::vector<double> da(20), db(20, -1.0);
    for (int i = 0; i < 40; ++i) fa[size_t(i)] = fm[size_t(i)] = 0.25f * float(i) - 3.0f;
    for (int i = 0; i < 20; ++i) da[size_t(i)] = 0.5 * double(i) - 1.75;
    using V4 = Elem<float, 4>;
    using V2d = Elem<double, 2>;
    auto* a = reinterpret_cast<V4*>(fa.data() + shift);
    auto* b = reinterpret_cast<V4*>(fb.data() + shift);
    auto* m = reinterpret_cast<V4*>(fm.data() + shift);
    auto* n = reinterpret_cast<V4*>(fn.data() + shift);
    auto* d = reinterpret_cast<V2d*>(da.data() + shift);
    auto* e = reinterpret_cast<V2d*>(db.data() + shift);
    tilec_array va = View(a, {9}), vb = View(b, {9}), vm = View(m, {9}), vn = View(n, {9}), vd = View(d, {9}),
                ve = View(e, {9});
    Launch(c.Entry("cp"), {&va, &vb, &vm, &vn, &vd, &ve}, {1}, 4);
    for (int i = 0; i < 36; ++i) {
      EXPECT_EQ(fb[size_t(shift + i)], 2.0f * fa[size_t(shift + i)]) << "vec4 shift " << shift << " " << i;
      EXPECT_EQ(fn[size_t(shift + i)], fm[size_t(shift + i)]) << "mat22 shift " << shift << " " << i;
    }
    for (int i = 0; i < 18; ++i) EXPECT_EQ(db[size_t(shift + i)], 2.0 * da[size_t(shift + i)]) << "vec2d " << i;
  }
  diag::DiagnosticEngine diags;
  compiler::InternalError ice;
  auto gpu = compiler::CompileSourcePtx(SourceFile("v.tile", std::string("import warp as wp\n") + src), diags, {},
                                        "sm_90", 64, ice);
  ASSERT_TRUE(gpu && !gpu->signature.kernels.empty()) << ice.message;
  const std::string& ptx = gpu->signature.kernels[0].ptx;
  EXPECT_NE(ptx.find("ld.global.v4.f32"), std::string::npos);
  EXPECT_NE(ptx.find("st.global.v4.f32"), std::string::npos);
  EXPECT_NE(ptx.find("ld.global.v2.f64"), std::string::npos);
  EXPECT_NE(ptx.find("st.global.v2.f64"), std::string::npos);
}

// tile_min and tile_max of vectors: the component-wise extrema, as tile_reduce(wp.min/max).
TEST(TileComposite, MinAndMaxOfVectorTiles) {
  auto c = CompileText(R"(
@wp.kernel
def mm(a: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    t = wp.tile_load(a, shape=13)
    wp.tile_store(out, wp.tile_min(t), offset=0)
    wp.tile_store(out, wp.tile_max(t), offset=1)
)");
  ASSERT_TRUE(c.module);
  const int n = 13;
  std::vector<V3> a(n), out(2);
  for (int e = 0; e < n; ++e)
    for (int k = 0; k < 3; ++k) a[size_t(e)].c[k] = float(std::cos(1.9 * e + 0.6 * k)) * float(k + 1);
  tilec_array va = View(a.data(), {n}), vo = View(out.data(), {2});
  Launch(c.Entry("mm"), {&va, &vo}, {1}, 4);
  for (int k = 0; k < 3; ++k) {
    float lo = a[0].c[k], hi = a[0].c[k];
    for (const V3& e : a) {
      lo = std::min(lo, e.c[k]);
      hi = std::max(hi, e.c[k]);
    }
    EXPECT_EQ(out[0].c[k], lo) << k;
    EXPECT_EQ(out[1].c[k], hi) << k;
  }
}

// tile_sort carries vector values with float keys (Warp allows any value type), and t[idx]
// gathers vector rows; both compile with their adjoints (enable_backward is on).
TEST(TileComposite, SortVectorValuesAndGatherVectorRows) {
  auto c = CompileText(R"(
@wp.kernel
def sv(k: wp.array(dtype=float), a: wp.array(dtype=wp.vec3), idx: wp.array(dtype=int), ks: wp.array(dtype=float),
       vs: wp.array(dtype=wp.vec3), g: wp.array(dtype=wp.vec3)):
    kt = wp.tile_load(k, shape=11)
    vt = wp.tile_load(a, shape=11)
    wp.tile_sort(kt, vt)
    wp.tile_store(ks, kt)
    wp.tile_store(vs, vt)
    i = wp.tile_load(idx, shape=6)
    wp.tile_store(g, wp.tile_load(a, shape=11)[i])
)");
  ASSERT_TRUE(c.module);
  const int n = 11;
  std::vector<float> k = {3.5f, -1.0f, 7.25f, 0.0f, 2.0f, -8.5f, 4.0f, 1.5f, 6.0f, -2.25f, 5.0f}, ks(n);
  std::vector<V3> a(n), vs(n), g(6);
  for (int e = 0; e < n; ++e)
    for (int q = 0; q < 3; ++q) a[size_t(e)].c[q] = float(e * 10 + q);
  std::vector<int32_t> idx = {10, 0, -1, 3, 42, 3};
  tilec_array kv = View(k.data(), {n}), av = View(a.data(), {n}), iv = View(idx.data(), {6}), ksv = View(ks.data(), {n}),
              vsv = View(vs.data(), {n}), gv = View(g.data(), {6});
  Launch(c.Entry("sv"), {&kv, &av, &iv, &ksv, &vsv, &gv}, {1}, 4);
  std::vector<int> order(n);
  for (int e = 0; e < n; ++e) order[size_t(e)] = e;
  std::stable_sort(order.begin(), order.end(), [&](int x, int y) { return k[size_t(x)] < k[size_t(y)]; });
  for (int e = 0; e < n; ++e) {
    EXPECT_EQ(ks[size_t(e)], k[size_t(order[size_t(e)])]) << e;
    EXPECT_TRUE(Same(vs[size_t(e)], a[size_t(order[size_t(e)])])) << e;
  }
  // -1 wraps to the last row; an index out of range reads zeros.
  const int want[6] = {10, 0, 10, 3, -1, 3};
  for (int r = 0; r < 6; ++r) {
    V3 z{};
    EXPECT_TRUE(Same(g[size_t(r)], want[r] < 0 ? z : a[size_t(want[r])])) << "row " << r;
  }
}

TEST(TileComposite, AxisReductions2D) {
  auto c = CompileText(R"(
@wp.kernel
def red2(a: wp.array2d(dtype=wp.vec3), rows: wp.array(dtype=wp.vec3), cols: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33), ms: wp.array(dtype=wp.mat33), one: wp.array(dtype=wp.vec3)):
    t = wp.tile_load(a, shape=(4, 6))
    wp.tile_store(cols, wp.tile_sum(t, axis=0))
    wp.tile_store(rows, wp.tile_reduce(wp.add, t, axis=1))
    wp.tile_store(ms, wp.tile_sum(wp.tile_load(m, shape=5)))
    one[0] = t[2, 3] + wp.tile_sum(t)[0]
)");
  ASSERT_TRUE(c.module);
  std::vector<V3> a(24), rows(4), cols(6), one(1);
  for (int e = 0; e < 24; ++e)
    for (int k = 0; k < 3; ++k) a[size_t(e)].c[k] = float(std::cos(0.37 * e - 0.9 * k)) * float(1 + 100 * (e % 5));
  std::vector<M33> m = Iota<M33>(5, 0.25f), ms(1);
  tilec_array va = View(a.data(), {4, 6}), vr = View(rows.data(), {4}), vc = View(cols.data(), {6}),
              vm = View(m.data(), {5}), vms = View(ms.data(), {1}), v1 = View(one.data(), {1});
  Launch(c.Entry("red2"), {&va, &vr, &vc, &vm, &vms, &v1}, {1}, 8);
  auto fold = [](const std::vector<float>& v) {
    return testing::FoldInDocumentedOrder(v, -0.0f, [](float x, float y) { return x + y; });
  };
  for (int k = 0; k < 3; ++k) {
    for (int q = 0; q < 6; ++q) {
      std::vector<float> v;
      for (int r = 0; r < 4; ++r) v.push_back(a[size_t(r * 6 + q)].c[k]);
      EXPECT_EQ(cols[size_t(q)].c[k], fold(v)) << "axis 0, column " << q << " component " << k;
    }
    for (int r = 0; r < 4; ++r) {
      std::vector<float> v;
      for (int q = 0; q < 6; ++q) v.push_back(a[size_t(r * 6 + q)].c[k]);
      EXPECT_EQ(rows[size_t(r)].c[k], fold(v)) << "axis 1, row " << r << " component " << k;
    }
    std::vector<float> all;
    for (const V3& e : a) all.push_back(e.c[k]);
    EXPECT_EQ(one[0].c[k], a[2 * 6 + 3].c[k] + Sum(all)) << "component " << k;
  }
  for (int k = 0; k < 9; ++k) {
    std::vector<float> v;
    for (const M33& e : m) v.push_back(e.c[k]);
    EXPECT_EQ(ms[0].c[k], Sum(v)) << "mat33 component " << k;
  }
}

// ---------------------------------------------------------------- maps and arithmetic

TEST(TileComposite, MapsAndArithmetic) {
  auto c = CompileText(R"(
@wp.func
def blend(x: wp.vec3, y: wp.vec3) -> wp.vec3:
    return x * 2.0 - y

@wp.func
def spread(x: wp.vec3) -> float:
    return wp.max(x.x, wp.max(x.y, x.z)) - wp.min(x.x, wp.min(x.y, x.z))

@wp.kernel
def maps(a: wp.array(dtype=wp.vec3), b: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat33), vs: wp.array2d(dtype=wp.vec3), fs: wp.array2d(dtype=float)):
    t = wp.tile_load(a, shape=12)
    u = wp.tile_load(b, shape=12)
    mt = wp.tile_load(m, shape=12)
    wp.tile_store(fs[0], wp.tile_map(wp.length, t))
    wp.tile_store(fs[1], wp.tile_map(wp.dot, t, u))
    wp.tile_store(fs[2], wp.tile_map(wp.length_sq, u))
    wp.tile_store(fs[3], wp.tile_map(spread, t))
    wp.tile_store(vs[0], wp.tile_map(wp.normalize, t))
    wp.tile_store(vs[1], wp.tile_map(wp.add, t, u))
    wp.tile_store(vs[2], wp.tile_map(wp.cross, t, u))
    wp.tile_store(vs[3], wp.tile_map(blend, t, u))
    wp.tile_store(vs[4], t + u)
    wp.tile_store(vs[5], t - u)
    wp.tile_store(vs[6], t * 2.0)
    wp.tile_store(vs[7], 0.5 * t)
    wp.tile_store(vs[8], t / 4.0)
    wp.tile_store(vs[9], -t)
    wp.tile_store(vs[10], wp.tile_map(wp.mul, mt, t))
    wp.tile_store(vs[11], wp.tile_map(wp.sub, t, u))
    v = t
    v += u
    wp.tile_store(vs[12], v)
)");
  ASSERT_TRUE(c.module);
  const int n = 12;
  std::vector<V3> a(n), b(n), vs(13 * n);
  std::vector<M33> m(n);
  for (int e = 0; e < n; ++e)
    for (int k = 0; k < 3; ++k) {
      a[size_t(e)].c[k] = float(std::sin(1.1 * e + k)) * 3.0f;
      b[size_t(e)].c[k] = float(std::cos(0.6 * e - 2 * k));
    }
  a[5] = V3{{0.0f, 0.0f, 0.0f}};  // normalize of the zero vector is zero
  for (int e = 0; e < n; ++e)
    for (int k = 0; k < 9; ++k) m[size_t(e)].c[k] = float((e + 2 * k) % 5) - 2.0f;
  std::vector<float> fs(4 * n);
  tilec_array va = View(a.data(), {n}), vb = View(b.data(), {n}), vm = View(m.data(), {n}),
              vv = View(vs.data(), {13, n}), vf = View(fs.data(), {4, n});
  Launch(c.Entry("maps"), {&va, &vb, &vm, &vv, &vf}, {1}, 8);
  auto near = [](float got, float want) { return std::abs(got - want) <= 1e-5f * (1.0f + std::abs(want)); };
  for (int e = 0; e < n; ++e) {
    const float* x = a[size_t(e)].c;
    const float* y = b[size_t(e)].c;
    float len = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    float dot = x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    float lsq = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
    float spread = std::max(x[0], std::max(x[1], x[2])) - std::min(x[0], std::min(x[1], x[2]));
    EXPECT_TRUE(near(fs[size_t(0 * n + e)], len)) << "length " << e;
    EXPECT_TRUE(near(fs[size_t(1 * n + e)], dot)) << "dot " << e;
    EXPECT_TRUE(near(fs[size_t(2 * n + e)], lsq)) << "length_sq " << e;
    EXPECT_TRUE(near(fs[size_t(3 * n + e)], spread)) << "@wp.func to float " << e;
    float cross[3] = {x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]};
    for (int k = 0; k < 3; ++k) {
      const float* mr = m[size_t(e)].c + 3 * k;
      float want[13] = {len > 0 ? x[k] / len : 0.0f,
                        x[k] + y[k],
                        cross[k],
                        x[k] * 2.0f - y[k],
                        x[k] + y[k],
                        x[k] - y[k],
                        x[k] * 2.0f,
                        0.5f * x[k],
                        x[k] / 4.0f,
                        -x[k],
                        mr[0] * x[0] + mr[1] * x[1] + mr[2] * x[2],
                        x[k] - y[k],
                        x[k] + y[k]};
      for (int r = 0; r < 13; ++r)
        EXPECT_TRUE(near(vs[size_t(r * n + e)].c[k], want[r]))
            << "row " << r << " element " << e << " component " << k << ": " << vs[size_t(r * n + e)].c[k]
            << " vs " << want[r];
    }
  }
}

// A scalar element meeting a vector or matrix (Warp's tile_mul and tile_div): a float tile
// times or over a vector value or vector tile, a vector value over a float tile, a scalar
// over a vector tile (component by component), matrices likewise; tile_dot contracting
// vectors and matrices fully and tile_axpy on a vector tile.
TEST(TileComposite, ScalarElementsMeetVectorsAndMatrices) {
  auto c = CompileText(R"(
@wp.kernel
def mixed(f: wp.array(dtype=float), a: wp.array(dtype=wp.vec3), m: wp.array(dtype=wp.mat22), vs: wp.array2d(dtype=wp.vec3), ms: wp.array2d(dtype=wp.mat22), dots: wp.array(dtype=float)):
    s = wp.tile_load(f, shape=10)
    t = wp.tile_load(a, shape=10)
    mt = wp.tile_load(m, shape=10, storage="shared")
    wp.tile_store(vs[0], s * wp.vec3(1.0, 2.0, 3.0))
    wp.tile_store(vs[1], wp.vec3(1.0, 2.0, 3.0) * s)
    wp.tile_store(vs[2], s / wp.vec3(1.0, 2.0, 4.0))
    wp.tile_store(vs[3], wp.vec3(8.0, 16.0, 32.0) / s)
    wp.tile_store(vs[4], 2.0 / t)
    wp.tile_store(vs[5], s * t)
    wp.tile_store(vs[6], t * s)
    wp.tile_store(vs[7], t / s)
    wp.tile_store(vs[8], s / t)
    acc = wp.tile_load(a, shape=10, storage="shared")
    wp.tile_axpy(-2.0, t * s, acc)
    wp.tile_store(vs[9], acc)
    wp.tile_store(ms[0], s * wp.mat22(1.0, 2.0, 4.0, 8.0))
    wp.tile_store(ms[1], wp.mat22(1.0, 2.0, 4.0, 8.0) / s)
    wp.tile_store(ms[2], s / wp.mat22(1.0, 2.0, 4.0, 8.0))
    wp.tile_store(ms[3], mt * s)
    wp.tile_store(ms[4], 3.0 / mt)
    wp.tile_store(dots, wp.tile_dot(t, t), offset=0)
    wp.tile_store(dots, wp.tile_dot(mt, mt), offset=1)
    dots[2] = float(len(s) * 100 + len(wp.vec3(1.0, 2.0, 3.0)) * 10 + len(wp.mat22(1.0, 2.0, 4.0, 8.0)))
)");
  ASSERT_TRUE(c.module);
  const int n = 10;
  using M22 = Elem<float, 4>;
  std::vector<float> f(n), dots(3);
  std::vector<V3> a(n), vs(10 * n);
  std::vector<M22> m(n), ms(5 * n);
  for (int e = 0; e < n; ++e) {
    f[size_t(e)] = 0.5f + 0.25f * float(e);
    for (int k = 0; k < 3; ++k) a[size_t(e)].c[k] = 1.0f + float((e * 3 + k) % 7);
    for (int k = 0; k < 4; ++k) m[size_t(e)].c[k] = 0.5f * float(1 + (e + k) % 5);
  }
  tilec_array vf = View(f.data(), {n}), va = View(a.data(), {n}), vm = View(m.data(), {n}),
              vv = View(vs.data(), {10, n}), vms = View(ms.data(), {5, n}), vd = View(dots.data(), {3});
  Launch(c.Entry("mixed"), {&vf, &va, &vm, &vv, &vms, &vd}, {1}, 8);
  auto near = [](float got, float want) { return std::abs(got - want) <= 1e-5f * (1.0f + std::abs(want)); };
  const float u[3] = {1, 2, 3}, d[3] = {1, 2, 4}, w[3] = {8, 16, 32}, mc[4] = {1, 2, 4, 8};
  double dot_v = 0, dot_m = 0;
  for (int e = 0; e < n; ++e) {
    const float x = f[size_t(e)];
    const float* t = a[size_t(e)].c;
    for (int k = 0; k < 3; ++k) {
      dot_v += double(t[k]) * t[k];
      float want[10] = {x * u[k], u[k] * x,  x / d[k], w[k] / x,           2.0f / t[k],
                        x * t[k], t[k] * x, t[k] / x, x / t[k], t[k] - 2.0f * (t[k] * x)};
      for (int r = 0; r < 10; ++r)
        EXPECT_TRUE(near(vs[size_t(r * n + e)].c[k], want[r]))
            << "vector row " << r << " element " << e << " component " << k << ": " << vs[size_t(r * n + e)].c[k]
            << " vs " << want[r];
    }
    for (int k = 0; k < 4; ++k) {
      const float mk = m[size_t(e)].c[k];
      dot_m += double(mk) * mk;
      float want[5] = {x * mc[k], mc[k] / x, x / mc[k], mk * x, 3.0f / mk};
      for (int r = 0; r < 5; ++r)
        EXPECT_TRUE(near(ms[size_t(r * n + e)].c[k], want[r]))
            << "matrix row " << r << " element " << e << " component " << k << ": " << ms[size_t(r * n + e)].c[k]
            << " vs " << want[r];
    }
  }
  EXPECT_NEAR(dots[0], dot_v, 1e-6 * dot_v) << "tile_dot of vec3 tiles";
  EXPECT_NEAR(dots[1], dot_m, 1e-6 * dot_m) << "tile_dot of mat22 tiles";
  EXPECT_EQ(dots[2], 1032.0f) << "len of a tile, a vector and a matrix";
}

// A prelude overload (wp.quat_rotate over tiles of quaternions and vectors).
TEST(TileComposite, MapPreludeOverload) {
  auto c = CompileText(R"(
@wp.kernel
def rot(q: wp.array(dtype=wp.quat), a: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3), qo: wp.array(dtype=wp.quat)):
    qt = wp.tile_load(q, shape=5)
    t = wp.tile_load(a, shape=5)
    wp.tile_store(out, wp.tile_map(wp.quat_rotate, qt, t))
    wp.tile_store(qo, qt)

@wp.kernel
def rot3(q: wp.array(dtype=wp.quat), a: wp.array(dtype=wp.vec3), out: wp.array(dtype=wp.vec3)):
    wp.tile_store(out, wp.tile_map(wp.quat_rotate, wp.tile_load(q, shape=5), wp.tile_load(a, shape=5)))
)");
  // rot3 is the same map without the extra store: on Sapphire Rapids hosts LLVM 19's SLP
  // vectorizer (O3 for -mcpu=sapphirerapids) miscompiled its block-serial code (elements 1 and
  // 2 came out with their components rotated); codegen/host/optimize.cpp keeps SLP off for
  // modules that move struct values, and this checks it stays so.
  const bool check_rot3 = true;
  ASSERT_TRUE(c.module);
  std::vector<Elem<float, 4>> q(5), qo(5);
  std::vector<V3> a(5), out(5);
  for (int e = 0; e < 5; ++e) {
    // A unit quaternion about z by angle 0.3 e.
    float h = 0.15f * float(e);
    q[size_t(e)] = {{0.0f, 0.0f, std::sin(h), std::cos(h)}};
    a[size_t(e)] = {{1.0f + float(e), 2.0f, -1.0f}};
  }
  tilec_array vq = View(q.data(), {5}), va = View(a.data(), {5}), vo = View(out.data(), {5});
  tilec_array vqo = View(qo.data(), {5});
  Launch(c.Entry("rot"), {&vq, &va, &vo, &vqo}, {1}, 8);
  for (int e = 0; e < 5; ++e) EXPECT_TRUE(Same(qo[size_t(e)], q[size_t(e)])) << Str(qo[size_t(e)]) << " vs " << Str(q[size_t(e)]);
  std::vector<V3> out3(5);
  tilec_array vo3 = View(out3.data(), {5});
  if (!check_rot3) return;
  Launch(c.Entry("rot3"), {&vq, &va, &vo3}, {1}, 8);
  for (int e = 0; e < 5; ++e) EXPECT_TRUE(Same(out3[size_t(e)], out[size_t(e)])) << Str(out3[size_t(e)]);
  for (int e = 0; e < 5; ++e) {
    double th = 0.3 * e, x = a[size_t(e)].c[0], y = a[size_t(e)].c[1];
    EXPECT_NEAR(out[size_t(e)].c[0], std::cos(th) * x - std::sin(th) * y, 1e-5) << e;
    EXPECT_NEAR(out[size_t(e)].c[1], std::sin(th) * x + std::cos(th) * y, 1e-5) << e;
    EXPECT_NEAR(out[size_t(e)].c[2], -1.0, 1e-5) << e;
  }
}

// ---------------------------------------------------------------- gradients

// Runs `kernel` forward and its adjoint: arrays are float64 buffers of vec3d or float64 (flat),
// except `idx` (int32). The loss is sum(w * outputs); x's gradient from the adjoint is compared
// with central differences of the forward kernel.
struct GradArray {
  std::vector<double> d, g;
  std::vector<int64_t> shape;
  int comps = 1;
  tilec_array View() {
    tilec_array v{};
    int64_t es = int64_t(sizeof(double)) * comps;
    int nd = int(shape.size());
    int64_t stride = es;
    for (int k = TILEC_MAX_DIMS - 1; k >= 0; --k) {
      v.shape[k] = k < nd ? shape[size_t(k)] : 1;
      v.strides[k] = k < nd ? stride : 0;
      if (k < nd) stride *= shape[size_t(k)];
    }
    v.data = d.data();
    v.grad = g.data();
    return v;
  }
};

void CheckGrad(const std::string& src, const std::string& name, GradArray x, std::vector<int32_t> idx,
               std::vector<GradArray> outs) {
  auto c = CompileText(src);
  ASSERT_TRUE(c.module);
  void* fwd = c.Entry(name);
  void* adj = c.Entry(autodiff::AdjointName(name));
  ASSERT_NE(adj, nullptr) << "no adjoint entry";
  std::vector<std::vector<double>> w;
  for (size_t o = 0; o < outs.size(); ++o) {
    std::vector<double> wo(outs[o].d.size());
    for (size_t k = 0; k < wo.size(); ++k) wo[k] = 0.3 + 0.17 * double((k * 7 + o * 3) % 11);
    w.push_back(wo);
  }
  std::vector<std::vector<double>> outs0;
  for (GradArray& o : outs) outs0.push_back(o.d);
  auto run = [&](void* entry, GradArray& xx, bool adjoint) {
    tilec_array vx = xx.View();
    tilec_array vi = View(idx.data(), {int64_t(idx.size())});
    std::vector<tilec_array> vo;
    for (GradArray& o : outs) vo.push_back(o.View());
    std::vector<void*> args = {&vx, &vi};
    for (tilec_array& v : vo) args.push_back(&v);
    if (adjoint)
      for (size_t k = 0; k < 2 + outs.size(); ++k) args.push_back(nullptr);
    Launch(entry, args, {1}, 8);
  };
  auto loss = [&](GradArray& xx) {
    for (size_t o = 0; o < outs.size(); ++o) outs[o].d = outs0[o];
    run(fwd, xx, false);
    double l = 0;
    for (size_t o = 0; o < outs.size(); ++o)
      for (size_t k = 0; k < outs[o].d.size(); ++k) l += w[o][k] * outs[o].d[k];
    return l;
  };
  // The adjoint: x.grad from zero, each output's grad seeded with its weights.
  GradArray xa = x;
  xa.g.assign(x.d.size(), 0.0);
  for (size_t o = 0; o < outs.size(); ++o) {
    outs[o].d = outs0[o];
    outs[o].g = w[o];
  }
  run(adj, xa, true);
  const double h = 1e-6;
  for (size_t k = 0; k < x.d.size(); ++k) {
    GradArray xp = x, xm = x;
    xp.d[k] += h;
    xm.d[k] -= h;
    xp.g.assign(x.d.size(), 0.0);
    xm.g.assign(x.d.size(), 0.0);
    double fd = (loss(xp) - loss(xm)) / (2 * h);
    EXPECT_NEAR(xa.g[k], fd, 1e-6 * (1 + std::abs(fd))) << "d loss / d x[" << k / 3 << "][" << k % 3 << "]";
  }
}

GradArray Vec3dInput(int n) {
  GradArray x;
  x.shape = {n};
  x.comps = 3;
  for (int k = 0; k < 3 * n; ++k) x.d.push_back(std::sin(0.9 * k + 0.4) * 2.0 + (k % 3 == 1 ? 0.5 : 0.0));
  x.g.assign(x.d.size(), 0.0);
  return x;
}

GradArray Zeros(int n, int comps) {
  GradArray o;
  o.shape = {n};
  o.comps = comps;
  o.d.assign(size_t(n * comps), 0.0);
  o.g.assign(o.d.size(), 0.0);
  return o;
}

TEST(TileCompositeGrad, GatherLengthScatterAdd) {
  // Indices with -1, out of range (5) and repeats: gathered from x, scattered into `out`.
  CheckGrad(R"(
@wp.kernel
def lens(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), out: wp.array(dtype=wp.float64)):
    ind = wp.tile_load(idx, shape=6)
    t = wp.tile_load_indexed(x, indices=ind, shape=6)
    l = wp.tile_map(wp.length, t)
    wp.tile_atomic_add_indexed(out, indices=ind, t=l)
)",
            "lens", Vec3dInput(5), {3, -1, 0, 3, 5, 1}, {Zeros(5, 1)});
}

TEST(TileCompositeGrad, GatherNormalizeScatterAddVec3) {
  CheckGrad(R"(
@wp.kernel
def vpath(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), y: wp.array(dtype=wp.vec3d), total: wp.array(dtype=wp.vec3d)):
    ind = wp.tile_load(idx, shape=6)
    t = wp.tile_load_indexed(x, indices=ind, shape=6)
    n = wp.tile_map(wp.normalize, t) * wp.float64(2.0) + t
    wp.tile_atomic_add_indexed(y, indices=ind, t=n)
    wp.tile_store(total, wp.tile_sum(wp.tile_map(wp.cross, n, t)))
)",
            "vpath", Vec3dInput(5), {4, 0, -1, 4, 7, 2}, {Zeros(5, 3), Zeros(1, 3)});
}

TEST(TileCompositeGrad, LoadMapStoreMat33) {
  GradArray x;
  x.shape = {4};
  x.comps = 3;
  for (int k = 0; k < 12; ++k) x.d.push_back(std::cos(0.7 * k) + 0.3);
  x.g.assign(12, 0.0);
  CheckGrad(R"(
@wp.kernel
def outer(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), m: wp.array(dtype=wp.mat33d)):
    t = wp.tile_load(x, shape=4)
    o = wp.tile_map(wp.outer, t, t)
    wp.tile_atomic_add(m, o - wp.tile_map(wp.transpose, o) * wp.float64(0.5))
)",
            "outer", x, {0}, {Zeros(4, 9)});
}

TEST(TileCompositeGrad, LanesReadVectorsIntoTileAndBack) {
  // Each lane reads a vector (several lanes the same one), wp.tile gathers them and wp.untile
  // gives them back: every lane's read passes its gradient back, summed where lanes share (the
  // adjoint of a lane's read of a vector was once added for one lane of the block only).
  CheckGrad(R"(
@wp.kernel
def lanes(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), y: wp.array(dtype=wp.vec3d)):
    i, l = wp.tid()
    t = wp.tile(x[l % 5] * wp.float64(2.0))
    u = wp.untile(t)
    if l < y.shape[0]:
        y[l] = u + x[(l + 1) % 5]
)",
            "lanes", Vec3dInput(5), {0}, {Zeros(8, 3)});
}

TEST(TileCompositeGrad, ScalarTilesTimesAndOverVectors) {
  // A float64 tile (the lengths) meets vector values and the vector tile itself on both sides
  // of `*` and `/`; every path's adjoint reaches x.
  CheckGrad(R"(
@wp.kernel
def mixed(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), y: wp.array(dtype=wp.vec3d), z: wp.array(dtype=wp.float64)):
    t = wp.tile_load(x, shape=5)
    l = wp.tile_map(wp.length, t)
    v = l * wp.vec3d(wp.float64(1.0), wp.float64(2.0), wp.float64(3.0)) + wp.vec3d(wp.float64(8.0), wp.float64(16.0), wp.float64(32.0)) / l
    v = v + l / t + t / l + wp.float64(2.0) / t + l * t
    acc = wp.tile_load(x, shape=5, storage="shared")
    wp.tile_axpy(wp.float64(0.5), v, acc)
    wp.tile_store(y, acc)
    wp.tile_store(z, wp.tile_dot(v, t))
)",
            "mixed", Vec3dInput(5), {0}, {Zeros(5, 3), Zeros(1, 1)});
}

TEST(TileCompositeGrad, ElementUpdatesTakeEveryLane) {
  // `acc[i] += v` and `-=` on one element of a vector tile add every lane's v; each lane's
  // gradient is the element's.
  CheckGrad(R"(
@wp.kernel
def elem(x: wp.array(dtype=wp.vec3d), idx: wp.array(dtype=int), y: wp.array(dtype=wp.vec3d)):
    _b, lane = wp.tid()
    t = wp.tile_load(x, shape=5)
    acc = wp.tile_zeros(shape=2, dtype=wp.vec3d, storage="shared")
    v = t[lane % 5]
    acc[0] += v
    acc[1] -= wp.cw_mul(v, v)
    wp.tile_store(y, acc)
)",
            "elem", Vec3dInput(5), {0}, {Zeros(2, 3)});
}

GradArray StructInput(int n) {
  GradArray x = Vec3dInput(n);
  x.comps = 4;  // S below: a float64 and a vec3d, 32 bytes
  x.d.clear();
  for (int k = 0; k < 4 * n; ++k) x.d.push_back(std::cos(0.7 * k + 0.2) * 1.5 + (k % 4 == 0 ? 0.25 : 0.0));
  x.g.assign(x.d.size(), 0.0);
  return x;
}

TEST(TileCompositeGrad, StructTilesFieldwise) {
  // +, -, unary - and tile_sum on tiles of a struct, then a func of the fields: each field's
  // gradient follows its own path.
  CheckGrad(R"(
@wp.struct
class S:
    a: wp.float64
    v: wp.vec3d

@wp.func
def mix(s: S) -> wp.float64:
    return s.a * s.v[1] + wp.dot(s.v, s.v)

@wp.kernel
def fields(x: wp.array(dtype=S), idx: wp.array(dtype=int), y: wp.array(dtype=S), total: wp.array(dtype=S),
           m: wp.array(dtype=wp.float64)):
    t = wp.tile_load(x, shape=5)
    u = t + t - (-t)
    u -= t
    wp.tile_store(y, u)
    wp.tile_store(total, wp.tile_sum(u + t))
    wp.tile_store(m, wp.tile_map(mix, u))
)",
            "fields", StructInput(5), {0}, {Zeros(5, 4), Zeros(1, 4), Zeros(5, 1)});
}

}  // namespace
}  // namespace tilec
