// `firelab bake`: a fire baked into a flipbook atlas, its motion atlas and its metadata (harness/draw/bake.h).
#include <cstdio>

#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/scene_flags.h"
#include "app/flags/sim_flags.h"
#include "core/atomic_file.h"
#include "core/error.h"
#include "harness/draw/bake.h"
#include "harness/platform/data_dir.h"
#include "render/gl/gl_context.h"
#include "render/particles/particle_material.h"

namespace firelab::app {
namespace {

class Bake : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        effect_.addTo(cmd);
        fluid_.addTo(cmd);
        sim_.addTo(cmd, "simulated seconds before the clip's first frame (the fire at its steady state)");
        cmd.add_option("--flipbook", layout_, "the atlas's layout RxC: R rows of C frames, played row by row")
            ->capture_default_str();
        cmd.add_option("--frame", cell_, "a frame's side, pixels")->check(CLI::Range(8, 4096))->capture_default_str();
        cmd.add_option("--fps", fps_, "frames per simulated second")
            ->check(CLI::Range(1.0f, 240.0f))
            ->capture_default_str();
        cmd.add_option("--loop", loop_, "frames of the loop's crossfade (0: the clip does not loop)")
            ->check(CLI::Range(0, 4096))
            ->capture_default_str();
        outFlag_ = cmd.add_option("--out", out_, "the atlas to write, NAME.png (NAME_motion.png and NAME.toml beside)")
                       ->required();
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(outFlag_, out_, "the atlas to write");
        if (std::filesystem::path(out_).extension() != ".png")
            throw Error(ErrorCode::BadValue, "--out " + out_ + ": the atlas is a PNG, NAME.png");
        harness::BakeSettings s;
        s.run = model_.settings();
        effect_.applyTo(s.run);
        fluid_.applyTo(s.run);
        s.run.dt = checkedDt(sim_.dt);
        s.run.threads = checkedThreads(sim_.threads);
        s.start = static_cast<float>(steps(sim_.time, s.run.dt)) * s.run.dt;
        harness::applySetting(s.run, "flipbook", layout_);  // the layout's own checks and message
        s.layout = s.run.render.flipbook;
        s.run.render.flipbook = {};  // the frame's tone mapping stays: it sets the light scale
        s.cell = cell_, s.fps = fps_, s.loopFrames = loop_;
        s.out = out_;
        s.dataDir = harness::findDataDir(context.dataDir);
        s.commandLine = context.commandLine;
        harness::checkBake(s);
        core::checkWritableFolder(s.out.parent_path().empty() ? "." : s.out.parent_path(), "--out");
        gl::Context gl;
        const harness::BakeResult r = harness::bake(s);
        std::fprintf(stderr,
                     "baked %d frames of %dx%d (t = %.3f .. %.3f s) framing %.3f m, light scale %.4g -> %s, %s\n",
                     s.layout.frames(), s.cell, s.cell, r.times.front(), r.times.back(), r.view.size, r.lightScale,
                     s.out.string().c_str(), render::motionAtlasPath(s.out).string().c_str());
        return 0;
    }

private:
    ModelFlags model_;
    EffectFlags effect_;
    FluidFlags fluid_;
    SimFlags sim_;
    std::string layout_ = "8x8";
    int cell_ = 128;
    float fps_ = 30.0f;
    int loop_ = 8;
    std::string out_;
    CLI::Option* outFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kBakeCommand{"bake", "bake a fire into a looping flipbook atlas with its motion vectors",
                                           []() -> std::unique_ptr<Command> { return std::make_unique<Bake>(); }};

}  // namespace firelab::app
