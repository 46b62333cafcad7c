// An offscreen framebuffer (a colour texture + a 24-bit depth, 8-bit stencil texture) of any size, to
// render captures and timed frames identically with or without a window, to read the pixels back, and
// to hold a pass of the frame (render/frame/frame_pipeline.h) that a later pass samples.
#pragma once
#include <vector>

#include "render/gl/gl.h"
#include "image/image.h"

namespace firelab::render {

class FrameTarget {
public:
    // colorFormat GL_RGBA8 (pictures), GL_RGBA16F (light before tone mapping) or GL_R32F (counts).
    FrameTarget(int width, int height, GLenum colorFormat = GL_RGBA8);
    void bind() const;                   // binds the framebuffer and sets the viewport
    image::Image read() const;           // RGBA8, row 0 at the top
    std::vector<float> readRed() const;  // the red channel as floats, row 0 at the top
    int width() const { return width_; }
    int height() const { return height_; }
    GLuint framebuffer() const { return fbo_.id(); }
    GLuint colorTexture() const { return color_.id(); }
    GLuint depthTexture() const { return depth_.id(); }

private:
    int width_, height_;
    gl::Framebuffer fbo_;
    gl::Texture color_{GL_TEXTURE_2D};
    gl::Texture depth_{GL_TEXTURE_2D};
};

}  // namespace firelab::render
