#pragma once
// Names for the size symbols of one compile, as PyTorch 2.15's ShapeEnv gives them: s{n}, n the
// sha256 of the size's source name ("L['x'].size()[0]" -> s77) modulo 100, the next free
// number where it is taken. So graphs and guards name the same dim alike on both sides. A
// build without OpenSSL numbers them in order instead (s0, s1, ...). A float's symbol is
// zf{n}, numbered alike from the same pool (L['self'].scale -> zf6).

#include <set>
#include <string>

namespace fusescope {

class SymbolNames {
public:
    std::string next(const std::string& sourceName, const char* prefix = "s");

private:
    std::set<int> used_;
};

}  // namespace fusescope
