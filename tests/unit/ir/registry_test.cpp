// The op registry against the stages that must honour it: every op declared in ops.def is
// differentiable or piecewise constant or effect-only, and what it claims has a rule behind
// it in ir/autodiff (a missing rule would be a silent zero gradient).
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "ir/autodiff/internal.h"
#include "ir/ir.h"

namespace tilec::ir {
namespace {

using autodiff::detail::HasElementwiseRule;
using autodiff::detail::RuleFamily;
using autodiff::detail::RuleOf;

std::string Name(int c) { return std::string(OpName(OpCode(c))); }

TEST(OpRegistry, NamesAreUniqueAndRoundTripThroughTheTable) {
  std::set<std::string> seen;
  for (int c = 0; c < kNumOpCodes; ++c) {
    EXPECT_TRUE(seen.insert(Name(c)).second) << "two ops are spelled " << Name(c);
    EXPECT_FALSE(Name(c).empty());
  }
}

TEST(OpRegistry, EveryOpIsDifferentiableOrPiecewiseConstantOrOnlyAnEffect) {
  for (int c = 0; c < kNumOpCodes; ++c) {
    uint32_t t = InfoOf(OpCode(c)).traits;
    bool diff = t & kDiff, flat = t & kPiecewiseConst;
    bool effect_only = (t & (kTerminator | kSideEffect)) && InfoOf(OpCode(c)).results != 1;
    EXPECT_FALSE(diff && flat) << Name(c) << " is marked both differentiable and piecewise constant";
    EXPECT_TRUE(diff || flat || effect_only || OpCode(c) == OpCode::Const || OpCode(c) == OpCode::Tid)
        << Name(c) << " must say how gradients pass it (kDiff or kPiecewiseConst)";
  }
}

TEST(OpRegistry, EveryDifferentiableOpHasAReverseRule) {
  for (int c = 0; c < kNumOpCodes; ++c) {
    OpCode code = OpCode(c);
    bool diff = HasTrait(code, kDiff);
    RuleFamily rule = RuleOf(code);
    // Elementwise ops share one rule, which looks the op up in its table.
    bool has_rule = rule == RuleFamily::Elementwise ? HasElementwiseRule(code) : rule != RuleFamily::None;
    if (rule == RuleFamily::Elementwise) EXPECT_TRUE(HasTrait(code, kElementwise)) << Name(c);
    EXPECT_EQ(has_rule, diff) << Name(c) << (diff ? " is differentiable but the reverse sweep has no rule for it"
                                                  : " is not differentiable but has a reverse rule");
  }
}

TEST(OpRegistry, AttributesAreDeclaredOnceAndStoredInOrder) {
  for (int c = 0; c < kNumOpCodes; ++c) {
    const OpInfo& info = InfoOf(OpCode(c));
    std::set<AttrId> ids(info.attrs.begin(), info.attrs.end());
    EXPECT_EQ(ids.size(), info.attrs.size()) << Name(c) << " declares an attribute twice";
    Op op(OpCode(c), Loc{});
    EXPECT_EQ(op.attrs().size(), info.attrs.size()) << Name(c);
    for (AttrId id : info.attrs) EXPECT_TRUE(op.has_attr(id)) << Name(c) << " " << InfoOf(id).name;
  }
}

TEST(OpRegistry, TypedAccessorsReachTheDeclaredSlot) {
  Op reduce(OpCode::TileReduce, Loc{});
  reduce.kind() = ReduceKind::Max;
  reduce.axis() = 1;
  EXPECT_EQ(std::get<ReduceKind>(reduce.attr(AttrId::Kind)), ReduceKind::Max);
  EXPECT_EQ(std::get<int64_t>(reduce.attr(AttrId::Axis)), 1);
  EXPECT_FALSE(reduce.has_attr(AttrId::Perm));
  Op copy(OpCode::TileReduce, Loc{});
  copy.CopyAttrsFrom(reduce);
  EXPECT_EQ(copy.kind(), ReduceKind::Max);
  EXPECT_EQ(copy.axis(), 1);
}

TEST(OpRegistryDeathTest, AskingForAnUndeclaredAttributeIsACompilerBug) {
  Op load(OpCode::ArrayLoad, Loc{});
  EXPECT_DEATH((void)load.axis(), "has no attribute `axis`");
}

TEST(OpRegistry, MemoryTraitsMatchSideEffects) {
  for (int c = 0; c < kNumOpCodes; ++c) {
    OpCode code = OpCode(c);
    if (HasTrait(code, kWritesMemory)) EXPECT_TRUE(HasSideEffects(code)) << Name(c);
    if (HasTrait(code, kTerminator)) EXPECT_TRUE(IsTerminator(code)) << Name(c);
  }
}

}  // namespace
}  // namespace tilec::ir
