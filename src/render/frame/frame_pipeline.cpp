#include "render/frame/frame_pipeline.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <string>

#include "core/error.h"

namespace firelab::render {
namespace {

constexpr float kEdgeRatio = 0.05f;  // neighbours 5 % farther or nearer than the pixel straddle an edge
constexpr GLint kSceneDepthUnit = 3, kLowDepthUnit = 4, kColorUnit = 5, kOffsetUnit = 6;
constexpr int kHazeReach = 48;  // pixels beyond the haze's rectangle a refracted pixel may read the scene from

gl::Texture depthTexture(int width, int height) {
    gl::Texture t{GL_TEXTURE_2D};
    glTextureStorage2D(t.id(), 1, GL_DEPTH24_STENCIL8, width, height);
    glTextureParameteri(t.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTextureParameteri(t.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    return t;
}

void copyTexture(GLuint from, GLuint to, int width, int height) {
    glCopyImageSubData(from, GL_TEXTURE_2D, 0, 0, 0, 0, to, GL_TEXTURE_2D, 0, 0, 0, 0, width, height, 1);
}

void fullscreen(const gl::Program& program) {
    program.use();
    glDrawArrays(GL_TRIANGLES, 0, 3);
}

// The layers that distort (--draw-as haze) and the rest, each in the order given.
struct Split {
    std::vector<RenderStrategy*> haze, particles;
};
Split splitHaze(std::span<RenderStrategy* const> layers) {
    Split s;
    for (RenderStrategy* l : layers) (l->distorts() ? s.haze : s.particles).push_back(l);
    return s;
}

}  // namespace

// What the frame's passes draw into, made for the options: only the targets the options need.
struct FramePipeline::Targets {
    std::optional<FrameTarget> hdr;  // the frame in RGBA16F before tone mapping
    std::optional<FrameTarget> low;  // the low-resolution particle pass (RGBA16F: colour, transmittance)
    gl::Texture sceneDepth{GL_TEXTURE_2D}, lowDepth{GL_TEXTURE_2D};  // copies that passes sample
    bool hasSceneDepth = false, hasLowDepth = false;
    std::optional<FrameTarget> countFull, countLow;  // counting, made on first use
    std::optional<FrameTarget> haze;                 // the haze layers' offsets (RG16F), made on first use
    gl::Texture sceneColor{GL_TEXTURE_2D};           // the frame's colour, copied for the haze pass to sample
    gl::VertexArray empty;                           // full-screen passes pull no attributes
};

struct FramePipeline::Programs {
    gl::Program downsample, composite, edgeMark, toneMap, refract;
};

FramePipeline::FramePipeline(const std::filesystem::path& dataDir, const RenderOptions& options, int width, int height)
    : options_(options),
      shaders_(dataDir / "shaders"),
      width_(width),
      height_(height),
      lowWidth_(passSize(width, options.particleScale)),
      lowHeight_(passSize(height, options.particleScale)),
      targets_(std::make_unique<Targets>()),
      programs_(std::make_unique<Programs>()) {
    const auto shaders = dataDir / "shaders";
    Targets& t = *targets_;
    Programs& p = *programs_;
    if (options.hdr) {
        t.hdr.emplace(width, height, GL_RGBA16F);
        p.toneMap = gl::Program(shaders, {"fullscreen.vert", "tonemap.frag"});
        p.toneMap.set("uFrame", kColorUnit);
        p.toneMap.set("uExposure", options.exposure);
        p.toneMap.set("uTonemap", static_cast<int>(options.tonemap));
    }
    if (lowResolution()) {
        t.sceneDepth = depthTexture(width, height);
        t.hasSceneDepth = true;
    }
    makeOrderIndependent(dataDir);
    if (lowResolution()) {
        t.low.emplace(lowWidth_, lowHeight_, GL_RGBA16F);
        p.downsample = gl::Program(shaders, {"fullscreen.vert", "depth_downsample.frag"});
        p.downsample.set("uDepth", kSceneDepthUnit);
        p.downsample.set("uLowSize", glm::ivec2(lowWidth_, lowHeight_));
        // A variant per upsampling: on llvmpipe the untaken nearest-depth branch alone doubled the pass.
        p.composite = gl::Program(shaders, {"fullscreen.vert", "composite.frag"},
                                  {options.upsample == Upsample::NearestDepth ? "NEAREST_DEPTH 1" : "NEAREST_DEPTH 0"});
        p.composite.set("uParticles", kColorUnit);
        if (options.edgeFixup) p.edgeMark = gl::Program(shaders, {"fullscreen.vert", "edge_mark.frag"});
        for (const gl::Program* prog : {&p.composite, &p.edgeMark}) {
            if (prog == &p.edgeMark && !options.edgeFixup) continue;  // not built
            prog->set("uDepth", kSceneDepthUnit);
            prog->set("uLowDepth", kLowDepthUnit);
            prog->set("uEdgeRatio", kEdgeRatio);
        }
    }
}

FramePipeline::~FramePipeline() = default;

// The order-independent modes need the scene's depth in the target they draw into: the full-resolution frame.
void FramePipeline::makeOrderIndependent(const std::filesystem::path& dataDir) {
    if (!orderIndependent(options_.sort)) return;
    if (lowResolution())
        throw Error(ErrorCode::BadValue, "--sort " + std::string(kSortNames[static_cast<size_t>(options_.sort)]) +
                                             ": the order-independent modes draw at the frame's resolution; use "
                                             "--particle-scale 1");
    oit_ = std::make_unique<OrderIndependent>(dataDir, options_, width_, height_);
}

bool FramePipeline::passesReadDepth(std::span<RenderStrategy* const> layers) {
    const bool splats = std::any_of(layers.begin(), layers.end(), [](const RenderStrategy* s) {
        // A trail or haze layer (render/layers) is no registered strategy: it reads no depth.
        const auto all = strategies();
        const auto info =
            std::find_if(all.begin(), all.end(), [&](const StrategyInfo& i) { return i.name == s->name(); });
        return info != all.end() && (info->primitive == Primitive::Splats || info->primitive == Primitive::Medium);
    });
    if (options_.soft <= 0.0f && !splats) return false;
    Targets& t = *targets_;
    if (!t.hasSceneDepth) t.sceneDepth = depthTexture(width_, height_), t.hasSceneDepth = true;
    if (lowResolution() && !t.hasLowDepth) t.lowDepth = depthTexture(lowWidth_, lowHeight_), t.hasLowDepth = true;
    return true;
}

GLuint FramePipeline::lowDepthCopy(const FrameTarget& low) const {
    copyTexture(low.depthTexture(), targets_->lowDepth.id(), lowWidth_, lowHeight_);
    return targets_->lowDepth.id();
}

DrawPass FramePipeline::passAt(const Camera& camera, int width, int height, DrawMode mode) const {
    DrawPass pass{camera, mode, 0, false};
    pass.camera.viewportWidth = width, pass.camera.viewportHeight = height;
    pass.frameHeight = height_;
    return pass;
}

void FramePipeline::drawScene(const Scene& scene, const Camera& camera, const FrameTarget& into) const {
    into.bind();
    glStencilMask(0xFF);
    glClearStencil(0);
    glClear(GL_STENCIL_BUFFER_BIT);
    scene.draw(camera);
}

void FramePipeline::copyDepth(const FrameTarget& from) const {
    if (targets_->hasSceneDepth) copyTexture(from.depthTexture(), targets_->sceneDepth.id(), width_, height_);
}

void FramePipeline::downsampleDepth(const FrameTarget& into) const {
    into.bind();
    glBindVertexArray(targets_->empty.id());
    glBindTextureUnit(kSceneDepthUnit, targets_->sceneDepth.id());
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_ALWAYS);
    glDepthMask(GL_TRUE);
    fullscreen(programs_->downsample);
    glDepthFunc(GL_LESS);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

void FramePipeline::markEdges(const FrameTarget& into, const FrameTarget& low) const {
    into.bind();
    glBindVertexArray(targets_->empty.id());
    glBindTextureUnit(kSceneDepthUnit, targets_->sceneDepth.id());
    glBindTextureUnit(kLowDepthUnit, low.depthTexture());
    glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
    glStencilFunc(GL_ALWAYS, 1, 0xFF);
    glStencilOp(GL_KEEP, GL_KEEP, GL_REPLACE);
    fullscreen(programs_->edgeMark);
    glDisable(GL_STENCIL_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

void FramePipeline::drawParticles(std::span<RenderStrategy* const> layers, const DrawPass& pass,
                                  const FrameTarget& into, bool onEdges) const {
    into.bind();
    if (onEdges) {
        glEnable(GL_STENCIL_TEST);
        glStencilMask(0);
        glStencilFunc(GL_EQUAL, 1, 0xFF);
    }
    for (RenderStrategy* layer : layers) layer->draw(pass);
    glDisable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
}

void FramePipeline::composite(const FrameTarget& into) const {
    into.bind();
    glBindVertexArray(targets_->empty.id());
    glBindTextureUnit(kSceneDepthUnit, targets_->sceneDepth.id());
    glBindTextureUnit(kLowDepthUnit, targets_->low->depthTexture());
    glBindTextureUnit(kColorUnit, targets_->low->colorTexture());
    glDisable(GL_DEPTH_TEST);
    glEnable(GL_BLEND);
    glBlendFuncSeparate(GL_ONE, GL_SRC_ALPHA, GL_ZERO, GL_ONE);
    if (options_.edgeFixup) {  // the edge pixels are drawn at full resolution instead
        glEnable(GL_STENCIL_TEST);
        glStencilMask(0);
        glStencilFunc(GL_EQUAL, 0, 0xFF);
    }
    fullscreen(programs_->composite);
    glDisable(GL_STENCIL_TEST);
    glStencilMask(0xFF);
    glDisable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
}

void FramePipeline::toneMap(const FrameTarget& from, const FrameTarget& out) const {
    out.bind();
    glBindVertexArray(targets_->empty.id());
    glBindTextureUnit(kColorUnit, from.colorTexture());
    glDisable(GL_DEPTH_TEST);
    fullscreen(programs_->toneMap);
    glEnable(GL_DEPTH_TEST);
}

void FramePipeline::setDepthTerms(const Camera& camera) const {
    const glm::vec2 terms = depthTerms(camera);
    programs_->composite.set("uDepthTerms", terms);
    if (options_.edgeFixup) programs_->edgeMark.set("uDepthTerms", terms);
}

void FramePipeline::clearAccumulation(const FrameTarget& target, float alpha) {
    const float clear[4] = {0.0f, 0.0f, 0.0f, alpha};
    glClearNamedFramebufferfv(target.framebuffer(), GL_COLOR, 0, clear);
}

void FramePipeline::draw(const Scene& scene, std::span<RenderStrategy* const> layers, const Camera& camera,
                         const FrameTarget& out) {
    const FrameTarget& frame = options_.hdr ? *targets_->hdr : out;
    const Split split = splitHaze(layers);
    const std::span<RenderStrategy* const> strategy = split.particles;
    const bool readDepth = passesReadDepth(strategy);
    {
        PassTimer::Scope pass(timer_, Pass::Scene);
        drawScene(scene, camera, frame);
    }
    for (RenderStrategy* layer : split.particles)  // --ground stage in compute: the depth its next steps collide with
        if (layer->collidesWithDepth()) layer->setCollisionDepth(frame.depthTexture(), width_, height_, camera);
    if (!split.haze.empty()) {
        PassTimer::Scope pass(timer_, Pass::Haze);
        drawHaze(split.haze, camera, frame);
    }
    if (lowResolution())
        drawParticlesLow(strategy, camera, frame, readDepth);
    else
        drawParticlesFull(strategy, camera, frame, readDepth);
    if (options_.hdr) {
        PassTimer::Scope pass(timer_, Pass::Tonemap);
        toneMap(frame, out);
    }
    FIRELAB_GL_CHECK();
}

// The pixels the haze layers can touch: the union of their rectangles (the whole frame when one cannot say).
glm::ivec4 hazeRect(std::span<RenderStrategy* const> haze, int width, int height) {
    glm::ivec2 lo(width, height), hi(0, 0);
    for (const RenderStrategy* h : haze) {
        const std::optional<glm::ivec4> r = h->screenRect();
        if (!r) return {0, 0, width, height};
        if (r->z <= 0 || r->w <= 0) continue;
        lo = glm::min(lo, glm::ivec2(r->x, r->y)), hi = glm::max(hi, glm::ivec2(r->x + r->z, r->y + r->w));
    }
    return hi.x > lo.x && hi.y > lo.y ? glm::ivec4(lo, hi - lo) : glm::ivec4(0);
}

void FramePipeline::drawHaze(std::span<RenderStrategy* const> haze, const Camera& camera, const FrameTarget& frame) {
    Targets& t = *targets_;
    const glm::ivec4 rect = hazeRect(haze, width_, height_);
    if (rect.z <= 0) return;  // no haze particle in view: the frame is as it was
    if (!t.haze) {
        t.haze.emplace(width_, height_, GL_RG16F);
        glTextureStorage2D(t.sceneColor.id(), 1, options_.hdr ? GL_RGBA16F : GL_RGBA8, width_, height_);
        glTextureParameteri(t.sceneColor.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTextureParameteri(t.sceneColor.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
        glTextureParameteri(t.sceneColor.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTextureParameteri(t.sceneColor.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        programs_->refract = gl::Program(shaders_, {"fullscreen.vert", "refract.frag"});
        programs_->refract.set("uOffsets", kOffsetUnit);
        programs_->refract.set("uScene", kColorUnit);
    }
    // Everything inside the haze's rectangle only: its offsets over the scene's depth (a haze particle behind a log
    // moves nothing in front of it), then the scene seen through them. A refracted pixel reads the scene up to
    // kHazeReach pixels beyond the rectangle (a copy that far), no farther (refract.frag clamps to the copy).
    const auto copyRect = [](GLuint from, GLuint to, const glm::ivec4& r) {
        glCopyImageSubData(from, GL_TEXTURE_2D, 0, r.x, r.y, 0, to, GL_TEXTURE_2D, 0, r.x, r.y, 0, r.z, r.w, 1);
    };
    const glm::ivec2 lo = glm::max(glm::ivec2(rect) - kHazeReach, glm::ivec2(0));
    const glm::ivec2 hi =
        glm::min(glm::ivec2(rect) + glm::ivec2(rect.z, rect.w) + kHazeReach, glm::ivec2(width_, height_));
    const glm::ivec4 read(lo, hi - lo);
    glEnable(GL_SCISSOR_TEST);
    glScissor(rect.x, rect.y, rect.z, rect.w);
    copyRect(frame.depthTexture(), t.haze->depthTexture(), rect);
    clearAccumulation(*t.haze, 0.0f);
    drawParticles(haze, passAt(camera, width_, height_, DrawMode::Color), *t.haze, false);
    copyRect(frame.colorTexture(), t.sceneColor.id(), read);
    programs_->refract.set("uReadRect", glm::vec4(lo, hi));
    frame.bind();
    glBindVertexArray(t.empty.id());
    glBindTextureUnit(kOffsetUnit, t.haze->colorTexture());
    glBindTextureUnit(kColorUnit, t.sceneColor.id());
    glDisable(GL_DEPTH_TEST);
    glDisable(GL_BLEND);
    fullscreen(programs_->refract);
    glEnable(GL_DEPTH_TEST);
    glDisable(GL_SCISSOR_TEST);
}

DrawPass FramePipeline::fullPass(const Camera& camera, bool readDepth) const {
    DrawPass full = passAt(camera, width_, height_, DrawMode::Color);
    full.sceneDepth = readDepth ? targets_->sceneDepth.id() : 0;
    return full;
}

void FramePipeline::drawParticlesFull(std::span<RenderStrategy* const> strategy, const Camera& camera,
                                      const FrameTarget& frame, bool readDepth) {
    using Scope = PassTimer::Scope;
    if (readDepth) {
        Scope pass(timer_, Pass::Depth);
        copyDepth(frame);
    }
    Scope pass(timer_, Pass::Particles);
    if (oit_)
        oit_->draw(strategy, fullPass(camera, readDepth), frame);
    else
        drawParticles(strategy, fullPass(camera, readDepth), frame, false);
}

void FramePipeline::drawParticlesLow(std::span<RenderStrategy* const> strategy, const Camera& camera,
                                     const FrameTarget& frame, bool readDepth) {
    using Scope = PassTimer::Scope;
    Targets& t = *targets_;
    setDepthTerms(camera);
    DrawPass low = passAt(camera, lowWidth_, lowHeight_, DrawMode::Color);
    low.accumulate = true;
    {
        Scope pass(timer_, Pass::Depth);
        copyDepth(frame);
        downsampleDepth(*t.low);
        if (readDepth) low.sceneDepth = lowDepthCopy(*t.low);
    }
    {
        Scope pass(timer_, Pass::Particles);
        clearAccumulation(*t.low, 1.0f);
        drawParticles(strategy, low, *t.low, false);
    }
    if (options_.edgeFixup) {
        Scope pass(timer_, Pass::Depth);
        markEdges(frame, *t.low);
    }
    {
        Scope pass(timer_, Pass::Composite);
        composite(frame);
    }
    if (options_.edgeFixup) {
        Scope pass(timer_, Pass::Particles);
        drawParticles(strategy, fullPass(camera, readDepth), frame, true);
    }
}

PassCounts FramePipeline::count(const Scene& scene, std::span<RenderStrategy* const> layers, const Camera& camera,
                                DrawMode mode) {
    const Split split = splitHaze(layers);  // the haze draws no particle fragments into the picture
    const std::span<RenderStrategy* const> strategy = split.particles;
    Targets& t = *targets_;
    if (!t.countFull) t.countFull.emplace(width_, height_, GL_R32F);
    const FrameTarget& full = *t.countFull;
    const bool readDepth = passesReadDepth(strategy);
    drawScene(scene, camera, full);
    copyDepth(full);
    clearAccumulation(full, 0.0f);
    PassCounts counts;
    auto sum = [](const std::vector<float>& v) { return std::accumulate(v.begin(), v.end(), 0.0); };
    DrawPass fullPass = passAt(camera, width_, height_, mode);
    fullPass.sceneDepth = readDepth ? t.sceneDepth.id() : 0;
    if (!lowResolution()) {
        drawParticles(strategy, fullPass, full, false);
        glFinish();
        counts.map = full.readRed();
        counts.particles = sum(counts.map);
        counts.width = width_, counts.height = height_;
        return counts;
    }
    if (!t.countLow) t.countLow.emplace(lowWidth_, lowHeight_, GL_R32F);
    const FrameTarget& low = *t.countLow;
    setDepthTerms(camera);
    downsampleDepth(low);
    clearAccumulation(low, 0.0f);
    DrawPass lowPass = passAt(camera, lowWidth_, lowHeight_, mode);
    if (readDepth) lowPass.sceneDepth = lowDepthCopy(low);
    drawParticles(strategy, lowPass, low, false);
    if (options_.edgeFixup) {
        markEdges(full, low);
        drawParticles(strategy, fullPass, full, true);
        glFinish();
        counts.fixup = sum(full.readRed());
    }
    glFinish();
    counts.map = low.readRed();
    counts.particles = sum(counts.map);
    counts.width = lowWidth_, counts.height = lowHeight_;
    return counts;
}

}  // namespace firelab::render
