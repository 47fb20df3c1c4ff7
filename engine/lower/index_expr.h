#pragma once
// Integer index expressions of the loop IR: polynomials over loop variables (z0, c0) and
// size symbols (s0), with floor division and modulo as opaque atoms. The normal form
// (sorted monomials with integer coefficients) makes equal indices compare equal, which
// is what dependency matching and fusion rely on. Prints the way sympy prints in
// PyTorch's IR dumps: `16*c0 + c1`, `c0 + 4`.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fusescope {

class IndexExpr;
using VarRanges = std::map<std::string, IndexExpr>;  // loop variable -> its extent

class IndexExpr {
public:
    IndexExpr(int64_t constant = 0);
    static IndexExpr symbol(const std::string& name);
    // Parses the symbolic size strings capture writes ("s0", "2*s0", "s0 - 1", "s0*s1").
    static IndexExpr parse(const std::string& text);

    // floor(a / b) and a mod b for non-negative a and positive b. Terms divisible by b are
    // taken out; what remains is dropped when `ranges` prove it is below b.
    static IndexExpr floorDiv(const IndexExpr& a, const IndexExpr& b, const VarRanges& ranges = {});
    static IndexExpr mod(const IndexExpr& a, const IndexExpr& b, const VarRanges& ranges = {});

    IndexExpr operator+(const IndexExpr& o) const;
    IndexExpr operator-(const IndexExpr& o) const;
    IndexExpr operator*(const IndexExpr& o) const;
    // Structural: atoms compare by their canonical text, not by identity.
    bool operator==(const IndexExpr& o) const;
    bool operator!=(const IndexExpr& o) const { return !(*this == o); }

    std::optional<int64_t> constant() const;
    bool isZero() const { return terms_.empty(); }
    // Names of every symbol in the expression, inside divisions too.
    std::set<std::string> symbols() const;
    bool uses(const std::string& name) const { return symbols().count(name) > 0; }
    // The coefficient c when `name` occurs only linearly, as c*name with c free of it (0
    // when absent); nullopt when it occurs inside a division or squared.
    std::optional<IndexExpr> linearCoefficient(const std::string& name) const;

    // Replaces symbols; divisions are re-simplified under `ranges`.
    IndexExpr substitute(const std::map<std::string, IndexExpr>& values, const VarRanges& ranges = {}) const;
    // Re-simplifies divisions under `ranges` (after ranges became known).
    IndexExpr simplify(const VarRanges& ranges) const { return substitute({}, ranges); }
    // Whether the expression is provably in [0, bound) for variables within `ranges`
    // and size symbols >= 2.
    bool provablyBelow(const IndexExpr& bound, const VarRanges& ranges) const;

    std::string str() const;   // sympy style: 16*c0 + c1
    std::string cstr() const;  // C++ expression: (16L*c0 + c1)

    struct Atom;
    using Monomial = std::vector<std::shared_ptr<const Atom>>;  // sorted by key
    // Its terms, each monomial with its coefficient (the constant's monomial is empty).
    std::vector<std::pair<Monomial, int64_t>> terms() const { return {terms_.begin(), terms_.end()}; }

private:
    struct MonomialLess {
        bool operator()(const Monomial& a, const Monomial& b) const;
    };
    std::map<Monomial, int64_t, MonomialLess> terms_;  // monomial -> coefficient, no zeros
    std::string render(bool forC) const;
    friend struct IndexExprAccess;
};

struct IndexExpr::Atom {
    enum class Kind { Symbol, FloorDiv, Mod };
    Kind kind = Kind::Symbol;
    std::string name;  // Symbol
    IndexExpr lhs, rhs;  // FloorDiv, Mod
    std::string key;   // canonical text, for ordering and equality
};

// Row-major strides of `sizes` (the contiguous layout).
std::vector<IndexExpr> contiguousStrides(const std::vector<IndexExpr>& sizes);
IndexExpr product(const std::vector<IndexExpr>& values);
// Every expression's value, when all are constants.
std::optional<std::vector<int64_t>> constantValues(const std::vector<IndexExpr>& exprs);
std::string sizesStr(const std::vector<IndexExpr>& sizes, bool tuple);  // [16, 16] or (256,)

}  // namespace fusescope
