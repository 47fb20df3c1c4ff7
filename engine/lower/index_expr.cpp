#include "lower/index_expr.h"

#include <algorithm>
#include <cctype>
#include <functional>

#include <fmt/format.h>

#include "core/error.h"

namespace fusescope {

namespace {

using Atom = IndexExpr::Atom;
using AtomPtr = std::shared_ptr<const Atom>;

// Symbols order naturally (z2 before z10): digits are zero-padded in the key.
std::string symbolKey(const std::string& name) {
    size_t digits = name.size();
    while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1]))) --digits;
    if (digits == name.size()) return name;
    return name.substr(0, digits) + fmt::format("{:0>8}", name.substr(digits));
}

AtomPtr makeSymbol(const std::string& name) {
    auto a = std::make_shared<Atom>();
    a->kind = Atom::Kind::Symbol;
    a->name = name;
    a->key = symbolKey(name);
    return a;
}

AtomPtr makeDivision(Atom::Kind kind, const IndexExpr& lhs, const IndexExpr& rhs) {
    auto a = std::make_shared<Atom>();
    a->kind = kind;
    a->lhs = lhs;
    a->rhs = rhs;
    a->key = fmt::format("~{}{}{}", lhs.str(), kind == Atom::Kind::FloorDiv ? "//" : "%", rhs.str());
    return a;
}

// A divisor in parentheses unless it is one symbol or number: x // (29*s1), not (x // 29)*s1.
std::string divisorText(const IndexExpr& e, bool forC) {
    std::string text = forC ? e.cstr() : e.str();
    return text.find_first_of("*+-/% ()") == std::string::npos ? text : "(" + text + ")";
}

std::string atomText(const Atom& a, bool forC) {
    switch (a.kind) {
    case Atom::Kind::Symbol: return a.name;
    case Atom::Kind::FloorDiv:
        return forC ? fmt::format("({} / {})", a.lhs.cstr(), divisorText(a.rhs, true))
                    : fmt::format("(({})//{})", a.lhs.str(), divisorText(a.rhs, false));
    case Atom::Kind::Mod:
        return forC ? fmt::format("({} % {})", a.lhs.cstr(), divisorText(a.rhs, true))
                    : fmt::format("(({}) % {})", a.lhs.str(), divisorText(a.rhs, false));
    }
    return "";
}

// Whether monomial `m` contains every atom of `d` (as a multiset); if so, m without them.
std::optional<IndexExpr::Monomial> divideMonomial(const IndexExpr::Monomial& m, const IndexExpr::Monomial& d) {
    IndexExpr::Monomial rest = m;
    for (const auto& atom : d) {
        auto it = std::find_if(rest.begin(), rest.end(), [&](const AtomPtr& x) { return x->key == atom->key; });
        if (it == rest.end()) return std::nullopt;
        rest.erase(it);
    }
    return rest;
}

}  // namespace

// Gives the helpers below access to the term map.
struct IndexExprAccess {
    static auto& terms(IndexExpr& e) { return e.terms_; }
    static const auto& terms(const IndexExpr& e) { return e.terms_; }
    static IndexExpr monomial(IndexExpr::Monomial m, int64_t coefficient) {
        IndexExpr e;
        if (coefficient != 0) e.terms_[std::move(m)] = coefficient;
        return e;
    }
};

bool IndexExpr::MonomialLess::operator()(const Monomial& a, const Monomial& b) const {
    return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end(),
                                        [](const AtomPtr& x, const AtomPtr& y) { return x->key < y->key; });
}

bool IndexExpr::operator==(const IndexExpr& o) const {
    if (terms_.size() != o.terms_.size()) return false;
    MonomialLess less;
    for (auto a = terms_.begin(), b = o.terms_.begin(); a != terms_.end(); ++a, ++b)
        if (a->second != b->second || less(a->first, b->first) || less(b->first, a->first)) return false;
    return true;
}

IndexExpr::IndexExpr(int64_t constant) {
    if (constant != 0) terms_[Monomial{}] = constant;
}

IndexExpr IndexExpr::symbol(const std::string& name) { return IndexExprAccess::monomial({makeSymbol(name)}, 1); }

IndexExpr IndexExpr::operator+(const IndexExpr& o) const {
    IndexExpr r = *this;
    for (const auto& [m, c] : o.terms_) {
        int64_t& slot = r.terms_[m];
        slot += c;
        if (slot == 0) r.terms_.erase(m);
    }
    return r;
}

