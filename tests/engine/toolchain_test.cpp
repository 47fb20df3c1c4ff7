// The in-process C++ toolchain: Clang compiles generated C++ at -O3 for the host CPU, the
// ORC JIT loads it, compiled objects are cached on disk, and unloaded modules free their
// memory.

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sched.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "test_support.h"
#include "toolchain/cpp_jit.h"

using namespace fusescope;
namespace fs = std::filesystem;

namespace {

const char* const kExpSource = R"(
extern "C" void exp_times_two(const float* __restrict a, float* __restrict b, long n) {
    for (long i = 0; i < n; ++i) b[i] = __builtin_expf(a[i]) * 2.0f;
}
)";

std::vector<float> ramp(int n, float from, float to) {
    std::vector<float> values(n);
    for (int i = 0; i < n; ++i) values[i] = from + (to - from) * i / (n - 1);
    return values;
}

// Runs exp_times_two over 1000 floats in [-10, 10] and checks b = 2 e^a to 1e-6 relative.
void expectExpTimesTwoWorks(const CompiledModule& module) {
    auto run = reinterpret_cast<void (*)(const float*, float*, long)>(module.symbol("exp_times_two"));
    std::vector<float> a = ramp(1000, -10.0f, 10.0f), b(1000);
    run(a.data(), b.data(), 1000);
    for (int i = 0; i < 1000; ++i) {
        double expected = 2.0 * std::exp(double(a[i]));
        ASSERT_NEAR(b[i], expected, 1e-6 * expected) << "a[" << i << "] = " << a[i];
    }
}

// The assembly calls a libmvec variant of `function` (e.g. _ZGVdN8v_expf, 8 floats in ymm).
bool calls(const std::string& assembly, const std::string& function) {
    return std::regex_search(assembly, std::regex("callq?\\s+_ZGV[bde]N[0-9]+v_" + function + "\\b"));
}

long residentBytes() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * sysconf(_SC_PAGESIZE);
}

std::string compileErrorOf(const std::string& source, const std::string& moduleName) {
    try {
        CppJit::instance().compile(source, moduleName);
    } catch (const CppCompileError& e) {
        return e.what();
    }
    return "(no CppCompileError)";
}

class ToolchainTest : public ::testing::Test {
protected:
    void SetUp() override {
        if (!CppJit::available()) GTEST_SKIP() << CppJit::unavailableReason();
        char pattern[] = "/tmp/fusescope-toolchain-test-XXXXXX";
        ASSERT_NE(mkdtemp(pattern), nullptr);
        cacheDir_ = pattern;
        jit().setCacheDir(cacheDir_);
    }
    void TearDown() override {
        if (!cacheDir_.empty()) fs::remove_all(cacheDir_);
    }

    static CppJit& jit() { return CppJit::instance(); }
    // The compiled entries (<key>.fsobj); each module's source sits beside it as <key>.cpp.
    std::vector<fs::path> cacheEntries() const {
        std::vector<fs::path> entries;
        for (const auto& entry : fs::directory_iterator(cacheDir_))
            if (entry.path().extension() == ".fsobj") entries.push_back(entry.path());
        return entries;
    }

    std::string cacheDir_;
};

TEST_F(ToolchainTest, ExpKernelComputesTheRightNumbers) {
    auto module = jit().compile(kExpSource, "exp_kernel");
    EXPECT_FALSE(module->fromCache);
    EXPECT_GT(module->compileSeconds, 0);
    expectExpTimesTwoWorks(*module);
}

TEST_F(ToolchainTest, ExpKernelIsVectorisedThroughLibmvec) {
    auto module = jit().compile(kExpSource, "exp_kernel");
    EXPECT_TRUE(module->assembly.find("%ymm") != std::string::npos ||
                module->assembly.find("%zmm") != std::string::npos)
        << module->assembly;
    EXPECT_TRUE(calls(module->assembly, "expf")) << module->assembly;
    EXPECT_NE(module->assembly.find("exp_times_two:"), std::string::npos);
    // the IR is the optimised one: the vectoriser has run
    EXPECT_NE(module->llvmIr.find("@exp_times_two("), std::string::npos) << module->llvmIr;
    EXPECT_NE(module->llvmIr.find("x float>"), std::string::npos) << module->llvmIr;
}

