#include "app/reference/reference_pages.h"

#include "core/error.h"

namespace firelab::app {

std::vector<ReferencePage> referencePages(const CLI::App& cli) {
    return {{"cli.md", cliPage(cli)}, {"settings.md", settingsPage(cli)}};
}

std::vector<CommandApp> commandApps(const CLI::App& cli) {
    std::vector<CommandApp> out;
    for (const CommandEntry* e : commands()) {
        const std::string name(e->name);
        const CLI::App* app = name.empty() ? &cli : nullptr;
        for (const CLI::App* sub : cli.get_subcommands([](const CLI::App*) { return true; }))
            if (!name.empty() && sub->get_name() == name) app = sub;
        if (app == nullptr)
            throw Error(ErrorCode::Internal, "the command line has no command '" + name + "' of the registry");
        out.push_back({e, app, name.empty() ? "firelab" : name});
    }
    return out;
}

}  // namespace firelab::app
