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

}  // namespace
