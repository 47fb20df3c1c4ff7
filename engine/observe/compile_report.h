#pragma once
// A summary of everything a run compiled, built from the event stream: per function, each
// compile id with its graphs (and the backward graphs AOT Autograd made for them), ops,
// graph breaks, guards, why it recompiled and what would avoid that (recompile_fixes.h).
// `fusescope-cli run --report` prints it; `make run` shows it for the bundled example.

#include <map>
#include <string>
#include <vector>

#include "observe/event.h"

namespace fusescope {

class CompileReport {
public:
    void consume(const Event& event);
    std::string render() const;

private:
    struct Compile {
        std::string id;
        int graphs = 0;
        int backwardGraphs = 0;  // training graphs: AOT Autograd's backward graphs
        int ops = 0;
        int guards = 0;
        std::vector<std::string> breaks;
        std::string recompileReason;  // first failure line that triggered it
    };
    struct Function {
        std::string name;
        SourceLocation where;
        std::vector<Compile> compiles;
        bool cacheLimitHit = false;
    };
    Compile* find(const std::string& compileId);
    std::vector<Function> functions_;
    std::map<std::string, std::string> pendingRecompiles_;  // compile id -> reason
};

}  // namespace fusescope
