// The harness's runs.csv without GL: RFC 4180 quoting and parsing (commas, doubled quotes, line breaks,
// CRLF), the fixed header, appending, and what a torn last line (kill -9 mid-write) becomes.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "harness/results/csv.h"
#include "harness/settings/experiment.h"
#include "core/error.h"

#include "support/error_of.h"
#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using firelab::harness::CsvAppender;
using firelab::harness::csvField;
using firelab::harness::csvLine;
using firelab::harness::parseCsv;
using firelab::harness::readRunsCsv;
using firelab::harness::repairTornTail;
using firelab::harness::Row;
using Strings = std::vector<std::string>;
const Strings kRunColumns = firelab::harness::runsHeader();
// The position of a column in the header.
size_t col(const std::string& name) {
    return static_cast<size_t>(std::find(kRunColumns.begin(), kRunColumns.end(), name) - kRunColumns.begin());
}
using Rows = std::vector<Strings>;

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::string headerLine() { return csvLine(Strings(kRunColumns.begin(), kRunColumns.end())); }

class HarnessCsv : public firelab::testing::ScratchDirTest {};

TEST_F(HarnessCsv, FieldsAreQuotedOnlyWhenTheyMustBe) {
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("with space"), "with space");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("\""), "\"\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
    EXPECT_EQ(csvField("llvmpipe (LLVM 15.0.6, 256 bits)"), "\"llvmpipe (LLVM 15.0.6, 256 bits)\"");
}

