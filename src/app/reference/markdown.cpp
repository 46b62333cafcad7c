#include "app/reference/markdown.h"

#include <cctype>
#include <sstream>

namespace firelab::app::markdown {

std::string cell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        switch (c) {
        case '|': out += "\\|"; break;
        case '*': out += "\\*"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '\n': out += ' '; break;
        default: out += c;
        }
    }
    return out;
}

std::string code(std::string_view text) {
    if (text.empty()) return "";
    std::string out = "`";
    for (const char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out + "`";
}

std::string anchor(std::string_view heading) {
    std::string out;
    for (const char c : heading) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            out += static_cast<char>(std::tolower(u));
        else if (c == ' ' || c == '-')
            out += '-';
        else if (c == '_' || u >= 0x80)  // GitHub keeps letters of any script; the pages' headings are ASCII
            out += c;
    }
    return out;
}

std::string sentenceList(const std::vector<std::string>& items) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

std::string number(double v) {
    std::ostringstream o;
    o.precision(9);
    o << v;
    return o.str();
}

}  // namespace firelab::app::markdown
