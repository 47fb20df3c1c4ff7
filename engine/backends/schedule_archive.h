#pragma once
// Keeps each graph a run compiled so questions about its schedule can be answered after
// the run (the engine server's explain_fusion). It sits between the compile manager and
// the backends: every compile is recorded, then handed to the real backend unchanged.
// A graph's schedule is rebuilt on the first question by the inductor backend's stages
// before codegen (decompose, lower, schedule) with the compile's settings; the stages are
// deterministic, so its nodes and decisions are the ones the run reported.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph/graph_compiler.h"
#include "lower/ir.h"
#include "schedule/scheduler.h"

namespace fusescope {

class ScheduleArchive {
public:
    explicit ScheduleArchive(CompilerLookup backends);
    ~ScheduleArchive();
    ScheduleArchive(const ScheduleArchive&) = delete;
    ScheduleArchive& operator=(const ScheduleArchive&) = delete;

    // The lookup to run scripts with (SessionOptions::compilers); valid while the archive lives.
    CompilerLookup lookup();

    struct CompiledGraphRecord {
        std::string compileId;
        std::string graphName;
        std::string backend;
        std::shared_ptr<const Graph> graph;
        CompileSettings settings;  // as the compile had them (the script's torch._inductor.config)
    };
    const std::vector<CompiledGraphRecord>& graphs() const { return graphs_; }

    // A graph of `compileId` (graphName may be omitted when the compile has one graph).
    // Throws Error naming what exists when there is no such compile or graph.
    const CompiledGraphRecord& graph(const std::string& compileId, const std::optional<std::string>& graphName) const;
    // Its schedule. Throws Error when another backend compiled it or the inductor backend
    // could not lower it.
    const Schedule& schedule(const CompiledGraphRecord& graph);

private:
    class RecordingCompiler;
    struct Scheduled;

    CompilerLookup backends_;
    std::map<std::string, std::unique_ptr<RecordingCompiler>> recorders_;  // by backend name
    std::vector<CompiledGraphRecord> graphs_;                             // in compile order
    std::map<std::string, std::unique_ptr<Scheduled>> scheduled_;          // by graph name
};

}  // namespace fusescope
