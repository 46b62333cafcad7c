#include "render/gl/frame_target.h"

#include <cstring>

#include "core/error.h"

namespace firelab::render {

FrameTarget::FrameTarget(int width, int height, GLenum colorFormat) : width_(width), height_(height) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxSize);
    if (width < 1 || height < 1 || width > maxSize || height > maxSize)
        throw Error(ErrorCode::BadValue, "--width/--height " + std::to_string(width) + "x" + std::to_string(height) +
                                             ": must be between 1 and " + std::to_string(maxSize));
    glTextureStorage2D(color_.id(), 1, colorFormat, width, height);
    glTextureParameteri(color_.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);  // a pass may sample it filtered
    glTextureParameteri(color_.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(color_.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(color_.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glTextureStorage2D(depth_.id(), 1, GL_DEPTH24_STENCIL8, width, height);
    glNamedFramebufferTexture(fbo_.id(), GL_COLOR_ATTACHMENT0, color_.id(), 0);
    glNamedFramebufferTexture(fbo_.id(), GL_DEPTH_STENCIL_ATTACHMENT, depth_.id(), 0);
    if (glCheckNamedFramebufferStatus(fbo_.id(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
        throw Error(ErrorCode::GlUnsupported, "the offscreen framebuffer is incomplete on this driver");
}

void FrameTarget::bind() const {
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
    glViewport(0, 0, width_, height_);
}

image::Image FrameTarget::read() const {
    image::Image img(width_, height_);
    const size_t row = static_cast<size_t>(width_) * 4;
    std::vector<uint8_t> flipped(row * static_cast<size_t>(height_));
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(color_.id(), 0, GL_RGBA, GL_UNSIGNED_BYTE, static_cast<GLsizei>(flipped.size()), flipped.data());
    for (int y = 0; y < height_; ++y)  // GL's row 0 is the bottom
        std::memcpy(&img.pixels[static_cast<size_t>(y) * row], &flipped[static_cast<size_t>(height_ - 1 - y) * row],
                    row);
    return img;
}

}  // namespace firelab::render

namespace firelab::render {

std::vector<float> FrameTarget::readRed() const {
    const size_t w = static_cast<size_t>(width_), h = static_cast<size_t>(height_);
    std::vector<float> flipped(w * h), out(w * h);
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTextureImage(color_.id(), 0, GL_RED, GL_FLOAT, static_cast<GLsizei>(flipped.size() * sizeof(float)),
                      flipped.data());
    for (size_t y = 0; y < h; ++y) std::memcpy(&out[y * w], &flipped[(h - 1 - y) * w], w * sizeof(float));
    return out;
}

}  // namespace firelab::render
