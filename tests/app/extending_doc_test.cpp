// docs/extending.md stays true: every path it names exists, and every symbol it names beside a path,
// written "`path` (`symbol`)", is in that file. (Paths with a placeholder, NAME or *, are templates.)
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <string>

#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

const fs::path kRepository(FIRELAB_SOURCE_DIR);

bool isTemplate(const std::string& path) {
    return path.find("NAME") != std::string::npos || path.find('*') != std::string::npos;
}

bool looksLikePath(const std::string& text) {
    static const std::regex path(R"(^(src|tests|shaders|docs|scripts|experiments|effects|textures)/[\w./*-]*$)");
    return std::regex_match(text, path);
}

TEST(ExtendingDoc, EveryPathItNamesExists) {
    const std::string doc = readFile(kRepository / "docs" / "extending.md");
    ASSERT_FALSE(doc.empty());
    const std::regex quoted("`([^`]+)`");
    size_t paths = 0;
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), quoted); it != std::sregex_iterator(); ++it) {
        const std::string text = (*it)[1];
        if (!looksLikePath(text) || isTemplate(text)) continue;
        ++paths;
        EXPECT_TRUE(fs::exists(kRepository / text)) << "docs/extending.md names " << text << ", which does not exist";
    }
    EXPECT_GE(paths, 20u);
}

TEST(ExtendingDoc, EverySymbolItNamesIsInItsFile) {
    const std::string doc = readFile(kRepository / "docs" / "extending.md");
    const std::regex pair(R"(`([^`\s]+)` \(`([^`]+)`\))");
    size_t pairs = 0;
    for (auto it = std::sregex_iterator(doc.begin(), doc.end(), pair); it != std::sregex_iterator(); ++it) {
        const std::string path = (*it)[1], symbol = (*it)[2];
        if (!looksLikePath(path) || isTemplate(path)) continue;
        ++pairs;
        const std::string text = readFile(kRepository / path);
        EXPECT_NE(text.find(symbol), std::string::npos) << "docs/extending.md says " << path << " has " << symbol;
    }
    EXPECT_GE(pairs, 20u);
}

}  // namespace
}  // namespace firelab::testing