// Issue 23: labels that a spreadsheet would run as formulas reach it as text (OWASP's CSV injection advice),
// and firelab reads back what it was given; numbers, negative ones included, are written as they are.
TEST_F(HarnessCsv, FormulasAreGuardedAndReadBackAsGiven) {
    EXPECT_EQ(csvField("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
    EXPECT_EQ(csvField("+1+1"), "'+1+1");
    EXPECT_EQ(csvField("-cmd"), "'-cmd");
    EXPECT_EQ(csvField("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvField("\tx"), "'\tx");
    EXPECT_EQ(csvField("'quoted"), "''quoted");
    EXPECT_EQ(csvField("-1.5"), "-1.5");
    EXPECT_EQ(csvField("+2e-3"), "+2e-3");
    EXPECT_EQ(csvField("a=b"), "a=b");
    // A vector of numbers (the adversarial pass: --camera-target=-0.1,0.7,-0.2 was guarded) is numbers too.
    EXPECT_EQ(csvField("-0.1,0.7,-0.2"), "\"-0.1,0.7,-0.2\"");
    EXPECT_EQ(csvField("-1;2"), "-1;2");
    EXPECT_EQ(csvField("-1,x"), "\"'-1,x\"");
    EXPECT_EQ(csvField("-1,"), "\"'-1,\"");
    const Rows rows{{"=1+1", "-x", "-2", "'", "''x", "@", "plain"}};
    EXPECT_EQ(parseCsv(csvLine(rows[0])), rows);
}

TEST_F(HarnessCsv, LinesJoinFieldsAndEndInNewline) {
    EXPECT_EQ(csvLine({"a", "b,c", "d\"e", ""}), "a,\"b,c\",\"d\"\"e\",\n");
    EXPECT_EQ(csvLine({}), "\n");
}

TEST_F(HarnessCsv, RoundTrip) {
    const Rows rows{
        {"plain", "", "a,b", "say \"hi\"", "\"", "\"\"", "two\nlines", "crlf\r\ninside", "lone\rcr", " spaced "},
        {"strategy=points;particles=200", "speed=0,1,0", ",", ",,", "\n", "end"},
        {""},
        {"x"},
    };
    std::string text;
    for (const auto& r : rows) text += csvLine(r);
    EXPECT_EQ(parseCsv(text), rows);
}

TEST_F(HarnessCsv, ParsesCrlfLineEndings) {
    EXPECT_EQ(parseCsv("a,b\r\nc,\"d\r\ne\"\r\n"), (Rows{{"a", "b"}, {"c", "d\r\ne"}}));
    EXPECT_EQ(parseCsv("a,b\r\nc,d\n"), (Rows{{"a", "b"}, {"c", "d"}}));  // mixed
    EXPECT_EQ(parseCsv("a,,\n"), (Rows{{"a", "", ""}}));
    EXPECT_EQ(parseCsv(""), Rows{});
}

TEST_F(HarnessCsv, ATornLastLineIsDropped) {
    EXPECT_EQ(parseCsv("a,b\nc,d"), (Rows{{"a", "b"}}));
    EXPECT_EQ(parseCsv("a,b\n\"c,\nd"), (Rows{{"a", "b"}}));  // torn inside a quoted line break
    EXPECT_EQ(parseCsv("a,b"), Rows{});
}

TEST_F(HarnessCsv, HeaderIsTheSchemasColumns) {
    std::set<std::string> unique(kRunColumns.begin(), kRunColumns.end());
    EXPECT_EQ(unique.size(), kRunColumns.size());
    EXPECT_EQ(kRunColumns.front(), "experiment");
    EXPECT_EQ(kRunColumns[1], "run_key");
    EXPECT_EQ(kRunColumns.back(), "status");
    const fs::path f = dir_ / "runs.csv";
    CsvAppender a(f);
    EXPECT_EQ(a.path(), f);
    EXPECT_EQ(slurp(f), headerLine());
}

// docs/csv.md documents every column of the schema (the frame-time summary as frame_ms_*, the passes as
// gpu_PASS_ms_median), and names no column the schema does not have: a table row's first cell lists
// column names, comma-separated, in backquotes or bare.
TEST_F(HarnessCsv, DocsListExactlyTheSchemasColumns) {
    const std::string doc = slurp(fs::path(FIRELAB_SOURCE_DIR) / "docs" / "csv.md");
    ASSERT_FALSE(doc.empty());
    const std::string runsPart = doc.substr(0, doc.find("\n# ", 1));  // up to the next file's section
    for (const auto& col : kRunColumns) {
        const bool documented = runsPart.find(col) != std::string::npos ||
                                (col.rfind("frame_ms_", 0) == 0 && runsPart.find("frame_ms_*") != std::string::npos);
        EXPECT_TRUE(documented) << col << " is not in docs/csv.md";
    }
    std::istringstream lines(runsPart);
    size_t rows = 0;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("| ", 0) != 0 || line.rfind("| column", 0) == 0 || line.rfind("|---", 0) == 0) continue;
        const std::string cell = line.substr(2, line.find(" |", 2) - 2);
        std::istringstream names(cell);
        for (std::string name; std::getline(names, name, ',');) {
            name.erase(std::remove(name.begin(), name.end(), '`'), name.end());
            name.erase(0, name.find_first_not_of(' '));
            name.erase(name.find_last_not_of(' ') + 1);
            if (name.empty() || name.find('*') != std::string::npos) continue;
            ++rows;
            EXPECT_NE(firelab::harness::findColumn(name), nullptr)
                << "docs/csv.md names '" << name << "', which runs.csv does not have";
        }
    }
    EXPECT_GT(rows, 40u);
}

TEST_F(HarnessCsv, AppenderWritesTheHeaderOnceAndWholeRows) {
    const fs::path f = dir_ / "runs.csv";
    {
        CsvAppender a(f);
        a.append({{"experiment", "e"},
                  {"run_key", "strategy=points;particles=200"},
                  {"label", "a, \"quoted\"\nlabel"},
                  {"status", "ok"}});
        // A column the schema lacks is a bug to report, never a value dropped without a word: nothing is written.
        const auto e = firelab::testing::errorOf([&] { a.append({{"experiment", "e"}, {"not_a_column", "x"}}); });
        EXPECT_EQ(e.code(), firelab::ErrorCode::Internal);
    }
    {
        CsvAppender again(f);  // an existing file: no second header
        again.append({{"experiment", "e"}, {"run_key", "k2"}, {"status", "error: x"}});
    }
    const std::string text = slurp(f);
    EXPECT_EQ(text.rfind(headerLine(), 0), 0u);
    EXPECT_EQ(text.find(headerLine(), 1), std::string::npos);
    EXPECT_EQ(text.back(), '\n');
    const auto rows = readRunsCsv(f);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].at("label"), "a, \"quoted\"\nlabel");
    EXPECT_EQ(rows[0].at("run_key"), "strategy=points;particles=200");
    EXPECT_EQ(rows[0].at("fps"), "");  // missing columns are empty
    EXPECT_EQ(rows[0].size(), kRunColumns.size());
    EXPECT_EQ(rows[1].at("status"), "error: x");
    const auto parsed = parseCsv(text);
    ASSERT_EQ(parsed.size(), 3u);
    for (const auto& r : parsed) EXPECT_EQ(r.size(), kRunColumns.size());
}

