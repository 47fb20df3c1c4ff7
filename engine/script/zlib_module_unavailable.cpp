// Built without zlib: scripts have no zlib module (nor gzip, which imports it), as a
// CPython built without zlib; the configure summary says so.
#include "script/interpreter.h"

namespace fusescope {

Value makeZlibModule(Interpreter&) { return Value(); }

}  // namespace fusescope
