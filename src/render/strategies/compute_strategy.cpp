// compute: instead of streaming the CPU pool (points), the fire model runs in compute shaders on
// storage buffers (free-list emission, turbulence, an optional GPU bitonic sort by depth) and is drawn
// by vertex pulling, with an indirect draw whose instance count the GPU writes: no particle crosses the bus.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/frame/scene.h"
#include "render/gl/frame_target.h"
#include "render/particles/gpu_model.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"
#include "sim/emission.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{.name = "compute",
                             .summary = "the fire model simulated in compute shaders, drawn by vertex pulling",
                             .primitive = Primitive::Sprites,
                             .simulatesOnGpu = true};

constexpr GLuint kGroup = 256;        // local_size_x of shaders/compute_*.comp
constexpr GLuint kMaxGroups = 65535;  // the guaranteed dispatch limit; the shaders loop beyond it
constexpr GLuint kSortBlock = 512;    // elements one workgroup sorts in shared memory

constexpr GLint kCollisionDepthUnit = 7;
// --ground stage: how far behind the visible surface a particle still counts as inside it (m): more than a log's
// half thickness and a step's fall, less than the gap from a log to what the camera sees behind it.
constexpr float kCollisionThickness = 0.25f;

enum Binding : GLuint { kParticles = 0, kFreeList = 1, kCounters = 2, kDrawList = 3 };  // compute_buffers.glsl

// The Counters block: a glDrawArraysIndirect command (vertexCount: the sprite polygon's), then the free-list length.
struct Counters {
    GLuint vertexCount, instanceCount, firstVertex, baseInstance;
    GLint freeCount;
    GLuint pad[3];
};

struct GpuParticle {  // the Particle struct of shaders/fire_model.glsl
    float posAge[4], velLife[4], accelScale[4], look[4];
};
static_assert(sizeof(GpuParticle) == 64);

GLuint groupsFor(size_t n) { return static_cast<GLuint>(std::clamp<size_t>((n + kGroup - 1) / kGroup, 1, kMaxGroups)); }

size_t nextPowerOfTwo(size_t n) {
    size_t p = kSortBlock;
    while (p < n) p <<= 1;
    return p;
}

class Compute : public RenderStrategy {
public:
    explicit Compute(const StrategyContext& c)
        : material_(c, {"compute_draw.vert", "quad.frag"},
                    [p = c.params](const gl::Program& draw) { setModelUniforms(draw, p); }),
          update_(shaders(c), {"compute_update.comp"}),
          emit_(shaders(c), {"compute_emit.comp"}),
          params_(c.params),
          dt_(c.dt),
          sorted_(c.options.sort == Sort::BackToFront),
          capacity_(sim::FireSystem::capacityFor(c.params, c.dt)),
          listLength_(sorted_ ? nextPowerOfTwo(capacity_) : capacity_) {
        if (sorted_) sort_ = gl::Program(shaders(c), {"compute_sort.comp"});
        dataDir_ = c.dataDir;
        particles_ = gl::makeBuffer(bytes(capacity_ * sizeof(GpuParticle)), nullptr, GL_DYNAMIC_COPY);
        freeList_ = gl::makeBuffer(bytes(capacity_ * sizeof(GLuint)), nullptr, GL_DYNAMIC_COPY);
        counters_ = gl::makeBuffer(sizeof(Counters), nullptr, GL_DYNAMIC_COPY);
        drawList_ = gl::makeBuffer(bytes(listLength_ * 2 * sizeof(GLuint)), nullptr, GL_DYNAMIC_COPY);
        for (const gl::Program* p : {&update_, &emit_}) setModelUniforms(*p, params_);
        update_.set("uCapacity", static_cast<unsigned>(capacity_));
        update_.set("uDt", dt_);
        const float damp = std::exp(-params_.drag * dt_);
        update_.set("uDamp", damp);
        update_.set("uUndamp", params_.dragOn == sim::DragOn::Launch ? 1.0f - damp : 0.0f);
        update_.set("uDepthCollide", 0);
        if (sorted_) sort_.set("uSize", static_cast<unsigned>(listLength_));
        reset();
    }

    std::string_view name() const override { return kInfo.name; }

