#pragma once
// An op call as the script made it: the op as named, its arguments as given, and how and
// where the script spelled it. The dispatcher (dispatch/dispatcher.h) takes it through
// its layers; capture keeps the spelling in the graph so it prints calls as written.

#include <string>

#include "core/error.h"
#include "ops/op_registry.h"

namespace fusescope {

// How a script spelled an op call.
enum class CallStyle {
    TorchFunction,  // torch.add(x, y)
    Functional,     // torch.nn.functional.relu(x)
    Method,         // x.add(y)
    Operator,       // x + y
};

// Where an op call happened in the script.
struct CallSite {
    SourceLocation where;
    int endColumn = 0;        // end of the call expression on its first line
    SourceLocation opLoc;     // the operator token for x + y; unknown for calls
    int opLength = 0;
};

class CaptureHandler;

struct OpCall {
    const OpDef& op;  // as named: a base name's overloads resolve on the arguments
    const IValueList& args;
    const Kwargs& kwargs;
    CallStyle style = CallStyle::TorchFunction;
    std::string symbol;  // the operator ("+") for CallStyle::Operator
    CallSite site;
    CaptureHandler* capture = nullptr;  // set while a compiled function is being traced
};

// What the capture layer hands a call to while a compiled function is traced: it records
// the call into the graph and returns results without data (meta tensors).
class CaptureHandler {
public:
    virtual ~CaptureHandler() = default;
    virtual IValue captureOp(const OpCall& call) = 0;
};

}  // namespace fusescope
