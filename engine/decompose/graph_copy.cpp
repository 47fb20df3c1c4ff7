#include "decompose/graph_copy.h"

#include <fmt/format.h>

#include "decompose/rewrite.h"

namespace fusescope {

Argument mapped(const Argument& a, const ValueMap& values) {
    if (a.kind == Argument::Kind::NodeRef) {
        auto it = values.find({a.node, a.outputIndex});
        if (it == values.end()) throw Error(fmt::format("internal error: {} was not copied", a.node->name));
        return it->second;
    }
    if (a.kind == Argument::Kind::Constant) return a;
    std::vector<Argument> items;
    for (const Argument& item : a.items) items.push_back(mapped(item, values));
    return Argument::sequence(std::move(items), a.kind == Argument::Kind::Tuple);
}

void forEachRef(const Argument& a, const std::function<void(const Argument&)>& visit) {
    if (a.kind == Argument::Kind::NodeRef) visit(a);
    for (const Argument& item : a.items) forEachRef(item, visit);
}

void forEachRef(const Node& n, const std::function<void(const Argument&)>& visit) {
    for (const Argument& a : n.args) forEachRef(a, visit);
    for (const auto& kw : n.kwargs) forEachRef(kw.second, visit);
}

Node* copyCall(GraphBuilder& b, const Node& n, ValueMap& values) {
    std::vector<Argument> args;
    for (const Argument& a : n.args) args.push_back(mapped(a, values));
    ArgumentKwargs kwargs;
    for (const auto& [name, a] : n.kwargs) kwargs.emplace_back(name, mapped(a, values));
    Node* c = b.call(n.target, std::move(args), std::move(kwargs));
    copyProvenance(n, *c);
    if (!n.symbolicScalar.empty()) {  // a SymInt (x.shape[0]) stays one, printed as it was
        c->symbolicScalar = n.symbolicScalar;
        c->style = n.style;
        c->operatorSymbol = n.operatorSymbol;
    }
    if (c->returnsTuple)
        for (size_t i = 0; i < c->meta.size(); ++i) values[{&n, static_cast<int>(i)}] = Argument::ref(c, static_cast<int>(i));
    else
        values[{&n, -1}] = Argument::ref(c);
    return c;
}

}  // namespace fusescope
