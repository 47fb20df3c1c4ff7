#include "core/grad_mode.h"

namespace fusescope {

namespace {
thread_local bool enabled = true;  // per thread, as in PyTorch
}  // namespace

bool gradEnabled() { return enabled; }
void setGradEnabled(bool on) { enabled = on; }

}  // namespace fusescope
