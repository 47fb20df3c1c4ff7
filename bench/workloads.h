#pragma once
// The workloads the inductor benchmarks measure, as graphs built op by op with random
// inputs: a pointwise chain, single ops (softmax, sum), layer_norm and linear+GELU. Shared
// by bench_inductor (CPU) and bench_gpu (CUDA).

#include <memory>
#include <string>
#include <vector>

#include "decompose/graph_builder.h"

namespace fusescope::bench {

struct Workload {
    std::string name;
    std::shared_ptr<Graph> graph;
    std::vector<Tensor> inputs;
    double bytes = 0;  // the minimum memory traffic: inputs read once, outputs written once
};

Tensor randn(const Shape& sizes);

// Ten pointwise ops on n floats: arithmetic only (memory-bound), or with exp/sin/tanh
// (where vector math decides).
Workload pointwiseChain(int64_t n, bool transcendental);
// One op of x (and `extra` arguments).
Workload unary(const std::string& name, const char* op, const Shape& sizes, std::vector<Argument> extra, double bytes);
Workload layerNorm(int64_t rows, int64_t cols);
Workload linearGelu(int64_t rows, int64_t in, int64_t out);

}  // namespace fusescope::bench
