// The strategy registry (render/strategies/strategy.h), GL-free: its names are fit for --strategy and
// unique, and every strategy file's entry is registered and opens with the line saying how it differs.
// That each entry's factory makes the strategy it names needs a context: strategies_gltest.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/error.h"
#include "render/strategies/strategy.h"
#include "support/error_of.h"

namespace firelab::testing {
namespace {

namespace fs = std::filesystem;

TEST(Registry, NamesAreUniqueNonEmptyAndLowerCaseDashed) {
    const std::regex dashed("[a-z0-9]+(-[a-z0-9]+)*");
    std::set<std::string_view> seen;
    ASSERT_FALSE(render::strategies().empty());
    for (const auto& info : render::strategies()) {
        SCOPED_TRACE(std::string(info.name));
        EXPECT_TRUE(std::regex_match(std::string(info.name), dashed)) << "not lower-case-dashed";
        EXPECT_FALSE(info.summary.empty()) << "no summary for `firelab list`";
        EXPECT_TRUE(seen.insert(info.name).second) << "registered twice";
        EXPECT_EQ(render::strategyInfo(info.name).summary, info.summary);
    }
    EXPECT_EQ(render::strategyNames().size(), render::strategies().size());
}

// Each strategy's file defines its entry (`extern constexpr StrategyEntry k<Name>Strategy`); one the
// registry does not list would link into nothing and silently not exist.
TEST(Registry, EveryStrategyFileIsRegisteredAndSaysOnItsFirstLineHowItDiffers) {
    const std::regex entry(R"(extern constexpr StrategyEntry k\w+Strategy\b)"), name(R"re(\.name = "([^"]+)")re");
    size_t files = 0;
    for (const auto& file : fs::directory_iterator(fs::path(FIRELAB_SOURCE_DIR) / "src/render/strategies")) {
        std::ifstream in(file.path());
        std::stringstream text;
        text << in.rdbuf();
        const std::string source = text.str();
        if (!std::regex_search(source, entry)) continue;
        ++files;
        SCOPED_TRACE(file.path().filename().string());
        std::smatch m;
        ASSERT_TRUE(std::regex_search(source, m, name)) << "no .name in its StrategyInfo";
        const std::string strategy = m[1];
        EXPECT_NO_THROW(render::strategyInfo(strategy)) << strategy << " is not in the registry (strategy.cpp)";
        EXPECT_EQ(source.rfind("// " + strategy + ": ", 0), 0u)
            << "the first line says `// " << strategy << ": ` and how it differs from points";
    }
    EXPECT_EQ(files, render::strategies().size()) << "strategy files and registry entries differ in number";
}

TEST(Registry, StrategyNamesSelectsByCapabilityInRegistryOrder) {
    const auto sprites =
        render::strategyNames([](const render::StrategyInfo& s) { return s.primitive == render::Primitive::Sprites; });
    auto expected = render::strategyNames();
    std::erase_if(expected,
                  [](const std::string& n) { return render::strategyInfo(n).primitive != render::Primitive::Sprites; });
    EXPECT_EQ(sprites, expected);
    EXPECT_FALSE(sprites.empty());
}

// Refused before any GL call (makeStrategy checks the name first), with every valid name in the message.
TEST(Registry, AnUnknownNameIsRefusedListingEveryRegisteredOne) {
    const render::StrategyContext c{FIRELAB_SOURCE_DIR, {}, {}, 1.0f / 60.0f};
    for (const Error& e :
         {errorOf([] { render::strategyInfo("quads"); }), errorOf([&] { render::makeStrategy("quads", c); })}) {
        EXPECT_EQ(e.code(), ErrorCode::UnknownName);
        for (const auto& info : render::strategies())
            EXPECT_NE(std::string(e.what()).find(info.name), std::string::npos) << info.name << ": " << e.what();
    }
}

}  // namespace
}  // namespace firelab::testing
