#pragma once
// Direct calls: a cache hit that runs the compiled graph without running the function's
// Python again.
//
// A cache hit otherwise replays the function under the tracer (capture/tracer.h): every op
// captured again on meta tensors, the graph fingerprinted to find its compiled segment. That
// costs microseconds per op, which an optimizer step over many small parameters notices.
// The printed guards (PyTorch's) do not cover all the Python state the code reads, so they
// cannot tell alone that a call would trace the same graph. Instead, while a call is traced,
// a DirectCallRecorder keeps what the call saw of the state that existed before it: the
// objects and variables it read (ValueSnapshot), the tensors' .grad it read, and its
// arguments. A call that ran one graph, ends without a graph break, and changed nothing of
// that state outside the graph (no stores into old objects, no prints, no seeds) becomes a
// DirectCallPlan. A later call whose arguments and state match the plan's snapshots, given
// the same definitions (classes, modules) and default device, runs the plan's graph with its
// inputs gathered as recorded and returns what the traced call returned. Any mismatch
// replays, so a plan can only skip work the replay would have repeated exactly.

#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "capture/state_snapshot.h"
#include "graph/graph_compiler.h"

namespace fusescope {

struct Scope;

// Where a graph input is found on a later call.
struct InputLocator {
    // Number: an int or float argument, carried into the graph as its tensor (a SymInt's one
    // element expanded to the int, a SymFloat's f64[]), made from the call's own argument.
    enum class Kind { Argument, Held, Grad, Number };
    Kind kind = Kind::Held;
    std::vector<size_t> path;  // Argument: the argument's index, then indices into its containers; Number: its index
    Tensor held;               // Held: a tensor the snapshots keep (a parameter, optimizer state)
    size_t grad = 0;           // Grad: which recorded .grad read
};

// What the call returned, rebuilt from the graph's results.
struct ResultTemplate {
    enum class Kind { Constant, GraphOutput, Input, Tuple, List };
    Kind kind = Kind::Constant;
    Value constant;
    size_t index = 0;  // GraphOutput: the output; Input: the input
    std::vector<ResultTemplate> items;
};

struct GradRead {
    InputLocator base;  // Argument or Held
    bool defined = false;
    TensorLayout layout;
};

struct ObjectRead {
    Value object;           // an instance (its attributes) or a container
    ObjectPtr instanceClass;
    ValueSnapshot content;
};

struct VariableRead {
    ScopePtr scope;
    std::string name;
    bool bound = false;
    std::optional<ValueSnapshot> value;
};

class DirectCallPlan {
public:
    // Whether a call of `function` with these bound arguments finds the state this plan saw.
    bool matches(const Value& function, const Value& arguments) const;
    // Runs the graph (the entry's segment numbered segment(); null when it is -1) and
    // returns what the function would.
    Value run(const Value& arguments, const CompiledGraph* graph) const;
    int segment() const { return segment_; }

private:
    friend class DirectCallRecorder;
    Tensor locate(const InputLocator& where, const Value& arguments) const;
    Value build(const ResultTemplate& result, const std::vector<Tensor>& inputs,
                const std::vector<Tensor>& outputs) const;

    bool sameAliasing(const Value& arguments) const;

    ObjectPtr function_;
    uint64_t definitions_ = 0;
    Device defaultDevice_;
    ValueSnapshot arguments_;
    // The tensors among the arguments, and for each the first that was the same tensor: a
    // graph traced with f(a, a) reads one input for both.
    std::vector<std::vector<size_t>> argumentTensors_;
    std::vector<size_t> sameTensorAs_;
    std::vector<ObjectRead> objects_;
    std::vector<VariableRead> variables_;
    std::vector<GradRead> grads_;
    int segment_ = -1;  // -1: the call ran no graph
    std::vector<InputLocator> inputs_;
    ResultTemplate result_;
};

class DirectCallRecorder {
public:
    // `arguments`: the call's bound arguments as a tuple, in parameter order, and their names.
    DirectCallRecorder(const Value& function, const Value& arguments, std::vector<std::string> parameters);

    void touch(const Value& object);
    void touchVariable(const ScopePtr& scope, const std::string& name);
    void gradRead(const Tensor& base);
    // A graph input carrying a Python number the call read through `source` (a SymInt's or
    // SymFloat's): an argument's own (L['scale']) is read from each call, whatever its value (the
    // entry's guards hold its type); any other a plan holds, as a call its snapshots match reads
    // the same value.
    void scalarInput(const Tensor& carrier, const Source& source);
    // The call did something a plan cannot repeat or check (a graph break, a seed, ...).
    void refuse(const std::string& why);
    void graphRan(int segment, const std::vector<Tensor>& inputs, const std::vector<Tensor>& outputs);

    // Whether the call so far changed nothing it found, and did nothing a plan could not
    // check: running it again from its start is running it once (a restarted trace).
    bool unchangedSoFar() const { return refusal_.empty() && !changedDuringCall(); }
    // After the call returned `result`: its plan, or why it has none.
    std::variant<DirectCallPlan, std::string> finish(const Value& result);

private:
    std::optional<InputLocator> locateTensor(const Tensor& t) const;
    void keepContents(const ValueSnapshot& snapshot);
    std::optional<std::string> changedDuringCall() const;
    bool templateFor(const Value& value, ResultTemplate& out, std::string& why) const;

    DirectCallPlan plan_;
    Value arguments_;
    uint64_t firstNewSerial_;  // objects with this serial or later were made by the call
    std::string refusal_;
    std::unordered_set<const void*> seenObjects_;  // touched, or part of the arguments
    std::set<std::pair<const Scope*, std::string>> seenVariables_;
    std::unordered_map<const TensorImpl*, size_t> gradOf_;     // a .grad read -> its GradRead
    std::unordered_map<const TensorImpl*, size_t> gradReads_;  // a base tensor -> its GradRead
    std::vector<Tensor> gradBases_;                            // per GradRead
    std::unordered_map<const TensorImpl*, std::vector<size_t>> argumentTensors_;
    std::unordered_map<const TensorImpl*, Tensor> heldTensors_;
    std::vector<std::string> parameters_;
    std::unordered_map<const TensorImpl*, size_t> numberArguments_;  // a carrier -> its argument's index
    std::vector<Tensor> graphInputs_;
    std::vector<const TensorImpl*> graphOutputs_;
    bool ranGraph_ = false;
};

}  // namespace fusescope
