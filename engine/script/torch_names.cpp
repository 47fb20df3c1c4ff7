#include "script/torch_names.h"

#include <algorithm>

#include <fmt/format.h>

namespace fusescope {

namespace {

const TorchScopeNames* scopeOf(std::string_view scope) {
    for (const TorchScopeNames& s : torchScopeNames())
        if (s.scope == scope) return &s;
    return nullptr;
}

// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
// neighbours each cost one.
size_t editDistance(std::string_view a, std::string_view b) {
    std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
    for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (size_t i = 1; i <= a.size(); ++i)
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

}  // namespace

bool torchHasName(std::string_view scope, std::string_view name) {
    const TorchScopeNames* s = scopeOf(scope);
    return s && std::binary_search(s->names.begin(), s->names.end(), name);
}

std::optional<std::string_view> torchClassModule(std::string_view scope, std::string_view name) {
    const TorchScopeNames* s = scopeOf(scope);
    if (!s) return std::nullopt;
    auto it = std::lower_bound(s->classes.begin(), s->classes.end(), name, [](const auto& e, std::string_view n) { return e.first < n; });
    if (it == s->classes.end() || it->first != name) return std::nullopt;
    return it->second;
}

bool torchNameIsPythonFunction(std::string_view scope, std::string_view name) {
    const TorchScopeNames* s = scopeOf(scope);
    return s && std::binary_search(s->pythonFunctions.begin(), s->pythonFunctions.end(), name);
}

bool torchNameIsInGraphFunction(std::string_view scope, std::string_view name) {
    const TorchScopeNames* s = scopeOf(scope);
    return s && std::binary_search(s->inGraphFunctions.begin(), s->inGraphFunctions.end(), name);
}

std::optional<std::string> closestName(std::string_view name, const std::vector<std::string_view>& candidates) {
    const size_t allowed = std::max<size_t>(1, name.size() / 3);
    std::optional<std::string> best;
    size_t bestDistance = allowed + 1;
    for (std::string_view candidate : candidates) {
        if (candidate == name || candidate.size() > name.size() + allowed || candidate.size() + allowed < name.size()) continue;
        size_t distance = editDistance(name, candidate);
        if (distance < bestDistance) {
            bestDistance = distance;
            best = std::string(candidate);
        }
    }
    return best;
}

std::string missingAttributeNote(std::string_view scope, std::string_view name, const std::vector<std::string_view>& ours) {
    if (torchHasName(scope, name)) {
        const bool torchScope = scope == "torch" || scope.starts_with("torch.");
        return fmt::format(" ({} has {}.{}; Fusescope does not implement it yet)", torchScope ? "PyTorch" : "Python", scope, name);
    }
    std::vector<std::string_view> candidates = ours;
    if (const TorchScopeNames* s = scopeOf(scope)) candidates.insert(candidates.end(), s->names.begin(), s->names.end());
    if (std::optional<std::string> close = closestName(name, candidates)) return fmt::format(". Did you mean: '{}'?", *close);
    return "";
}

}  // namespace fusescope
