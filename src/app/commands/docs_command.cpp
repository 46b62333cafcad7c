// `firelab docs --out DIR`: the reference pages generated from the declarations (reference/reference_pages.h)
// into DIR; `scripts/firelab docs --out docs` rewrites the committed ones.
#include <cstdio>
#include <filesystem>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/reference/reference_pages.h"
#include "core/atomic_file.h"

namespace firelab::app {
namespace {

class Docs : public Command {
public:
    void addTo(CLI::App& cmd) override {
        outFlag_ =
            cmd.add_option("--out", out_, "folder to write cli.md and settings.md into (docs: the committed ones)")
                ->required();
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(outFlag_, out_, "the folder to write the pages into");
        core::checkWritableFolder(out_, "--out");
        for (const ReferencePage& page : referencePages(context.cli)) {
            const std::filesystem::path file = std::filesystem::path(out_) / page.file;
            core::AtomicFile out(file);
            out.stream() << page.text;
            out.commit();
            std::fprintf(stderr, "firelab: wrote %s\n", file.c_str());
        }
        return 0;
    }

private:
    std::string out_;
    CLI::Option* outFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kDocsCommand{
    "docs", "write the reference pages generated from the declarations (cli.md, settings.md) into a folder",
    []() -> std::unique_ptr<Command> { return std::make_unique<Docs>(); }};

}  // namespace firelab::app
