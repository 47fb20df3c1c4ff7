#include "backends/schedule_archive.h"

#include <fmt/format.h>

#include "decompose/decompose.h"
#include "lower/lowering.h"

namespace fusescope {

// Records a compile in the archive, then compiles with the real backend.
class ScheduleArchive::RecordingCompiler : public GraphCompiler {
public:
    RecordingCompiler(ScheduleArchive& archive, const GraphCompiler& inner) : archive_(archive), inner_(inner) {}
    std::string name() const override { return inner_.name(); }
    bool throughAot() const override { return inner_.throughAot(); }
    CompiledGraph compile(std::shared_ptr<const Graph> graph, const CompileRequest& request) const override {
        archive_.graphs_.push_back({request.compileId, request.graphName, inner_.name(), graph, request.settings});
        return inner_.compile(std::move(graph), request);
    }

private:
    ScheduleArchive& archive_;
    const GraphCompiler& inner_;
};

// A schedule with what its nodes point into.
struct ScheduleArchive::Scheduled {
    std::shared_ptr<const Graph> transformed;
    LoweredGraph lowered;
    Schedule schedule;
};

ScheduleArchive::ScheduleArchive(CompilerLookup backends) : backends_(std::move(backends)) {}
ScheduleArchive::~ScheduleArchive() = default;

CompilerLookup ScheduleArchive::lookup() {
    return [this](const std::string& backendName) -> const GraphCompiler* {
        auto& recorder = recorders_[backendName];
        if (!recorder) {
            const GraphCompiler* inner = backends_(backendName);
            if (!inner) return nullptr;
            recorder = std::make_unique<RecordingCompiler>(*this, *inner);
        }
        return recorder.get();
    };
}

const ScheduleArchive::CompiledGraphRecord& ScheduleArchive::graph(const std::string& compileId,
                                                                   const std::optional<std::string>& graphName) const {
    std::vector<const CompiledGraphRecord*> matches;
    std::vector<std::string> compileIds;
    for (const auto& g : graphs_) {
        if (g.compileId == compileId && (!graphName || g.graphName == *graphName)) matches.push_back(&g);
        if (compileIds.empty() || compileIds.back() != g.compileId) compileIds.push_back(g.compileId);
    }
    if (matches.size() == 1) return *matches[0];
    if (matches.size() > 1) {
        std::vector<std::string> names;
        for (const auto* m : matches) names.push_back(m->graphName);
        throw Error(fmt::format("compile {} has graphs {}; name one", compileId, fmt::join(names, ", ")));
    }
    if (graphName)
        throw Error(fmt::format("no graph {} in compile {} of this run", *graphName, compileId));
    throw Error(fmt::format("no compile {} in this run; its compiles are {}", compileId,
                            compileIds.empty() ? "none" : fmt::format("{}", fmt::join(compileIds, ", "))));
}

const Schedule& ScheduleArchive::schedule(const CompiledGraphRecord& record) {
    const std::string& compileId = record.compileId;
    if (record.backend != "inductor")
        throw Error(fmt::format("{} of compile {} was compiled by the {} backend, which does not fuse", record.graphName,
                                compileId, record.backend));
    auto& scheduled = scheduled_[record.graphName];
    if (!scheduled) {
        auto s = std::make_unique<Scheduled>();
        s->transformed = decomposeForInductor(*record.graph, record.settings.testHooks);
        try {
            s->lowered = lowerGraph(*s->transformed, record.settings);
        } catch (const LoweringUnsupported& e) {
            throw Error(fmt::format("{} of compile {} ran eagerly, unscheduled: cannot lower {}", record.graphName, compileId,
                                    e.what()));
        }
        s->schedule = fusescope::schedule(s->lowered, record.settings.inductor);
        scheduled = std::move(s);
    }
    return scheduled->schedule;
}

}  // namespace fusescope
