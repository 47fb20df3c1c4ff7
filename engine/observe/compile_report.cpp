#include "observe/compile_report.h"

#include <algorithm>
#include <regex>

#include <fmt/format.h>

#include "observe/recompile_fixes.h"

namespace fusescope {

namespace {

// An inserted line as the report quotes it: without its indent and newline.
std::string stripped(const std::string& line) {
    size_t begin = line.find_first_not_of(" \t");
    size_t end = line.find_last_not_of("\n");
    return begin == std::string::npos || end < begin ? "" : line.substr(begin, end + 1 - begin);
}

std::string plural(int n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

CompileReport::Compile* CompileReport::find(const std::string& compileId) {
    for (auto& f : functions_)
        for (auto& c : f.compiles)
            if (c.id == compileId) return &c;
    return nullptr;
}

void CompileReport::consume(const Event& event) {
    if (const auto* e = std::get_if<CompileStartedEvent>(&event)) {
        Function* fn = nullptr;
        for (auto& f : functions_)
            if (f.name == e->function && f.where.line == e->where.line) fn = &f;
        if (!fn) {
            functions_.push_back(Function{e->function, e->where, {}, false});
            fn = &functions_.back();
        }
        Compile c;
        c.id = e->compileId;
        if (auto it = pendingRecompiles_.find(e->compileId); it != pendingRecompiles_.end()) {
            // "Recompiling ...\n    triggered by ...\n    - 0/0: reason": keep the first reason.
            const std::string& message = it->second.message;
            size_t dash = message.find("\n    - ");
            c.recompileReason = dash == std::string::npos ? message : message.substr(dash + 7, message.find('\n', dash + 7) - dash - 7);
            c.fixEdit = it->second.fix;
        }
        fn->compiles.push_back(c);
    } else if (const auto* e = std::get_if<RecompileEvent>(&event)) {
        pendingRecompiles_[e->compileId] = *e;
    } else if (const auto* e = std::get_if<GraphCapturedEvent>(&event)) {
        if (Compile* c = find(e->compileId)) {
            ++c->graphs;
            c->ops += e->opCount;
        }
    } else if (const auto* e = std::get_if<GraphBreakEvent>(&event)) {
        if (Compile* c = find(e->compileId)) {
            std::string where = e->userStack.empty() ? "" : fmt::format(" ({}:{})", e->userStack.back().file,
                                                                        e->userStack.back().line);
            c->breaks.push_back(e->reason.substr(0, e->reason.find('\n')) + where);  // a long reason's first line sums it up
        }
    } else if (const auto* e = std::get_if<IrDumpEvent>(&event)) {
        if (Compile* c = find(e->compileId); c && e->stage == "aot_backward_graph") ++c->backwardGraphs;
    } else if (const auto* e = std::get_if<GuardsEvent>(&event)) {
        if (Compile* c = find(e->compileId)) {
            c->guards = static_cast<int>(e->guards.size());
            for (size_t i = 0; i < e->guards.size(); ++i) c->guardLines.emplace_back(e->guards[i], i < e->lines.size() ? e->lines[i] : 0);
        }
    } else if (const auto* e = std::get_if<GraphBreakCostEvent>(&event)) {
        breakCosts_.push_back(*e);
    } else if (const auto* e = std::get_if<CacheLimitEvent>(&event)) {
        for (auto& f : functions_)
            if (f.name == e->function) f.cacheLimitHit = true;
    }
}

std::string CompileReport::render() const {
    std::string out = "Compile report\n==============\n";
    if (functions_.empty()) return out + "No function was compiled.\n";
    int compiles = 0, graphs = 0, backwardGraphs = 0, ops = 0, breaks = 0, recompiles = 0;
    // A training graph's count: "1 graph (forward and backward)" beside inference graphs.
    auto graphCount = [](int all, int backward) {
        return backward == 0 ? plural(all, "graph") : fmt::format("{} ({} with a backward graph)", plural(all, "graph"), backward);
    };
    for (const auto& f : functions_) {
        out += fmt::format("{} ({}:{})\n", f.name, f.where.file, f.where.line);
        for (const auto& c : f.compiles) {
            out += fmt::format("  {}: {}, {}, {}, {}\n", c.id, graphCount(c.graphs, c.backwardGraphs), plural(c.ops, "op"),
                               plural(static_cast<int>(c.breaks.size()), "graph break"), plural(c.guards, "guard"));
            if (!c.recompileReason.empty()) {
                out += "       recompiled because " + c.recompileReason + "\n";
                if (std::string guard = failedGuard(c.recompileReason); !guard.empty()) out += "       " + guard + "\n";
                if (std::string fix = recompileFix(c.recompileReason); !fix.empty()) out += "       fix: " + fix + "\n";
                if (const SourceInsert& edit = c.fixEdit; !edit.text.empty())
                    out += fmt::format("       edit: before {}:{}, add `{}`\n", edit.file, edit.line, stripped(edit.text));
            }
            for (const auto& b : c.breaks) out += "       break: " + b + "\n";
            ++compiles;
            graphs += c.graphs;
            backwardGraphs += c.backwardGraphs;
            ops += c.ops;
            breaks += static_cast<int>(c.breaks.size());
            recompiles += c.recompileReason.empty() ? 0 : 1;
        }
        if (f.cacheLimitHit)
            out += "  hit the recompile limit: later new inputs ran eagerly\n"
                   "       fix: avoid the recompiles above, or raise `torch._dynamo.config.recompile_limit`\n";
    }
    out += fmt::format("Total: {}, {}, {}, {}, {}\n", plural(compiles, "compile"), plural(recompiles, "recompile"),
                       graphCount(graphs, backwardGraphs), plural(ops, "op"), plural(breaks, "graph break"));
    return out + renderBreakCosts();
}

std::string CompileReport::failedGuard(const std::string& reason) const {
    // PyTorch names a local's tensor without L[...]: 'x' is L['x'], 'self.w' is L['self'].w.
    static const std::regex tensorReason(R"(^(\d+/\d+): tensor '([A-Za-z_]\w*)(.*?)' )");
    std::smatch m;
    if (!std::regex_search(reason, m, tensorReason)) return "";
    const std::string prefix = "check_tensor(L['" + m[2].str() + "']" + m[3].str() + ",";
    for (const auto& f : functions_)
        for (const auto& c : f.compiles)
            if (c.id == m[1].str())
                for (const auto& [text, line] : c.guardLines)
                    if (text.rfind(prefix, 0) == 0)
                        return line > 0 ? fmt::format("guard made at line {}: {}", line, text) : "guard: " + text;
    return "";
}

// Most costly first: by the time spent between the graphs, then by the fusions lost.
std::string CompileReport::renderBreakCosts() const {
    if (breakCosts_.empty()) return "";
    std::vector<const GraphBreakCostEvent*> ranked;
    for (const auto& c : breakCosts_) ranked.push_back(&c);
    std::stable_sort(ranked.begin(), ranked.end(), [](const GraphBreakCostEvent* a, const GraphBreakCostEvent* b) {
        if (a->pythonSeconds != b->pythonSeconds) return a->pythonSeconds > b->pythonSeconds;
        return a->fusionsLost() > b->fusionsLost();
    });
    auto kernels = [](int n) { return n < 0 ? std::string("?") : std::to_string(n); };
    std::string out = "\nGraph breaks by cost (time between the graphs they split, then fusions lost)\n";
    for (size_t i = 0; i < ranked.size(); ++i) {
        const GraphBreakCostEvent& c = *ranked[i];
        std::string where = c.userStack.empty() ? "" : fmt::format(" ({}:{})", c.userStack.back().file, c.userStack.back().line);
        out += fmt::format("  {}. {}{}, in {} {}\n", i + 1, c.reason, where, c.function, c.compileId);
        out += fmt::format("       splits {} ({}) from {} ({})\n", c.graphBefore, plural(c.opsBefore, "op"), c.graphAfter,
                           plural(c.opsAfter, "op"));
        out += fmt::format("       between them: {:.3f} ms over {} call{} ({:.3f} ms a call)\n", c.pythonSeconds * 1e3, c.calls,
                           c.calls == 1 ? "" : "s", c.calls ? c.pythonSeconds * 1e3 / c.calls : 0.0);
        out += fmt::format("       compiling them: {:.3f} s + {:.3f} s\n", c.compileSecondsBefore, c.compileSecondsAfter);
        if (c.kernelsJoined < 0)
            out += fmt::format("       kernels: {} + {} apart; as one graph not known (inductor can't lower one of them)\n",
                               kernels(c.kernelsBefore), kernels(c.kernelsAfter));
        else
            out += fmt::format("       kernels: {} + {} apart, {} as one graph: {} fusion{} lost\n", c.kernelsBefore, c.kernelsAfter,
                               c.kernelsJoined, c.fusionsLost(), c.fusionsLost() == 1 ? "" : "s");
    }
    return out;
}

}  // namespace fusescope
