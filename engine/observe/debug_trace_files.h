#pragma once
// The contents of the debug-trace folders, built in memory from the event stream, so the
// debug-trace directory (debug_trace.h) and the trace bundle (bundle/) write the same bytes.
// One folder per compiled graph, `<function>_<frame>_<entry>` (later graphs of a compile,
// after a graph break, add `_<graph>`; the backward graph of a training graph,
// `<graph>_backward`, is one of those): the captured graph (readable and runnable), AOT
// Autograd's joint, forward and backward graphs, the
// decomposed graph, the IR before and after fusion, the fusion decisions, the generated
// code with a file per artifact of its compile (LLVM IR and assembly, or PTX and SASS), and
// the compile's guards.

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "observe/event.h"

namespace fusescope {

class DebugTraceFiles {
public:
    // Files that became complete: all of a new folder's files when its graph's code
    // arrives, or guards.txt for existing folders when their compile's guards arrive
    // (guards are known only once the whole function has been traced).
    struct Update {
        std::string folder;
        std::string compileId;
        bool newFolder = false;
        std::map<std::string, std::string> files;  // file name -> contents
    };

    // The updates this event completes, usually none.
    std::vector<Update> consume(const Event& event);

private:
    struct Pending {
        std::string compileId, function;
        std::map<std::string, std::string> files;
        nlohmann::json decisions = nlohmann::json::array();
    };
    Update finish(const std::string& graph, Pending& p);

    std::map<std::string, Pending> pending_;  // by graph name
    std::map<std::string, std::string> functionOf_;  // graph name -> the function it was captured from
    std::map<std::string, int> foldersPerCompile_;
    std::multimap<std::string, std::string> foldersOfCompile_;  // compile id -> folder
    std::map<std::string, std::string> guards_;                 // compile id -> guards.txt
};

}  // namespace fusescope
