#include "profile/profile_schedule.h"

namespace fusescope {

ProfilerAction ProfileSchedule::at(int64_t step) const {
    if (step < skipFirst) return ProfilerAction::None;
    step -= skipFirst;
    const int64_t cycle = wait + warmup + active;
    if (cycle <= 0 || (repeat > 0 && step / cycle >= repeat)) return ProfilerAction::None;
    const int64_t inCycle = step % cycle;
    if (inCycle < wait) return ProfilerAction::None;
    if (inCycle < wait + warmup) return ProfilerAction::Warmup;
    return inCycle == cycle - 1 ? ProfilerAction::RecordAndSave : ProfilerAction::Record;
}

}  // namespace fusescope
