#pragma once
// Whether the ops running on this thread replay a captured graph (compiled code run through
// the graph interpreter: the eager backends and every eager fallback) rather than being the
// script's own eager calls. PyTorch's compiled code computes functionally where some of its
// eager kernels refuse: x[1:4].copy_(x[:3]) raises only eagerly.

#include <utility>

namespace fusescope {

inline bool& replayingGraphFlag() {
    static thread_local bool replaying = false;
    return replaying;
}
inline bool replayingGraph() { return replayingGraphFlag(); }

class GraphReplayScope {
public:
    GraphReplayScope() : previous_(std::exchange(replayingGraphFlag(), true)) {}
    ~GraphReplayScope() { replayingGraphFlag() = previous_; }
    GraphReplayScope(const GraphReplayScope&) = delete;
    GraphReplayScope& operator=(const GraphReplayScope&) = delete;

private:
    bool previous_;
};

}  // namespace fusescope