// On an AVX-512 host the vectors are 512 bits wide, though LLVM tunes its AVX-512 CPUs to
// prefer 256: the exp loop calls libmvec's 16-float variant, on zmm registers.
TEST_F(ToolchainTest, OnAnAvx512HostLoopsVectoriseAt512Bits) {
    if (!__builtin_cpu_supports("avx512f")) GTEST_SKIP() << "this CPU has no AVX-512";
    auto module = jit().compile(kExpSource, "exp_kernel");
    EXPECT_TRUE(std::regex_search(module->assembly, std::regex("callq?\\s+_ZGVeN16v_expf\\b"))) << module->assembly;
    expectExpTimesTwoWorks(*module);
}

TEST_F(ToolchainTest, TanhAndErfVectoriseThroughLibmvecToo) {
    auto module = jit().compile(R"(
extern "C" void tanh_plus_erf(const float* __restrict a, float* __restrict b, long n) {
    for (long i = 0; i < n; ++i) b[i] = __builtin_tanhf(a[i]) + __builtin_erff(a[i]);
}
)", "tanh_erf");
    for (const char* function : {"tanhf", "erff"})
        EXPECT_TRUE(calls(module->assembly, function)) << function << " is not vectorised:\n" << module->assembly;

    auto run = reinterpret_cast<void (*)(const float*, float*, long)>(module->symbol("tanh_plus_erf"));
    std::vector<float> a = ramp(1003, -4.0f, 4.0f), b(1003);
    run(a.data(), b.data(), 1003);
    for (int i = 0; i < 1003; ++i)
        ASSERT_NEAR(b[i], std::tanh(double(a[i])) + std::erf(double(a[i])), 1e-6) << "a[" << i << "] = " << a[i];
}

