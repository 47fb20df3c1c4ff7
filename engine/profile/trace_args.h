#pragma once
// Op arguments in the execution-trace form (TraceArgs): a tensor becomes
// [tensor_id, storage_id, offset, numel, itemsize, "device"] with its shape, strides and a
// type such as "Tensor(float)"; scalars keep their value with types Int, Double, Bool,
// String; sequences nest as GenericList[...]. Ids are small integers handed out per
// distinct tensor and storage, so the same tensor has the same id across records.

#include <cstdint>

#include "ops/ivalue.h"
#include "profile/trace_record.h"

namespace fusescope {

void appendTraceArg(TraceArgs& args, const IValue& value);
TraceArgs traceArgsOf(const IValueList& values);
TraceArgs traceArgsOf(const IValue& value);  // a result: one entry, or one per tuple item

// A raw buffer passed to a kernel: no tensor object, so its tensor id is its storage id.
void appendTraceBuffer(TraceArgs& args, const void* data, const std::vector<int64_t>& sizes, const std::vector<int64_t>& strides,
                       DType dtype);

// The trace id of an object (tensor impl or storage base pointer): 1, 2, ... in order of first
// use in the current trace context (the session's).
int64_t traceObjectId(const void* object);

}  // namespace fusescope
