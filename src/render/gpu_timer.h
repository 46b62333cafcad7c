// GL_TIME_ELAPSED queries in a ring: the result for frame k is read at frame k + kLag, when it is
// available, so reading never waits for the GPU. (Meaningless on software renderers: see GlInfo.)
#pragma once
#include <array>

#include "render/gl.h"

namespace firelab::render {

class GpuTimer {
public:
    static constexpr int kLag = 3;
    void begin(long frame) { glBeginQuery(GL_TIME_ELAPSED, queries_[slot(frame)].id()); }
    void end() { glEndQuery(GL_TIME_ELAPSED); }
    // The result of frame `frame - kLag` in ms, if ready; negative otherwise.
    double collect(long frame) {
        if (frame < kLag) return -1.0;
        const GLuint q = queries_[slot(frame - kLag)].id();
        GLint ready = 0;
        glGetQueryObjectiv(q, GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) return -1.0;
        GLuint64 ns = 0;
        glGetQueryObjectui64v(q, GL_QUERY_RESULT, &ns);
        return static_cast<double>(ns) * 1e-6;
    }

private:
    static size_t slot(long frame) { return static_cast<size_t>(frame % (kLag + 1)); }
    std::array<gl::Query, kLag + 1> queries_{gl::Query(GL_TIME_ELAPSED), gl::Query(GL_TIME_ELAPSED),
                                             gl::Query(GL_TIME_ELAPSED), gl::Query(GL_TIME_ELAPSED)};
};

}  // namespace firelab::render
