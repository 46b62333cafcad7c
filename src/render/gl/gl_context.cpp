#include "render/gl/gl_context.h"

#include <sys/resource.h>

#include <SDL.h>
#include <epoxy/gl.h>

#include <cstdio>
#include <cstdlib>

#include "render/gl/gl.h"
#include "core/error.h"

namespace firelab::gl {

#ifndef NDEBUG
void checkError(const char* file, int line) {
    for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError())
        std::fprintf(stderr, "GL error 0x%04x at %s:%d\n", e, file, line);
}
#endif

namespace {
void GLAPIENTRY onDebugMessage(GLenum, GLenum, GLuint, GLenum severity, GLsizei length, const GLchar* text,
                               const void* user) {
    if (severity == GL_DEBUG_SEVERITY_NOTIFICATION) return;
    auto* list = static_cast<std::vector<DebugMessage>*>(const_cast<void*>(user));
    list->push_back({severity, std::string(text, static_cast<size_t>(length))});
}

[[noreturn]] void fail(const std::string& what) {
    throw Error(ErrorCode::NoGlContext,
                what +
                    ". firelab needs OpenGL 4.5 core. On a machine without a display run headless with "
                    "SDL_VIDEODRIVER=offscreen (EGL: Mesa's libegl-mesa0 + libgl1-mesa-dri for llvmpipe, or "
                    "the GPU vendor's EGL).");
}
}  // namespace

namespace {
// SDL's video (offscreen when nothing can show a window) and the attributes of an OpenGL 4.5 core context.
// The least address space a context and its shaders take: below about 600 MiB Mesa's llvmpipe crashes in its
// shader compiler (a segfault in swrast_dri.so, not an error), and a GPU driver maps more. A process limited below
// it (ulimit -v) is refused here, naming the limit, rather than crashing or failing as if for another cause.
constexpr rlim_t kLeastAddressSpace = rlim_t{640} << 20;

void checkAddressSpace() {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur >= kLeastAddressSpace)
        return;
    throw Error(ErrorCode::NoGlContext, "the process's address-space limit of " + std::to_string(limit.rlim_cur >> 20) +
                                            " MiB (ulimit -v) is below the " +
                                            std::to_string(kLeastAddressSpace >> 20) +
                                            " MiB an OpenGL context and its shaders need; raise it (ulimit -v " +
                                            std::to_string(kLeastAddressSpace >> 10) + " or more)");
}

void requestCoreContext(const ContextOptions& o) {
    if (!o.visible && !std::getenv("SDL_VIDEODRIVER") && !std::getenv("DISPLAY") && !std::getenv("WAYLAND_DISPLAY"))
        SDL_SetHint(SDL_HINT_VIDEODRIVER, "offscreen");
    if (SDL_InitSubSystem(SDL_INIT_VIDEO) != 0) fail(std::string("SDL video could not start: ") + SDL_GetError());
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_PROFILE_MASK, SDL_GL_CONTEXT_PROFILE_CORE);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MAJOR_VERSION, 4);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_MINOR_VERSION, 5);
    SDL_GL_SetAttribute(SDL_GL_CONTEXT_FLAGS, o.debug ? SDL_GL_CONTEXT_DEBUG_FLAG : 0);
    SDL_GL_SetAttribute(SDL_GL_DOUBLEBUFFER, 1);
    SDL_GL_SetAttribute(SDL_GL_DEPTH_SIZE, 24);
}

// What the context is: vendor, renderer, versions, and whether its timer queries measure the GPU's work.
GlInfo readInfo() {
    auto str = [](GLenum e) {
        const auto* s = glGetString(e);
        return s ? std::string(reinterpret_cast<const char*>(s)) : std::string();
    };
    GlInfo info;
    info.vendor = str(GL_VENDOR);
    info.renderer = str(GL_RENDERER);
    info.version = str(GL_VERSION);
    info.glsl = str(GL_SHADING_LANGUAGE_VERSION);
    glGetIntegerv(GL_MAJOR_VERSION, &info.major);
    glGetIntegerv(GL_MINOR_VERSION, &info.minor);
    GLfloat pointSizes[2] = {1.0f, 1.0f};
    glGetFloatv(GL_POINT_SIZE_RANGE, pointSizes);
    info.pointSizeMin = pointSizes[0], info.pointSizeMax = pointSizes[1];
    info.timerQueriesMeaningful = !isSoftwareRenderer(info.renderer);
    return info;
}
}  // namespace

bool isSoftwareRenderer(std::string_view renderer) {
    return renderer.find("llvmpipe") != std::string_view::npos || renderer.find("softpipe") != std::string_view::npos;
}

Context::Context(const ContextOptions& o) : messages_(std::make_unique<std::vector<DebugMessage>>()) {
    checkAddressSpace();
    requestCoreContext(o);
    Uint32 flags = SDL_WINDOW_OPENGL | (o.visible ? SDL_WINDOW_SHOWN : SDL_WINDOW_HIDDEN);
    if (o.resizable) flags |= SDL_WINDOW_RESIZABLE;
    window_ =
        SDL_CreateWindow(o.title.c_str(), SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, o.width, o.height, flags);
    if (!window_) {
        const std::string err = SDL_GetError();
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        fail("no window for an OpenGL context (" + err + ")");
    }
    context_ = SDL_GL_CreateContext(window_);
    if (!context_) {
        const std::string err = SDL_GetError();
        SDL_DestroyWindow(window_);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        fail("no OpenGL 4.5 core context (" + err + ")");
    }
    SDL_GL_MakeCurrent(window_, context_);
    info_ = readInfo();
    if (info_.major * 10 + info_.minor < 45) {
        const std::string v = info_.version;
        SDL_GL_DeleteContext(context_);
        SDL_DestroyWindow(window_);
        SDL_QuitSubSystem(SDL_INIT_VIDEO);
        fail("the OpenGL context is " + v + ", older than 4.5");
    }
    if (o.debug) {
        glEnable(GL_DEBUG_OUTPUT);
        glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
        glDebugMessageCallback(onDebugMessage, messages_.get());
    }
    SDL_GL_SetSwapInterval(0);
}

Context::~Context() {
    if (context_) SDL_GL_DeleteContext(context_);
    if (window_) SDL_DestroyWindow(window_);
    SDL_QuitSubSystem(SDL_INIT_VIDEO);
}

void Context::makeCurrent() { SDL_GL_MakeCurrent(window_, context_); }
void Context::setVsync(bool on) { SDL_GL_SetSwapInterval(on ? 1 : 0); }
void Context::swap() { SDL_GL_SwapWindow(window_); }

size_t Context::highSeverityCount() const {
    size_t n = 0;
    for (const auto& m : *messages_) n += m.severity == GL_DEBUG_SEVERITY_HIGH;
    return n;
}

}  // namespace firelab::gl
