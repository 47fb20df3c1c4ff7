// Bounded fuzzing of whole scripts: random but plausible scripts from a small grammar
// (tensors of random shapes and dtypes, pointwise ops, reductions, views and indexing,
// Python values, control flow, helper functions, compiled functions with graph breaks,
// resets, and deliberate mistakes). With a fixed seed every run sees the same scripts.
// Properties: the process survives; every error names script.py:LINE:COL; and a script
// prints exactly what it prints with its @torch.compile decorators commented out.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "test_support.h"

using fusescope::test::runScript;

namespace {

// A small deterministic generator (the standard distributions differ between libraries).
class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed ? seed : 1) {}
    uint64_t next() {
        state_ ^= state_ << 13;
        state_ ^= state_ >> 7;
        state_ ^= state_ << 17;
        return state_;
    }
    int below(int n) { return static_cast<int>(next() % static_cast<uint64_t>(n)); }
    int between(int lo, int hi) { return lo + below(hi - lo + 1); }
    bool chance(int percent) { return below(100) < percent; }
    template <class T>
    const T& pick(const std::vector<T>& items) { return items[static_cast<size_t>(below(static_cast<int>(items.size())))]; }

private:
    uint64_t state_;
};

using Decorators = std::vector<std::string>;
const Decorators kEagerBackend = {"@torch.compile(backend=\"eager\")", "@torch.compile(backend=\"eager\", dynamic=True)",
                                  "@torch.compile(backend=\"eager\", dynamic=False)"};
const Decorators kInductor = {"@torch.compile", "@torch.compile(dynamic=True)", "@torch.compile(dynamic=False)"};

// Builds one script. Tensors in a script mostly share one shape so that most ops are
// valid; a few statements are deliberately wrong (bad index, bad dim, mismatched shape,
// wrong argument count) and must end in a clean error.
class ScriptGenerator {
public:
    ScriptGenerator(uint64_t seed, Decorators decorators) : rng_(seed), decorators_(std::move(decorators)) {}

    std::string generate() {
        out_.clear();
        int rank = rng_.between(1, 3);
        shape_.clear();
        for (int i = 0; i < rank; ++i) shape_.push_back(rng_.between(1, 4));
        line("import torch");
        line("");
        line("n = " + std::to_string(rng_.between(0, 3)));
        int helpers = rng_.between(0, 2);
        for (int h = 0; h < helpers; ++h) helper(h);
        int compiled = rng_.between(1, 3);
        for (int c = 0; c < compiled; ++c) compiledFunction(c, helpers);
        mainBody(compiled, helpers);
        return out_;
    }

private:
    void line(const std::string& text, int indent = 0) { out_ += std::string(static_cast<size_t>(indent) * 4, ' ') + text + "\n"; }

