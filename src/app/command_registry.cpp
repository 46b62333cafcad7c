#include "app/command.h"

namespace firelab::app {

// >>registry: every command, once, in the order firelab --help lists them. Each name is the CommandEntry its
// own file (src/app/commands/NAME_command.cpp) defines; a command added is its file and one line here, before
// the closing comment.
#define FIRELAB_COMMANDS(X) \
    X(kSummaryCommand)      \
    X(kSnapshotCommand)     \
    X(kPhysicsCommand)      \
    X(kListCommand)         \
    X(kInfoCommand)         \
    X(kCaptureCommand)      \
    X(kBakeCommand)         \
    X(kRunCommand)          \
    X(kSweepCommand)        \
    X(kMergeCommand)        \
    X(kCompareCommand)      \
    X(kStabilityCommand)    \
    X(kViewCommand)         \
    X(kDocsCommand)         \
    /* end of the registry */

#define FIRELAB_DECLARE_COMMAND(entry) extern const CommandEntry entry;
FIRELAB_COMMANDS(FIRELAB_DECLARE_COMMAND)
#undef FIRELAB_DECLARE_COMMAND

namespace {
#define FIRELAB_COMMAND_ADDRESS(entry) &entry,
constexpr const CommandEntry* kRegistry[] = {FIRELAB_COMMANDS(FIRELAB_COMMAND_ADDRESS)};
#undef FIRELAB_COMMAND_ADDRESS
#undef FIRELAB_COMMANDS
}  // namespace

std::span<const CommandEntry* const> commands() { return kRegistry; }

}  // namespace firelab::app