    // Steps the GPU simulation by dt until it reaches the CPU model's time (from empty if time went back).
    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        if (fire.time() < simTime_ - 0.5 * dt_) reset();
        const long steps = std::max(0L, std::lround((fire.time() - simTime_) / dt_));
        if (steps > 0 && collidesWithDepth() && depthWidth_ == 0) drawOwnDepth(camera);
        bindBuffers();
        {
            PassTimer::Scope simulate(timer(), Pass::Simulate);
            for (long i = 0; i < steps; ++i) step(i + 1 == steps);
        }
        if (sorted_) {
            PassTimer::Scope sort(timer(), Pass::Sort);
            sortBackToFront(camera);
        }
        // The draw pulls the particles and the draw list from storage buffers and reads its command,
        // all written by shaders (no vertex attributes, so no GL_VERTEX_ATTRIB_ARRAY_BARRIER_BIT).
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
    }

    void draw(const DrawPass& pass) override {
        if (!material_.drawsIn(pass)) return;
        material_.begin(pass);
        bindBuffers();
        glBindVertexArray(vao_.id());  // empty: vertex pulling, but core GL needs one bound
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, counters_.id());
        glDrawArraysIndirect(GL_TRIANGLE_STRIP, nullptr);
        glBindBuffer(GL_DRAW_INDIRECT_BUFFER, 0);
        ParticleMaterial::end();
    }

    bool collidesWithDepth() const override { return params_.ground == sim::Ground::Stage; }

    // A copy of the scene's depth and its camera, for the next steps to collide with (shaders/depth_collision.glsl).
    void setCollisionDepth(GLuint depthTexture, int width, int height, const Camera& camera) override {
        if (width != depthWidth_ || height != depthHeight_) {
            collisionDepth_ = gl::Texture{GL_TEXTURE_2D};
            glTextureStorage2D(collisionDepth_.id(), 1, GL_DEPTH24_STENCIL8, width, height);
            glTextureParameteri(collisionDepth_.id(), GL_TEXTURE_MIN_FILTER, GL_NEAREST);
            glTextureParameteri(collisionDepth_.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
            depthWidth_ = width, depthHeight_ = height;
        }
        glCopyImageSubData(depthTexture, GL_TEXTURE_2D, 0, 0, 0, 0, collisionDepth_.id(), GL_TEXTURE_2D, 0, 0, 0, 0,
                           width, height, 1);
        update_.set("uDepthCollide", 1);
        update_.set("uCollisionDepth", kCollisionDepthUnit);
        update_.set("uCollisionViewProj", camera.viewProj);
        update_.set("uCollisionInvViewProj", glm::inverse(camera.viewProj));
        update_.set("uCollisionEye", camera.eye);
        update_.set("uCollisionThickness", kCollisionThickness);
    }

    // Before the frame pipeline has handed it a depth (the first upload, which in a capture or a scorer steps the whole
    // clip at once), the scene's depth drawn here from the upload's camera, the frame's bindings kept.
    void drawOwnDepth(const Camera& camera) {
        if (!stage_) stage_ = std::make_unique<Scene>(dataDir_);
        const int w = std::max(1, camera.viewportWidth), h = std::max(1, camera.viewportHeight);
        if (!stageTarget_ || stageTarget_->width() != w || stageTarget_->height() != h) stageTarget_.emplace(w, h);
        GLint framebuffer = 0, viewport[4] = {0, 0, 0, 0};
        GLfloat clear[4] = {0, 0, 0, 0};
        glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &framebuffer);
        glGetIntegerv(GL_VIEWPORT, viewport);
        glGetFloatv(GL_COLOR_CLEAR_VALUE, clear);
        stageTarget_->bind();
        stage_->draw(camera);
        glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(framebuffer));
        glViewport(viewport[0], viewport[1], viewport[2], viewport[3]);
        glClearColor(clear[0], clear[1], clear[2], clear[3]);
        setCollisionDepth(stageTarget_->depthTexture(), w, h, camera);
    }

    std::vector<glm::vec3> gpuPositions() const override {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        std::vector<GpuParticle> all(capacity_);
        glGetNamedBufferSubData(particles_.id(), 0, bytes(capacity_ * sizeof(GpuParticle)), all.data());
        std::vector<glm::vec3> live;
        for (const GpuParticle& q : all)
            if (q.accelScale[3] != 0.0f) live.emplace_back(q.posAge[0], q.posAge[1], q.posAge[2]);
        return live;
    }

    // Reads the GPU's 4-byte instance count back: a sync point, so only on request (captures call it
    // after the frame, never in a timed loop); the draw itself never waits on the CPU.
    size_t drawnCount() const override {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        GLuint n = 0;
        glGetNamedBufferSubData(counters_.id(), offsetof(Counters, instanceCount), sizeof n, &n);
        return n;
    }

