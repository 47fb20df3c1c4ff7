// A script importing its own modules and packages: errors name the file that failed, the
// event stream and bundles carry every file the run imported, and a compiled function that
// reads another module's global recompiles when it changes (PyTorch's guard on
// G['__import_NAME'].x). The import semantics themselves are pinned against CPython by
// tests/scripts/reference/python/multi_file/.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "bundle/bundle_reader.h"
#include "test_support.h"

namespace fs = std::filesystem;
using namespace fusescope;
using namespace fusescope::test;

namespace {

TEST(ScriptImports, AnErrorInAnImportedModuleIsReportedAtItsFileAndLine) {
    std::string helper = writeTempFile("errs/helper.py", "VALUE = 1\nBROKEN = VALUE / 0\n");
    std::string main = writeTempFile("errs/main.py", "import torch\nimport helper\n");
    auto r = runCli({"run", main});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, helper + ":2:10: error: ZeroDivisionError: division by zero\n");
}

TEST(ScriptImports, ASyntaxErrorInAnImportedModuleNamesItsFile) {
    std::string bad = writeTempFile("syntax/pkg/bad.py", "def f(:\n    pass\n");
    writeTempFile("syntax/pkg/__init__.py", "");
    std::string main = writeTempFile("syntax/main.py", "from pkg import bad\n");
    auto r = runCli({"run", main});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err.rfind(bad + ":1:", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("SyntaxError"), std::string::npos) << r.err;
}

TEST(ScriptImports, ARelativeImportInTheScriptItselfIsPythonsImportError) {
    std::string main = writeTempFile("relative/main.py", "from . import sibling\n");
    auto r = runCli({"run", main});
    EXPECT_EQ(r.exitCode, 1);
    EXPECT_EQ(r.err, main + ":1:1: error: ImportError: attempted relative import with no known parent package\n");
}

TEST(ScriptImports, TheEventsAndTheBundleCarryEveryImportedFile) {
    std::string layers = "from .util import twice\n\ndef block(x):\n    return twice(x) + 1\n";
    writeTempFile("bundled/pkg/__init__.py", "");
    writeTempFile("bundled/pkg/util.py", "def twice(x):\n    return 2 * x\n");
    writeTempFile("bundled/pkg/layers.py", layers);
    std::string main = writeTempFile("bundled/main.py", "import torch\nfrom pkg.layers import block\nprint(block(torch.ones(2)))\n");
    std::string events = writeTempFile("bundled_events.jsonl", "");
    std::string bundlePath = (fs::path(main).parent_path().parent_path() / "bundled.fscope").string();
    auto r = runCli({"run", main, "--events", events, "--bundle", bundlePath});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "tensor([3., 3.])\n");
    const std::string stream = readFile(events);
    EXPECT_EQ(countOccurrences(stream, "\"type\":\"module_imported\""), 3);
    EXPECT_NE(stream.find("\"path\":\"pkg/layers.py\""), std::string::npos);

    Bundle bundle = readBundle(bundlePath);
    EXPECT_EQ(bundle.manifest.script, "main.py");
    EXPECT_EQ(bundle.files.at("script/pkg/layers.py"), layers);
    EXPECT_EQ(bundle.files.at("script/pkg/util.py"), "def twice(x):\n    return 2 * x\n");
    EXPECT_EQ(bundle.files.at("script/pkg/__init__.py"), "");
}

// sys.path as the script changes it reaches its later imports, searched in order as Python's
// path finder does: a folder put first shadows the script's own, a module found nowhere is
// still ModuleNotFoundError; the bundle keeps a file from a folder above the script's.
TEST(ScriptImports, FoldersPutOnSysPathAreSearchedInOrder) {
    writeTempFile("path_order/shared/helper.py", "NAME = 'shared'\n");
    writeTempFile("path_order/app/helper.py", "NAME = 'app'\n");
    writeTempFile("path_order/shared/tools/__init__.py", "from .fmt import fmt\n");
    writeTempFile("path_order/shared/tools/fmt.py", "def fmt(x):\n    return f'<{x}>'\n");
    std::string main = writeTempFile("path_order/app/main.py",
                                     "import os\nimport sys\n"
                                     "print(sys.path[0] == os.path.dirname(__file__))\n"
                                     "sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'shared'))\n"
                                     "import helper\nfrom tools import fmt\n"
                                     "print(helper.NAME, fmt(3), sys.path[1] == os.path.dirname(__file__))\n"
                                     "try:\n    import nowhere\nexcept ModuleNotFoundError as e:\n    print(e)\n");
    // CPython 3.11 prints the same (run there by hand).
    std::string bundlePath = (fs::path(main).parent_path() / "path_order.fscope").string();
    auto r = runCli({"run", main, "--bundle", bundlePath});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "True\nshared <3> True\nNo module named 'nowhere'\n");
    Bundle bundle = readBundle(bundlePath);
    EXPECT_EQ(bundle.files.at("script/__parent__/shared/helper.py"), "NAME = 'shared'\n");
    EXPECT_EQ(bundle.files.at("script/__parent__/shared/tools/fmt.py"), "def fmt(x):\n    return f'<{x}>'\n");
}

// The first call traces; the second is a direct call; after the module's global changes,
// neither the guards nor the direct call may reuse the old result.
TEST(ScriptImports, ACompiledFunctionReadingAnotherModulesGlobalRecompilesWhenItChanges) {
    writeTempFile("guarded/scaling.py", "SCALE = 2.0\n\ndef scaled(x):\n    return x * SCALE\n");
    std::string main = writeTempFile("guarded/main.py",
                                     "import torch\nimport scaling\n\n@torch.compile(backend='eager')\ndef f(x):\n"
                                     "    return scaling.scaled(x)\n\nx = torch.ones(2)\nprint(f(x))\nprint(f(x))\n"
                                     "scaling.SCALE = 3.0\nprint(f(x))\nprint(f(x))\n");
    auto r = runCli({"run", main, "--logs", "recompiles,guards"});
    ASSERT_EQ(r.exitCode, 0) << r.err;
    EXPECT_EQ(r.out, "tensor([2., 2.])\ntensor([2., 2.])\ntensor([3., 3.])\ntensor([3., 3.])\n");
    EXPECT_NE(r.err.find("G['__import_scaling'].SCALE == 2.0"), std::string::npos) << r.err;
    EXPECT_EQ(countOccurrences(r.err, "Recompiling function f"), 1) << r.err;
}

}  // namespace
