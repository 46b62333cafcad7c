// core/text's list splitting, GL-free: split keeps every item as written (empty ones too, so callers can
// refuse or skip them), trimmed takes the blanks off each.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "core/text.h"

namespace {

using firelab::core::split;
using firelab::core::trimmed;
using Items = std::vector<std::string>;

TEST(Split, TextWithoutTheSeparatorIsOneItem) {
    EXPECT_EQ(split("points", ','), Items{"points"});
    EXPECT_EQ(split("a;b", ','), Items{"a;b"});  // only the separator given cuts
}

TEST(Split, EmptyTextIsOneEmptyItem) {
    EXPECT_EQ(split("", ','), Items{""});
    EXPECT_EQ(trimmed(split(" \t ", ',')), Items{""});
}

TEST(Split, EveryItemIsKeptInOrderEmptyOnesIncluded) {
    EXPECT_EQ(split("a,b,c", ','), (Items{"a", "b", "c"}));
    EXPECT_EQ(split("a,,b", ','), (Items{"a", "", "b"}));
    EXPECT_EQ(split(",", ','), (Items{"", ""}));
    EXPECT_EQ(split(",,", ','), (Items{"", "", ""}));
}

TEST(Split, SeparatorsAtTheEndsMakeEmptyItemsThere) {
    EXPECT_EQ(split(",a", ','), (Items{"", "a"}));
    EXPECT_EQ(split("a,", ','), (Items{"a", ""}));
    EXPECT_EQ(split(";a;", ';'), (Items{"", "a", ""}));
}

TEST(Split, ItemsAreAsWrittenAndTrimmedTakesTheirBlanksOff) {
    EXPECT_EQ(split(" a , b\t", ','), (Items{" a ", " b\t"}));
    EXPECT_EQ(trimmed(split(" a , b\t", ',')), (Items{"a", "b"}));
    EXPECT_EQ(trimmed(split("\ta b ;\t; c", ';')), (Items{"a b", "", "c"}));  // inner blanks stay
    EXPECT_EQ(trimmed(split("0:1:0.5:0:1\r\n", ',')), Items{"0:1:0.5:0:1"});  // CR and LF too, as trim()
}

TEST(Split, ReadsOnlyTheViewItIsGiven) {
    const std::string text = "x,y;z";
    EXPECT_EQ(split(std::string_view(text).substr(0, 3), ','), (Items{"x", "y"}));
}

// UTF-8 as RFC 3629 has it: every well-formed character passes; a stray continuation byte, a sequence cut
// short, an overlong form, a surrogate and a code point past U+10FFFF are found where they start.
TEST(Utf8, FindsTheFirstByteThatIsNotUtf8) {
    using firelab::core::invalidUtf8At;
    constexpr size_t kAll = std::string_view::npos;
    EXPECT_EQ(invalidUtf8At(""), kAll);
    EXPECT_EQ(invalidUtf8At("flame \xc3\xbc \xe2\x9c\x93 \xf0\x9f\x94\xa5"), kAll);  // ü, a check mark, an emoji
    EXPECT_EQ(invalidUtf8At("ab\xff"), 2u);
    EXPECT_EQ(invalidUtf8At("a\x80"), 1u);
    EXPECT_EQ(invalidUtf8At("x\xc3"), 1u);             // cut short
    EXPECT_EQ(invalidUtf8At("\xc0\xaf"), 0u);          // overlong '/'
    EXPECT_EQ(invalidUtf8At("\xe0\x80\xaf"), 0u);      // overlong
    EXPECT_EQ(invalidUtf8At("\xed\xa0\x80"), 0u);      // a UTF-16 surrogate
    EXPECT_EQ(invalidUtf8At("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
}

}  // namespace
