// NdArray construction, element access, views (slices, reshape, T), assignment through views,
// np.array inference, arange/linspace, tolist and advanced indexing, against hand-computed NumPy
// results.
#include <gtest/gtest.h>

#include <cmath>

#include "tests/unit/ndarray/test_util.h"

namespace tilec::host {
namespace {

using testing::Flat;
using testing::FromDoubles;
using testing::FromInts;
using testing::Idx;
using R = IndexItem;

TEST(NdArrayBasics, ZerosOnesFullShapeAndStrides) {
  NdArray z = NdArray::Zeros({2, 3});
  EXPECT_EQ(z.dtype(), ScalarType::Float64);
  EXPECT_EQ(z.ndim(), 2);
  EXPECT_EQ(z.size(), 6);
  EXPECT_EQ(z.strides(), (std::vector<int64_t>{24, 8}));
  EXPECT_EQ(Flat(z), std::vector<double>(6, 0.0));
  NdArray o = NdArray::Ones({4}, ScalarType::Int16);
  EXPECT_EQ(o.strides(), (std::vector<int64_t>{2}));
  EXPECT_EQ(Flat(o), std::vector<double>(4, 1.0));
  NdArray f = NdArray::Full({2}, Scalar::Int(7));
  EXPECT_EQ(f.dtype(), ScalarType::Int64);
  NdArray fb = NdArray::Full({2}, Scalar::Bool(true));
  EXPECT_EQ(fb.dtype(), ScalarType::Bool);
  NdArray ff = NdArray::Full({2}, Scalar::Float(2.5), ScalarType::Int32);
  EXPECT_EQ(ff.dtype(), ScalarType::Int32);
  EXPECT_EQ(Flat(ff), (std::vector<double>{2, 2}));
  EXPECT_THROW(NdArray::Zeros({-1}), NdError);
}

TEST(NdArrayBasics, ElementGetSetWithCasts) {
  NdArray a = NdArray::Zeros({2, 2}, ScalarType::Int8);
  int64_t i01[] = {0, 1}, im1[] = {-1, -1};
  a.Set(i01, Scalar::Float(3.9));  // truncates
  a.Set(im1, Scalar::Int(300));     // wraps to 44
  EXPECT_EQ(a.GetInt(i01), 3);
  EXPECT_EQ(a.GetInt(im1), 44);
  NdArray u = NdArray::Zeros({1}, ScalarType::UInt8);
  int64_t i0[] = {0};
  u.Set(i0, Scalar::Int(-1));
  EXPECT_EQ(u.GetInt(i0), 255);
  NdArray b = NdArray::Zeros({1}, ScalarType::Bool);
  b.Set(i0, Scalar::Float(NAN));
  EXPECT_TRUE(b.GetBool(i0));
  NdArray h = NdArray::Zeros({1}, ScalarType::Float16);
  h.Set(i0, Scalar::Float(0.1));
  EXPECT_EQ(h.GetDouble(i0), 0.0999755859375);  // nearest half to 0.1
  h.Set(i0, Scalar::Float(70000.0));
  EXPECT_TRUE(std::isinf(h.GetDouble(i0)));
  int64_t bad[] = {2, 0};
  try {
    a.Get(bad);
    FAIL();
  } catch (const NdError& e) {
    EXPECT_EQ(e.type(), "IndexError");
    EXPECT_EQ(e.message(), "index 2 is out of bounds for axis 0 with size 2");
  }
}

TEST(NdArrayBasics, WrapsExternalBufferWithKeepAlive) {
  auto owner = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4, 5, 6});
  NdArray a(ScalarType::Float32, {2, 3}, {}, owner->data(), owner);
  EXPECT_EQ(a.strides(), (std::vector<int64_t>{12, 4}));
  int64_t idx[] = {1, 2};
  EXPECT_EQ(a.GetDouble(idx), 6.0);
  a.Set(idx, Scalar::Float(9));
  EXPECT_EQ((*owner)[5], 9.0f);
  std::weak_ptr<std::vector<float>> weak = owner;
  owner.reset();
  EXPECT_FALSE(weak.expired());  // the array keeps the buffer alive
  // Column-major strides given explicitly.
  std::vector<int32_t> cm = {1, 4, 2, 5, 3, 6};
  NdArray c(ScalarType::Int32, {2, 3}, {4, 8}, cm.data(), nullptr);
  EXPECT_EQ(Flat(c), (std::vector<double>{1, 2, 3, 4, 5, 6}));
  EXPECT_FALSE(c.IsCContiguous());
}

