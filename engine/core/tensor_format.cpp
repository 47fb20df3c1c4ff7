#include "core/tensor_format.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "core/complex_parts.h"

namespace fusescope {

namespace {

constexpr int kPrecision = 4;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdgeItems = 3;
constexpr int kLineWidth = 80;

// Python's format(value, ".Nf") / ".Ne": nan and inf never carry a sign for nan.
std::string pyFixed(double v, int precision) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.{}f}", v, precision);
}

std::string pySci(double v, int precision) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    return fmt::format("{:.{}e}", v, precision);
}

std::string pyInt(const Tensor& t, int64_t flat) {
    if (t.dtype() == DType::Bool) return t.readInt64(flat) ? "True" : "False";
    return std::to_string(t.readInt64(flat));
}

// The values _Formatter sees: with summarisation, only the edge items of each dim.
void collectSummarized(const Tensor& t, int64_t dim, int64_t offset, std::vector<int64_t>& flat, bool summarize, const Shape& rowStrides) {
    if (dim == t.dim()) {
        flat.push_back(offset);
        return;
    }
    int64_t n = t.sizes()[static_cast<std::size_t>(dim)];
    int64_t step = rowStrides[static_cast<std::size_t>(dim)];
    for (int64_t i = 0; i < n; ++i) {
        if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) i = n - kEdgeItems;
        collectSummarized(t, dim + 1, offset + i * step, flat, summarize, rowStrides);
    }
}

class Formatter {
public:
    Formatter(const Tensor& t, const std::vector<int64_t>& flat) : floating_(isFloating(t.dtype())) {
        if (!floating_) {
            for (int64_t i : flat) maxWidth_ = std::max<std::size_t>(maxWidth_, pyInt(t, i).size());
            return;
        }
        std::vector<double> vals;
        for (int64_t i : flat) {
            double v = t.readDouble(i);
            if (std::isfinite(v) && v != 0) vals.push_back(v);
        }
        if (vals.empty()) return;
        double absMin = INFINITY, absMax = 0;
        for (double v : vals) {
            absMin = std::min(absMin, std::fabs(v));
            absMax = std::max(absMax, std::fabs(v));
        }
        for (double v : vals)
            if (v != std::ceil(v)) intMode_ = false;
        if (intMode_) {
            if (absMax / absMin > 1000.0 || absMax > 1.0e8) {
                sciMode_ = true;
                for (double v : vals) maxWidth_ = std::max(maxWidth_, pySci(v, kPrecision).size());
            } else {
                for (double v : vals) maxWidth_ = std::max(maxWidth_, pyFixed(v, 0).size() + 1);
            }
        } else {
            if (absMax / absMin > 1000.0 || absMax > 1.0e8 || absMin < 1.0e-4) {
                sciMode_ = true;
                for (double v : vals) maxWidth_ = std::max(maxWidth_, pySci(v, kPrecision).size());
            } else {
                for (double v : vals) maxWidth_ = std::max(maxWidth_, pyFixed(v, kPrecision).size());
            }
        }
    }

    std::size_t width() const { return maxWidth_; }

    std::string format(const Tensor& t, int64_t flat) const {
        std::string s;
        if (floating_) {
            double v = t.readDouble(flat);
            if (sciMode_) {
                s = pySci(v, kPrecision);
            } else if (intMode_) {
                s = pyFixed(v, 0);
                if (std::isfinite(v)) s += ".";
            } else {
                s = pyFixed(v, kPrecision);
            }
        } else {
            s = pyInt(t, flat);
        }
        if (s.size() < maxWidth_) s.insert(0, maxWidth_ - s.size(), ' ');
        return s;
    }

private:
    bool floating_;
    bool intMode_ = true;
    bool sciMode_ = false;
    std::size_t maxWidth_ = 1;
};

// How one element prints: a real value by its formatter; a complex one as real part, then
// the imaginary part with its sign and "j" (_tensor_str's formatter pair: one formatter for
// the real parts, one for the imaginary parts).
struct ElementFormat {
    const Tensor& values;  // the real parts of a complex tensor
    const Formatter& fmt;
    const Tensor* imagValues = nullptr;
    const Formatter* imagFmt = nullptr;

    std::size_t width() const { return fmt.width() + (imagFmt ? imagFmt->width() + 1 : 0); }
    std::string format(int64_t flat) const {
        std::string re = fmt.format(values, flat);
        if (!imagFmt) return re;
        std::string im = imagFmt->format(*imagValues, flat) + "j";
        im.erase(0, im.find_first_not_of(' '));
        return re + (im[0] == '+' || im[0] == '-' ? im : "+" + im);
    }
};

struct Printer {
    const Tensor& t;
    const ElementFormat& fmt;
    bool summarize;
    Shape rowStrides;

