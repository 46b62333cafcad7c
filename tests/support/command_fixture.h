// What the command-line tests share, whether they run the command line in this process (cli_in_process.h, the
// unit tier) or launch the built binary (firelab_process.h, the e2e tier): a command's outcome, a fresh folder
// per test, and reading the CSV files the commands write.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/scratch_dir.h"

namespace firelab::testing {
namespace fs = std::filesystem;

inline std::vector<std::string> splitOn(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);) out.push_back(item);
    return out;
}

// Columns of a snapshot CSV by header name.
using Table = std::map<std::string, std::vector<double>>;
inline Table readCsv(const fs::path& p, size_t* rows = nullptr) {
    const auto lines = splitOn(readFile(p), '\n');
    Table t;
    if (lines.empty()) return t;
    const auto header = splitOn(lines[0], ',');
    for (size_t i = 1; i < lines.size(); ++i) {
        const auto f = splitOn(lines[i], ',');
        for (size_t c = 0; c < header.size() && c < f.size(); ++c) t[header[c]].push_back(std::stod(f[c]));
    }
    if (rows) *rows = lines.size() - 1;
    return t;
}

// A word of a command line as sh reads it: in single quotes.
inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

struct Outcome {
    int code = -1;  // exit status; 128 + signal if the process was ended by one
    std::string out, err;
};

// A folder per test; the command's captured stdout and stderr land in it as stdout.txt and stderr.txt.
class CommandTest : public ScratchDirTest {
protected:
    std::string path(const std::string& name) const { return quoted((dir_ / name).string()); }

    // Files in the folder other than the captured output and `keep`.
    std::vector<std::string> leftovers(const std::string& keep = "") const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_)) {
            const std::string n = e.path().filename().string();
            if (n != "stdout.txt" && n != "stderr.txt" && n != keep) out.push_back(n);
        }
        return out;
    }
};

}  // namespace firelab::testing
