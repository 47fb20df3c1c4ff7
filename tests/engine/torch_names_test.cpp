// A missing attribute of torch, a Tensor, torch.nn or torch.nn.functional is worded by what
// real PyTorch has (script/torch_names.h): a typo gets the closest name, a name PyTorch has
// is one Fusescope does not implement yet, and anything else is just missing.

#include <gtest/gtest.h>

#include <string>

#include "script/torch_names.h"
#include "test_support.h"

namespace fusescope::test {
namespace {

TEST(TorchNames, TheListsAreRealPyTorchs) {
    EXPECT_STREQ(kTorchNamesVersion, "2.15.0");
    EXPECT_TRUE(torchHasName("torch", "cos"));
    EXPECT_TRUE(torchHasName("torch", "histc"));
    EXPECT_TRUE(torchHasName("torch.Tensor", "masked_fill_"));
    EXPECT_TRUE(torchHasName("torch.nn.functional", "gelu"));
    EXPECT_TRUE(torchHasName("torch.nn", "TransformerEncoderLayer"));
    EXPECT_FALSE(torchHasName("torch", "cso"));
    EXPECT_FALSE(torchHasName("torch", "_C"));  // public names only
    EXPECT_FALSE(torchHasName("numpy", "cos"));
}

TEST(TorchNames, TheClosestNameIsWithinAThirdOfTheLength) {
    EXPECT_EQ(closestName("cso", {"cos", "cosh", "sin"}), "cos");  // two neighbours swapped: one edit
    EXPECT_EQ(closestName("softmx", {"softmax", "log_softmax", "softmin"}), "softmax");
    EXPECT_EQ(closestName("frobnicate", {"cos", "flatten", "float"}), std::nullopt);
    EXPECT_EQ(closestName("cos", {"cos"}), std::nullopt);  // itself is no suggestion
}

TEST(TorchNames, AScriptsTypoIsAnsweredWithTheClosestName) {
    struct Case {
        std::string line, error;
    };
    for (const Case& c : {
             Case{"torch.cso(x)", "AttributeError: module 'torch' has no attribute 'cso'. Did you mean: 'cos'?"},
             Case{"x.cso()", "AttributeError: 'Tensor' object has no attribute 'cso'. Did you mean: 'cos'?"},
             Case{"torch.nn.functional.rleu(x)", "AttributeError: module 'torch.nn.functional' has no attribute 'rleu'. Did you mean: 'relu'?"},
             Case{"torch.stft(x)", "AttributeError: module 'torch' has no attribute 'stft' (PyTorch has torch.stft; Fusescope does not implement it yet)"},
             Case{"x.frobnicate()", "AttributeError: 'Tensor' object has no attribute 'frobnicate'"},
         }) {
        ScriptRun run = runScript("import torch\nx = torch.ones(3)\n" + c.line + "\n");
        EXPECT_NE(run.error.find(c.error), std::string::npos) << c.line << ": " << run.error;
    }
}

}  // namespace
}  // namespace fusescope::test
