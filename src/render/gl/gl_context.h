// An OpenGL 4.5 core context through SDL2. With no display (or SDL_VIDEODRIVER=offscreen) SDL's
// offscreen driver makes an EGL context: Mesa llvmpipe on a CPU-only machine, the vendor's EGL on a
// GPU server. Rendering goes to framebuffers we own, so the window is never shown when headless.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct SDL_Window;

namespace firelab::gl {

struct ContextOptions {
    bool debug = false;    // a debug context with a message callback that records messages
    bool visible = false;  // a window for the viewer; headless otherwise
    int width = 64, height = 64;
    bool resizable = false;
    std::string title = "firelab";
};

struct GlInfo {
    std::string vendor, renderer, version, glsl;
    int major = 0, minor = 0;
    bool timerQueriesMeaningful = true;  // false on software renderers (llvmpipe, softpipe)
    // GL_POINT_SIZE_RANGE: the sizes (pixels) a GL_POINTS strategy's gl_PointSize is clamped to. It differs
    // between implementations (llvmpipe, NVIDIA), and so do points drawn up close.
    float pointSizeMin = 1.0f, pointSizeMax = 1.0f;
};

// Whether GL_RENDERER names a software rasteriser (Mesa's llvmpipe or softpipe), on which timer queries measure
// nothing and compute shaders are slower than the CPU's own code.
bool isSoftwareRenderer(std::string_view renderer);

struct DebugMessage {
    unsigned severity;  // GL_DEBUG_SEVERITY_*
    std::string text;
};

class Context {
public:
    // Throws firelab::Error(NoGlContext) saying what is needed and how to run headless.
    explicit Context(const ContextOptions& options = {});
    ~Context();
    Context(const Context&) = delete;
    Context& operator=(const Context&) = delete;

    const GlInfo& info() const { return info_; }
    SDL_Window* window() const { return window_; }
    void* sdlGlContext() const { return context_; }
    void makeCurrent();
    void setVsync(bool on);
    void swap();

    // Messages recorded by the debug callback (debug contexts only), and a way to clear them.
    const std::vector<DebugMessage>& debugMessages() const { return *messages_; }
    void clearDebugMessages() { messages_->clear(); }
    size_t highSeverityCount() const;

private:
    SDL_Window* window_ = nullptr;
    void* context_ = nullptr;
    GlInfo info_;
    std::unique_ptr<std::vector<DebugMessage>> messages_;
};

}  // namespace firelab::gl
