#include "torch_trace/rank_comparison.h"

#include <algorithm>
#include <functional>
#include <map>
#include <regex>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace fusescope {

namespace {

// One compile as one rank logged it.
struct RankCompile {
    std::string function;
    SourceLocation where;
    std::vector<std::string> guards;         // as logged
    std::vector<std::string> comparedGuards;  // as compared: object ids and comments left out, sorted
    std::vector<std::string> breaks;         // its graph breaks' reasons
    TorchCompileMetrics metrics;
};

struct RankFacts {
    int rank = 0;
    std::vector<std::string> order;  // compile ids as they started
    std::map<std::string, RankCompile> compiles;
};

// A guard as ranks compare it: the number a guard function checks against is an object's or
// a type's address, different in every process (`___check_obj_id(G['torch'], 140642000688112)`,
// `___check_fake_script_type(G['dist'].group.WORLD, 94201575947424)`), and the comment after
// the code names source files by path, which differs between machines.
std::string comparedGuard(const std::string& guard) {
    static const std::regex id(R"(, \d{9,}\))");  // an address as a guard function's last argument
    std::string code = guard.substr(0, guard.find("  #"));
    code = std::regex_replace(code, id, ", <id>)");
    while (!code.empty() && code.back() == ' ') code.pop_back();
    return code;
}

// A guard's or a failure's own line: the last `# FILE:LINE in FUNCTION` of its comment.
std::optional<SourceLocation> commentLocation(const std::string& text) {
    static const std::regex at(R"(#\s*(\S+):(\d+) in \w+\s*$)");
    std::smatch m;
    std::string firstLine = text.substr(0, text.find('\n'));
    if (!std::regex_search(firstLine, m, at)) return std::nullopt;
    return SourceLocation{m[1].str(), std::stoi(m[2].str()), 0};
}

// A recompile reason in a line: "0/0: scale == 1.0   # y = ...  # f.py:9 in step" becomes
// "guard scale == 1.0 of 0/0 failed (f.py:9)"; a reason without code stays as it is.
std::string reasonText(const std::string& reason) {
    std::string line = reason.substr(0, reason.find('\n'));
    static const std::regex against(R"(^([!\d/_]+): (.*)$)");
    std::smatch m;
    std::string entry, text = line;
    if (std::regex_match(line, m, against)) entry = m[1].str(), text = m[2].str();
    std::optional<SourceLocation> at = commentLocation(text);
    if (!at) return entry.empty() ? text : fmt::format("{} (against {})", text, entry);
    return fmt::format("guard {} of {} failed ({}:{})", comparedGuard(text), entry.empty() ? "the last compile" : entry, at->file, at->line);
}

std::string shortOp(std::string op) {  // torch.ops._c10d_functional.all_reduce_.default -> all_reduce_
    if (op.ends_with(".default")) op.resize(op.size() - 8);
    return op.substr(op.rfind('.') + 1);
}

RankFacts factsOf(const RankLog& log, RankSummary& summary) {
    RankFacts facts;
    facts.rank = summary.rank = log.rank;
    for (const Event& event : log.imported.events) {
        if (auto* e = std::get_if<CompileStartedEvent>(&event)) {
            if (!facts.compiles.count(e->compileId)) facts.order.push_back(e->compileId);
            facts.compiles[e->compileId].function = e->function;
            facts.compiles[e->compileId].where = e->where;
        } else if (auto* e = std::get_if<GuardsEvent>(&event)) {
            RankCompile& c = facts.compiles[e->compileId];
            c.guards.insert(c.guards.end(), e->guards.begin(), e->guards.end());
        } else if (auto* e = std::get_if<GraphBreakEvent>(&event)) {
            facts.compiles[e->compileId].breaks.push_back(e->reason.substr(0, e->reason.find('\n')));
            ++summary.graphBreaks;
        } else if (std::holds_alternative<RecompileEvent>(event)) {
            ++summary.recompiles;
        }
    }
    for (auto& [id, c] : facts.compiles) {
        for (const auto& g : c.guards) c.comparedGuards.push_back(comparedGuard(g));
        std::sort(c.comparedGuards.begin(), c.comparedGuards.end());
        if (auto m = log.imported.metrics.find(id); m != log.imported.metrics.end()) c.metrics = m->second;
    }
    summary.compiles = static_cast<int>(facts.order.size());
    for (const auto& [id, m] : log.imported.metrics) {
        for (const auto& [verdict, count] : m.cacheVerdicts) {
            if (verdict.ends_with("_hit")) summary.cacheHits += count;
            if (verdict.ends_with("_miss")) summary.cacheMisses += count;
        }
        if (auto t = m.forward.is_object() ? m.forward.find("entire_frame_compile_time_s") : m.forward.end();
            m.forward.is_object() && t != m.forward.end() && t->is_number())
            summary.compileSeconds += t->get<double>();
    }
    return facts;
}

// What a check compares of one compile on one rank, in a line: `value` for grouping and the
// text shown (`shown` may leave details out).
struct Aspect {
    const char* name;
    std::function<std::string(const RankCompile&)> value;
    std::function<std::string(const RankCompile&)> shown;
};

std::string joined(const std::vector<std::string>& items, const char* sep = ", ") {
    return fmt::format("{}", fmt::join(items, sep));
}

const std::vector<Aspect>& aspects() {
    static const std::vector<Aspect> list = {
        {"compiled functions", [](const RankCompile& c) { return c.function; }, nullptr},
        {"recompile reasons",
         [](const RankCompile& c) {
             std::vector<std::string> r;
             for (const auto& reason : c.metrics.recompileReasons) r.push_back(reasonText(reason));
             return joined(r, "; ");
         },
         nullptr},
        {"graph breaks", [](const RankCompile& c) { return joined(c.breaks, "; "); }, nullptr},
        {"guards", [](const RankCompile& c) { return joined(c.comparedGuards, "\n"); },
         [](const RankCompile& c) { return fmt::format("{} guard{}", c.guards.size(), c.guards.size() == 1 ? "" : "s"); }},
        {"tensor metadata", [](const RankCompile& c) { return joined(c.metrics.inputs, "; "); }, nullptr},
        {"cache hits/misses",
         [](const RankCompile& c) {
             std::vector<std::string> v;
             for (const auto& [verdict, count] : c.metrics.cacheVerdicts)
                 v.push_back(count == 1 ? verdict : fmt::format("{} x{}", verdict, count));
             return joined(v);
         },
         nullptr},
        {"collective sequences",
         [](const RankCompile& c) {
             std::vector<std::string> ops;
             for (const auto& op : c.metrics.collectives) ops.push_back(shortOp(op));
             return joined(ops);
         },
         nullptr},
    };
    return list;
}

// Ranks grouped by a value, groups in the order of their first rank.
std::vector<RankCheck::Group> groupsOf(const std::vector<std::pair<int, std::string>>& values,
                                       const std::map<int, std::string>& shown = {}) {
    std::vector<RankCheck::Group> groups;
    std::vector<std::string> keys;
    for (const auto& [rank, value] : values) {
        auto it = std::find(keys.begin(), keys.end(), value);
        if (it == keys.end()) {
            keys.push_back(value);
            groups.push_back({{}, shown.count(rank) ? shown.at(rank) : value});
            it = keys.end() - 1;
        }
        groups[it - keys.begin()].ranks.push_back(rank);
    }
    return groups;
}

// The whole run's value of an aspect on a rank: each compile's, by id.
std::string runValue(const RankFacts& f, const std::function<std::string(const RankCompile&)>& value) {
    std::vector<std::string> parts;
    for (const auto& id : f.order)
        if (std::string v = value(f.compiles.at(id)); !v.empty()) parts.push_back(id + ": " + v);
    return parts.empty() ? "none" : joined(parts, "; ");
}

std::vector<RankCheck> checksOf(const std::vector<RankFacts>& ranks) {
    std::vector<RankCheck> checks;
    std::vector<std::pair<int, std::string>> ids;
    for (const auto& f : ranks) ids.emplace_back(f.rank, f.order.empty() ? "none" : joined(f.order, " "));
    checks.push_back({"compile ids", groupsOf(ids)});
    for (const Aspect& a : aspects()) {
        std::vector<std::pair<int, std::string>> values;
        std::map<int, std::string> shown;
        for (const auto& f : ranks) {
            values.emplace_back(f.rank, runValue(f, a.value));
            if (a.shown) shown[f.rank] = runValue(f, a.shown);
        }
        checks.push_back({a.name, groupsOf(values, shown)});
    }
    return checks;
}

// The compile ids of all ranks in the order they first started on any rank.
std::vector<std::string> compileOrder(const std::vector<RankFacts>& ranks) {
    std::map<std::string, std::pair<size_t, int>> first;  // id -> (position, rank)
    for (const auto& f : ranks)
        for (size_t i = 0; i < f.order.size(); ++i) {
            auto [it, added] = first.try_emplace(f.order[i], i, f.rank);
            if (!added) it->second = std::min(it->second, std::make_pair(i, f.rank));
        }
    std::vector<std::string> ids;
    for (const auto& [id, at] : first) ids.push_back(id);
    std::sort(ids.begin(), ids.end(), [&](const std::string& a, const std::string& b) { return first[a] < first[b]; });
    return ids;
}

// The first guard `mine` has that `theirs` has not, as logged; empty when none.
std::string firstGuardNotIn(const RankCompile& mine, const RankCompile& theirs) {
    for (const auto& guard : mine.guards)
        if (!std::binary_search(theirs.comparedGuards.begin(), theirs.comparedGuards.end(), comparedGuard(guard))) return guard;
    return "";
}

// The earlier compile of the same frame on a rank ("0/1" -> "0/0"); empty when it has none.
std::string previousOfFrame(const RankFacts& f, const std::string& id) {
    size_t slash = id.rfind('/');
    if (slash == std::string::npos) return "";
    std::string frame = id.substr(0, slash + 1), previous;
    for (const auto& other : f.order) {
        if (other == id) break;
        if (other.starts_with(frame) && other.find('/', frame.size()) == std::string::npos) previous = other;
    }
    return previous;
}

// Inputs whose layout changed from the frame's earlier compile on the same rank.
std::vector<std::string> changedInputs(const RankCompile& now, const RankCompile& before) {
    std::map<std::string, std::string> old;
    for (const auto& input : before.metrics.inputs) old[input.substr(0, input.find(": "))] = input.substr(input.find(": ") + 2);
    std::vector<std::string> changed;
    for (const auto& input : now.metrics.inputs) {
        std::string name = input.substr(0, input.find(": ")), layout = input.substr(input.find(": ") + 2);
        if (auto o = old.find(name); o != old.end() && o->second != layout)
            changed.push_back(fmt::format("input {} is {}; it was {}", name, layout, o->second));
    }
    return changed;
}

// A compile some ranks made and others did not: why each made it, what its inputs were.
RankDivergence compileOnSomeRanks(const std::string& id, const std::vector<const RankFacts*>& with,
                                  const std::vector<const RankFacts*>& without) {
    RankDivergence d;
    const RankCompile& first = with.front()->compiles.at(id);
    d.compileId = id;
    d.function = first.function;
    d.where = first.where;
    d.check = "compile ids";
    std::vector<int> withRanks, withoutRanks;
    for (const auto* f : with) withRanks.push_back(f->rank);
    for (const auto* f : without) withoutRanks.push_back(f->rank);
    d.ranksWithCompile = withRanks;
    d.summary = fmt::format("compile {} of {} ran on {}, not on {}", id, d.function, ranksNamed(withRanks), ranksNamed(withoutRanks));
    for (const auto* f : with) {
        const RankCompile& c = f->compiles.at(id);
        if (c.metrics.recompileReasons.empty()) {
            d.details.push_back(fmt::format("rank {} compiled {} for the first time", f->rank, c.function));
        } else {
            for (const auto& reason : c.metrics.recompileReasons)
                d.details.push_back(fmt::format("rank {} recompiled {}: {}", f->rank, c.function, reasonText(reason)));
        }
        if (std::string before = previousOfFrame(*f, id); !before.empty())
            for (const auto& change : changedInputs(c, f->compiles.at(before)))
                d.details.push_back(fmt::format("  rank {}'s {} (in {})", f->rank, change, before));
    }
    // The ranks without it, grouped by the compile of the frame they kept running.
    std::vector<std::pair<int, std::string>> kept;
    for (const auto* f : without) kept.emplace_back(f->rank, previousOfFrame(*f, id));
    for (const auto& g : groupsOf(kept))
        d.details.push_back(fmt::format("{} did not compile it{}", ranksNamed(g.ranks),
                                        g.value.empty() ? "" : fmt::format(": {} kept running {}", g.ranks.size() == 1 ? "it" : "they", g.value)));
    return d;
}

// The first compile, in order, where the ranks differ.
std::optional<RankDivergence> firstDivergence(const std::vector<RankFacts>& ranks) {
    for (const std::string& id : compileOrder(ranks)) {
        std::vector<const RankFacts*> with, without;
        for (const auto& f : ranks) (f.compiles.count(id) ? with : without).push_back(&f);
        if (!without.empty()) return compileOnSomeRanks(id, with, without);
        for (const Aspect& a : aspects()) {
            std::vector<std::pair<int, std::string>> values;
            for (const auto* f : with) values.emplace_back(f->rank, a.value(f->compiles.at(id)));
            std::vector<RankCheck::Group> groups = groupsOf(values);
            if (groups.size() < 2) continue;
            const RankCompile& first = with.front()->compiles.at(id);
            RankDivergence d{id, first.function, first.where, {}, a.name, "", {}};
            for (const auto* f : with) d.ranksWithCompile.push_back(f->rank);
            d.summary = fmt::format("compile {} of {} differs in its {}", id, first.function, a.name);
            auto compileOfRank = [&](int rank) -> const RankCompile& {
                return (*std::find_if(with.begin(), with.end(), [&](const RankFacts* f) { return f->rank == rank; }))->compiles.at(id);
            };
            for (size_t i = 0; i < groups.size(); ++i) {
                std::string value = groups[i].value.empty() ? "none" : groups[i].value;
                if (std::string_view(a.name) == "guards") {  // a guard these ranks have and the others do not
                    const RankCompile& mine = compileOfRank(groups[i].ranks.front());
                    std::string own = firstGuardNotIn(mine, compileOfRank(groups[i == 0 ? 1 : 0].ranks.front()));
                    value = own.empty() ? fmt::format("{} guards, none the others lack", mine.guards.size()) : "guard " + comparedGuard(own);
                    if (auto at = commentLocation(own)) {
                        value += fmt::format(" ({}:{})", at->file, at->line);
                        if (i == 0) d.where = *at;
                    }
                }
                d.details.push_back(fmt::format("{}: {}", ranksNamed(groups[i].ranks), value));
            }
            return d;
        }
    }
    return std::nullopt;
}

}  // namespace