    std::string shapeText(const std::vector<int>& shape) const {
        std::string s;
        for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
        return s;
    }
    int numel() const {
        int n = 1;
        for (int s : shape_) n *= s;
        return n;
    }
    int rank() const { return static_cast<int>(shape_.size()); }
    // A dim of the common shape, sometimes negative, rarely out of range.
    std::string dim() {
        if (rng_.chance(3)) return std::to_string(rank() + rng_.between(0, 2));
        int d = rng_.below(rank());
        return std::to_string(rng_.chance(30) ? d - rank() : d);
    }
    std::string number() {
        switch (rng_.below(4)) {
        case 0: return std::to_string(rng_.between(-3, 5));
        case 1: return rng_.pick<std::string>({"0.5", "1.5", "-2.25", "3.0", "0.1"});
        case 2: return "n";
        default: return std::to_string(rng_.between(1, 3));
        }
    }
    std::string dtypeArg() {
        if (rng_.chance(60)) return "";
        return ", dtype=torch." + rng_.pick<std::string>({"float32", "float64", "int64", "int32", "float16", "bool", "bfloat16"});
    }
    // A fresh tensor of the common shape (or, rarely, of a different one).
    std::string creation() {
        std::vector<int> shape = shape_;
        if (rng_.chance(5)) shape.back() += 1;  // mismatched shape
        if (rng_.chance(5) && shape.size() > 1) shape.erase(shape.begin());  // broadcastable lower rank
        std::string sizes = shapeText(shape);
        int n = 1;
        for (int s : shape) n *= s;
        switch (rng_.below(7)) {
        case 0: return "torch.ones(" + sizes + dtypeArg() + ")";
        case 1: return "torch.zeros(" + sizes + dtypeArg() + ")";
        case 2: return "torch.full((" + sizes + (shape.size() == 1 ? "," : "") + "), " + number() + ")";
        case 3: return "torch.arange(" + std::to_string(n) + dtypeArg() + ").reshape(" + sizes + ")";
        case 4: return "(torch.arange(" + std::to_string(n) + ".0) - " + std::to_string(n / 2) + ").view(" + sizes + ")";
        case 5: return "torch.linspace(-2, 3, " + std::to_string(n) + ").view(" + sizes + ")";
        default: {
            std::string data;
            for (int i = 0; i < n; ++i) data += (i ? ", " : "") + std::to_string(rng_.between(-4, 4)) + (rng_.chance(50) ? ".5" : "");
            return "torch.tensor([" + data + "]).view(" + sizes + ")";
        }
        }
    }
    // A tensor expression that (mostly) broadcasts to the common shape.
    std::string tensorExpr(const std::vector<std::string>& vars, int depth) {
        if (depth <= 0 || rng_.chance(25)) return rng_.pick(vars);
        std::string a = tensorExpr(vars, depth - 1);
        switch (rng_.below(16)) {
        case 0:
        case 1: return "(" + a + " " + rng_.pick<std::string>({"+", "-", "*", "/"}) + " " + tensorExpr(vars, depth - 1) + ")";
        case 2: return "(" + a + " " + rng_.pick<std::string>({"+", "*", "-", "/", "//", "%", "**"}) + " " + number() + ")";
        case 3:
            return "torch." + rng_.pick<std::string>({"abs", "exp", "sin", "cos", "tanh", "sigmoid", "relu", "neg", "floor", "sqrt", "log", "erf", "rsqrt", "ceil"}) +
                   "(" + a + ")";
        case 4: return a + "." + rng_.pick<std::string>({"abs", "exp", "neg", "tanh", "relu", "sigmoid", "round", "reciprocal"}) + "()";
        case 5:
            return a + "." + rng_.pick<std::string>({"sum", "mean", "amax", "amin", "prod"}) + "(dim=" + dim() + ", keepdim=True)";
        case 6: return a + ".sum()";
        case 7: return a + ".reshape(-1).view(" + shapeText(shape_) + ")";
        case 8: return a + "[" + index() + "]";
        case 9: return "torch.where(" + a + " > " + number() + ", " + a + ", " + tensorExpr(vars, depth - 1) + ")";
        case 10: return a + ".clamp(" + number() + ", " + std::to_string(rng_.between(2, 6)) + ")";
        case 11: return "torch." + rng_.pick<std::string>({"maximum", "minimum", "add", "mul", "sub"}) + "(" + a + ", " + tensorExpr(vars, depth - 1) + ")";
        case 12: return a + ".unsqueeze(0).squeeze(0)";
        case 13: return a + ".to(torch." + rng_.pick<std::string>({"float32", "float64", "int64"}) + ")";
        case 14: return "torch.softmax(" + a + ".float(), dim=" + dim() + ")";
        default: return a + ".contiguous()";
        }
    }
    // An index into the common shape: one that keeps broadcasting valid or, rarely, is out of range.
    std::string index() {
        int last = shape_.back();
        switch (rng_.below(6)) {
        case 0: return std::to_string(rng_.below(shape_[0]));  // drops the first dim
        case 1: {
            int j = rng_.below(last);
            return "..., " + std::to_string(j) + ":" + std::to_string(j + 1);
        }
        case 2: return "...";
        case 3: return ":";
        case 4: return std::to_string(shape_[0] + rng_.between(0, 3));  // out of range
        default: return "..., " + std::to_string(-rng_.between(1, last + 1)) + ":";
        }
    }
    std::string intExpr() {
        switch (rng_.below(5)) {
        case 0: return "n + " + std::to_string(rng_.between(0, 3));
        case 1: return "n * " + std::to_string(rng_.between(1, 3));
        case 2: return "len(xs)";
        case 3: return "x.shape[" + std::to_string(rng_.below(rank())) + "]";
        default: return std::to_string(rng_.between(-2, 4));
        }
    }

