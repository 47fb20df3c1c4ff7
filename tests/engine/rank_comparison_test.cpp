// The ranks of a distributed run side by side (torch_trace/rank_comparison.h), over real
// multi-rank TORCH_TRACE folders made by PyTorch 2.15 under torchrun with gloo on the CPU
// (tests/fixtures/torch_trace: ddp_two_ranks, ranks_diverge) and a made-up pair of logs whose
// ranks differ in one guard.
#include <gtest/gtest.h>

#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "test_support.h"
#include "torch_trace/rank_comparison.h"

namespace fusescope::test {
namespace {

std::string multiRankFolder(const std::string& name) { return sourcePath("tests/fixtures/torch_trace/" + name); }

RankComparison comparedFolder(const std::string& name) {
    RankedTraceLogs ranked = rankedTraceLogs(multiRankFolder(name));
    EXPECT_EQ(ranked.error, "");
    return compareRanks(loadRankLogs(ranked));
}

const RankCheck& checkNamed(const RankComparison& c, const std::string& name) {
    auto it = std::find_if(c.checks.begin(), c.checks.end(), [&](const RankCheck& k) { return k.name == name; });
    if (it == c.checks.end()) throw std::runtime_error("no check " + name);
    return *it;
}

std::vector<std::vector<int>> groupRanks(const RankCheck& check) {
    std::vector<std::vector<int>> groups;
    for (const auto& g : check.groups) groups.push_back(g.ranks);
    std::sort(groups.begin(), groups.end());
    return groups;
}

TEST(RankComparison, FourRanksWhereTwoRecompileNameTheFirstDivergence) {
    RankComparison c = comparedFolder("ranks_diverge");
    ASSERT_EQ(c.ranks.size(), 4u);
    std::vector<int> compiles, recompiles, misses;
    for (const auto& r : c.ranks) compiles.push_back(r.compiles), recompiles.push_back(r.recompiles), misses.push_back(r.cacheMisses);
    EXPECT_EQ(compiles, (std::vector<int>{1, 2, 1, 2}));
    EXPECT_EQ(recompiles, (std::vector<int>{0, 1, 0, 1}));
    EXPECT_EQ(misses, (std::vector<int>{2, 4, 2, 4}));
    EXPECT_NEAR(c.ranks[3].compileSeconds, 15.171, 0.001);

    ASSERT_TRUE(c.divergence);
    const RankDivergence& d = *c.divergence;
    EXPECT_EQ(d.compileId, "0/1");
    EXPECT_EQ(d.check, "compile ids");
    EXPECT_EQ(d.where.str(), "<fixtures>/programs/ranks_diverge.py:8");
    EXPECT_EQ(d.summary, "compile 0/1 of step ran on ranks 1, 3, not on ranks 0, 2");
    EXPECT_EQ(d.details, (std::vector<std::string>{
                             "rank 1 recompiled step: tensor 'x' size mismatch at index 0. expected 4, actual 6 (against 0/0)",
                             "  rank 1's input L['x'] is torch.float32, size [6, 8], stride [8, 1]; it was torch.float32, size [4, 8], "
                             "stride [8, 1] (in 0/0)",
                             "rank 3 recompiled step: guard scale == 1.0 of 0/0 failed (<fixtures>/programs/ranks_diverge.py:9)",
                             "ranks 0, 2 did not compile it: they kept running 0/0"}));
}

// tlparse --all-ranks-html's verdicts on the same folders (tlparse_all_ranks.json, made with
// the fixtures) agree with ours for its checks of cache verdicts and collective sequences,
// and of compile ids where every record belongs to a compile.
TEST(RankComparison, TheChecksTlparseMakesAgreeWithIt) {
    for (const std::string name : {"ranks_diverge", "ddp_two_ranks"}) {
        SCOPED_TRACE(name);
        RankComparison c = comparedFolder(name);
        nlohmann::json tlparse = nlohmann::json::parse(readFile(multiRankFolder(name) + "/tlparse_all_ranks.json"));
        for (const auto& [ours, theirs] : std::vector<std::pair<std::string, std::string>>{{"cache hits/misses", "cache"},
                                                                                            {"collective sequences", "collectives"}}) {
            EXPECT_EQ(checkNamed(c, ours).diverges(), tlparse[theirs]["diverge"].get<bool>()) << ours;
            if (checkNamed(c, ours).diverges())
                EXPECT_EQ(groupRanks(checkNamed(c, ours)), tlparse[theirs]["groups"].get<std::vector<std::vector<int>>>()) << ours;
        }
    }
    EXPECT_TRUE(checkNamed(comparedFolder("ranks_diverge"), "compile ids").diverges());
    // tlparse counts rank 1's records outside any compile (inductor's compile_file spans, from
    // compiling a kernel's C++ while no frame compiled) as a compile "-/-" rank 0 lacks; the
    // compiles themselves are alike (docs/torch-trace.md).
    EXPECT_FALSE(checkNamed(comparedFolder("ddp_two_ranks"), "compile ids").diverges());
}

TEST(RankComparison, TwoDdpRanksCompileAlikeThoughTheirGuardsHoldOtherAddresses) {
    RankComparison c = comparedFolder("ddp_two_ranks");
    ASSERT_EQ(c.ranks.size(), 2u);
    EXPECT_EQ(c.ranks[0].compiles, 5);
    EXPECT_EQ(c.ranks[0].graphBreaks, 3);
    EXPECT_EQ(c.ranks[1].cacheMisses, 3);
    EXPECT_FALSE(c.divergence);
    for (const RankCheck& check : c.checks) EXPECT_FALSE(check.diverges()) << check.name;
    EXPECT_EQ(checkNamed(c, "compiled functions").groups.at(0).value,
              "0/0: inner; 1/0: helper; 2/0: __init__; 3/0: torch_dynamo_resume_in___init___at_105; 4/0: forward");
    EXPECT_EQ(checkNamed(c, "collective sequences").groups.at(0).value, "none");
}

// Two ranks whose one compile holds a different constant: the guard each has and the other
// has not, at its line; object ids that differ between processes are no difference.
TEST(RankComparison, AGuardOnADifferentValueIsNamedWithItsLine) {
    auto log = [](int rank, const std::string& address, int n) {
        std::string prefix = "V1207 20:32:38.624000 14830 torch/_dynamo/convert_frame.py:309] ";
        std::string context = fmt::format(R"("rank": {}, "frame_id": 0, "frame_compile_id": 0, "attempt": 0)", rank);
        std::string text = prefix + R"({"str": ["/w/train.py", 0]})" "\n" + prefix +
                           R"({"dynamo_start": {"stack": [{"line": 3, "name": "f", "filename": 0}]}, )" + context + "}\n" + prefix +
                           R"({"dynamo_cpp_guards_str": {}, )" + context + R"(, "has_payload": "0"})" "\n" +
                           "\tTREE_GUARD_MANAGER:\n\t+- RootGuardManager\n\t| +- GLOBAL_STATE: ___check_global_state()\n" +
                           "\t| +- ID_MATCH: ___check_obj_id(G['torch'], " + address + ")  # x = torch.relu(x)  # w/train.py:4 in f\n" +
                           fmt::format("\t| +- EQUALS_MATCH: L['n'] == {}  # return x * n  # w/train.py:5 in f\n", n);
        std::istringstream in(text);
        return RankLog{rank, "", importTraceLog(in)};
    };
    RankComparison c = compareRanks({log(0, "140642000688112", 3), log(1, "140294275896304", 4), log(2, "140294275000000", 3)});
    ASSERT_TRUE(c.divergence);
    EXPECT_EQ(c.divergence->check, "guards");
    EXPECT_EQ(c.divergence->summary, "compile 0/0 of f differs in its guards");
    EXPECT_EQ(c.divergence->where.str(), "w/train.py:5");
    EXPECT_EQ(c.divergence->details,
              (std::vector<std::string>{"ranks 0, 2: guard EQUALS_MATCH: L['n'] == 3 (w/train.py:5)",
                                        "rank 1: guard EQUALS_MATCH: L['n'] == 4 (w/train.py:5)"}));
    EXPECT_EQ(groupRanks(checkNamed(c, "guards")), (std::vector<std::vector<int>>{{0, 2}, {1}}));
    EXPECT_FALSE(checkNamed(c, "compile ids").diverges());
}

TEST(RankComparison, OnlyAFolderOfPerRankLogsIsCompared) {
    EXPECT_EQ(rankedTraceLogs(multiRankFolder("recompiles")).error,
              "'" + multiRankFolder("recompiles") + "' holds no per-rank log (dedicated_log_torch_trace_rank_N_*.log)");
    std::string file = multiRankFolder("ranks_diverge") + "/dedicated_log_torch_trace_rank_0_fixture.log";
    EXPECT_EQ(rankedTraceLogs(file).error, "'" + file + "' is not a folder (--all-ranks reads a TORCH_TRACE folder of a distributed run)");
    RankedTraceLogs four = rankedTraceLogs(multiRankFolder("ranks_diverge"));
    ASSERT_EQ(four.logs.size(), 4u);
    EXPECT_EQ(four.logs[3].first, 3);
    EXPECT_TRUE(four.left.empty());
}

}  // namespace
}  // namespace fusescope::test
