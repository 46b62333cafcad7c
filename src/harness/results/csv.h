// The harness's CSV: one row per run, a fixed header (the schema's columns, results/schema.h, documented in docs/csv.md),
// RFC 4180 quoting. Rows are appended and flushed one at a time, each with a single write, so an
// interrupted sweep leaves whole rows only; a torn last line (from kill -9 mid-write) is dropped on resume.
#pragma once
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "harness/results/schema.h"

namespace firelab::harness {

// A measured number as the CSV writes it: 6 significant digits.
std::string csvNumber(double v);

// One field, quoted when it holds a comma, a quote, CR or LF (quotes doubled). Text a spreadsheet would run
// as a formula (beginning with =, +, -, @, tab or CR, and not a number: OWASP's CSV injection advice) is
// written behind the guard ', as is text that begins with the guard; parseCsv strips it.
inline constexpr char kCsvGuard = '\'';
bool csvNeedsGuard(std::string_view s);
std::string csvField(std::string_view s);
std::string csvLine(const std::vector<std::string>& fields);  // ends in "\n"

// Parses RFC 4180 text into rows (each field without csvField's guard). A final line without its newline is treated as torn and dropped.
// With `recordStarts`: each record's offset in `text`, then one more, where the text after the last
// whole record begins (text.size() when there is none).
std::vector<std::vector<std::string>> parseCsv(std::string_view text, std::vector<size_t>* recordStarts = nullptr);

// The row's fields in the schema's order (missing columns empty); Error(Internal) for a key the schema
// does not have.
std::vector<std::string> rowFields(const Row& row);
// Why `fields` is not a whole run row (every column, an experiment, a run_key, a status "ok" or
// "error: ..."), or "" when it is.
std::string whyNotARunRow(const std::vector<std::string>& fields);
// A whole run row's fields (the schema's order) as a Row.
Row toRow(std::vector<std::string> fields);
// The schema's column names, and as a CSV line.
std::vector<std::string> runsHeader();
std::string runsHeaderLine();
// Replaces `file` (temp + rename) with a runs.csv of `rows`. Throws Error(Io).
void writeRunsCsv(const std::filesystem::path& file, const std::vector<Row>& rows);
// Appends CSV lines to a side file (history, rejected rows), writing `header` first when it is new or
// empty. Throws Error(Io).
void appendCsvLines(const std::filesystem::path& file, const std::string& header,
                    const std::vector<std::string>& lines);

// Appends rows to a runs.csv, writing the header when the file is new or empty. The file is opened,
// locked (one writer per CSV: a second one fails naming the holder) and checked (firelab's header, a
// regular writable file; a symlink is followed) by the constructor, so a bad path fails before any run.
// A row that cannot be written whole (full disk) is cut back off. Throws Error(Io) or Error(BadFile).
class CsvAppender {
public:
    explicit CsvAppender(std::filesystem::path file);
    ~CsvAppender();
    CsvAppender(const CsvAppender&) = delete;
    CsvAppender& operator=(const CsvAppender&) = delete;
    void append(const Row& row);  // one write + fsync per row
    const std::filesystem::path& path() const { return file_; }

private:
    void writeLine(const std::string& line);
    std::filesystem::path file_;
    int fd_ = -1;
};

// Reads a runs.csv (header + rows) into maps; a torn last row is dropped. Missing file: empty.
// Throws Error(BadFile) when the header is not firelab's or the path is not a regular file (a FIFO,
// a device or a folder is never opened).
std::vector<Row> readRunsCsv(const std::filesystem::path& file);
// Makes `file` end on a whole line, so appends start on a fresh one (resume after kill -9): a torn last
// line is cut; a whole last row that only lacks its newline gets one.
void repairTornTail(const std::filesystem::path& file);

}  // namespace firelab::harness