    void helper(int h) {
        line("def helper" + std::to_string(h) + "(a, k):");
        std::vector<std::string> vars = {"a"};
        if (rng_.chance(50)) {
            line("if k > " + std::to_string(rng_.between(0, 3)) + ":", 1);
            line("a = " + tensorExpr(vars, 2), 2);
        }
        line("return " + tensorExpr({"a"}, 2) + " * k", 1);
        line("");
    }

    void compiledFunction(int c, int helpers) {
        line(decorators_[static_cast<size_t>(rng_.below(static_cast<int>(decorators_.size())))]);
        line("def fn" + std::to_string(c) + "(x, y, n, xs):");
        std::vector<std::string> vars = {"x", "y"};
        int statements = rng_.between(1, 6);
        int loops = 0;
        for (int s = 0; s < statements; ++s) body(vars, helpers, 1, loops);
        switch (rng_.below(4)) {
        case 0: line("return " + tensorExpr(vars, 2) + ", n + 1", 1); break;
        case 1: line("return [" + tensorExpr(vars, 1) + ", " + tensorExpr(vars, 1) + "]", 1); break;
        default: line("return " + tensorExpr(vars, 3), 1);
        }
        line("");
    }

    void body(std::vector<std::string>& vars, int helpers, int indent, int& loops) {
        std::string v = "v" + std::to_string(vars.size());
        switch (rng_.below(14)) {
        case 0:
        case 1:
        case 2:
            line(v + " = " + tensorExpr(vars, 3), indent);
            vars.push_back(v);
            return;
        case 3: {
            line(v + " = " + tensorExpr(vars, 1), indent);
            vars.push_back(v);
            line("if n > " + std::to_string(rng_.between(0, 3)) + ":", indent);
            line(v + " = " + tensorExpr(vars, 2), indent + 1);
            line("else:", indent);
            line(v + " = " + v + " * " + number(), indent + 1);
            return;
        }
        case 4: {
            line(v + " = " + tensorExpr(vars, 1), indent);
            vars.push_back(v);
            line("if " + v + ".sum() > " + number() + ":", indent);
            line(v + " = " + v + " + 1", indent + 1);
            return;
        }
        case 5: {
            if (loops > 1) return;
            ++loops;
            line(v + " = " + tensorExpr(vars, 1), indent);
            vars.push_back(v);
            std::string i = "i" + std::to_string(indent);
            line("for " + i + " in range(" + std::to_string(rng_.between(0, 3)) + "):", indent);
            line(v + " = " + v + " + " + i + " * " + tensorExpr(vars, 1), indent + 1);
            return;
        }
        case 6: {
            if (loops > 1) return;
            ++loops;
            // Bounded: the counter moves first thing in every iteration.
            std::string j = "j" + std::to_string(indent);
            line(v + " = " + tensorExpr(vars, 1), indent);
            vars.push_back(v);
            line(j + " = 0", indent);
            line("while " + j + " < " + std::to_string(rng_.between(0, 3)) + ":", indent);
            line(j + " += 1", indent + 1);
            line(v + " = " + v + " * 2 - " + tensorExpr(vars, 1), indent + 1);
            return;
        }
        case 7: line("print('" + v + "', " + tensorExpr(vars, 1) + ")", indent); return;
        case 8: line("torch._dynamo.graph_break()", indent); return;
        case 9:
            line(v + " = " + tensorExpr(vars, 1) + ".sum().item()", indent);
            line("n = n + int(" + v + " > 0)", indent);
            return;
        case 10:
            if (helpers == 0) return;
            line(v + " = helper" + std::to_string(rng_.below(helpers)) + "(" + tensorExpr(vars, 1) +
                     (rng_.chance(5) ? ")" : ", " + intExpr() + ")"),
                 indent);
            vars.push_back(v);
            return;
        case 11:
            line(v + " = " + tensorExpr(vars, 1) + " + xs[0] * xs[" + std::to_string(rng_.chance(5) ? 2 : rng_.below(2)) + "]", indent);
            vars.push_back(v);
            return;
        case 12:
            line(v + " = " + tensorExpr(vars, 1) + " * " + intExpr(), indent);
            vars.push_back(v);
            return;
        default:
            line("n = " + intExpr(), indent);
            return;
        }
    }