private:
    static std::filesystem::path shaders(const StrategyContext& c) { return c.dataDir / "shaders"; }
    static GLsizeiptr bytes(size_t n) { return static_cast<GLsizeiptr>(n); }

    void bindBuffers() const {
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kParticles, particles_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kFreeList, freeList_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kCounters, counters_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kDrawList, drawList_.id());
    }

    // Empty, as the CPU model starts: every slot free (scale 0), all on the free list, slot 0 on top.
    void reset() {
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glClearNamedBufferData(particles_.id(), GL_R32F, GL_RED, GL_FLOAT, nullptr);
        std::vector<GLuint> slots(capacity_);
        for (size_t i = 0; i < capacity_; ++i) slots[i] = static_cast<GLuint>(capacity_ - 1 - i);
        glNamedBufferSubData(freeList_.id(), 0, bytes(slots.size() * sizeof(GLuint)), slots.data());
        const Counters c{static_cast<GLuint>(material_.hullVertices()), 0, 0, 0, static_cast<GLint>(capacity_), {}};
        glNamedBufferSubData(counters_.id(), 0, sizeof c, &c);
        simTime_ = 0.0, births_ = 0, emission_ = {};
    }

    // One FireSystem::step: integrate and kill (the turbulence of the step's start), then emit.
    // Only the frame's last step appends to the draw list, which it first empties.
    void step(bool last) {
        if (last) {
            const GLuint zero = 0;
            glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
            glNamedBufferSubData(counters_.id(), offsetof(Counters, instanceCount), sizeof zero, &zero);
        }
        setTurbulenceUniforms(update_, sim::turbulenceAt(simTime_, params_.turbulence, params_.turbulenceFrequency,
                                                         params_.turbulenceSpeed));
        update_.set("uAppend", last ? 1 : 0);
        update_.use();
        if (depthWidth_ > 0) glBindTextureUnit(kCollisionDepthUnit, collisionDepth_.id());
        glDispatchCompute(groupsFor(capacity_), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        simTime_ += dt_;

        const size_t n = emission_.births(params_, dt_);  // exactly the CPU model's counts
        if (n == 0) return;
        emit_.set("uEmitCount", static_cast<unsigned>(n));
        glProgramUniform2ui(emit_.id(), emit_.location("uFirstBirth"), static_cast<GLuint>(births_),
                            static_cast<GLuint>(births_ >> 32));
        emit_.set("uAppend", last ? 1 : 0);
        emit_.set("uBirthTime", static_cast<float>(simTime_));
        emit_.use();
        glDispatchCompute(groupsFor(n), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        births_ += n;
    }

    // Bitonic sort of the padded draw list: blocks of 512 in shared memory, then for each longer
    // run length k, global steps down to j = 512 and one shared-memory pass for the rest.
    void sortBackToFront(const Camera& camera) {
        const GLuint blocks = static_cast<GLuint>(std::min<size_t>(listLength_ / kSortBlock, kMaxGroups));
        const GLuint pairGroups = groupsFor(listLength_ / 2);
        sort_.set("uCamForward", camera.forward);
        sort_.set("uCamEye", camera.eye);
        sort_.use();
        auto pass = [&](int mode, size_t k, size_t j, GLuint groups) {
            sort_.set("uMode", mode);
            sort_.set("uK", static_cast<unsigned>(k));
            sort_.set("uJ", static_cast<unsigned>(j));
            glDispatchCompute(groups, 1, 1);
            glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
        };
        pass(0, 0, 0, groupsFor(listLength_));  // keys
        pass(2, 0, 0, blocks);                  // k = 2 .. 512
        for (size_t k = 2 * kSortBlock; k <= listLength_; k <<= 1) {
            for (size_t j = k / 2; j >= kSortBlock; j >>= 1) pass(1, k, j, pairGroups);
            pass(2, k, 0, blocks);
        }
    }

    ParticleMaterial material_;  // and the draw's shaders
    gl::Program update_, emit_, sort_;
    sim::FireParams params_;
    float dt_;
    bool sorted_;
    size_t capacity_;
    size_t listLength_;  // draw-list entries: the capacity, or its power-of-two padding when sorting
    gl::Buffer particles_, freeList_, counters_, drawList_;
    gl::VertexArray vao_;
    double simTime_ = 0.0;  // as FireSystem's time_
    sim::EmissionCounter emission_;
    uint64_t births_ = 0;                        // the birth number of the next particle: its random stream
    gl::Texture collisionDepth_{GL_TEXTURE_2D};  // --ground stage: the scene's depth (setCollisionDepth)
    int depthWidth_ = 0, depthHeight_ = 0;
    std::filesystem::path dataDir_;
    std::unique_ptr<Scene> stage_;  // drawOwnDepth's, made on first need
    std::optional<FrameTarget> stageTarget_;
};

}  // namespace

extern constexpr StrategyEntry kComputeStrategy{kInfo, [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
                                                    gl::requireComputeShaders("compute strategy", "vertex",
                                                                              GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS, 2,
                                                                              "pulls vertices from storage buffers");
                                                    return std::make_unique<Compute>(c);
                                                }};

}  // namespace firelab::render
