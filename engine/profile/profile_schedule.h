#pragma once
// torch.profiler.schedule(skip_first, wait, warmup, active, repeat): what the profiler does
// at each step. After skip_first steps, cycles of `wait` idle, `warmup` and `active`
// recording steps repeat `repeat` times (0: forever); the last active step of a cycle
// hands its trace to on_trace_ready.

#include <cstdint>

namespace fusescope {

enum class ProfilerAction { None, Warmup, Record, RecordAndSave };

struct ProfileSchedule {
    int64_t skipFirst = 0, wait = 0, warmup = 0, active = 1, repeat = 0;
    ProfilerAction at(int64_t step) const;
};

}  // namespace fusescope
