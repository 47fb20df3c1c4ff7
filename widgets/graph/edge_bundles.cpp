#include "graph/edge_bundles.h"

#include <algorithm>
#include <map>
#include <set>

namespace fusescope::gui {

namespace {

constexpr double kGap = 10;  // a bus runs this far from the row of boxes it serves

using Buses = std::map<double, std::pair<double, double>>;  // y -> x extent

void widen(Buses& buses, double y, double x0, double x1) {
    auto [bus, added] = buses.emplace(y, std::pair{std::min(x0, x1), std::max(x0, x1)});
    if (!added) bus->second = {std::min({bus->second.first, x0, x1}), std::max({bus->second.second, x0, x1})};
}

void addBuses(const Buses& buses, std::vector<Polyline>& out) {
    for (const auto& [y, extent] : buses) out.push_back({{extent.first, y}, {extent.second, y}});
}

// One source, many targets: a trunk down from the source, a bus above each row of targets.
void addFanOut(const std::vector<const RoutedEdge*>& fan, BundledEdges& out) {
    const LayoutPoint source = fan.front()->points.front();
    Buses buses;
    double deepest = source.y;
    for (const RoutedEdge* e : fan) {
        const LayoutPoint& target = e->points.back();
        double y = std::max(source.y, target.y - kGap);
        widen(buses, y, source.x, target.x);
        deepest = std::max(deepest, y);
        out.lines.push_back({{target.x, y}, target});
        out.heads.push_back({{target.x, y}, target});
    }
    out.lines.push_back({source, {source.x, deepest}});
    addBuses(buses, out.lines);
}

// Many sources, one target: a bus under each row of sources, a trunk down into the target.
void addFanIn(const std::vector<const RoutedEdge*>& fan, BundledEdges& out) {
    const LayoutPoint target = fan.front()->points.back();
    Buses buses;
    double highest = target.y;
    for (const RoutedEdge* e : fan) {
        const LayoutPoint& source = e->points.front();
        double y = std::min(target.y, source.y + kGap);
        widen(buses, y, source.x, target.x);
        highest = std::min(highest, y);
        out.lines.push_back({source, {source.x, y}});
    }
    out.lines.push_back({{target.x, highest}, target});
    out.heads.push_back({{target.x, highest}, target});
    addBuses(buses, out.lines);
}

}  // namespace

BundledEdges bundledEdges(const std::vector<RoutedEdge>& edges, int minFan) {
    BundledEdges result;
    std::set<const RoutedEdge*> bundled;
    // Groups the downward edges not bundled yet by `end`; each group of minFan or more is a comb.
    auto bundle = [&](int RoutedEdge::*end, void (*addComb)(const std::vector<const RoutedEdge*>&, BundledEdges&)) {
        std::map<int, std::vector<const RoutedEdge*>> groups;
        for (const RoutedEdge& e : edges)
            if (!e.points.empty() && !e.reversed && !bundled.count(&e)) groups[e.*end].push_back(&e);
        for (const auto& [node, fan] : groups)
            if (static_cast<int>(fan.size()) >= minFan) {
                addComb(fan, result);
                bundled.insert(fan.begin(), fan.end());
                ++result.combs;
            }
    };
    bundle(&RoutedEdge::from, addFanOut);
    bundle(&RoutedEdge::to, addFanIn);
    for (const RoutedEdge& e : edges)
        if (!e.points.empty() && !bundled.count(&e)) {
            result.lines.push_back(e.points);
            if (e.points.size() >= 2) result.heads.push_back({e.points[e.points.size() - 2], e.points.back()});
        }
    return result;
}

}  // namespace fusescope::gui
