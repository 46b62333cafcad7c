// Text in and out, shared by every front end: lists split on a separator; numbers, counts and choices
// parsed with a message that names the flag, the value and what is allowed (firelab::Error BadValue /
// UnknownName); floats written in the fewest digits that read back the same.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace firelab::core {

// `s` without leading and trailing blanks (space, tab, CR, LF).
std::string trim(std::string_view s);

// `text` cut at every `separator`, items as written: n separators make n + 1 items, empty ones included,
// so "" is one empty item and ",a," is "", "a", "". Callers decide what an empty item means.
std::vector<std::string> split(std::string_view text, char separator);
// `items`, each trimmed (trim): trimmed(split("a, b", ',')) is "a", "b".
std::vector<std::string> trimmed(std::vector<std::string> items);

// Parse helpers shared by front ends; each throws firelab::Error(BadValue) naming `what`.
float parseFloat(std::string_view what, std::string_view text);
double parseDouble(std::string_view what, std::string_view text);  // the same, to a double's precision
uint64_t parseCount(std::string_view what, std::string_view text);
template <size_t N>
int parseChoice(std::string_view what, std::string_view text, const std::array<std::string_view, N>& names);
int parseChoiceSpan(std::string_view what, std::string_view text, const std::string_view* names, size_t n);
template <size_t N>
int parseChoice(std::string_view what, std::string_view text, const std::array<std::string_view, N>& names) {
    return parseChoiceSpan(what, text, names.data(), N);
}
std::string joinNames(const std::string_view* names, size_t n);
// The items separated by `separator` ("a, b, c" by default).
std::string join(const std::vector<std::string>& items, std::string_view separator = ", ");
// The fewest significant digits (6 to 9) that read back as the same float: text that round-trips.
std::string formatFloat(float v);

// Where `text` stops being UTF-8 (a byte that starts no character, a sequence cut short, an overlong form or a
// code point past U+10FFFF), or npos when all of it is.
size_t invalidUtf8At(std::string_view text);

}  // namespace firelab::core
