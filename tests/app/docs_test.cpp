// The documentation stays true, checked in process (no GL context, no process launched): docs/cli.md and
// docs/settings.md are what firelab generates from its declarations, README.md stays a front door of at most
// 10 KiB, and every relative link of README.md and docs/*.md resolves, to a file and to a heading (or an
// <a id="...">) where it names one. Beside them, what the pages rest on: the command registry, the [quality] keys and the ranges.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "app/command.h"
#include "app/command_line.h"
#include "app/reference/reference_pages.h"
#include "core/error.h"
#include "harness/settings/experiment.h"
#include "support/scratch_dir.h"

namespace firelab::testing {
namespace {
namespace fs = std::filesystem;

const fs::path kRoot(FIRELAB_SOURCE_DIR);

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t at = text.find('\n'); at != std::string::npos; from = at + 1, at = text.find('\n', from))
        out.push_back(text.substr(from, at - from));
    if (from < text.size()) out.push_back(text.substr(from));
    return out;
}

// "line N: committed '...', generated '...'" for the first line where the two differ.
std::string firstDifference(const std::string& committed, const std::string& generated) {
    const auto a = lines(committed), b = lines(generated);
    for (size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
        const std::string x = i < a.size() ? a[i] : "(end of file)", y = i < b.size() ? b[i] : "(end of file)";
        if (x != y) return "line " + std::to_string(i + 1) + ": committed '" + x + "', generated '" + y + "'";
    }
    return "they differ in their last line break";
}

TEST(ReferencePages, CommittedPagesAreWhatFirelabGenerates) {
    app::CommandLine cli;
    const auto pages = app::referencePages(cli.app());
    ASSERT_EQ(pages.size(), 2u);
    for (const auto& page : pages) {
        const std::string committed = readFile(kRoot / "docs" / page.file);
        EXPECT_TRUE(committed == page.text)
            << "docs/" << page.file << " is not what firelab generates from its declarations ("
            << firstDifference(committed, page.text) << "); rewrite it with `" << app::kRewritePagesCommand
            << "` and commit it";
    }
}

// The generator leaves nothing out: every command and each of its options (but the hidden ones, which --help
// leaves out too), every setting.
TEST(ReferencePages, NameEveryCommandItsOptionsAndEverySetting) {
    app::CommandLine cli;
    std::map<std::string, std::string> page;
    for (const auto& p : app::referencePages(cli.app())) page[p.file] = p.text;
    for (const app::CommandApp& c : app::commandApps(cli.app())) {
        const std::string heading = c.entry->name.empty() ? "## firelab (no command)" : "## " + c.title;
        EXPECT_NE(page["cli.md"].find("\n" + heading + "\n"), std::string::npos) << heading;
        for (const CLI::Option* o : c.app->get_options()) {
            if (o == c.app->get_help_ptr()) continue;
            if (!o->get_positional() && o->get_group().empty()) continue;  // hidden: internal, as in --help
            const std::string name = o->get_positional() ? o->get_name() : o->get_name(false, true);
            EXPECT_NE(page["cli.md"].find("| `" + name + "` |"), std::string::npos) << c.title << " " << name;
        }
    }
    for (const auto& s : harness::allSettings())
        EXPECT_NE(page["settings.md"].find("\n| `" + s.name + "` |"), std::string::npos) << s.name;
}

// The page's ranges are the ones the flags' help lines state (settingHelp), where a help line states one.
TEST(ReferencePages, RangesAreTheOnesTheFlagsState) {
    size_t ranged = 0;
    for (const auto& s : harness::runSettings()) {
        using Kind = harness::SettingInfo::Kind;
        if (s.renderOption || (s.kind != Kind::Scalar && s.kind != Kind::Integer)) continue;
        ++ranged;
        EXPECT_NE(harness::settingHelp(s).find(app::rangeText(s)), std::string::npos)
            << s.name << ": the page says " << app::rangeText(s) << ", the flag " << harness::settingHelp(s);
    }
    EXPECT_GE(ranged, 10u);
}

class ReferenceQualityKeys : public ScratchDirTest {};

// The page's [quality] keys are the ones an experiment file's [quality] table takes, each setting its setting,
// and no other key is taken.
TEST_F(ReferenceQualityKeys, AreTheOnesExperimentFilesTake) {
    std::string toml = "[quality]\n";
    for (const app::QualityKey& k : app::qualityTableKeys()) {
        const harness::SettingInfo* s = harness::findSetting(k.setting);
        ASSERT_NE(s, nullptr) << k.setting;
        toml += std::string(k.key) + " = " + harness::tomlSettingValue(s->name, s->defaultText) + "\n";
    }
    const harness::Experiment e = harness::loadExperiment(write("quality.toml", toml));
    std::set<std::string> set;
    for (const auto& f : e.fixed) set.insert(f.name);
    for (const app::QualityKey& k : app::qualityTableKeys())
        EXPECT_TRUE(set.contains(std::string(k.setting))) << "[quality] " << k.key << " sets no " << k.setting;
    EXPECT_EQ(set.size(), app::qualityTableKeys().size());

    try {
        harness::loadExperiment(write("other.toml", "[quality]\nno-such-key = 1\n"));
        ADD_FAILURE() << "[quality] took a key that is not one";
    } catch (const Error& err) {
        EXPECT_EQ(err.code(), ErrorCode::UnknownName);
        const std::string what = err.what();
        const std::string list = what.substr(what.find("valid keys are ") + 15);
        EXPECT_EQ(static_cast<size_t>(std::count(list.begin(), list.end(), ',')) + 1, app::qualityTableKeys().size())
            << what;
        for (const app::QualityKey& k : app::qualityTableKeys())
            EXPECT_NE(list.find(std::string(k.key)), std::string::npos) << what;
    }
}