IndexExpr IndexExpr::operator-(const IndexExpr& o) const { return *this + o * IndexExpr(-1); }

IndexExpr IndexExpr::operator*(const IndexExpr& o) const {
    IndexExpr r;
    for (const auto& [ma, ca] : terms_)
        for (const auto& [mb, cb] : o.terms_) {
            Monomial m = ma;
            m.insert(m.end(), mb.begin(), mb.end());
            std::sort(m.begin(), m.end(), [](const AtomPtr& x, const AtomPtr& y) { return x->key < y->key; });
            r = r + IndexExprAccess::monomial(std::move(m), ca * cb);
        }
    return r;
}

std::optional<int64_t> IndexExpr::constant() const {
    if (terms_.empty()) return 0;
    if (terms_.size() == 1 && terms_.begin()->first.empty()) return terms_.begin()->second;
    return std::nullopt;
}

std::set<std::string> IndexExpr::symbols() const {
    std::set<std::string> out;
    for (const auto& [m, c] : terms_)
        for (const auto& a : m) {
            if (a->kind == Atom::Kind::Symbol) {
                out.insert(a->name);
            } else {
                for (const auto& s : a->lhs.symbols()) out.insert(s);
                for (const auto& s : a->rhs.symbols()) out.insert(s);
            }
        }
    return out;
}

std::optional<IndexExpr> IndexExpr::linearCoefficient(const std::string& name) const {
    IndexExpr coefficient;
    for (const auto& [m, c] : terms_) {
        Monomial rest;
        int occurrences = 0;
        for (const auto& a : m) {
            if (a->kind == Atom::Kind::Symbol && a->name == name) {
                ++occurrences;
                continue;
            }
            if (a->kind != Atom::Kind::Symbol && (a->lhs.uses(name) || a->rhs.uses(name))) return std::nullopt;
            rest.push_back(a);
        }
        if (occurrences > 1) return std::nullopt;
        if (occurrences == 1) coefficient = coefficient + IndexExprAccess::monomial(rest, c);
    }
    return coefficient;
}

IndexExpr IndexExpr::substitute(const std::map<std::string, IndexExpr>& values, const VarRanges& ranges) const {
    IndexExpr r;
    for (const auto& [m, c] : terms_) {
        IndexExpr term(c);
        for (const auto& a : m) {
            switch (a->kind) {
            case Atom::Kind::Symbol: {
                auto it = values.find(a->name);
                term = term * (it == values.end() ? symbol(a->name) : it->second);
                break;
            }
            case Atom::Kind::FloorDiv:
                term = term * floorDiv(a->lhs.substitute(values, ranges), a->rhs.substitute(values, ranges), ranges);
                break;
            case Atom::Kind::Mod:
                term = term * mod(a->lhs.substitute(values, ranges), a->rhs.substitute(values, ranges), ranges);
                break;
            }
        }
        r = r + term;
    }
    return r;
}

