// What the generated reference pages share: Markdown table cells and code spans, GitHub's heading anchors,
// and numbers as the settings' help lines write them.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace firelab::app::markdown {

// Text for a table cell: '|' escaped, '<', '>' and '*' written so that Markdown shows them as they are, a
// line break as a space.
std::string cell(std::string_view text);
// `text` as a code span for a table cell ('|' escaped); empty text gives an empty string.
std::string code(std::string_view text);
// The anchor GitHub gives a heading: lower case, spaces as '-', punctuation other than '-' and '_' dropped.
std::string anchor(std::string_view heading);
// "a", "a and b", "a, b and c".
std::string sentenceList(const std::vector<std::string>& items);
// A number as the settings' help lines write it (9 significant digits, no trailing zeros).
std::string number(double v);

}  // namespace firelab::app::markdown