TEST(CommandRegistry, EveryCommandHasItsOwnNameAndOneRunsWithoutAName) {
    std::set<std::string_view> names;
    size_t unnamed = 0;
    for (const app::CommandEntry* e : app::commands()) {
        EXPECT_TRUE(names.insert(e->name).second) << "two commands are called '" << e->name << "'";
        unnamed += e->name.empty();
        EXPECT_FALSE(e->help.empty()) << e->name;
        EXPECT_NE(e->make(), nullptr) << e->name;
    }
    EXPECT_EQ(unnamed, 1u);
    EXPECT_GE(names.size(), 11u);
}

TEST(FrontDoor, ReadmeIsAtMostTenKilobytes) {
    const auto bytes = fs::file_size(kRoot / "README.md");
    EXPECT_LE(bytes, 10u * 1024u) << "README.md is " << bytes
                                  << " bytes: it is the front door; move the reference into docs/";
    EXPECT_GE(bytes, 2000u);
}

// The anchors of a Markdown file: its headings' as GitHub makes them (lower case, spaces as '-', punctuation
// other than '-' and '_' dropped, the n-th repeat of an anchor suffixed "-n") and its <a id="..."> tags.
std::set<std::string> anchorsOf(const std::string& markdown) {
    std::set<std::string> out;
    std::map<std::string, int> seen;
    bool fenced = false;
    for (const std::string& line : lines(markdown)) {
        if (line.starts_with("```")) fenced = !fenced;
        if (fenced || !line.starts_with("#")) continue;
        const size_t text = line.find_first_not_of('#');
        if (text == std::string::npos || line[text] != ' ') continue;
        std::string slug;
        for (const char c : line.substr(text + 1)) {
            const auto u = static_cast<unsigned char>(c);
            if (std::isalnum(u))
                slug += static_cast<char>(std::tolower(u));
            else if (c == ' ' || c == '-')
                slug += '-';
            else if (c == '_' || u >= 0x80)
                slug += c;
        }
        const int n = seen[slug]++;
        out.insert(n == 0 ? slug : slug + "-" + std::to_string(n));
    }
    const std::regex id(R"re(<a id="([^"]+)")re");
    for (auto it = std::sregex_iterator(markdown.begin(), markdown.end(), id); it != std::sregex_iterator(); ++it)
        out.insert((*it)[1]);
    return out;
}

// The file without its fenced blocks and code spans, where a bracket is not a link.
std::string prose(const std::string& markdown) {
    std::string out;
    bool fenced = false;
    for (const std::string& line : lines(markdown)) {
        if (line.starts_with("```")) fenced = !fenced;
        if (fenced || line.starts_with("```")) continue;
        out += std::regex_replace(line, std::regex("`[^`]*`"), "") + "\n";
    }
    return out;
}

TEST(DocLinks, EveryRelativeLinkResolves) {
    std::vector<fs::path> files{kRoot / "README.md"};
    for (const auto& e : fs::directory_iterator(kRoot / "docs"))
        if (e.path().extension() == ".md") files.push_back(e.path());
    const std::regex link(R"(\]\(([^)\s]+)(\s+"[^"]*")?\))");
    size_t checked = 0;
    for (const fs::path& file : files) {
        const std::string text = prose(readFile(file));
        const std::string name = fs::relative(file, kRoot).string();
        for (auto it = std::sregex_iterator(text.begin(), text.end(), link); it != std::sregex_iterator(); ++it) {
            const std::string target = (*it)[1];
            if (target.find("://") != std::string::npos || target.starts_with("mailto:")) continue;
            ++checked;
            const size_t hash = target.find('#');
            const std::string path = target.substr(0, hash),
                              anchor = hash == std::string::npos ? "" : target.substr(hash + 1);
            const fs::path resolved = path.empty() ? file : file.parent_path() / path;
            if (!fs::exists(resolved)) {
                ADD_FAILURE() << name << " links to " << target << ": " << path << " does not exist";
                continue;
            }
            if (!anchor.empty()) {
                EXPECT_TRUE(anchorsOf(readFile(resolved)).contains(anchor))
                    << name << " links to " << target << ": " << path << " has no heading #" << anchor;
            }
        }
    }
    EXPECT_GE(checked, 30u);
}

}  // namespace
}  // namespace firelab::testing