std::string rankList(const std::vector<int>& ranks) {
    return joined([&] {
        std::vector<std::string> r;
        for (int rank : ranks) r.push_back(std::to_string(rank));
        return r;
    }());
}

std::string ranksNamed(const std::vector<int>& ranks) {
    return (ranks.size() == 1 ? "rank " : "ranks ") + rankList(ranks);
}

std::vector<RankLog> loadRankLogs(const RankedTraceLogs& ranked) {
    std::vector<RankLog> logs;
    for (const auto& [rank, path] : ranked.logs) logs.push_back({rank, path, loadTraceLog(path)});
    return logs;
}

RankComparison compareRanks(const std::vector<RankLog>& logs) {
    RankComparison comparison;
    std::vector<RankFacts> ranks;
    for (const RankLog& log : logs) {
        comparison.ranks.emplace_back();
        ranks.push_back(factsOf(log, comparison.ranks.back()));
    }
    comparison.checks = checksOf(ranks);
    comparison.divergence = firstDivergence(ranks);
    return comparison;
}

std::string rankComparisonText(const RankComparison& c) {
    std::string out = fmt::format("{} rank{}\n\n", c.ranks.size(), c.ranks.size() == 1 ? "" : "s");
    out += "rank  compiles  graph breaks  recompiles  cache hits  cache misses  compile time\n";
    for (const RankSummary& r : c.ranks)
        out += fmt::format("{:>4}  {:>8}  {:>12}  {:>10}  {:>10}  {:>12}  {:>10.3f} s\n", r.rank, r.compiles, r.graphBreaks, r.recompiles,
                           r.cacheHits, r.cacheMisses, r.compileSeconds);
    if (const auto& d = c.divergence) {
        out += fmt::format("\nThe ranks diverge first at {}:{}: {}.\n", d->where.file, d->where.line, d->summary);
        for (const auto& line : d->details) out += "  " + line + "\n";
        out += "  Ranks that compile differently can wait on each other in a collective: a hang or a timeout.\n";
    } else {
        out += "\nThe ranks compiled alike: every check below is the same on every rank.\n";
    }
    out += "\nChecks across ranks\n";
    for (const RankCheck& check : c.checks) {
        if (!check.diverges()) {
            out += fmt::format("  {}: same on every rank: {}\n", check.name, check.groups.empty() ? "none" : check.groups.front().value);
            continue;
        }
        out += fmt::format("  {}: differ\n", check.name);
        for (const auto& g : check.groups) out += fmt::format("    {}: {}\n", ranksNamed(g.ranks), g.value);
    }
    return out;
}

}  // namespace fusescope
