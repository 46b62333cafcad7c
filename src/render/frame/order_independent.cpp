#include "render/frame/order_independent.h"

#include <algorithm>
#include <cstdint>
#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/text.h"

namespace firelab::render {
namespace {

constexpr GLuint kAbufferBinding = 5;  // abuffer.glsl's AbufferCounters block
constexpr GLuint kHeadsImageUnit = 0;  // its uAbufferHeads
constexpr GLuint kNodesImageUnit = 1;  // its uAbufferNodes
constexpr GLint kAccumUnit = 5, kRevealUnit = 6;
constexpr GLuint kMomentTotalUnit = 7, kMomentsUnit = 8;  // moment_oit.glsl's uMomentTotal, uMoments
constexpr size_t kCounterBytes = 16;                      // count, overflow, capacity, longest list
constexpr GLuint kEndOfList = 0xffffffffu;

// Bytes a pixel of each format the structures use takes.
size_t texelBytes(GLenum format) {
    switch (format) {
    case GL_RGBA32F: return 16;
    case GL_R32F:
    case GL_R32UI: return 4;
    default: throw Error(ErrorCode::GlUnsupported, "order-independent transparency: a target of an unknown format");
    }
}

gl::Texture target(GLenum format, int width, int height) {
    gl::Texture t{GL_TEXTURE_2D};
    glTextureStorage2D(t.id(), 1, format, width, height);
    glTextureParameteri(t.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

// The pool's nodes for --abuffer-mib, refused beyond the driver's largest buffer texture.
size_t abufferCapacity(const RenderOptions& options) {
    const double bytes = static_cast<double>(options.abufferMib) * 1048576.0;
    GLint texels = 0;
    glGetIntegerv(GL_MAX_TEXTURE_BUFFER_SIZE, &texels);
    const double largest = static_cast<double>(texels) * static_cast<double>(kAbufferNodeBytes);
    if (texels > 0 && bytes > largest)
        throw Error(ErrorCode::TooLarge, "--abuffer-mib " + core::formatFloat(options.abufferMib) +
                                             ": more than this GL's largest buffer texture (" +
                                             std::to_string(static_cast<long long>(largest / 1048576.0)) + " MiB)");
    return static_cast<size_t>(bytes) / kAbufferNodeBytes;
}

}  // namespace

OrderIndependent::OrderIndependent(const std::filesystem::path& dataDir, const RenderOptions& options, int width,
                                   int height)
    : mode_(options.sort), width_(width), height_(height) {
    const auto shaders = dataDir / "shaders";
    const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
    auto makeTarget = [&](GLenum format) {
        bytes_ += pixels * texelBytes(format);
        return target(format, width, height);
    };
    auto drawInto = [](const gl::Framebuffer& fbo, std::initializer_list<const gl::Texture*> colours) {
        std::vector<GLenum> buffers;
        for (const gl::Texture* t : colours) {
            const auto at = GL_COLOR_ATTACHMENT0 + static_cast<GLenum>(buffers.size());
            glNamedFramebufferTexture(fbo.id(), at, t->id(), 0);
            buffers.push_back(at);
        }
        glNamedFramebufferDrawBuffers(fbo.id(), static_cast<GLsizei>(buffers.size()), buffers.data());
    };
    if (mode_ == Sort::Wboit || mode_ == Sort::Moment) {
        // 32-bit sums: the same picture, to the last 8-bit step, whatever order the fragments come in (16-bit
        // sums, wboit's paper's, round differently with the order).
        accum_ = makeTarget(GL_RGBA32F);
        if (mode_ == Sort::Wboit) {
            reveal_ = makeTarget(GL_R32F);
            drawInto(averageFbo_, {&accum_, &reveal_});
        } else {
            moments_ = makeTarget(GL_RGBA32F);
            momentTotal_ = makeTarget(GL_R32F);
            drawInto(momentFbo_, {&moments_, &momentTotal_});
            drawInto(averageFbo_, {&accum_});
        }
        resolve_ = gl::Program(shaders, {"fullscreen.vert", "weighted_resolve.frag"},
                               {"MOMENT " + std::to_string(mode_ == Sort::Moment ? 1 : 0)});
        resolve_.set("uAccum", kAccumUnit);
        resolve_.set("uReveal", kRevealUnit);
    } else {
        capacity_ = abufferCapacity(options);
        pool_ = gl::makeBuffer(static_cast<GLsizeiptr>(capacity_ * kAbufferNodeBytes), nullptr, GL_DYNAMIC_COPY);
        glTextureBuffer(nodes_.id(), GL_RGBA32UI, pool_.id());
        counters_ = gl::makeBuffer(kCounterBytes, nullptr, GL_DYNAMIC_COPY);
        heads_ = makeTarget(GL_R32UI);
        bytes_ += capacity_ * kAbufferNodeBytes + kCounterBytes;
        resolve_ = gl::Program(shaders, {"fullscreen.vert", "abuffer_resolve.frag"},
                               {"MAX_PER_PIXEL " + std::to_string(kAbufferMaxPerPixel)});
    }
}

OrderIndependent::~OrderIndependent() = default;

std::string abufferOverflowMessage(const OitStats& st) {
    const std::string head = "--sort abuffer: " + std::to_string(st.overflow) + " alpha fragment(s) more than fit";
    if (st.longestList > kAbufferMaxPerPixel)
        return head + " (a pixel had " + std::to_string(st.longestList) + ", the resolve sorts at most " +
               std::to_string(kAbufferMaxPerPixel) + "): draw fewer overlapping alpha particles";
    const auto mib = [](size_t nodes) { return static_cast<double>(nodes) * kAbufferNodeBytes / 1048576.0; };
    return head + " (--abuffer-mib " + core::formatFloat(static_cast<float>(mib(st.capacity))) + " holds " +
           std::to_string(st.capacity) + "): raise --abuffer-mib to " +
           std::to_string(static_cast<long long>(std::ceil(mib(st.capacity + st.overflow) * 1.25))) + " or more";
}

void OrderIndependent::drawLayers(std::span<RenderStrategy* const> layers, const DrawPass& pass) {
    for (RenderStrategy* layer : layers) layer->draw(pass);
}

// A full-screen pass over the frame (bound), blending (C, T) as frame = C + T frame.
void OrderIndependent::resolve(const gl::Program& program) const {
    glBindVertexArray(empty_.id());
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_ONE, GL_SRC_ALPHA, GL_ZERO, GL_ONE);
    program.use();
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
}

void OrderIndependent::draw(std::span<RenderStrategy* const> layers, const DrawPass& pass, const FrameTarget& frame) {
    switch (mode_) {
    case Sort::Wboit: drawWboit(layers, pass, frame); break;
    case Sort::Moment: drawMoment(layers, pass, frame); break;
    default: drawAbuffer(layers, pass, frame); break;
    }
    FIRELAB_GL_CHECK();
}

// The frame's depth in the weighted modes' targets: the scene hides what lies behind it.
void OrderIndependent::attachDepth(const FrameTarget& frame) {
    if (attachedDepth_ == frame.depthTexture()) return;
    attachedDepth_ = frame.depthTexture();
    for (const gl::Framebuffer* fbo : {&averageFbo_, &momentFbo_}) {
        if (fbo == &momentFbo_ && mode_ != Sort::Moment) continue;
        glNamedFramebufferTexture(fbo->id(), GL_DEPTH_STENCIL_ATTACHMENT, attachedDepth_, 0);
        if (glCheckNamedFramebufferStatus(fbo->id(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
            throw Error(ErrorCode::GlUnsupported, "--sort " + std::string(kSortNames[static_cast<size_t>(mode_)]) +
                                                      ": its framebuffer is incomplete on this driver");
    }
}

void OrderIndependent::drawWboit(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame) {
    attachDepth(frame);
    const float zero[4] = {0, 0, 0, 0}, one[4] = {1, 1, 1, 1};
    glClearNamedFramebufferfv(averageFbo_.id(), GL_COLOR, 0, zero);
    glClearNamedFramebufferfv(averageFbo_.id(), GL_COLOR, 1, one);
    glBindFramebuffer(GL_FRAMEBUFFER, averageFbo_.id());
    glViewport(0, 0, width_, height_);
    pass.oit = OitStage::WboitAccumulate, pass.layers = LayerFilter::Alpha;
    drawLayers(layers, pass);
    frame.bind();
    glBindTextureUnit(kAccumUnit, accum_.id());
    glBindTextureUnit(kRevealUnit, reveal_.id());
    resolve(resolve_);
    pass.oit = OitStage::None, pass.layers = LayerFilter::Additive;
    drawLayers(layers, pass);
}

// Pass 1 sums the alpha layers' moments; pass 2 sums their colour weighted by the transmittance in front of
// each fragment; the resolve lays the average over the frame; the additive layers are then added, dimmed the
// same way.
void OrderIndependent::drawMoment(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame) {
    attachDepth(frame);
    const float zero[4] = {0, 0, 0, 0};
    glClearNamedFramebufferfv(momentFbo_.id(), GL_COLOR, 0, zero);
    glClearNamedFramebufferfv(momentFbo_.id(), GL_COLOR, 1, zero);
    glClearNamedFramebufferfv(averageFbo_.id(), GL_COLOR, 0, zero);
    glViewport(0, 0, width_, height_);
    glBindFramebuffer(GL_FRAMEBUFFER, momentFbo_.id());
    pass.oit = OitStage::MomentAccumulate, pass.layers = LayerFilter::Alpha;
    drawLayers(layers, pass);
    glBindTextureUnit(kMomentsUnit, moments_.id());
    glBindTextureUnit(kMomentTotalUnit, momentTotal_.id());
    glBindFramebuffer(GL_FRAMEBUFFER, averageFbo_.id());
    pass.oit = OitStage::MomentShade;
    drawLayers(layers, pass);
    frame.bind();
    glBindTextureUnit(kAccumUnit, accum_.id());
    glBindTextureUnit(kRevealUnit, momentTotal_.id());
    resolve(resolve_);
    pass.layers = LayerFilter::Additive;
    drawLayers(layers, pass);
    glBindTextureUnit(kMomentsUnit, 0);  // the next frame's first pass writes them
    glBindTextureUnit(kMomentTotalUnit, 0);
}

void OrderIndependent::drawAbuffer(std::span<RenderStrategy* const> layers, DrawPass pass, const FrameTarget& frame) {
    const GLuint header[4] = {0, 0, static_cast<GLuint>(capacity_), 0};
    glNamedBufferSubData(counters_.id(), 0, sizeof header, header);
    glClearTexImage(heads_.id(), 0, GL_RED_INTEGER, GL_UNSIGNED_INT, &kEndOfList);
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kAbufferBinding, counters_.id());
    glBindImageTexture(kHeadsImageUnit, heads_.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_R32UI);
    glBindImageTexture(kNodesImageUnit, nodes_.id(), 0, GL_FALSE, 0, GL_READ_WRITE, GL_RGBA32UI);
    frame.bind();
    pass.oit = OitStage::AbufferInsert, pass.layers = LayerFilter::Alpha;
    drawLayers(layers, pass);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_SHADER_IMAGE_ACCESS_BARRIER_BIT);
    resolve(resolve_);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    pass.oit = OitStage::AbufferShade, pass.layers = LayerFilter::Additive;
    drawLayers(layers, pass);
}

OitStats OrderIndependent::stats() const {
    OitStats s;
    s.bytes = bytes_;
    if (mode_ != Sort::Abuffer) return s;
    GLuint header[4] = {};
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    glGetNamedBufferSubData(counters_.id(), 0, sizeof header, header);
    s.capacity = capacity_;
    s.fragments = std::min<size_t>(header[0], capacity_);
    s.overflow = header[1];
    s.longestList = header[3];
    return s;
}

}  // namespace firelab::render