namespace {

// The largest value `e` takes for variables within `ranges`; nullopt when unbounded
// (a size symbol, a negative coefficient, a division we can't bound).
std::optional<IndexExpr> upperBound(const IndexExpr& e, const VarRanges& ranges) {
    IndexExpr bound;
    for (const auto& [m, c] : IndexExprAccess::terms(e)) {
        if (c < 0 && !m.empty()) return std::nullopt;
        IndexExpr term(c);
        for (const auto& a : m) {
            if (a->kind == Atom::Kind::Symbol) {
                auto it = ranges.find(a->name);
                if (it == ranges.end()) return std::nullopt;
                term = term * (it->second - IndexExpr(1));
            } else if (a->kind == Atom::Kind::Mod) {
                term = term * (a->rhs - IndexExpr(1));
            } else {
                return std::nullopt;
            }
        }
        bound = bound + term;
    }
    return bound;
}

// e >= 0 for every size symbol >= 2: non-negative coefficients on every non-constant
// term make e grow with the symbols, so checking the smallest point suffices.
bool provablyNonNegative(const IndexExpr& e) {
    std::map<std::string, IndexExpr> smallest;
    for (const auto& [m, c] : IndexExprAccess::terms(e)) {
        if (m.empty()) continue;
        if (c < 0) return false;
        for (const auto& a : m) {
            if (a->kind != Atom::Kind::Symbol) return false;
            smallest[a->name] = IndexExpr(2);
        }
    }
    auto value = e.substitute(smallest).constant();
    return value && *value >= 0;
}

// Splits `a` into q*b + rest, where q collects the terms divisible by b.
std::pair<IndexExpr, IndexExpr> divideTerms(const IndexExpr& a, const IndexExpr& b) {
    const auto& divisor = IndexExprAccess::terms(b);
    IndexExpr quotient, rest;
    if (divisor.size() != 1) return {quotient, a};
    const auto& [dm, dc] = *divisor.begin();
    for (const auto& [m, c] : IndexExprAccess::terms(a)) {
        auto reduced = c % dc == 0 ? divideMonomial(m, dm) : std::nullopt;
        if (reduced) {
            quotient = quotient + IndexExprAccess::monomial(*reduced, c / dc);
        } else {
            rest = rest + IndexExprAccess::monomial(m, c);
        }
    }
    return {quotient, rest};
}

int64_t floorDivide(int64_t a, int64_t b) { return a / b - ((a % b != 0) && ((a < 0) != (b < 0))); }

// `a` as g*p + s with 0 <= s < g, for g the largest coefficient of `a` that divides the
// constant `b` (and is smaller): then a / b is p / (b/g) and a % b is g*(p % (b/g)) + s.
// 4096*c0 + 64*c1 + c2 over 16384, with 64*c1 + c2 < 4096, is c0 / 4: the indices a
// reshape or a split's backward (a cat) leave, which would keep a loop from vectorising.
struct Factored {
    IndexExpr p, s;
    int64_t g = 1;
};
std::optional<Factored> commonFactor(const IndexExpr& a, const IndexExpr& b, const VarRanges& ranges) {
    auto cb = b.constant();
    if (!cb || *cb <= 1) return std::nullopt;
    std::set<int64_t, std::greater<>> candidates;
    for (const auto& [m, c] : IndexExprAccess::terms(a)) {
        int64_t g = c < 0 ? -c : c;
        if (!m.empty() && g > 1 && g < *cb && *cb % g == 0) candidates.insert(g);
    }
    for (int64_t g : candidates) {
        auto [p, s] = divideTerms(a, IndexExpr(g));
        if (!p.isZero() && (s.isZero() || s.provablyBelow(IndexExpr(g), ranges))) return Factored{p, s, g};
    }
    return std::nullopt;
}

}  // namespace

bool IndexExpr::provablyBelow(const IndexExpr& bound, const VarRanges& ranges) const {
    auto upper = upperBound(*this, ranges);
    if (!upper) return false;
    for (const auto& [m, c] : terms_)
        if (c < 0) return false;
    return provablyNonNegative(bound - *upper - IndexExpr(1));
}

IndexExpr IndexExpr::floorDiv(const IndexExpr& a, const IndexExpr& b, const VarRanges& ranges) {
    if (b == IndexExpr(1)) return a;
    // A divisor of 0 is a dim of size 0 (a reshape of an empty tensor): the loop around it
    // runs no iteration, so any index does.
    if (b.isZero()) return IndexExpr(0);
    if (auto ca = a.constant(), cb = b.constant(); ca && cb) return floorDivide(*ca, *cb);
    auto [quotient, rest] = divideTerms(a, b);
    if (rest.isZero() || rest.provablyBelow(b, ranges)) return quotient;
    if (auto f = commonFactor(rest, b, ranges)) return quotient + floorDiv(f->p, IndexExpr(*b.constant() / f->g), ranges);
    return quotient + IndexExprAccess::monomial({makeDivision(Atom::Kind::FloorDiv, rest, b)}, 1);
}

IndexExpr IndexExpr::mod(const IndexExpr& a, const IndexExpr& b, const VarRanges& ranges) {
    if (b == IndexExpr(1) || b.isZero()) return IndexExpr(0);  // b == 0: an empty dim, as in floorDiv
    if (auto ca = a.constant(), cb = b.constant(); ca && cb) return *ca - floorDivide(*ca, *cb) * *cb;
    IndexExpr rest = divideTerms(a, b).second;
    if (rest.isZero() || rest.provablyBelow(b, ranges)) return rest;
    if (auto f = commonFactor(rest, b, ranges))
        return IndexExpr(f->g) * mod(f->p, IndexExpr(*b.constant() / f->g), ranges) + f->s;
    return IndexExprAccess::monomial({makeDivision(Atom::Kind::Mod, rest, b)}, 1);
}