    std::string callArgs() {
        std::string x = rng_.pick<std::string>({"a", "b", "c", creation()});
        std::string y = rng_.pick<std::string>({"a", "b", "c"});
        std::string n = std::to_string(rng_.between(-1, 4));
        std::string xs = rng_.chance(50) ? "[" + std::to_string(rng_.between(1, 3)) + ", 2.5]" : "(a, 2)";
        if (rng_.chance(3)) return x + ", " + y;  // wrong argument count
        return x + ", " + y + ", " + n + ", " + xs;
    }

    void mainBody(int compiled, int helpers) {
        line("a = " + creation());
        line("b = " + creation());
        line("c = " + creation());
        int calls = rng_.between(2, 7);
        for (int k = 0; k < calls; ++k) {
            std::string fn = "fn" + std::to_string(rng_.below(compiled));
            switch (rng_.below(9)) {
            case 0: line("torch._dynamo.reset()"); break;
            case 1: line("b = " + creation()); break;
            case 2: line("print(" + tensorExpr({"a", "b", "c"}, 2) + ")"); break;
            case 3:
                if (helpers) line("print(helper0(a, " + std::to_string(rng_.between(0, 3)) + "))");
                break;
            case 4: line("print(" + fn + "(" + callArgs() + ")[0].shape)"); break;
            case 5: line("r = " + fn + "(" + callArgs() + ")\nprint(f'{r}', [r] if " + std::to_string(rng_.below(2)) + " else (r, 1.5))"); break;
            default: line("print(" + fn + "(" + callArgs() + "))");
            }
        }
        line("print(" + std::string("a.sum().item(), [1, 2.5, (3,)], 7 // 2") + ")");
    }

    Rng rng_;
    Decorators decorators_;
    std::string out_;
    std::vector<int> shape_;
};

// The same script with every @torch.compile decorator turned into a comment, so line
// numbers stay the same.
std::string eagerVersion(const std::string& script) {
    std::string out;
    size_t pos = 0;
    while (pos < script.size()) {
        size_t end = script.find('\n', pos);
        std::string l = script.substr(pos, end - pos);
        out += (l.rfind("@torch.compile", 0) == 0 ? "# " + l : l) + "\n";
        pos = end == std::string::npos ? script.size() : end + 1;
    }
    return out;
}


// Whether two outputs agree once printed numbers are read as numbers: generated code
// rounds differently from eager kernels in the last bits, which can flip a printed digit.
// Errors must agree in kind and message (generated code reports an integer division by
// zero at the graph's first integer division, not necessarily at the one that failed).
bool agreeUpToFloatRounding(const std::string& a, const std::string& b) {
    static const std::regex number(R"([-+]?(\d+\.?\d*(e[-+]?\d+)?|inf|nan))");
    auto tokens = [](const std::string& text) {
        std::vector<std::string> out;
        std::string rest = std::regex_replace(text, std::regex(R"(script\.py:\d+:\d+: )"), "");
        rest = std::regex_replace(rest, std::regex(R"(\s+)"), " ");
        for (std::sregex_token_iterator it(rest.begin(), rest.end(), number, {-1, 0}), end; it != end; ++it) out.push_back(*it);
        return out;
    };
    auto x = tokens(a), y = tokens(b);
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
        if (x[i] == y[i]) continue;
        if (!std::regex_match(x[i], number) || !std::regex_match(y[i], number)) return false;
        double p = std::strtod(x[i].c_str(), nullptr), q = std::strtod(y[i].c_str(), nullptr);
        if (std::abs(p - q) > 1e-4 + 1e-3 * std::max(std::abs(p), std::abs(q))) return false;
    }
    return true;
}

struct FuzzRun {
    Decorators decorators;
    int scripts = 0;
    bool exact = true;  // outputs must be identical (else equal up to float rounding)
};

