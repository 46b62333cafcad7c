// The benchmarks' one GL context (headless where there is no display), with the frame target the render
// benchmarks draw into and the repository's data folder: made on first use, shared by every benchmark file
// so that one context stays current.
#pragma once
#include <filesystem>

#include "harness/platform/data_dir.h"
#include "render/gl/frame_target.h"
#include "render/gl/gl_context.h"

namespace firelab::bench {

inline constexpr int kWidth = 1280, kHeight = 720;

struct Gl {
    gl::Context context;
    render::FrameTarget target{kWidth, kHeight};
    std::filesystem::path dataDir = harness::findDataDir();
};

inline Gl& glState() {
    static Gl g;
    return g;
}

}  // namespace firelab::bench
