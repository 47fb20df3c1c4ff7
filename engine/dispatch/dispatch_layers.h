#pragma once
// The layers of dispatcher.h, one file each.

#include "dispatch/dispatcher.h"

namespace fusescope {

const DispatchLayer& complexLayer();    // complex_layer.cpp
const DispatchLayer& autogradLayer();   // autograd_layer.cpp
const DispatchLayer& profilingLayer();  // profiling_layer.cpp
const DispatchLayer& deviceLayer();     // device_layer.cpp

}  // namespace fusescope
