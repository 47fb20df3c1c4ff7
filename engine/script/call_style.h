#pragma once
// How a script spelled an op call. The interpreter reports it with every op it runs; the
// captured graph keeps it so it prints calls the way the script wrote them.

namespace fusescope {

enum class CallStyle {
    TorchFunction,  // torch.add(x, y)
    Functional,     // torch.nn.functional.relu(x)
    Method,         // x.add(y)
    Operator,       // x + y
};

}  // namespace fusescope
