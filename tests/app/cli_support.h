// Running the built firelab binary (FIRELAB_EXE) from tests: exit status (128 + signal if it
// crashed), captured stdout and stderr, one temp folder per test.
#pragma once
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
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

inline std::string quoted(const std::string& s) { return "'" + s + "'"; }

struct Outcome {
    int code = -1;  // exit status; 128 + signal if it crashed
    std::string out, err;
};

// One temp folder per test; run() executes firelab with the given arguments inside the shell.
class Cli : public ScratchDirTest {
protected:
    // `prefix` goes before the binary (e.g. "timeout -s KILL 60 ").
    Outcome run(const std::string& args, const std::string& prefix = "") const {
        const fs::path out = dir_ / "stdout.txt", err = dir_ / "stderr.txt";
        const std::string cmd =
            prefix + quoted(FIRELAB_EXE) + " " + args + " >" + quoted(out.string()) + " 2>" + quoted(err.string());
        const int status = std::system(cmd.c_str());
        Outcome r;
        if (status != -1 && WIFEXITED(status))
            r.code = WEXITSTATUS(status);
        else if (status != -1 && WIFSIGNALED(status))
            r.code = 128 + WTERMSIG(status);
        r.out = readFile(out);
        r.err = readFile(err);
        return r;
    }

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

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}


}  // namespace firelab::testing
