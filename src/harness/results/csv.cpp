#include "harness/results/csv.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/atomic_file.h"
#include "harness/platform/lock.h"
#include "core/error.h"
#include "sim/snapshot.h"

namespace firelab::harness {

std::string csvNumber(double v) {
    std::ostringstream o;
    o.precision(6);
    o << v;
    return o.str();
}

namespace {
// Whether the whole of `s` is a number (a negative number starts with '-' and is no formula).
bool isNumber(std::string_view s) {
    const std::string text(s);
    char* end = nullptr;
    errno = 0;
    std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size();
}

// Numbers joined by ',' or ';' (a vector setting's value, -0.1,0.7,-0.2): nothing a spreadsheet could run.
bool isNumberList(std::string_view s) {
    size_t from = 0;
    for (size_t at; (at = s.find_first_of(",;", from)) != std::string_view::npos; from = at + 1)
        if (!isNumber(s.substr(from, at - from))) return false;
    return isNumber(s.substr(from));
}
}  // namespace

bool csvNeedsGuard(std::string_view s) {
    if (s.empty()) return false;
    if (s[0] == kCsvGuard) return true;  // so that reading strips exactly the guard it added
    return std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos && !isNumberList(s);
}

std::string csvField(std::string_view text) {
    const std::string guarded = csvNeedsGuard(text) ? kCsvGuard + std::string(text) : std::string();
    const std::string_view s = guarded.empty() ? text : std::string_view(guarded);
    if (s.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(s);
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string csvLine(const std::vector<std::string>& fields) {
    std::string line;
    for (size_t i = 0; i < fields.size(); ++i) {
        if (i) line += ',';
        line += csvField(fields[i]);
    }
    return line + "\n";
}

namespace {
std::string unguarded(std::string field) {
    if (!field.empty() && field[0] == kCsvGuard) field.erase(0, 1);
    return field;
}
}  // namespace

std::vector<std::vector<std::string>> parseCsv(std::string_view text, std::vector<size_t>* recordStarts) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    size_t recordStart = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"')
                    field += '"', ++i;
                else
                    quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
        } else if (c == ',') {
            row.push_back(unguarded(std::move(field)));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            row.push_back(unguarded(std::move(field)));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
            if (recordStarts) recordStarts->push_back(recordStart);
            recordStart = i + 1;
        } else {
            field += c;
        }
    }
    // Anything after the last newline is a torn row: dropped.
    if (recordStarts) recordStarts->push_back(recordStart);
    return rows;
}

namespace {

// The path's file type after symlinks, refusing anything but a regular file: a FIFO would block a
// reader, a device would read without end. Returns false for a path that does not exist.
bool existsAsRegularFile(const std::filesystem::path& file, const char* what) {
    struct stat st {};
    if (::stat(file.c_str(), &st) != 0) return false;
    if (!S_ISREG(st.st_mode))
        throw Error(ErrorCode::BadFile, file.string() + ": not a regular file (" +
                                            (S_ISDIR(st.st_mode)    ? "a folder"
                                             : S_ISFIFO(st.st_mode) ? "a FIFO"
                                             : S_ISCHR(st.st_mode)  ? "a character device"
                                                                    : "a device or socket") +
                                            "); " + what);
    return true;
}

}  // namespace

CsvAppender::CsvAppender(std::filesystem::path file) : file_(std::move(file)) {
    existsAsRegularFile(file_, "give a new path or a runs.csv to append to");
    // One descriptor for every append, opened now so an unwritable path fails before any run; O_NONBLOCK
    // so that a FIFO swapped in since the check cannot hang the open (fstat refuses it below).
    fd_ = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NONBLOCK, 0644);
    struct stat st {};
    if (fd_ < 0 || ::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
        const bool regular = fd_ < 0 || S_ISREG(st.st_mode);
        const std::string why = fd_ < 0 ? std::strerror(errno) : "not a regular file";
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        throw Error(regular ? ErrorCode::Io : ErrorCode::BadFile, "cannot write " + file_.string() + ": " + why);
    }
    try {
        lockForWriting(fd_, file_, "");  // one writer per CSV, before it is read or repaired
        if (st.st_size > 0) {
            readRunsCsv(file_);     // BadFile for a file that is not firelab's, before anything is written
            repairTornTail(file_);  // before the size check: a torn header leaves it empty
        }
        if (::fstat(fd_, &st) == 0 && st.st_size == 0) writeLine(runsHeaderLine());
    } catch (...) {
        ::close(fd_);
        fd_ = -1;
        throw;
    }
}

CsvAppender::~CsvAppender() {
    if (fd_ >= 0) ::close(fd_);
}

void CsvAppender::writeLine(const std::string& line) {
    // One write(2) of the whole line on the O_APPEND descriptor, then fsync. A write that fails part-way
    // (a full disk, a file size limit) is cut back off: whole rows or nothing. This process holds the
    // file's lock, so its size before the write is where the row began.
    struct stat st {};
    const bool sized = ::fstat(fd_, &st) == 0;
    size_t written = 0;
    int err = 0;
    while (written < line.size()) {
        const ssize_t n = ::write(fd_, line.data() + written, line.size() - written);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            err = n < 0 ? errno : EIO;
            break;
        }
        written += static_cast<size_t>(n);
    }
    if (!err && ::fsync(fd_) != 0 && errno != EINVAL) err = errno;
    if (!err) return;
    const bool cut = sized && ::ftruncate(fd_, st.st_size) == 0;
    throw Error(ErrorCode::Io, "writing " + file_.string() + " failed: " + std::strerror(err) +
                                   (cut ? "; the row was not written (the file holds whole rows only)"
                                        : "; the file may end in a torn row (--resume drops it)"));
}

