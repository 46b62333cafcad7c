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

// Exit code convention: 2 for bad usage or input, 1 for runtime failures.
constexpr int exitCodeFor(ErrorCode c) {
    switch (c) {
    case ErrorCode::UnknownName:
    case ErrorCode::BadValue:
    case ErrorCode::TooLarge:
    case ErrorCode::MissingFile:
    case ErrorCode::BadFile: return 2;
    default: return 1;
    }
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
