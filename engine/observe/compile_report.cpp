#include "observe/compile_report.h"

#include <fmt/format.h>

#include "observe/recompile_fixes.h"

namespace fusescope {

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
        if (auto it = pendingRecompiles_.find(e->compileId); it != pendingRecompiles_.end()) c.recompileReason = it->second;
        fn->compiles.push_back(c);
    } else if (const auto* e = std::get_if<RecompileEvent>(&event)) {
        // "Recompiling ...\n    triggered by ...\n    - 0/0: reason": keep the first reason.
        size_t dash = e->message.find("\n    - ");
        pendingRecompiles_[e->compileId] = dash == std::string::npos ? e->message : e->message.substr(dash + 7,
                                                                                                     e->message.find('\n', dash + 7) - dash - 7);
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
        if (Compile* c = find(e->compileId)) c->guards = static_cast<int>(e->guards.size());
    } else if (const auto* e = std::get_if<CacheLimitEvent>(&event)) {
        for (auto& f : functions_)
            if (f.name == e->function) f.cacheLimitHit = true;
    }
}

std::string CompileReport::render() const {
    auto plural = [](int n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); };
    std::string out = "Compile report\n==============\n";
    if (functions_.empty()) return out + "No function was compiled.\n";
    int compiles = 0, graphs = 0, backwardGraphs = 0, ops = 0, breaks = 0, recompiles = 0;
    // A training graph's count: "1 graph (forward and backward)" beside inference graphs.
    auto graphCount = [&plural](int all, int backward) {
        return backward == 0 ? plural(all, "graph") : fmt::format("{} ({} with a backward graph)", plural(all, "graph"), backward);
    };
    for (const auto& f : functions_) {
        out += fmt::format("{} ({}:{})\n", f.name, f.where.file, f.where.line);
        for (const auto& c : f.compiles) {
            out += fmt::format("  {}: {}, {}, {}, {}\n", c.id, graphCount(c.graphs, c.backwardGraphs), plural(c.ops, "op"),
                               plural(static_cast<int>(c.breaks.size()), "graph break"), plural(c.guards, "guard"));
            if (!c.recompileReason.empty()) {
                out += "       recompiled because " + c.recompileReason + "\n";
                if (std::string fix = recompileFix(c.recompileReason); !fix.empty()) out += "       fix: " + fix + "\n";
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
    return out;
}

}  // namespace fusescope
