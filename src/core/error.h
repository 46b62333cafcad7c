// Errors with stable identities, shared by every layer of firelab.
// Throw firelab::Error{ErrorCode::X, "what to fix"}; tests assert on code(), users read what().
#pragma once
#include <stdexcept>
#include <string>

namespace firelab {

enum class ErrorCode {
    UnknownName,    // a name (strategy, emitter, ...) that is not one of the valid ones
    BadValue,       // a number out of range, NaN, not a number, wrong shape
    TooLarge,       // a size that would not fit in memory
    MissingFile,    // a file that cannot be opened
    BadFile,        // a file that exists but cannot be parsed
    Io,             // a write that failed
    NoGlContext,    // no OpenGL context could be created
    GlUnsupported,  // the context lacks a version or extension a strategy needs
    ShaderCompile,  // a shader that fails to compile or link
    Internal,       // firelab broke its own rule (a CSV column that no schema declares): a bug to report
    Interrupted,    // a stop signal (SIGINT, SIGTERM...) ended work that polls for it; the command exits 130
};

// Each kind of failure, its exit code and when it happens: the exit codes follow from this table (exitCodeFor), and
// docs/cli.md's table is written from it. 2: the user's input or usage; 1: the machine or the run; 130: a signal.
struct ErrorKind {
    ErrorCode code;
    const char* name;
    int exitCode;
    const char* when;
};
inline constexpr ErrorKind kErrorKinds[] = {
    {ErrorCode::UnknownName, "unknown name", 2,
     "a strategy, emitter, option or setting that is not one of the valid ones "
     "(the message lists them)"},
    {ErrorCode::BadValue, "bad value", 2,
     "a value out of its range, not a number, of the wrong shape, or a combination "
     "that is refused (the message names the option, the value and what is allowed)"},
    {ErrorCode::TooLarge, "too large", 2, "a size that would not fit in memory"},
    {ErrorCode::MissingFile, "missing file", 2, "a file or folder named that does not exist or cannot be opened"},
    {ErrorCode::BadFile, "bad file", 2,
     "a file that exists but is not what it should be (not firelab's, not valid, "
     "a file where a folder belongs)"},
    {ErrorCode::Io, "write failed or folder busy", 1,
     "a write that failed (a full disk, a read-only folder), or a "
     "results folder another process is writing (the message names it)"},
    {ErrorCode::NoGlContext, "no GL context", 1, "no OpenGL 4.5 context could be made"},
    {ErrorCode::GlUnsupported, "GL unsupported", 1, "the context lacks a version or extension a strategy needs"},
    {ErrorCode::ShaderCompile, "shader compile", 1, "a shader that fails to compile or link"},
    {ErrorCode::Internal, "internal", 1, "firelab broke its own rule: a bug to report"},
    {ErrorCode::Interrupted, "interrupted", 130,
     "SIGINT, SIGTERM or another stop signal: the run in progress is "
     "dropped, the rows written are whole, --resume continues"},
};

constexpr int exitCodeFor(ErrorCode c) {
    for (const ErrorKind& k : kErrorKinds)
        if (k.code == c) return k.exitCode;
    return 1;
}

// A message as a terminal can show it: control characters other than a newline or a tab (a NUL from a file's
// value, which would end the message there; an escape that would recolour the terminal) written as \xNN.
inline std::string printableMessage(const std::string& message) {
    std::string out;
    for (const char c : message) {
        const auto u = static_cast<unsigned char>(c);
        if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) {
            const char* hex = "0123456789abcdef";
            out += "\\x";
            out += hex[u >> 4];
            out += hex[u & 15];
        } else {
            out += c;
        }
    }
    return out;
}

class Error : public std::runtime_error {
public:
    Error(ErrorCode code, const std::string& message) : std::runtime_error(printableMessage(message)), code_(code) {}
    ErrorCode code() const noexcept { return code_; }

private:
    ErrorCode code_;
};

}  // namespace firelab