TEST(NdArrayViews, SlicesWithStepsAndNegatives) {
  NdArray a = NdArray::Arange(10);
  EXPECT_EQ(Flat(Idx(a, {R::Range(2, 8, 3)})), (std::vector<double>{2, 5}));
  EXPECT_EQ(Flat(Idx(a, {R::Range(std::nullopt, std::nullopt, -1)})),
            (std::vector<double>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(Flat(Idx(a, {R::Range(-2, std::nullopt, -3)})), (std::vector<double>{8, 5, 2}));
  EXPECT_EQ(Flat(Idx(a, {R::Range(-3, std::nullopt)})), (std::vector<double>{7, 8, 9}));
  EXPECT_EQ(Flat(Idx(a, {R::Range(5, 2)})).size(), 0u);
  EXPECT_EQ(Flat(Idx(a, {R::Range(100, -100, -4)})), (std::vector<double>{9, 5, 1}));
  EXPECT_EQ(Flat(Idx(a, {R::Range(-100, 3)})), (std::vector<double>{0, 1, 2}));
  EXPECT_EQ(Idx(a, {R::At(-1)}).ndim(), 0);
  EXPECT_EQ(Idx(a, {R::At(-1)}).Item().i, 9);
  EXPECT_THROW(Idx(a, {R::Range(0, 5, 0)}), NdError);
  EXPECT_THROW(Idx(a, {R::At(10)}), NdError);
  EXPECT_THROW(Idx(a, {R::At(0), R::At(0)}), NdError);
}

TEST(NdArrayViews, MixedIndexingOn2DAnd3D) {
  NdArray a = NdArray::Arange(12).Reshape({3, 4});
  NdArray row = Idx(a, {R::At(1)});
  EXPECT_EQ(row.shape(), (Shape{4}));
  EXPECT_EQ(Flat(row), (std::vector<double>{4, 5, 6, 7}));
  NdArray col = Idx(a, {R::All(), R::At(-1)});
  EXPECT_EQ(Flat(col), (std::vector<double>{3, 7, 11}));
  NdArray sub = Idx(a, {R::Range(1, std::nullopt), R::Range(std::nullopt, std::nullopt, -2)});
  EXPECT_EQ(sub.shape(), (Shape{2, 2}));
  EXPECT_EQ(Flat(sub), (std::vector<double>{7, 5, 11, 9}));
  NdArray b = NdArray::Arange(24).Reshape({2, 3, 4});
  NdArray e = Idx(b, {R::Dots(), R::At(1)});
  EXPECT_EQ(e.shape(), (Shape{2, 3}));
  EXPECT_EQ(Flat(e), (std::vector<double>{1, 5, 9, 13, 17, 21}));
  NdArray n = Idx(b, {R::At(0), R::NewAxis(), R::Range(0, 2)});
  EXPECT_EQ(n.shape(), (Shape{1, 2, 4}));
  EXPECT_EQ(Flat(n), (std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7}));
}

TEST(NdArrayViews, AssignmentThroughViewsAndBroadcast) {
  NdArray x = NdArray::Zeros({3, 4}, ScalarType::Int64);
  std::vector<R> sel = {R::Range(1, std::nullopt), R::Range(std::nullopt, std::nullopt, 2)};
  x.Assign(sel, Scalar::Int(5));
  EXPECT_EQ(Flat(x), (std::vector<double>{0, 0, 0, 0, 5, 0, 5, 0, 5, 0, 5, 0}));
  // A row broadcast over the selected rows, with a float -> int cast.
  x.Assign(std::vector<R>{R::Range(0, 2)}, FromDoubles({1.5, 2.5, -3.5, 4}, {4}));
  EXPECT_EQ(Flat(x), (std::vector<double>{1, 2, -3, 4, 1, 2, -3, 4, 5, 0, 5, 0}));
  // A column vector broadcast along axis 1.
  x.Assign(std::vector<R>{R::All(), R::Range(2, std::nullopt)}, FromInts({7, 8, 9}, {3, 1}));
  EXPECT_EQ(Flat(x), (std::vector<double>{1, 2, 7, 7, 1, 2, 8, 8, 5, 0, 9, 9}));
  // A view writes into its base.
  NdArray v = Idx(x, {R::At(2)});
  v.Fill(Scalar::Int(-1));
  EXPECT_EQ(Flat(Idx(x, {R::At(2)})), (std::vector<double>{-1, -1, -1, -1}));
  EXPECT_THROW(x.Assign(std::vector<R>{R::At(0)}, FromInts({1, 2, 3}, {3})), NdError);
  // Overlapping source and destination: x[1:] = x[:-1] on a 1-D array.
  NdArray y = NdArray::Arange(5);
  y.Assign(std::vector<R>{R::Range(1, std::nullopt)}, Idx(y, {R::Range(std::nullopt, -1)}));
  EXPECT_EQ(Flat(y), (std::vector<double>{0, 0, 1, 2, 3}));
}

TEST(NdArrayViews, ReshapeTransposeCopy) {
  NdArray a = NdArray::Arange(6);
  NdArray r = a.Reshape({2, -1});
  EXPECT_EQ(r.shape(), (Shape{2, 3}));
  EXPECT_TRUE(r.SharesBufferWith(a));
  int64_t i12[] = {1, 2};
  r.Set(i12, Scalar::Int(50));
  EXPECT_EQ(a.GetFlat(5).i, 50);
  NdArray t = r.Transpose();
  EXPECT_EQ(t.shape(), (Shape{3, 2}));
  EXPECT_EQ(Flat(t), (std::vector<double>{0, 3, 1, 4, 2, 50}));
  EXPECT_FALSE(t.IsCContiguous());
  NdArray tr = t.Reshape({6});  // not contiguous: a copy
  EXPECT_EQ(Flat(tr), (std::vector<double>{0, 3, 1, 4, 2, 50}));
  EXPECT_FALSE(tr.SharesBufferWith(a));
  NdArray c = a.Copy();
  c.SetFlat(0, Scalar::Int(9));
  EXPECT_EQ(a.GetFlat(0).i, 0);
  try {
    a.Reshape({4, 2});
    FAIL();
  } catch (const NdError& e) {
    EXPECT_EQ(e.message(), "cannot reshape array of size 6 into shape (4,2)");
  }
  EXPECT_THROW(a.Reshape({-1, -1}), NdError);
  EXPECT_EQ(a.Reshape({1, 1, 6, 1}).ndim(), 4);
}

TEST(NdArrayViews, AsTypeCasts) {
  NdArray a = FromDoubles({-1.7, 0.0, 2.5, 300.2}, {4});
  EXPECT_EQ(Flat(a.AsType(ScalarType::Int32)), (std::vector<double>{-1, 0, 2, 300}));
  EXPECT_EQ(Flat(a.AsType(ScalarType::UInt8)), (std::vector<double>{255, 0, 2, 44}));
  EXPECT_EQ(Flat(a.AsType(ScalarType::Bool)), (std::vector<double>{1, 0, 1, 1}));
  EXPECT_EQ(Flat(a.AsType(ScalarType::Float32))[3], static_cast<double>(300.2f));
  NdArray big = FromInts({INT64_MAX}, {1});
  EXPECT_EQ(big.AsType(ScalarType::Float64).GetFlat(0).f, 9223372036854775808.0);
}

TEST(NdArrayFactories, ArrayInfersShapeAndDtype) {
  Nested ints = Nested::List({Nested::List({Nested::Int(1), Nested::Int(2)}),
                              Nested::List({Nested::Int(3), Nested::Int(4)})});
  NdArray a = NdArray::FromNested(ints);
  EXPECT_EQ(a.dtype(), ScalarType::Int64);
  EXPECT_EQ(a.shape(), (Shape{2, 2}));
  NdArray m = NdArray::FromNested(Nested::List({Nested::Int(1), Nested::Float(2.5)}));
  EXPECT_EQ(m.dtype(), ScalarType::Float64);
  NdArray b = NdArray::FromNested(Nested::List({Nested::Bool(true), Nested::Bool(false)}));
  EXPECT_EQ(b.dtype(), ScalarType::Bool);
  NdArray bi = NdArray::FromNested(Nested::List({Nested::Bool(true), Nested::Int(3)}));
  EXPECT_EQ(bi.dtype(), ScalarType::Int64);
  NdArray s = NdArray::FromNested(Nested::Float(1.5));
  EXPECT_EQ(s.ndim(), 0);
  NdArray e = NdArray::FromNested(Nested::List({}));
  EXPECT_EQ(e.dtype(), ScalarType::Float64);
  EXPECT_EQ(e.shape(), (Shape{0}));
  NdArray f32 = NdArray::Ones({2}, ScalarType::Float32);
  NdArray stacked = NdArray::FromNested(Nested::List({Nested::Array(f32), Nested::Array(f32)}));
  EXPECT_EQ(stacked.dtype(), ScalarType::Float32);
  EXPECT_EQ(stacked.shape(), (Shape{2, 2}));
  NdArray cast = NdArray::FromNested(ints, ScalarType::Float16);
  EXPECT_EQ(cast.dtype(), ScalarType::Float16);
  EXPECT_EQ(Flat(cast), (std::vector<double>{1, 2, 3, 4}));
  Nested ragged = Nested::List({Nested::List({Nested::Int(1)}), Nested::List({})});
  try {
    NdArray::FromNested(ragged);
    FAIL();
  } catch (const NdError& err) {
    EXPECT_EQ(err.type(), "ValueError");
    EXPECT_NE(err.message().find("inhomogeneous shape after 1 dimensions"), std::string::npos);
  }
}

TEST(NdArrayFactories, ArangeAndLinspace) {
  NdArray a = NdArray::Arange(Scalar::Int(2), Scalar::Int(11), Scalar::Int(3));
  EXPECT_EQ(a.dtype(), ScalarType::Int64);
  EXPECT_EQ(Flat(a), (std::vector<double>{2, 5, 8}));
  NdArray d = NdArray::Arange(Scalar::Int(5), Scalar::Int(0), Scalar::Int(-2));
  EXPECT_EQ(Flat(d), (std::vector<double>{5, 3, 1}));
  EXPECT_EQ(NdArray::Arange(Scalar::Int(3), Scalar::Int(3), Scalar::Int(1)).size(), 0);
  NdArray f = NdArray::Arange(Scalar::Int(0), Scalar::Int(1), Scalar::Float(0.25));
  EXPECT_EQ(f.dtype(), ScalarType::Float64);
  EXPECT_EQ(Flat(f), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  // np.arange(0.1, 0.4, 0.1) has 4 elements: ceil(0.3 / 0.1) rounds up from 3.0000000000000004.
  NdArray g = NdArray::Arange(Scalar::Float(0.1), Scalar::Float(0.4), Scalar::Float(0.1));
  EXPECT_EQ(g.size(), 4);
  NdArray h = NdArray::Arange(Scalar::Int(0), Scalar::Int(4), Scalar::Int(1), ScalarType::Float32);
  EXPECT_EQ(h.dtype(), ScalarType::Float32);
  EXPECT_EQ(Flat(h), (std::vector<double>{0, 1, 2, 3}));
  NdArray l = NdArray::Linspace(0, 1, 5);
  EXPECT_EQ(Flat(l), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  NdArray l2 = NdArray::Linspace(0, 1, 4, false);
  EXPECT_EQ(Flat(l2), (std::vector<double>{0, 0.25, 0.5, 0.75}));
  NdArray l3 = NdArray::Linspace(0, 10, 4, true, ScalarType::Int32);
  EXPECT_EQ(Flat(l3), (std::vector<double>{0, 3, 6, 10}));
  EXPECT_EQ(NdArray::Linspace(0, 1, 1).GetFlat(0).f, 0.0);
  EXPECT_THROW(NdArray::Linspace(0, 1, -1), NdError);
}

TEST(NdArrayFactories, ToListGivesNestedPythonValues) {
  NdArray a = FromInts({1, 2, 3, 4, 5, 6}, {2, 3}, ScalarType::UInt8);
  Nested n = a.ToList();
  ASSERT_EQ(n.kind, Nested::Kind::List);
  ASSERT_EQ(n.items.size(), 2u);
  ASSERT_EQ(n.items[1].items.size(), 3u);
  EXPECT_EQ(n.items[1].items[2].kind, Nested::Kind::UInt);
  EXPECT_EQ(n.items[1].items[2].scalar.u, 6u);
  NdArray f = FromDoubles({0.1}, {}, ScalarType::Float32);
  Nested s = f.ToList();
  EXPECT_EQ(s.kind, Nested::Kind::Float);
  EXPECT_EQ(s.scalar.f, static_cast<double>(0.1f));
  EXPECT_EQ(NdArray::FromNested(n).dtype(), ScalarType::UInt64);
}

// Advanced indexing with `...`, which the host parser does not accept yet, so only these
// tests reach it. Expected values are NumPy 1.24's for the same keys.
TEST(NdArrayAdvanced, EllipsisSeparatesIndexArrays) {
  NdArray a = NdArray::Arange(24).Reshape({2, 3, 4});
  NdArray i0 = FromInts({0}, {1});
  NdArray i01 = FromInts({0, 1}, {2});
  std::vector<R> last = {R::Dots(), R::Take(i01)};
  NdArray c = a.Select(last);
  EXPECT_EQ(c.shape(), (Shape{2, 3, 2}));
  EXPECT_EQ(Flat(c), (std::vector<double>{0, 1, 4, 5, 8, 9, 12, 13, 16, 17, 20, 21}));
  // An ellipsis covering no axes still breaks adjacency: the index dims go first.
  std::vector<R> split = {R::All(), R::Take(i0), R::Dots(), R::Take(i0)};
  NdArray d = a.Select(split);
  EXPECT_EQ(d.shape(), (Shape{1, 2}));
  EXPECT_EQ(Flat(d), (std::vector<double>{0, 12}));
  std::vector<R> around = {R::Take(i0), R::Dots(), R::Take(i0)};
  EXPECT_EQ(a.Select(around).shape(), (Shape{1, 3}));
  EXPECT_FALSE(a.Select(last).SharesBufferWith(a));
  std::vector<R> twice = {R::Dots(), R::Take(i0), R::Dots()};
  EXPECT_THROW(a.Select(twice), NdError);
}

TEST(NdArrayAdvanced, AssignWithEllipsisAndMask) {
  NdArray a = NdArray::Arange(6).Reshape({2, 3});
  NdArray mask = Binary(BinaryOp::Gt, NdArray::Arange(3), NdArray::FromScalar(Scalar::Int(0)));
  std::vector<R> key = {R::Dots(), R::Take(mask)};
  a.Assign(key, FromInts({7, 8}, {2}));
  EXPECT_EQ(Flat(a), (std::vector<double>{0, 7, 8, 3, 7, 8}));
  std::vector<R> rows = {R::Take(FromInts({1, 1}, {2})), R::Dots()};
  a.Assign(rows, Scalar::Float(2.5));
  EXPECT_EQ(Flat(a), (std::vector<double>{0, 7, 8, 2, 2, 2}));
}

}  // namespace
}  // namespace tilec::host
