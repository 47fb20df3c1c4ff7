#pragma once
// The "Python shape guard function" PyTorch 2.15's guards log prints before a compile's guards
// when it has shape guards: their code as the body of one Python function, each repeated
// subexpression (L['x'].size(), L['x'].size()[0], ...) named once (_var0 = ...), as Dynamo's
// PyExprCSEPass names them.

#include <string>
#include <vector>

namespace fusescope {

// The log text after the log prefix, ending with an empty line; "" for no guards. Each code is a
// Python comparison ("2 <= L['x'].size()[0]"); one that does not parse is kept as it is.
std::string shapeGuardFunction(const std::vector<std::string>& guardCodes);

}  // namespace fusescope