void fuzz(const FuzzRun& config) {
    const std::regex errorShape(R"(script\.py:([1-9][0-9]*):([1-9][0-9]*): error: [\s\S]+)");
    // FUSESCOPE_FUZZ_SEED explores other scripts by hand; the test itself always uses the fixed seed.
    const char* seedText = std::getenv("FUSESCOPE_FUZZ_SEED");
    ScriptGenerator generator(seedText ? std::strtoull(seedText, nullptr, 10) : 20240611, config.decorators);
    int succeeded = 0, failed = 0, mismatches = 0, compiles = 0;
    std::map<std::string, int> errorKinds;
    for (int i = 0; i < config.scripts; ++i) {
        std::string script = generator.generate();
        auto started = std::chrono::steady_clock::now();
        auto compiled = runScript(script);
        auto eager = runScript(eagerVersion(script));
        double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        EXPECT_LT(seconds, 5.0) << "script " << i << " is slow:\n" << script;
        for (const auto* run : {&compiled, &eager}) {
            if (!run->error.empty()) {
                EXPECT_TRUE(std::regex_match(run->error, errorShape)) << run->error << "\nin script " << i << ":\n" << script;
            }
        }
        (compiled.error.empty() ? succeeded : failed)++;
        compiles += compiled.compiles;
        if (!compiled.error.empty()) {
            size_t at = compiled.error.find("error: ");
            errorKinds[compiled.error.substr(at + 7, compiled.error.find(':', at + 7) - at - 7)]++;
        }
        if (std::getenv("FUSESCOPE_FUZZ_DUMP")) std::printf("---- script %d\n%s==== %s\n%s\n", i, script.c_str(), compiled.out.c_str(), compiled.error.c_str());
        // An op's error in compiled code escapes as PyTorch's TorchRuntimeError, in its fake
        // kernel's words: it agrees with eager's RuntimeError raised at the same place.
        std::string eagerError = eager.error;
        if (const size_t at = compiled.error.find(": error: TorchRuntimeError: "); at != std::string::npos) {
            EXPECT_EQ(eagerError.substr(0, at + 23), compiled.error.substr(0, at) + ": error: RuntimeError: ") << script;
            eagerError = compiled.error;
        }
        bool same = config.exact ? compiled.out == eager.out && compiled.error == eagerError
                                 : agreeUpToFloatRounding(compiled.out + compiled.error, eager.out + eagerError);
        if (!same) {
            ++mismatches;
            ADD_FAILURE() << "script " << i << " differs compiled vs eager:\n"
                          << script << "\n--- compiled output:\n" << compiled.out << compiled.error
                          << "\n--- eager output:\n" << eager.out << eager.error;
        }
    }
    // The grammar is tuned so that most scripts run through and some fail on purpose.
    EXPECT_GT(succeeded, config.scripts / 4);
    EXPECT_GT(failed, 0);
    EXPECT_GT(compiles, config.scripts);
    std::printf("fuzz: %d scripts ran through, %d ended in an error, %d compiles, %d compiled/eager mismatches\n", succeeded,
                failed, compiles, mismatches);
    for (const auto& [kind, count] : errorKinds) std::printf("  %s: %d\n", kind.c_str(), count);
}

}  // namespace

TEST(ScriptFuzz, RandomScriptsNeverCrashNameTheirErrorsAndMatchEager) { fuzz({kEagerBackend, 1000, true}); }

// The same scripts through generated C++ (the inductor backend), every graph of them.
TEST(ScriptFuzz, RandomScriptsThroughInductorMatchEagerUpToFloatRounding) { fuzz({kInductor, 300, false}); }

TEST(ScriptFuzz, FloatRoundingComparisonStillCatchesRealDifferences) {
    EXPECT_TRUE(agreeUpToFloatRounding("tensor([0.9989, 2.])", "tensor([0.9990, 2.])"));
    EXPECT_TRUE(agreeUpToFloatRounding("script.py:3:4: error: RuntimeError: ZeroDivisionError",
                                       "script.py:5:1: error: RuntimeError: ZeroDivisionError"));
    EXPECT_FALSE(agreeUpToFloatRounding("tensor([1.5000])", "tensor([-1.5000])"));
    EXPECT_FALSE(agreeUpToFloatRounding("tensor([7.0e+11])", "tensor([1.0])"));
    EXPECT_FALSE(agreeUpToFloatRounding("True", "False"));
}
