#include <filesystem>
#include "app/command_line.h"

#include <cstdio>

#include "core/error.h"
#include "harness/platform/data_dir.h"
#include "harness/settings/run_settings.h"

namespace firelab::app {
namespace {

std::string commandLineOf(int argc, char** argv) {
    std::string commandLine;
    for (int i = 0; i < argc; ++i) commandLine += (i ? " " : "") + std::string(argv[i]);
    return commandLine;
}

// "--x is given N times: give it once", with a word on lists where the option is a setting run and sweep
// take several values of.
std::string repeatedMessage(const std::string& flag, const std::string& times) {
    const bool setting = harness::findSetting(flag.substr(flag.find_first_not_of('-'))) != nullptr;
    return flag + " is given " + times + " times: give it once" +
           (setting ? " (run and sweep take a comma-separated list of values)" : "");
}

// " in [64, 16384]" from a CLI11 type name with a range ("INT:INT in [64 - 16384]"); empty without one.
std::string rangeOf(const std::string& type) {
    const size_t open = type.find('['), dash = type.find(" - ", open), close = type.find(']', open);
    if (open == std::string::npos || dash == std::string::npos || close == std::string::npos) return "";
    return " in " + type.substr(open, dash - open) + ", " + type.substr(dash + 3, close - dash - 2);
}

}  // namespace

CommandLine::CommandLine() {
    cli_.set_version_flag("--version", FIRELAB_VERSION);
    cli_.require_subcommand(0, 1);
    cli_.fallthrough();  // options of the top level (--data-dir) may follow the subcommand
    // Every command of the registry, in its order (--help lists them so); the summary's options are the top
    // level's.
    for (const CommandEntry* e : commands()) {
        CLI::App* app = e->name.empty() ? &cli_ : cli_.add_subcommand(std::string(e->name), std::string(e->help));
        commands_.push_back({e, app, e->make()});
        commands_.back().command->addTo(*app);
    }
    dataDirOption_ =
        cli_.add_option("--data-dir", dataDir_, "folder holding shaders/, textures/ and experiments/")->group("Files");
}

int CommandLine::run(int argc, char** argv) {
    const std::string commandLine = commandLineOf(argc, argv);
    cli_.parse(argc, argv);
    refuseStrayOptions();
    refuseRepeatedFlags();
    if (!dataDir_.empty()) harness::findDataDir(dataDir_);  // a bad --data-dir fails first, naming the flag
    harness::setDefaultDataDir(dataDir_);                   // and effect names are looked up there
    const auto parsed = cli_.get_subcommands();
    const CLI::App* named = parsed.empty() ? &cli_ : parsed.front();
    std::vector<std::string> words(argv, argv + argc);
    std::error_code ec;  // the binary as it runs now, not as the shell found it
    if (const auto self = std::filesystem::read_symlink("/proc/self/exe", ec); !ec && !words.empty())
        words[0] = self.string();
    const CommandContext context{dataDir_, commandLine, words, cli_};
    for (Entry& c : commands_)
        if (c.app == named) return c.command->run(context);
    throw Error(ErrorCode::Internal, "no command of the registry is called '" + named->get_name() + "'");
}

// The top level's options (the summary's, when no command is named) given with a command: before its name,
// or after it where the command does not take them (they fall through to the top level). Either way the
// command would run without them: refused, naming the option and where it belongs. --data-dir is every
// command's.
void CommandLine::refuseStrayOptions() const {
    const auto parsed = cli_.get_subcommands();
    if (parsed.empty()) return;
    const CLI::App& command = *parsed.front();
    for (const CLI::Option* o : cli_.get_options()) {
        if (o->count() == 0 || o == dataDirOption_) continue;
        const std::string flag = o->get_name(), name = command.get_name();
        if (command.get_option_no_throw(flag) != nullptr)
            throw Error(ErrorCode::UnknownName, flag + " is given before the command '" + name +
                                                    "', where it would be ignored: write it after the command "
                                                    "(firelab " +
                                                    name + " " + flag + " ...)");
        throw Error(ErrorCode::UnknownName, "'" + name + "' does not take " + flag +
                                                " (it would be ignored); firelab " + name +
                                                " --help lists what it takes");
    }
}

// A switch given twice (--hdr=false --hdr) would be decided by whichever came last: refused, as a value given
// twice is (CLI11 refuses those itself, and exit() words it).
void CommandLine::refuseRepeatedFlags() const {
    for (const CLI::App* command : cli_.get_subcommands())
        for (const CLI::Option* o : command->get_options())
            if (!o->get_positional() && o->get_expected_min() == 0 && o->count() > 1)  // a switch
                throw Error(ErrorCode::BadValue, repeatedMessage(o->get_name(), std::to_string(o->count())));
}

int CommandLine::exit(const CLI::ParseError& e) {
    // A flag given twice, in firelab's words rather than CLI11's ("--x: At Most 1 required but received 2").
    const std::string what = e.what();
    const std::string twice = ": At Most 1 required but received ";
    if (const size_t at = what.find(twice); e.get_name() == "ArgumentMismatch" && at != std::string::npos) {
        std::fprintf(stderr, "firelab: error: %s\n",
                     repeatedMessage(what.substr(0, at), what.substr(at + twice.size())).c_str());
        return 2;
    }
    if (e.get_name() == "ConversionError" || e.get_name() == "ValidationError") {
        if (const std::string message = valueMessage(what); !message.empty()) {
            std::fprintf(stderr, "firelab: error: %s\n", message.c_str());
            return 2;
        }
    }
    return cli_.exit(e) == 0 ? 0 : 2;
}

// CLI11's "Could not convert: --width = abc" and "--width: Value 5 not in range 64 to 16384" in firelab's words:
// the option, the value given and what it takes (its type, and its range where it declares one). Empty when the
// message is not one of those.
std::string CommandLine::valueMessage(const std::string& what) const {
    std::string name, value;
    const std::string convert = "Could not convert: ";
    if (what.rfind(convert, 0) == 0 && what.find(" = ") != std::string::npos) {
        const size_t eq = what.find(" = ");
        name = what.substr(convert.size(), eq - convert.size()), value = what.substr(eq + 3);
    } else if (const size_t colon = what.find(": Value "); colon != std::string::npos && what.rfind("--", 0) == 0) {
        name = what.substr(0, colon);
        const size_t from = colon + 8;
        value = what.substr(from, what.find(' ', from) - from);
    } else {
        return "";
    }
    const CLI::App* command = cli_.get_subcommands().empty() ? &cli_ : cli_.get_subcommands().front();
    const CLI::Option* o = command->get_option_no_throw(name);
    if (o == nullptr) o = cli_.get_option_no_throw(name);
    if (o == nullptr) return "";
    const std::string type = o->get_type_name();  // "INT", or "INT:INT in [64 - 16384]" with a range
    const std::string base = type.substr(0, type.find(':'));
    const std::string kind = base == "INT" || base == "UINT" ? "an integer" : base == "FLOAT" ? "a number" : base;
    return name + " '" + value + "': must be " + kind + rangeOf(type) + "; firelab " + command->get_name() +
           " --help lists what it takes";
}

// Every failure ends here: its message on stderr and its exit code.
int runCommandLine(CommandLine& cli, int argc, char** argv) {
    try {
        return cli.run(argc, argv);
    } catch (const CLI::ParseError& e) {
        return cli.exit(e);
    } catch (const Error& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return exitCodeFor(e.code());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "firelab: error: out of memory; try fewer --particles\n");
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "firelab: error: %s\n", e.what());
        return 1;
    }
}

}  // namespace firelab::app
