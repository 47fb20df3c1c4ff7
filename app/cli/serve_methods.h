#pragma once
// The work methods of `fusescope-cli serve` (docs/protocol.md): `run`, `explain_fusion`, `minify`.
// They run on the server's worker thread, one at a time; a failure is thrown as
// protocol::Failure and becomes the request's error response.

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/schedule_archive.h"
#include "observe/protocol.h"
#include "session/script_session.h"

namespace fusescope::cli {

// The compiled graphs of the latest runs, kept for explain_fusion.
class ServedRuns {
public:
    static constexpr size_t kKept = 16;
    // A fresh archive for run `id`; the oldest run is forgotten beyond kKept.
    ScheduleArchive& add(const nlohmann::json& id);
    // The archive of run `id`, or of the latest run when none is named.
    ScheduleArchive& find(const std::optional<nlohmann::json>& id, nlohmann::json& foundId) const;

private:
    std::deque<std::pair<nlohmann::json, std::unique_ptr<ScheduleArchive>>> runs_;  // oldest first
};

// What the server lends a run: the line writer, and a slot that makes the running session
// reachable by `cancel` (called with the session, then with null before it goes away).
struct RunContext {
    std::function<void(const nlohmann::json& message)> send;
    std::function<void(ScriptSession* running)> setRunning;
    std::function<bool()> cancelled;  // whether `cancel` asked for the request to stop
    TestHooks testHooks;              // serve --test-hook: planted in every run's compiles
};

nlohmann::json runMethod(const protocol::Request& request, ServedRuns& runs, const RunContext& context);
nlohmann::json explainFusionMethod(const protocol::Request& request, ServedRuns& runs);
nlohmann::json minifyMethod(const protocol::Request& request, const RunContext& context);

}  // namespace fusescope::cli