TEST_F(ToolchainTest, OpenMpParallelForRunsOnAllThreads) {
    auto module = jit().compile(R"(
extern "C" int omp_get_num_threads();
extern "C" int omp_get_max_threads();
extern "C" int max_threads() { return omp_get_max_threads(); }
extern "C" void add(const float* a, const float* b, float* out, long n) {
    #pragma omp parallel for
    for (long i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
extern "C" int team_size() {
    int size = 0;
    #pragma omp parallel
    {
        #pragma omp single
        size = omp_get_num_threads();
    }
    return size;
}
)", "omp_kernel");
    EXPECT_NE(module->assembly.find("__kmpc_fork_call"), std::string::npos);
    auto add = reinterpret_cast<void (*)(const float*, const float*, float*, long)>(module->symbol("add"));
    std::vector<float> a = ramp(100000, 0.0f, 1.0f), b = ramp(100000, 5.0f, -5.0f), out(100000);
    add(a.data(), b.data(), out.data(), 100000);
    for (int i = 0; i < 100000; ++i) ASSERT_EQ(out[i], a[i] + b[i]) << i;
    int teamSize = reinterpret_cast<int (*)()>(module->symbol("team_size"))();
    EXPECT_EQ(teamSize, reinterpret_cast<int (*)()>(module->symbol("max_threads"))());
    cpu_set_t cpus;
    ASSERT_EQ(sched_getaffinity(0, sizeof cpus, &cpus), 0);
    if (CPU_COUNT(&cpus) > 1 && !std::getenv("OMP_NUM_THREADS")) {
        EXPECT_GT(teamSize, 1);  // the loop really ran in parallel
    }
}

TEST_F(ToolchainTest, SyntaxErrorReportsLineColumnAndTheLine) {
    std::string message = compileErrorOf(R"(extern "C" int good() { return 1; }
extern "C" int bad() {
    return 1 +;
}
)", "broken");
    EXPECT_NE(message.find("broken.cpp:3:15: error: expected expression"), std::string::npos) << message;
    EXPECT_NE(message.find("     3 |     return 1 +;"), std::string::npos) << message;
    EXPECT_EQ(message.find("     1 |"), std::string::npos) << message;  // only the lines in error
    EXPECT_TRUE(cacheEntries().empty());
}

TEST_F(ToolchainTest, SemanticErrorsListEveryLineInError) {
    std::string message = compileErrorOf(R"(extern "C" float f(float x) {
    float y = undefined_name;
    return x + y;
}
extern "C" void g() { int* p = 1.5f; }
)", "sema");
    EXPECT_NE(message.find("sema.cpp:2:15: error: use of undeclared identifier 'undefined_name'"), std::string::npos)
        << message;
    EXPECT_NE(message.find("sema.cpp:5:28: error: cannot initialize a variable"), std::string::npos) << message;
    EXPECT_NE(message.find("     2 |     float y = undefined_name;"), std::string::npos) << message;
    EXPECT_NE(message.find("     5 | extern \"C\" void g() { int* p = 1.5f; }"), std::string::npos) << message;
}

TEST_F(ToolchainTest, SecondCompileComesFromTheCache) {
    auto first = jit().compile(kExpSource, "exp_kernel");
    ASSERT_FALSE(first->fromCache);
    ASSERT_EQ(cacheEntries().size(), 1u);
    std::string llvmIr = first->llvmIr, assembly = first->assembly;
    first.reset();

    auto second = jit().compile(kExpSource, "exp_kernel");
    EXPECT_TRUE(second->fromCache);
    // The source is kept beside the entry, so traces can name a file users can open.
    EXPECT_EQ(fs::path(second->sourcePath).parent_path(), fs::path(cacheDir_));
    EXPECT_EQ(test::readFile(second->sourcePath), kExpSource);
    EXPECT_FALSE(second->llvmIr.empty());
    EXPECT_EQ(second->llvmIr, llvmIr);  // packed in the entry, unpacked as it was
    EXPECT_EQ(second->assembly, assembly);
    expectExpTimesTwoWorks(*second);
    // The text is stored compressed: the entry is smaller than the IR alone.
    EXPECT_LT(fs::file_size(cacheEntries().front()), llvmIr.size());
}

// Comment lines (a graph's file:line notes) decide nothing compiled: the same kernel written
// from another folder is a hit, and each source is kept as it was written.
TEST_F(ToolchainTest, SourcesThatDifferOnlyInCommentLinesShareAnEntry) {
    auto first = jit().compile(std::string("// /home/a/model.py:3: y = x.exp() * 2\n") + kExpSource, "exp_kernel");
    ASSERT_FALSE(first->fromCache);
    const std::string other = std::string("  // /tmp/clone/model.py:3: y = x.exp() * 2\n") + kExpSource;
    auto second = jit().compile(other, "exp_kernel");
    EXPECT_TRUE(second->fromCache);
    EXPECT_EQ(cacheEntries().size(), 1u);
    EXPECT_NE(second->sourcePath, first->sourcePath);
    EXPECT_EQ(test::readFile(second->sourcePath), other);
    expectExpTimesTwoWorks(*second);
    // A changed line of code is another kernel.
    EXPECT_FALSE(jit().compile(std::string(kExpSource) + "extern \"C\" int one() { return 1; }\n", "exp_kernel")->fromCache);
}

TEST_F(ToolchainTest, CorruptCacheEntryIsIgnoredAndRewritten) {
    jit().compile(kExpSource, "exp_kernel");
    ASSERT_EQ(cacheEntries().size(), 1u);
    fs::path entry = cacheEntries()[0];
    {
        std::fstream file(entry, std::ios::in | std::ios::out | std::ios::binary);
        file.seekp(200);
        file.put('\x7f');  // one changed byte inside the object
    }
    auto recompiled = jit().compile(kExpSource, "exp_kernel");
    EXPECT_FALSE(recompiled->fromCache);
    expectExpTimesTwoWorks(*recompiled);

    fs::resize_file(entry, fs::file_size(entry) / 2);  // a truncated entry
    EXPECT_FALSE(jit().compile(kExpSource, "exp_kernel")->fromCache);
    EXPECT_TRUE(jit().compile(kExpSource, "exp_kernel")->fromCache);
    EXPECT_EQ(cacheEntries().size(), 1u);  // no temporary files left behind
}

// A load marks its entry used, so the size limit removes the entries unused longest first.
TEST_F(ToolchainTest, ALoadFromTheCacheMarksTheEntryUsed) {
    jit().compile(kExpSource, "exp_kernel");
    ASSERT_EQ(cacheEntries().size(), 1u);
    fs::path entry = cacheEntries()[0];
    auto dayAgo = fs::file_time_type::clock::now() - std::chrono::hours(24);
    fs::last_write_time(entry, dayAgo);
    ASSERT_TRUE(jit().compile(kExpSource, "exp_kernel")->fromCache);
    EXPECT_GT(fs::last_write_time(entry), dayAgo + std::chrono::hours(23));
}

// A store trims the folder to its limit: an old entry of another kernel goes, the new one stays.
TEST_F(ToolchainTest, StoringAnEntryTrimsTheFolderToItsLimit) {
    fs::path old = fs::path(cacheDir_) / "0123.fsobj";
    std::ofstream(old) << std::string(1 << 20, 'x');  // 1 MiB, over the limit alone
    fs::last_write_time(old, fs::file_time_type::clock::now() - std::chrono::hours(24));
    test::ScopedEnv limit("FUSESCOPE_CACHE_MAX_SIZE", "512K");
    EXPECT_FALSE(jit().compile(kExpSource, "exp_kernel")->fromCache);
    EXPECT_FALSE(fs::exists(old));
    ASSERT_EQ(cacheEntries().size(), 1u);
    EXPECT_TRUE(jit().compile(kExpSource, "exp_kernel")->fromCache);
}

TEST_F(ToolchainTest, ModulesMayDefineTheSameNames) {
    auto one = jit().compile(R"(extern "C" int value() { return 1; })", "same_name");
    auto two = jit().compile(R"(extern "C" int value() { return 2; })", "same_name");
    EXPECT_EQ(reinterpret_cast<int (*)()>(one->symbol("value"))(), 1);
    EXPECT_EQ(reinterpret_cast<int (*)()>(two->symbol("value"))(), 2);
    one.reset();
    EXPECT_EQ(reinterpret_cast<int (*)()>(two->symbol("value"))(), 2);
}

TEST_F(ToolchainTest, UnknownSymbolThrows) {
    auto module = jit().compile(R"(extern "C" int value() { return 1; })", "lookup");
    try {
        module->symbol("valeu");
        FAIL() << "no Error";
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "C++ module 'lookup' defines no symbol 'valeu'");
    }
}

