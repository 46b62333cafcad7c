// `firelab info`: create a GL context and print what it is (vendor, renderer, version, timers, point sizes).
#include <cstdio>

#include "app/command.h"
#include "render/gl/gl_context.h"

namespace firelab::app {
namespace {

class Info : public Command {
public:
    void addTo(CLI::App&) override {}

    int run(const CommandContext&) override {
        gl::Context context;
        const auto& i = context.info();
        std::printf("GL_VENDOR    %s\nGL_RENDERER  %s\nGL_VERSION   %s\nGLSL         %s\n", i.vendor.c_str(),
                    i.renderer.c_str(), i.version.c_str(), i.glsl.c_str());
        std::printf("timer queries %s\n",
                    i.timerQueriesMeaningful ? "measure GPU time" : "do not measure GPU work here (software renderer)");
        std::printf(
            "point sizes  %g to %g px (GL_POINT_SIZE_RANGE: points and point-sprites clamp their size to it; "
            "runs count the particles clamped in points_clamped_fraction)\n",
            static_cast<double>(i.pointSizeMin), static_cast<double>(i.pointSizeMax));
        return 0;
    }
};

}  // namespace

extern constexpr CommandEntry kInfoCommand{"info", "create a GL context and print what it is",
                                           []() -> std::unique_ptr<Command> { return std::make_unique<Info>(); }};

}  // namespace firelab::app
