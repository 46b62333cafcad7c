#include "core/text.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "core/error.h"

namespace firelab::core {
namespace {

std::string quote(std::string_view s) { return "'" + std::string(s) + "'"; }

}  // namespace

std::string trim(std::string_view s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string_view::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    return std::string(s.substr(b, e - b + 1));
}

std::vector<std::string> split(std::string_view text, char separator) {
    std::vector<std::string> items;
    for (size_t start = 0;;) {
        const size_t end = text.find(separator, start);
        items.emplace_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) return items;
        start = end + 1;
    }
}

std::vector<std::string> trimmed(std::vector<std::string> items) {
    for (auto& item : items) item = trim(item);
    return items;
}

std::string formatFloat(float v) {
    for (int digits = 6;; ++digits) {
        std::ostringstream o;
        o.precision(digits);
        o << v;
        const std::string s = o.str();
        float back = 0.0f;
        const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), back);
        if (digits >= 9 || (ec == std::errc() && back == v)) return s;
    }
}

namespace {
// A finite number of type T, the whole of text (trimmed); BadValue naming `what` otherwise.
template <class T>
T parseNumber(std::string_view what, std::string_view text, const char* range) {
    const std::string t = trim(text);
    T v = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (!t.empty() && ec == std::errc::result_out_of_range && ptr == t.data() + t.size())
        throw Error(ErrorCode::BadValue, std::string(what) + " " + quote(text) + ": out of range (" + range + ")");
    if (t.empty() || ec != std::errc() || ptr != t.data() + t.size())
        throw Error(ErrorCode::BadValue, std::string(what) + " " + quote(text) + ": not a number");
    if (!std::isfinite(v)) throw Error(ErrorCode::BadValue, std::string(what) + " " + quote(text) + ": must be finite");
    return v;
}
}  // namespace

float parseFloat(std::string_view what, std::string_view text) {
    return parseNumber<float>(what, text, "a number is a float: magnitudes from 1.2e-38 to 3.4e38, or 0");
}

double parseDouble(std::string_view what, std::string_view text) {
    return parseNumber<double>(what, text, "magnitudes from 2.2e-308 to 1.8e308, or 0");
}

uint64_t parseCount(std::string_view what, std::string_view text) {
    const std::string t = trim(text);
    const std::string w(what);
    if (!t.empty() && t[0] == '-')
        throw Error(ErrorCode::BadValue, w + " " + quote(text) + ": must be a non-negative integer");
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (!t.empty() && ec == std::errc() && ptr == t.data() + t.size()) return v;
    // Scientific forms such as 1e6 are accepted when they are whole numbers.
    double d = 0.0;
    auto [p2, ec2] = std::from_chars(t.data(), t.data() + t.size(), d);
    if (t.empty() || ec2 != std::errc() || p2 != t.data() + t.size() || !std::isfinite(d))
        throw Error(ErrorCode::BadValue, w + " " + quote(text) + ": not a non-negative integer");
    if (d < 0.0 || d != std::floor(d) || d > 1.8e19)
        throw Error(ErrorCode::BadValue, w + " " + quote(text) + ": must be a whole number in [0, 1.8e19]");
    return static_cast<uint64_t>(d);
}

std::string join(const std::vector<std::string>& items, std::string_view separator) {
    std::string s;
    for (size_t i = 0; i < items.size(); ++i) {
        if (i) s += separator;
        s += items[i];
    }
    return s;
}

std::string joinNames(const std::string_view* names, size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        if (i) s += ", ";
        s += names[i];
    }
    return s;
}

int parseChoiceSpan(std::string_view what, std::string_view text, const std::string_view* names, size_t n) {
    for (size_t i = 0; i < n; ++i)
        if (names[i] == text) return static_cast<int>(i);
    throw Error(ErrorCode::UnknownName,
                std::string(what) + " " + quote(text) + ": unknown; valid values are " + joinNames(names, n));
}

size_t invalidUtf8At(std::string_view text) {
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const size_t n = c < 0x80                 ? 1
                         : c >= 0xc2 && c <= 0xdf ? 2
                         : c >= 0xe0 && c <= 0xef ? 3
                         : c >= 0xf0 && c <= 0xf4 ? 4
                                                  : 0;
        if (n == 0 || i + n > text.size()) return i;
        for (size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xc0) != 0x80) return i;
        const auto c1 = static_cast<unsigned char>(n > 1 ? text[i + 1] : 0);
        if ((c == 0xe0 && c1 < 0xa0) || (c == 0xed && c1 >= 0xa0) || (c == 0xf0 && c1 < 0x90) ||
            (c == 0xf4 && c1 >= 0x90))
            return i;  // overlong, a surrogate, or past U+10FFFF
        i += n;
    }
    return std::string_view::npos;
}

}  // namespace firelab::core