extern "C" double fusescopeTestTriple(double x) { return 3 * x; }
extern "C" double fusescopeTestOther(double x) { return x; }

TEST_F(ToolchainTest, GeneratedCodeCallsDefinedHostFunctions) {
    jit().defineSymbol("fusescope_test_triple", reinterpret_cast<void*>(&fusescopeTestTriple));
    jit().defineSymbol("fusescope_test_triple", reinterpret_cast<void*>(&fusescopeTestTriple));  // again: fine
    EXPECT_THROW(jit().defineSymbol("fusescope_test_triple", reinterpret_cast<void*>(&fusescopeTestOther)), Error);

    auto module = jit().compile(R"(
extern "C" double fusescope_test_triple(double);
extern "C" double triple_plus_one(double x) { return fusescope_test_triple(x) + 1; }
)", "host_call");
    EXPECT_EQ(reinterpret_cast<double (*)(double)>(module->symbol("triple_plus_one"))(2.0), 7.0);
}

TEST_F(ToolchainTest, CallToAnUndefinedFunctionFailsAtLoad) {
    try {
        jit().compile(R"(
extern "C" int nowhere_to_be_found(int);
extern "C" int f(int x) { return nowhere_to_be_found(x); }
)", "undefined_call");
        FAIL() << "no Error";
    } catch (const CppCompileError& e) {
        FAIL() << "compiles fine; only linking fails: " << e.what();
    } catch (const Error& e) {
        EXPECT_STREQ(e.what(), "C++ JIT: linking module 'undefined_call': Symbols not found: [ nowhere_to_be_found ]");
    }
}

TEST_F(ToolchainTest, BuiltinHeadersComeFromClangsResourceDir) {
    auto module = jit().compile(R"(
#include <stddef.h>
extern "C" size_t max_align() { return alignof(max_align_t); }
)", "headers");
    EXPECT_EQ(reinterpret_cast<size_t (*)()>(module->symbol("max_align"))(), alignof(std::max_align_t));
}

TEST_F(ToolchainTest, CompilesFromSeveralThreadsAtOnce) {
    std::vector<int> results(4);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            try {
                auto module = jit().compile("extern \"C\" int id() { return " + std::to_string(t) + "; }", "threaded");
                results[t] = reinterpret_cast<int (*)()>(module->symbol("id"))();
            } catch (const Error& e) {
                ADD_FAILURE() << e.what();
            }
        });
    for (auto& thread : threads) thread.join();
    EXPECT_EQ(results, (std::vector<int>{0, 1, 2, 3}));
}

TEST_F(ToolchainTest, UnloadedModulesGiveTheirMemoryBack) {
#ifdef __SANITIZE_ADDRESS__
    GTEST_SKIP() << "AddressSanitizer keeps freed memory in quarantine; LeakSanitizer checks for leaks instead";
#endif
    auto kernel = [](int i) {
        return std::string(kExpSource) + "extern \"C\" int variant() { return " + std::to_string(i) + "; }\n";
    };
    for (int i = 0; i < 5; ++i) jit().compile(kernel(i), "warm_up");  // allocator and JIT warm-up
    long before = residentBytes();
    for (int i = 0; i < 50; ++i) {
        auto module = jit().compile(kernel(1000 + i), "churn");
        ASSERT_FALSE(module->fromCache);
        ASSERT_EQ(reinterpret_cast<int (*)()>(module->symbol("variant"))(), 1000 + i);
    }
    EXPECT_LT(residentBytes() - before, 50L << 20);
}

}  // namespace
