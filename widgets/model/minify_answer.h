#pragma once
// The engine's answer to `minify` (docs/protocol.md), read once where it arrives: the graph
// failure it started from, how far it shrank the graph, the smallest graph that still fails
// and its repro script.

#include <QString>
#include <nlohmann/json.hpp>

#include "graph/drawn_graph.h"

namespace fusescope::gui {

struct MinifyAnswer {
    QString compileId, function, graph, backend;
    QString kind;          // compile, runtime or accuracy
    int startNodes = 0, endNodes = 0;
    DrawnGraph minimalGraph;  // empty when absent
    QString repro;         // the repro script
    QString reproError;    // how the repro failed when run; "" when it did not

    // Missing fields or fields of another kind read as their defaults.
    static MinifyAnswer fromJson(const nlohmann::json& result);
};

}  // namespace fusescope::gui
