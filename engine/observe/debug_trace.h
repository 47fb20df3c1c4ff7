#pragma once
// The debug-trace directory (TORCH_COMPILE_DEBUG's analogue): one folder per compiled graph
// with the captured graph (readable and runnable), the decomposed graph, the IR before and
// after fusion, the fusion decisions, and the generated code with its LLVM IR and
// assembly. It is written from the event stream alone, when a graph's code event arrives,
// and announced by one WARNING log line `debug trace: <folder>`.

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "observe/event.h"

namespace fusescope {

class Logger;

class DebugTraceWriter {
public:
    DebugTraceWriter(std::string root, const Logger& logger) : root_(std::move(root)), logger_(logger) {}
    void consume(const Event& event);

private:
    struct Pending {
        std::string compileId, function;
        std::map<std::string, std::string> files;  // file name -> contents
        nlohmann::json decisions = nlohmann::json::array();
    };
    void write(const std::string& graph, Pending& p);

    std::string root_;
    const Logger& logger_;
    std::map<std::string, Pending> pending_;  // by graph name
    std::map<std::string, int> foldersPerCompile_;
};

}  // namespace fusescope
