#include "core/source_marker.h"

#include <algorithm>

namespace fusescope {

std::string anchoredMarker(int indent, int start, int end, int left, int right) {
    std::string marker(static_cast<size_t>(std::max(start - indent, 0)), ' ');
    for (int c = start; c < end; ++c) marker += left < 0 || (c >= left && c < right) ? '^' : '~';
    return marker;
}

}  // namespace fusescope
