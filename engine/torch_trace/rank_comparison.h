#pragma once
// The ranks of a distributed run side by side (docs/torch-trace.md, "All ranks"): each rank's
// compiles, graph breaks, recompiles, cache verdicts and compile time; the checks tlparse's
// --all-ranks-html makes across ranks (compile ids, cache hits and misses, collective
// sequences, tensor metadata) and ours (functions, guards, recompile reasons, graph breaks);
// and the first place they diverge, explained: which input, guard or value differed between
// which ranks, at which source line. Ranks that compile differently can hang in a collective.

#include <optional>
#include <string>
#include <vector>

#include "observe/event.h"
#include "torch_trace/trace_log_files.h"
#include "torch_trace/trace_log_import.h"

namespace fusescope {

struct RankLog {
    int rank = 0;
    std::string path;
    TorchTraceImport imported;
};

struct RankSummary {
    int rank = 0;
    int compiles = 0, graphBreaks = 0, recompiles = 0, cacheHits = 0, cacheMisses = 0;
    double compileSeconds = 0;  // compilation_metrics' entire_frame_compile_time_s, summed
};

// One check over the whole run: the ranks grouped by what they have, one group when alike.
struct RankCheck {
    struct Group {
        std::vector<int> ranks;
        std::string value;  // what these ranks have, in a line
    };
    std::string name;  // "compile ids", "cache hits/misses", ...
    std::vector<Group> groups;
    bool diverges() const { return groups.size() > 1; }
};

// Where the ranks first differ, in compile order.
struct RankDivergence {
    std::string compileId;
    std::string function;
    SourceLocation where;                // the source line it comes down to
    std::vector<int> ranksWithCompile;   // the ranks that made that compile
    std::string check;                   // which check found it ("compile ids", "guards", ...)
    std::string summary;                 // a sentence naming the compile and the ranks
    std::vector<std::string> details;    // a line per rank or group of ranks: what differed
};

struct RankComparison {
    std::vector<RankSummary> ranks;
    std::vector<RankCheck> checks;
    std::optional<RankDivergence> divergence;  // none when the ranks compiled alike
};

// Reads each rank's log; throws Error when one cannot be opened.
std::vector<RankLog> loadRankLogs(const RankedTraceLogs& ranked);

RankComparison compareRanks(const std::vector<RankLog>& logs);

// `fusescope-cli torch-trace DIR --all-ranks`: the table of ranks, the first divergence, the checks.
std::string rankComparisonText(const RankComparison& comparison);

// "0, 2" and "ranks 0, 2" / "rank 1".
std::string rankList(const std::vector<int>& ranks);
std::string ranksNamed(const std::vector<int>& ranks);

}  // namespace fusescope
