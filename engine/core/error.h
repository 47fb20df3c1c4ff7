#pragma once
// Errors the engine reports to users. Each carries a message a user can act on and, when
// there is one, the script location it belongs to.

#include <stdexcept>
#include <string>

namespace fusescope {

struct SourceLocation {
    std::string file;  // as the user named it, e.g. "script.py"
    int line = 0;      // 1-based; 0 = unknown
    int column = 0;    // 1-based; 0 = unknown

    bool known() const { return line > 0; }
    // "script.py:4:12" (or "script.py:4" without a column, "" when unknown)
    std::string str() const;
};

// Base of every user-facing engine error. what() is the bare message; describeError
// (session/script_session.h) adds the location: "script.py:4:12: error: unsupported call
// 'numpy.array'".
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message, SourceLocation where = {})
        : std::runtime_error(message), where_(std::move(where)) {}
    const SourceLocation& where() const { return where_; }
    void setWhereIfUnknown(const SourceLocation& where) {
        if (!where_.known()) where_ = where;
    }
    // An error raised inside the script library (torch.nn's Linear, F.pad) is reported at the
    // user's line that called it; raisedIn() keeps where in the library it was raised.
    void reportAt(const SourceLocation& userLine) {
        if (!raisedIn_.known()) raisedIn_ = where_;
        where_ = userLine;
    }
    const SourceLocation& raisedIn() const { return raisedIn_; }

private:
    SourceLocation where_;
    SourceLocation raisedIn_;
};

// A Python-level exception raised by script code or by an op (TypeError, ValueError,
// RuntimeError, IndexError, ...); kind is the Python exception class name.
class ScriptError : public Error {
public:
    ScriptError(std::string kind, const std::string& message, SourceLocation where = {}, std::string note = {})
        : Error(message, std::move(where)), kind_(std::move(kind)), note_(std::move(note)) {}
    const std::string& kind() const { return kind_; }
    // Said after the message on a terminal, not part of it: str(e) stays Python's text.
    const std::string& note() const { return note_; }

private:
    std::string kind_;
    std::string note_;
};

// An op whose result is a Python value computed from tensor data (allclose, equal): it has
// no meta result, so a traced call breaks the graph and runs eagerly.
class DataDependentOutput : public Error {
public:
    explicit DataDependentOutput(const std::string& op)
        : Error(op + "() returns a Python bool that depends on tensor values"), op_(op) {}
    const std::string& op() const { return op_; }

private:
    std::string op_;
};

}  // namespace fusescope
