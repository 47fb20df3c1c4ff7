#pragma once
// Names for the size symbols of one compile, as PyTorch 2.15's ShapeEnv gives them: s{n}, n the
// sha256 of the size's source name ("L['x'].size()[0]" -> s77) modulo 100, the next free
// number where it is taken. So graphs and guards name the same dim alike on both sides. A
// build without OpenSSL numbers them in order instead (s0, s1, ...).

#include <set>
#include <string>

namespace fusescope {

class SymbolNames {
public:
    std::string next(const std::string& sourceName);

private:
    std::set<int> used_;
};

}  // namespace fusescope
