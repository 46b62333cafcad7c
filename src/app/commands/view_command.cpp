// `firelab view`: the interactive viewer (viewer/viewer.h) with live parameters and an A/B split of two
// strategies; every flag is checked, and every file read, before the window opens.
#include "app/command.h"
#include "app/flags/flag_checks.h"
#include "app/flags/model_flags.h"
#include "app/flags/render_flags.h"
#include "app/flags/scene_flags.h"
#include "app/viewer/viewer.h"
#include "core/atomic_file.h"
#include "harness/platform/data_dir.h"
#include "render/particles/particle_material.h"

namespace firelab::app {
namespace {

// The window's sides, in pixels.
constexpr int kMinSide = 64, kMaxSide = 16384;

class View : public Command {
public:
    void addTo(CLI::App& cmd) override {
        model_.addTo(cmd);
        render_.addTo(cmd);
        effect_.addTo(cmd);
        camera_.addTo(cmd);
        strategyFlag_ = cmd.add_option("--strategy", strategy_, "strategy on side A (left)")->capture_default_str();
        cmd.add_option("--compare", compare_, "strategy on side B (right) of the A/B split")->capture_default_str();
        cmd.add_flag("--split", split_, "start with the A/B split on");
        cmd.add_flag("--no-vsync", noVsync_, "do not wait for vertical sync");
        cmd.add_option("--width", width_, "window width")->check(CLI::Range(kMinSide, kMaxSide))->capture_default_str();
        cmd.add_option("--height", height_, "window height")
            ->check(CLI::Range(kMinSide, kMaxSide))
            ->capture_default_str();
        quitAfterFlag_ = cmd.add_option("--quit-after", quitAfter_,
                                        "quit after this many frames (automation; 0: once set up, drawing nothing)");
        screenshotFlag_ = cmd.add_option("--screenshot", screenshot_, "PNG written when --quit-after ends the viewer");
    }

    int run(const CommandContext& context) override {
        checkNotEmpty(screenshotFlag_, screenshot_, "the PNG file to write");
        ViewerOptions o;
        o.a = sideA();
        checkCompare();
        o.strategyB = compare_;
        o.renderB = o.a.render;
        o.split = split_;
        o.vsync = !noVsync_;
        checkWindowFlags();
        const bool quits = quitAfterFlag_->count() > 0;
        o.width = width_, o.height = height_, o.quitAfter = quits ? quitAfter_ : -1, o.screenshot = screenshot_;
        o.dataDir = harness::findDataDir(context.dataDir);
        checkFiles(o);
        return runViewer(o);
    }

private:
    // Side A's run, and the model: --config first ([run] and [model]), then the flags given.
    harness::RunSettings sideA() const {
        if (!model_.config.empty()) checkTomlPath(model_.config, "--config");
        harness::RunSettings a = model_.settings();
        render_.applyTo(a);
        effect_.applyTo(a);
        camera_.applyTo(a);
        if (strategyFlag_->count() > 0) harness::applySetting(a, "strategy", strategy_);
        return a;
    }

    void checkCompare() const {
        harness::RunSettings b;
        try {
            harness::applySetting(b, "strategy", compare_);
        } catch (const Error& e) {  // the message would name --strategy: name the flag given
            std::string msg = e.what();
            if (msg.rfind("--strategy", 0) == 0) msg.replace(0, 10, "--compare");
            throw Error(e.code(), msg);
        }
    }

    // The window's size, and --screenshot only where --quit-after (1 or more) ends the viewer.
    void checkWindowFlags() const {
        if (width_ < kMinSide || width_ > kMaxSide || height_ < kMinSide || height_ > kMaxSide)
            throw Error(ErrorCode::BadValue, "--width/--height " + std::to_string(width_) + "x" +
                                                 std::to_string(height_) + ": each must be in [64, 16384]");
        if (quitAfter_ < 0)
            throw Error(ErrorCode::BadValue, "--quit-after " + std::to_string(quitAfter_) + ": must be >= 0");
        if (!screenshot_.empty() && quitAfterFlag_->count() == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot_ +
                                                 ": written when --quit-after N ends the viewer; give --quit-after too "
                                                 "(or press S in the viewer)");
        if (!screenshot_.empty() && quitAfter_ == 0)
            throw Error(ErrorCode::BadValue, "--screenshot " + screenshot_ +
                                                 " with --quit-after 0: no frame is drawn; "
                                                 "give --quit-after 1 or more");
    }

    // Files are checked before the window opens, as the other commands do: a missing or unreadable
    // texture exits 2, a screenshot that cannot be written 1 (2 if it names a device, FIFO or folder).
    static void checkFiles(const ViewerOptions& o) {
        render::checkSprite(o.dataDir, o.a.render);
        if (!o.screenshot.empty()) {
            core::AtomicFile probe(core::checkedOutputPath(o.screenshot, "--screenshot"));  // abandoned: nothing kept
        }
    }

    ModelFlags model_;
    RenderFlags render_;
    EffectFlags effect_;
    CameraFlags camera_;
    std::string strategy_ = "billboards-instanced", compare_ = "points", screenshot_;
    bool split_ = false, noVsync_ = false;
    int width_ = 1280, height_ = 720, quitAfter_ = 0;
    CLI::Option* strategyFlag_ = nullptr;
    CLI::Option* screenshotFlag_ = nullptr;
    CLI::Option* quitAfterFlag_ = nullptr;
};

}  // namespace

extern constexpr CommandEntry kViewCommand{"view", "interactive viewer: live parameters, A/B split of two strategies",
                                           []() -> std::unique_ptr<Command> { return std::make_unique<View>(); }};

}  // namespace firelab::app