std::vector<std::string> rowFields(const Row& row) {
    checkColumns(row);
    std::vector<std::string> fields;
    for (const auto& col : runColumns()) {
        const auto it = row.find(col.name);
        fields.push_back(it == row.end() ? std::string() : it->second);
    }
    return fields;
}

void CsvAppender::append(const Row& row) { writeLine(csvLine(rowFields(row))); }

namespace {
size_t columnIndex(std::string_view name) {
    const auto& columns = runColumns();
    return static_cast<size_t>(findColumn(name) - columns.data());
}
}  // namespace

std::string whyNotARunRow(const std::vector<std::string>& fields) {
    const size_t n = runColumns().size();
    if (fields.size() != n) return std::to_string(fields.size()) + " fields, not " + std::to_string(n);
    if (fields[columnIndex("experiment")].empty()) return "no experiment";
    if (fields[columnIndex("run_key")].empty()) return "no run_key";
    const std::string& status = fields[columnIndex("status")];
    if (status != "ok" && status.rfind("error: ", 0) != 0)
        return "status '" + status + "' is neither ok nor error: ...";
    return "";
}

Row toRow(std::vector<std::string> fields) {
    const auto& columns = runColumns();
    Row row;
    for (size_t c = 0; c < columns.size() && c < fields.size(); ++c) row[columns[c].name] = std::move(fields[c]);
    return row;
}

std::vector<std::string> runsHeader() {
    std::vector<std::string> names;
    for (const auto& c : runColumns()) names.push_back(c.name);
    return names;
}

std::string runsHeaderLine() { return csvLine(runsHeader()); }

void writeRunsCsv(const std::filesystem::path& file, const std::vector<Row>& rows) {
    core::AtomicFile out(file);
    out.stream() << runsHeaderLine();
    for (const auto& row : rows) out.stream() << csvLine(rowFields(row));
    out.commit();
}

void appendCsvLines(const std::filesystem::path& file, const std::string& header,
                    const std::vector<std::string>& lines) {
    std::error_code ec;
    const bool fresh = !std::filesystem::exists(file, ec) || std::filesystem::file_size(file, ec) == 0;
    std::ofstream out(file, std::ios::binary | std::ios::app);
    if (fresh) out << header;
    for (const auto& line : lines) out << line;
    out.flush();
    if (!out) throw Error(ErrorCode::Io, "cannot write " + file.string());
}

std::vector<Row> readRunsCsv(const std::filesystem::path& file) {
    if (!existsAsRegularFile(file, "firelab reads runs.csv from a regular file")) return {};
    std::ifstream in(file, std::ios::binary);
    if (!in) throw Error(ErrorCode::MissingFile, file.string() + ": cannot be read (" + std::strerror(errno) + ")");
    std::stringstream s;
    s << in.rdbuf();
    const auto rows = parseCsv(s.str());
    if (rows.empty()) return {};
    const auto& header = rows[0];
    // Rows are appended in the schema's order: a file with any other header would be misaligned.
    const std::vector<std::string> columns = runsHeader();
    for (size_t c = 0; c < std::max(header.size(), columns.size()); ++c) {
        const std::string have = c < header.size() ? header[c] : "(nothing)";
        const std::string want = c < columns.size() ? columns[c] : "(nothing)";
        if (have != want)
            throw Error(ErrorCode::BadFile, file.string() + ": not a runs.csv of this firelab version (column " +
                                                std::to_string(c + 1) + " is '" + have + "', expected '" + want + "')");
    }
    std::vector<Row> out;
    for (size_t r = 1; r < rows.size(); ++r) {
        if (rows[r].size() != header.size()) continue;  // not a whole row
        out.push_back(toRow(rows[r]));                  // the header is the schema's (checked above)
    }
    return out;
}

void repairTornTail(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    const std::string text = s.str();
    if (text.empty()) return;  // (a final '\n' may still be inside a torn quoted field)
    // Cut back to the last newline that is not inside quotes.
    bool quoted = false;
    size_t lastNewline = std::string::npos;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '"')
            quoted = !quoted;
        else if (text[i] == '\n' && !quoted)
            lastNewline = i;
    }
    const size_t keep = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    if (keep == text.size()) return;
    // A last row that is whole but lacks its newline (an editor stripped it) is kept: it has every
    // column and a status. Anything else after the last newline is a torn write and is cut.
    if (keep > 0 && !quoted) {
        const auto tail = parseCsv(text.substr(keep) + "\n");
        if (tail.size() == 1 && whyNotARunRow(tail[0]).empty()) {
            std::ofstream(file, std::ios::binary | std::ios::app) << '\n';
            return;
        }
    }
    std::filesystem::resize_file(file, keep);
}

}  // namespace firelab::harness
