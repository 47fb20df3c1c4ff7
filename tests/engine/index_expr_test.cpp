// Index expressions: normal form, printing, and the division simplifications that let
// views and loop merging produce plain indices.

#include <gtest/gtest.h>

#include "lower/index_expr.h"
#include "lower/loop_body.h"

namespace fusescope {
namespace {

IndexExpr v(const char* name) { return IndexExpr::symbol(name); }

TEST(IndexExpr, PrintsLikeSympyWithTermsOrderedAndConstantLast) {
    EXPECT_EQ((v("c1") + IndexExpr(16) * v("c0")).str(), "16*c0 + c1");
    EXPECT_EQ((v("c0") - IndexExpr(1)).str(), "c0 - 1");
    EXPECT_EQ((IndexExpr(3) + v("z10") + v("z2")).str(), "z2 + z10 + 3");
    EXPECT_EQ((v("s0") * v("c0") * IndexExpr(2)).str(), "2*c0*s0");
    EXPECT_EQ(IndexExpr(0).str(), "0");
    EXPECT_EQ((IndexExpr(16) * v("c0") + v("c1")).cstr(), "(16L*c0 + c1)");
}

TEST(IndexExpr, ACompoundDivisorPrintsInParentheses) {
    // (29*c0 + c1) // (29*s1): printed without them, C read it as ((29*c0 + c1) / 29) * s1.
    IndexExpr divided = IndexExpr::floorDiv(IndexExpr(29) * v("c0") + v("c1"), IndexExpr(29) * v("s1"));
    EXPECT_EQ(divided.str(), "((29*c0 + c1)//(29*s1))");
    EXPECT_EQ(divided.cstr(), "((29L*c0 + c1) / (29L*s1))");
    EXPECT_EQ(IndexExpr::mod(v("c0"), v("s0") * v("s1")).cstr(), "(c0 % (s0*s1))");
    EXPECT_EQ(IndexExpr::parse(divided.str()), divided);
}

TEST(IndexExpr, EqualExpressionsCompareEqualWhateverTheirConstruction) {
    EXPECT_EQ(v("a") * IndexExpr(2) + v("b"), v("b") + v("a") + v("a"));
    EXPECT_TRUE((v("a") - v("a")).isZero());
}

TEST(IndexExpr, DivisionTakesOutDivisibleTermsAndDropsProvablySmallRemainders) {
    VarRanges r{{"c0", IndexExpr(4)}, {"c1", IndexExpr(16)}};
    IndexExpr flat = IndexExpr(16) * v("c0") + v("c1");
    EXPECT_EQ(IndexExpr::floorDiv(flat, IndexExpr(16), r), v("c0"));
    EXPECT_EQ(IndexExpr::mod(flat, IndexExpr(16), r), v("c1"));
    // Without ranges the remainder is unknown and stays inside the division.
    EXPECT_EQ(IndexExpr::floorDiv(flat, IndexExpr(16)).str(), "c0 + ((c1)//16)");
    EXPECT_EQ(IndexExpr::floorDiv(IndexExpr(37), IndexExpr(8)), IndexExpr(4));
    EXPECT_EQ(IndexExpr::mod(IndexExpr(-3), IndexExpr(8)), IndexExpr(5));
}

TEST(IndexExpr, ACommonFactorWithASmallerRestComesOutOfDivisionAndModulo) {
    // The flat index of [32, 64, 64] divided by a [.., 4, 64, 64] block: c0 // 4.
    VarRanges r{{"c0", IndexExpr(32)}, {"c1", IndexExpr(64)}, {"c2", IndexExpr(64)}};
    IndexExpr flat = IndexExpr(4096) * v("c0") + IndexExpr(64) * v("c1") + v("c2");
    EXPECT_EQ(IndexExpr::floorDiv(flat, IndexExpr(16384), r).str(), "((c0)//4)");
    EXPECT_EQ(IndexExpr::mod(flat, IndexExpr(16384), r).str(), "64*c1 + c2 + 4096*((c0) % 4)");
    // The rest may reach the factor: c2 up to 64 + 64*63 is not below 4096 when c2 < 100.
    VarRanges wide{{"c0", IndexExpr(32)}, {"c1", IndexExpr(64)}, {"c2", IndexExpr(100)}};
    EXPECT_NE(IndexExpr::floorDiv(flat, IndexExpr(16384), wide).str(), "((c0)//4)");
    for (int64_t c0 : {0, 3, 4, 31})
        for (int64_t c1 : {0, 63})
            for (int64_t c2 : {0, 63}) {
                std::map<std::string, IndexExpr> at{{"c0", IndexExpr(c0)}, {"c1", IndexExpr(c1)}, {"c2", IndexExpr(c2)}};
                int64_t n = 4096 * c0 + 64 * c1 + c2;
                EXPECT_EQ(IndexExpr::floorDiv(flat, IndexExpr(16384), r).substitute(at).constant(), n / 16384);
                EXPECT_EQ(IndexExpr::mod(flat, IndexExpr(16384), r).substitute(at).constant(), n % 16384);
            }
}

TEST(IndexExpr, SymbolicSizesSimplifyWhenTheRangeIsTheDivisor) {
    VarRanges r{{"c1", v("s0")}};
    IndexExpr flat = v("s0") * v("c0") + v("c1");
    EXPECT_EQ(IndexExpr::floorDiv(flat, v("s0"), r), v("c0"));
    EXPECT_EQ(IndexExpr::mod(flat, v("s0"), r), v("c1"));
}

TEST(IndexExpr, ParsesCaptureSizeStrings) {
    EXPECT_EQ(IndexExpr::parse("2*s0"), IndexExpr(2) * v("s0"));
    EXPECT_EQ(IndexExpr::parse("s0 - 1"), v("s0") - IndexExpr(1));
    EXPECT_EQ(IndexExpr::parse("s0*s1 + 3"), v("s0") * v("s1") + IndexExpr(3));
}

TEST(IndexExpr, LinearCoefficientIsNulloptInsideDivisions) {
    IndexExpr e = IndexExpr(16) * v("z0") + v("z1");
    EXPECT_EQ(*e.linearCoefficient("z0"), IndexExpr(16));
    EXPECT_EQ(*e.linearCoefficient("z2"), IndexExpr(0));
    EXPECT_FALSE(IndexExpr::floorDiv(v("z0"), IndexExpr(3)).linearCoefficient("z0").has_value());
}

TEST(LoopBody, SimplifyMergesContiguousDimsAndKeepsBroadcastOnesApart) {
    LoopBodyBuilder b({"a", "b"}, {IndexExpr(16), IndexExpr(16)}, 0);
    auto idx = b.varExprs();
    int x = b.load("arg0_1", IndexExpr(16) * idx[0] + idx[1], DType::Float32);
    b.store("buf0", IndexExpr(16) * idx[0] + idx[1], x);
    LoopBody merged = simplifyLoops(b.finish());
    ASSERT_EQ(merged.vars.size(), 1u);
    EXPECT_EQ(merged.ranges[0], IndexExpr(256));
    EXPECT_EQ(merged.indices[0].str(), "z0");

    LoopBodyBuilder row({"a", "b"}, {IndexExpr(16), IndexExpr(16)}, 0);
    auto ri = row.varExprs();
    int y = row.load("buf1", ri[0], DType::Float32);  // one value per row: dims must stay apart
    row.store("buf2", IndexExpr(16) * ri[0] + ri[1], y);
    EXPECT_EQ(simplifyLoops(row.finish()).vars.size(), 2u);
}

TEST(LoopBody, SplitReexpressesAFlatLoopOverAFinerNest) {
    LoopBodyBuilder b({"z0"}, {IndexExpr(256)}, 0);
    int x = b.load("arg0_1", v("z0"), DType::Float32);
    b.store("buf0", v("z0"), x);
    auto split = splitLoops(b.finish(), {IndexExpr(16), IndexExpr(16)}, 1, "c");
    ASSERT_TRUE(split.has_value());
    EXPECT_EQ(split->indices[0].str(), "16*c0 + c1");
    EXPECT_EQ(split->reductionVars, 1u);
    LoopBodyBuilder c({"z0"}, {IndexExpr(256)}, 0);
    c.store("buf0", v("z0"), c.constant(1, DType::Float32));
    EXPECT_FALSE(splitLoops(c.finish(), {IndexExpr(10), IndexExpr(16)}, 0, "c").has_value());
}

}  // namespace
}  // namespace fusescope
