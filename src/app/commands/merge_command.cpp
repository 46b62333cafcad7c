// `firelab merge DIR... --out DIR`: join the folders of a sweep's shards into one, with plots; never over
// results already there.
#include <cstdio>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "harness/platform/data_dir.h"
#include "harness/results/merge.h"

namespace firelab::app {
namespace {
namespace fs = std::filesystem;

class Merge : public Command {
public:
    void addTo(CLI::App& cmd) override {
        cmd.add_option("shards", dirs_, "shard folders")->required();
        outOpt_ = cmd.add_option("--out", out_, "output folder (new: merge never overwrites)")->required();
    }

    int run(const CommandContext& context) override {
        const fs::path dataDir = harness::findDataDir(context.dataDir);
        checkNotEmpty(outOpt_, out_, "the folder to merge into");
        std::vector<fs::path> dirs(dirs_.begin(), dirs_.end());
        const auto merged = harness::mergeShards(dirs, out_, dataDir, context.commandLine);
        std::fprintf(stderr, "firelab: merged %zu run(s) from %zu shard(s) into %s\n", merged.rows, merged.shards,
                     out_.c_str());
        return 0;
    }

private:
    std::vector<std::string> dirs_;
    std::string out_;
    CLI::Option* outOpt_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kMergeCommand{"merge", "join shard folders' runs.csv into one folder, with plots",
                                            []() -> std::unique_ptr<Command> { return std::make_unique<Merge>(); }};

}  // namespace firelab::app
