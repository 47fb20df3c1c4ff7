#include "model/minify_answer.h"

#include "model/json_fields.h"

namespace fusescope::gui {

MinifyAnswer MinifyAnswer::fromJson(const nlohmann::json& result) {
    MinifyAnswer answer;
    answer.compileId = qstringField(result, "compile_id");
    answer.function = qstringField(result, "function");
    answer.graph = qstringField(result, "graph");
    answer.backend = qstringField(result, "backend");
    answer.kind = qstringField(result, "kind");
    answer.startNodes = static_cast<int>(integerField(result, "start_nodes"));
    answer.endNodes = static_cast<int>(integerField(result, "end_nodes"));
    answer.minimalGraph = DrawnGraph::fromJson(jsonField(result, "minimal_graph"));
    answer.repro = qstringField(result, "repro");
    answer.reproError = qstringField(result, "repro_error");
    return answer;
}

}  // namespace fusescope::gui