    std::string vector(int64_t offset, std::size_t indent) const {
        std::size_t elementLength = fmt.width() + 2;  // with a complex value's imaginary part and "j"
        std::size_t perLine = std::max<std::size_t>(1, (static_cast<std::size_t>(kLineWidth) - std::min<std::size_t>(indent, kLineWidth)) / elementLength);
        if (indent > static_cast<std::size_t>(kLineWidth)) perLine = 1;
        int64_t n = t.sizes().back();
        std::vector<std::string> data;
        for (int64_t i = 0; i < n; ++i) {
            if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) {
                data.push_back(" ...");
                i = n - kEdgeItems;
            }
            data.push_back(fmt.format(offset + i * rowStrides.back()));
        }
        std::string out = "[";
        for (std::size_t i = 0; i < data.size(); ++i) {
            if (i > 0) out += i % perLine == 0 ? ",\n" + std::string(indent + 1, ' ') : ", ";
            out += data[i];
        }
        return out + "]";
    }

    std::string tensor(int64_t dim, int64_t offset, std::size_t indent) const {
        int64_t nd = t.dim();
        if (nd - dim == 1) return vector(offset, indent);
        int64_t n = t.sizes()[static_cast<std::size_t>(dim)];
        std::vector<std::string> slices;
        for (int64_t i = 0; i < n; ++i) {
            if (summarize && n > 2 * kEdgeItems && i == kEdgeItems) {
                slices.push_back("...");
                i = n - kEdgeItems;
            }
            slices.push_back(tensor(dim + 1, offset + i * rowStrides[static_cast<std::size_t>(dim)], indent + 1));
        }
        std::string sep = "," + std::string(static_cast<std::size_t>(nd - dim - 1), '\n') + std::string(indent + 1, ' ');
        std::string out = "[";
        for (std::size_t i = 0; i < slices.size(); ++i) out += (i ? sep : "") + slices[i];
        return out + "]";
    }
};

std::string sizeTuple(const Shape& s) {
    if (s.size() == 1) return fmt::format("({},)", s[0]);
    return fmt::format("({})", fmt::join(s, ", "));
}

// _add_suffixes: suffixes wrap onto a new line when they would pass the line width.
std::string addSuffixes(const std::string& body, const std::vector<std::string>& suffixes, std::size_t indent) {
    std::string out = body;
    std::size_t nl = body.rfind('\n');
    std::size_t lastLineLen = body.size() - (nl == std::string::npos ? static_cast<std::size_t>(-1) : nl) + 1;
    for (const std::string& s : suffixes) {
        if (lastLineLen + s.size() + 2 > static_cast<std::size_t>(kLineWidth)) {
            out += ",\n" + std::string(indent, ' ') + s;
            lastLineLen = indent + s.size();
        } else {
            out += ", " + s;
            lastLineLen += s.size() + 2;
        }
    }
    return out + ")";
}

}  // namespace

std::string tensorRepr(const Tensor& t) {
    const std::string prefix = "tensor(";
    const std::size_t indent = prefix.size();
    std::vector<std::string> suffixes;
    std::string body;
    if (!t.device().isCpu()) suffixes.push_back("device='" + t.device().str() + "'");
    bool defaultDtype = t.dtype() == DType::Float32 || t.dtype() == DType::Complex64 || t.dtype() == DType::Int64 || t.dtype() == DType::Bool;
    if (t.isMeta()) {
        suffixes.push_back("size=" + sizeTuple(t.sizes()));
        if (t.dtype() != defaultFloat()) suffixes.push_back("dtype=" + std::string(dtypeName(t.dtype())));
        body = "...";
    } else if (t.numel() == 0) {
        if (t.dim() != 1) suffixes.push_back("size=" + sizeTuple(t.sizes()));
        if (t.dtype() != defaultFloat()) suffixes.push_back("dtype=" + std::string(dtypeName(t.dtype())));
        body = "[]";
    } else {
        if (!defaultDtype) suffixes.push_back("dtype=" + std::string(dtypeName(t.dtype())));
        bool summarize = t.numel() > kThreshold;
        // Flat row-major indices: readDouble takes them, so strides of the view are honoured.
        Shape rowStrides = contiguousStrides(t.sizes());
        std::vector<int64_t> flat;
        collectSummarized(t, 0, 0, flat, summarize, rowStrides);
        bool complex = isComplex(t.dtype());
        Tensor values = complex ? complexPart(t, 0) : t, imagValues = complex ? complexPart(t, 1) : Tensor();
        Formatter formatter(values, flat);
        std::optional<Formatter> imagFormatter;
        if (complex) imagFormatter.emplace(imagValues, flat);
        ElementFormat element{values, formatter, complex ? &imagValues : nullptr, imagFormatter ? &*imagFormatter : nullptr};
        if (t.dim() == 0) body = element.format(0);
        else body = Printer{t, element, summarize, rowStrides}.tensor(0, 0, indent);
    }
    if (!t.isLeaf()) suffixes.push_back("grad_fn=<" + t.gradFnName() + ">");
    else if (t.requiresGrad()) suffixes.push_back("requires_grad=True");
    return addSuffixes(prefix + body, suffixes, indent);
}

std::string formatPythonFloat(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    if (value == 0) return std::signbit(value) ? "-0.0" : "0.0";
    // Shortest round-trip digits in scientific form, then laid out as Python's repr does:
    // fixed notation for decimal exponents in [-4, 16), scientific otherwise.
    char buf[64];
    auto res = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::scientific);
    std::string sci(buf, res.ptr);
    std::size_t e = sci.find('e');
    std::string mantissa = sci.substr(0, e);
    int exp = std::stoi(sci.substr(e + 1));
    bool negative = mantissa[0] == '-';
    if (negative) mantissa.erase(0, 1);
    std::string digits;
    for (char c : mantissa)
        if (c != '.') digits += c;
    std::string out;
    if (exp >= -5 + 1 && exp < 16) {
        int point = exp + 1;  // digits before the decimal point
        if (point <= 0) {
            out = "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
        } else if (static_cast<std::size_t>(point) >= digits.size()) {
            out = digits + std::string(static_cast<std::size_t>(point) - digits.size(), '0') + ".0";
        } else {
            out = digits.substr(0, static_cast<std::size_t>(point)) + "." + digits.substr(static_cast<std::size_t>(point));
        }
    } else {
        out = digits.substr(0, 1);
        if (digits.size() > 1) out += "." + digits.substr(1);
        out += fmt::format("e{}{:02d}", exp < 0 ? '-' : '+', std::abs(exp));
    }
    return negative ? "-" + out : out;
}

}  // namespace fusescope
