#include "harness/csv.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "sim/error.h"

namespace firelab::harness {

std::string csvField(std::string_view s) {
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

std::vector<std::vector<std::string>> parseCsv(std::string_view text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false, fieldStarted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"') {
                if (i + 1 < text.size() && text[i + 1] == '"') field += '"', ++i;
                else quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = fieldStarted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n' || c == '\r') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
            fieldStarted = false;
        } else {
            field += c;
            fieldStarted = true;
        }
    }
    // Anything after the last newline is a torn row: dropped.
    (void)fieldStarted;
    return rows;
}

CsvAppender::CsvAppender(std::filesystem::path file) : file_(std::move(file)) {
    std::error_code ec;
    if (std::filesystem::exists(file_, ec)) repairTornTail(file_);  // before the check: a torn header leaves it empty
    const bool fresh = !std::filesystem::exists(file_, ec) || std::filesystem::file_size(file_, ec) == 0;
    if (!fresh) return;
    std::vector<std::string> header(kRunColumns.begin(), kRunColumns.end());
    std::ofstream out(file_, std::ios::binary | std::ios::app);
    out << csvLine(header);
    out.flush();
    if (!out) throw Error(ErrorCode::Io, "cannot write " + file_.string() + ": the folder is missing or not writable");
}

void CsvAppender::append(const Row& row) {
    std::vector<std::string> fields;
    for (auto col : kRunColumns) {
        const auto it = row.find(std::string(col));
        fields.push_back(it == row.end() ? std::string() : it->second);
    }
    const std::string line = csvLine(fields);
    // One write(2) of the whole row on an O_APPEND descriptor, then fsync: whole rows or nothing.
    const int fd = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
    if (fd < 0) throw Error(ErrorCode::Io, "cannot append to " + file_.string() + ": " + std::strerror(errno));
    const ssize_t n = ::write(fd, line.data(), line.size());
    ::fsync(fd);
    ::close(fd);
    if (n != static_cast<ssize_t>(line.size())) throw Error(ErrorCode::Io, "short write to " + file_.string());
}

std::vector<Row> readRunsCsv(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) return {};
    std::stringstream s;
    s << in.rdbuf();
    const auto rows = parseCsv(s.str());
    if (rows.empty()) return {};
    const auto& header = rows[0];
    if (header.size() < 3 || header[0] != "experiment" || header[2] != "run_key")
        throw Error(ErrorCode::BadFile, file.string() + ": not a firelab runs.csv (unexpected header)");
    std::vector<Row> out;
    for (size_t r = 1; r < rows.size(); ++r) {
        if (rows[r].size() != header.size()) continue;  // not a whole row
        Row row;
        for (size_t c = 0; c < header.size(); ++c) row[header[c]] = rows[r][c];
        out.push_back(std::move(row));
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
        if (text[i] == '"') quoted = !quoted;
        else if (text[i] == '\n' && !quoted) lastNewline = i;
    }
    const size_t keep = lastNewline == std::string::npos ? 0 : lastNewline + 1;
    if (keep < text.size()) std::filesystem::resize_file(file, keep);
}

}  // namespace firelab::harness
