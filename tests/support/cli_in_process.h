// The firelab command line run in this process, as main.cpp runs it (app::CommandLine and app::runCommandLine,
// less the stop handlers): its exit code and what it printed, stdout and stderr captured through files in the
// test's folder. The unit tier's way to check the CLI's exit codes and messages without launching the binary.
// The unit tier runs under SDL_VIDEODRIVER=dummy, so a command that tried to make a GL context would find none.
//
//   TEST_F(Cli, X) { const Outcome r = run("snapshot --particles 0 --out " + path("s.csv")); EXPECT_EQ(r.code, 2); }
#pragma once
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "support/command_fixture.h"

namespace firelab::testing {

// The words of a command line as sh splits the ones tests write: blanks separate words, and '...' quotes (an
// empty word is '').
inline std::vector<std::string> shellWords(const std::string& line) {
    std::vector<std::string> words;
    std::string word;
    bool inWord = false, inQuotes = false;
    for (const char c : line) {
        if (inQuotes) {
            if (c == '\'')
                inQuotes = false;
            else
                word += c;
        } else if (c == '\'') {
            inQuotes = inWord = true;
        } else if (c == ' ' || c == '\t' || c == '\n') {
            if (inWord) words.push_back(word);
            word.clear(), inWord = false;
        } else {
            word += c, inWord = true;
        }
    }
    EXPECT_FALSE(inQuotes) << "an unclosed quote in: " << line;
    if (inWord) words.push_back(word);
    return words;
}

// A standard stream (STDOUT_FILENO, STDERR_FILENO) written to `file` until finish(), which returns what was written.
class CapturedStream {
public:
    CapturedStream(int fd, const fs::path& file) : fd_(fd), file_(file) {
        flushAll();
        saved_ = ::dup(fd);
        const int f = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        EXPECT_GE(f, 0) << file;
        if (f >= 0) ::dup2(f, fd), ::close(f);
    }
    ~CapturedStream() {
        if (saved_ >= 0) finish();
    }
    CapturedStream(const CapturedStream&) = delete;
    CapturedStream& operator=(const CapturedStream&) = delete;
    std::string finish() {
        flushAll();
        ::dup2(saved_, fd_);
        ::close(saved_);
        saved_ = -1;
        return readFile(file_);
    }

private:
    static void flushAll() {
        std::cout.flush(), std::cerr.flush();
        std::fflush(stdout), std::fflush(stderr);
    }
    int fd_, saved_ = -1;
    fs::path file_;
};

// `firelab ARGS...` in this process; stdout and stderr into `dir`.
inline Outcome runFirelabInProcess(const std::vector<std::string>& args, const fs::path& dir) {
    std::vector<std::string> words{"firelab"};
    words.insert(words.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& w : words) argv.push_back(w.data());
    argv.push_back(nullptr);
    Outcome r;
    CapturedStream out(STDOUT_FILENO, dir / "stdout.txt"), err(STDERR_FILENO, dir / "stderr.txt");
    {
        app::CommandLine cli;
        r.code = app::runCommandLine(cli, static_cast<int>(words.size()), argv.data());
    }
    r.err = err.finish();
    r.out = out.finish();
    return r;
}

class Cli : public CommandTest {
protected:
    // The command line as sh would split it (see shellWords).
    Outcome run(const std::string& args) const { return runArgs(shellWords(args)); }
    Outcome runArgs(const std::vector<std::string>& args) const { return runFirelabInProcess(args, dir_); }
};

}  // namespace firelab::testing