std::string IndexExpr::render(bool forC) const {
    if (terms_.empty()) return forC ? "0L" : "0";
    std::string out;
    auto append = [&](int64_t c, const std::string& body) {
        bool negative = c < 0;
        if (out.empty()) {
            if (negative) out += "-";
        } else {
            out += negative ? " - " : " + ";
        }
        out += body;
    };
    std::optional<int64_t> constantTerm;
    for (const auto& [m, c] : terms_) {
        if (m.empty()) {
            constantTerm = c;
            continue;
        }
        std::string mono;
        for (const auto& a : m) mono += (mono.empty() ? "" : "*") + atomText(*a, forC);
        int64_t magnitude = c < 0 ? -c : c;
        append(c, magnitude == 1 ? mono : fmt::format("{}{}*{}", magnitude, forC ? "L" : "", mono));
    }
    if (constantTerm) append(*constantTerm, fmt::format("{}{}", *constantTerm < 0 ? -*constantTerm : *constantTerm, forC ? "L" : ""));
    return forC && terms_.size() > 1 ? "(" + out + ")" : out;
}

std::string IndexExpr::str() const { return render(false); }
std::string IndexExpr::cstr() const { return render(true); }

namespace {

// Recursive descent over "2*s0 + 1", "s0 - 1", "(s0*s1)".
class ExprParser {
public:
    explicit ExprParser(const std::string& text) : text_(text) {}
    IndexExpr parse() {
        IndexExpr e = sum();
        skipSpace();
        if (pos_ != text_.size()) fail();
        return e;
    }

private:
    IndexExpr sum() {
        IndexExpr e = product();
        for (;;) {
            skipSpace();
            if (accept('+')) e = e + product();
            else if (accept('-')) e = e - product();
            else return e;
        }
    }
    IndexExpr product() {
        IndexExpr e = factor();
        for (;;) {
            skipSpace();
            if (text_.compare(pos_, 2, "//") == 0) {
                pos_ += 2;
                e = IndexExpr::floorDiv(e, factor());
            } else if (accept('*')) {
                e = e * factor();
            } else {
                return e;
            }
        }
    }
    IndexExpr factor() {
        skipSpace();
        if (accept('-')) return IndexExpr(-1) * factor();
        if (accept('(')) {
            IndexExpr e = sum();
            skipSpace();
            if (!accept(')')) fail();
            return e;
        }
        size_t start = pos_;
        if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
            while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) ++pos_;
            return IndexExpr(std::stoll(text_.substr(start, pos_ - start)));
        }
        while (pos_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) ++pos_;
        if (start == pos_) fail();
        return IndexExpr::symbol(text_.substr(start, pos_ - start));
    }
    bool accept(char c) {
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    void skipSpace() {
        while (pos_ < text_.size() && text_[pos_] == ' ') ++pos_;
    }
    [[noreturn]] void fail() { throw Error("internal error: cannot parse size expression '" + text_ + "'"); }

    const std::string& text_;
    size_t pos_ = 0;
};

}  // namespace

IndexExpr IndexExpr::parse(const std::string& text) { return ExprParser(text).parse(); }

std::vector<IndexExpr> contiguousStrides(const std::vector<IndexExpr>& sizes) {
    std::vector<IndexExpr> strides(sizes.size());
    IndexExpr running(1);
    for (size_t i = sizes.size(); i-- > 0;) {
        strides[i] = running;
        running = running * sizes[i];
    }
    return strides;
}

IndexExpr product(const std::vector<IndexExpr>& values) {
    IndexExpr p(1);
    for (const auto& v : values) p = p * v;
    return p;
}

std::optional<std::vector<int64_t>> constantValues(const std::vector<IndexExpr>& exprs) {
    std::vector<int64_t> values;
    for (const IndexExpr& e : exprs) {
        std::optional<int64_t> n = e.constant();
        if (!n) return std::nullopt;
        values.push_back(*n);
    }
    return values;
}

std::string sizesStr(const std::vector<IndexExpr>& sizes, bool tuple) {
    std::string inner;
    for (size_t i = 0; i < sizes.size(); ++i) inner += (i ? ", " : "") + sizes[i].str();
    if (!tuple) return "[" + inner + "]";
    return "(" + inner + (sizes.size() == 1 ? ",)" : ")");
}

}  // namespace fusescope
