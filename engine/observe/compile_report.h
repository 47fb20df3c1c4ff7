#pragma once
// A summary of everything a run compiled, built from the event stream: per function, each
// compile id with its graphs (and the backward graphs AOT Autograd made for them), ops,
// graph breaks, guards, why it recompiled and what would avoid that (recompile_fixes.h);
// then the graph breaks ranked by what they cost on the run (the doctor's measures).
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
        std::vector<std::pair<std::string, int>> guardLines;  // each guard's text and the line that made it
        std::vector<std::string> breaks;
        std::string recompileReason;  // first failure line that triggered it
        SourceInsert fixEdit;         // the doctor's edit that avoids it, when one is known
    };
    struct Function {
        std::string name;
        SourceLocation where;
        std::vector<Compile> compiles;
        bool cacheLimitHit = false;
    };
    Compile* find(const std::string& compileId);
    std::string renderBreakCosts() const;
    // "guard made at line 5: check_tensor(L['x'], ...)" for a tensor's guard failure
    // ("0/0: tensor 'x' size mismatch ..."), "" when the reason names no tensor guard.
    std::string failedGuard(const std::string& reason) const;
    std::vector<Function> functions_;
    std::vector<GraphBreakCostEvent> breakCosts_;
    std::map<std::string, RecompileEvent> pendingRecompiles_;  // by the compile id it makes
};

}  // namespace fusescope