TEST_F(HarnessCsv, ReadRunsCsvDropsATornLastRow) {
    Strings full(kRunColumns.size());
    full[col("experiment")] = "e", full[col("run_key")] = "k1", full.back() = "ok";
    const std::string row1 = csvLine(full);
    full[col("run_key")] = "k2";
    const std::string row2 = csvLine(full);
    const fs::path f = write("runs.csv", headerLine() + row1 + row2.substr(0, row2.size() / 2));
    const auto rows = readRunsCsv(f);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].at("run_key"), "k1");
    // A row with the wrong number of fields is not a whole row.
    const fs::path g = write("short.csv", headerLine() + row1 + csvLine(Strings{"e", "", "k3"}));
    EXPECT_EQ(readRunsCsv(g).size(), 1u);
}

TEST_F(HarnessCsv, RepairTornTailCutsBackToTheLastWholeLine) {
    Strings full(kRunColumns.size());
    full[col("experiment")] = "e", full[col("run_key")] = "k1", full[col("gl_renderer")] = "llvmpipe (LLVM, 256 bits)",
    full.back() = "ok";
    const std::string good = headerLine() + csvLine(full);
    full[col("run_key")] = "k2";
    full[col("label")] = "label with\nline break";
    const std::string torn = csvLine(full);
    // Torn inside the quoted line break: the newline inside quotes is not a line end.
    const size_t cut = torn.find("line break");
    ASSERT_NE(cut, std::string::npos);
    const fs::path f = write("runs.csv", good + torn.substr(0, cut));
    repairTornTail(f);
    EXPECT_EQ(slurp(f), good);
    repairTornTail(f);  // a whole file is left as it is
    EXPECT_EQ(slurp(f), good);
    // Torn right after a quoted comma.
    const fs::path g = write("runs2.csv", good + "e,,k3,\"llvmpipe (LLVM,");
    repairTornTail(g);
    EXPECT_EQ(slurp(g), good);
}

TEST_F(HarnessCsv, AppendingAfterATornTailStartsOnAFreshLine) {
    Strings full(kRunColumns.size());
    full[col("experiment")] = "e", full[col("run_key")] = "k1", full.back() = "ok";
    const std::string good = headerLine() + csvLine(full);
    const fs::path f = write("runs.csv", good + "e,,k2,qzx");
    {
        CsvAppender a(f);
        a.append({{"experiment", "e"}, {"run_key", "k2"}, {"status", "ok"}});
    }
    const std::string text = slurp(f);
    EXPECT_EQ(text.rfind(good, 0), 0u);
    EXPECT_EQ(text.find("qzx"), std::string::npos);
    const auto rows = readRunsCsv(f);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[1].at("run_key"), "k2");
}

TEST_F(HarnessCsv, AppendingAfterATornHeaderWritesTheHeader) {
    // A kill while the header itself was being written leaves a file with no whole line.
    const fs::path f = write("runs.csv", "experiment,label,ru");
    EXPECT_TRUE(readRunsCsv(f).empty());
    {
        CsvAppender a(f);
        a.append({{"experiment", "e"}, {"run_key", "k1"}, {"status", "ok"}});
    }
    EXPECT_EQ(slurp(f).rfind(headerLine(), 0), 0u);
    const auto rows = readRunsCsv(f);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].at("run_key"), "k1");
}

TEST_F(HarnessCsv, ReadRunsCsvOfAMissingFileIsEmpty) { EXPECT_TRUE(readRunsCsv(dir_ / "none.csv").empty()); }

TEST_F(HarnessCsv, ReadRunsCsvRejectsForeignFiles) {
    const fs::path f = write("other.csv", "x,y,z\n1,2,3\n");
    try {
        readRunsCsv(f);
        FAIL() << "expected Error(BadFile)";
    } catch (const firelab::Error& e) {
        EXPECT_EQ(e.code(), firelab::ErrorCode::BadFile);
        EXPECT_NE(std::string(e.what()).find(f.string()), std::string::npos);
    }
}

TEST_F(HarnessCsv, AppenderIntoAMissingFolderIsAnIoError) {
    try {
        CsvAppender a(dir_ / "no" / "such" / "runs.csv");
        FAIL() << "expected Error(Io)";
    } catch (const firelab::Error& e) {
        EXPECT_EQ(e.code(), firelab::ErrorCode::Io);
    }
}

}  // namespace
