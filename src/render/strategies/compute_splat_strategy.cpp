// compute-splat: the particles points streams, but no rasteriser: compute shaders splat each one's
// footprint (the square its view-plane quad projects to, textured as quad.frag textures it) into a
// fixed-point light buffer with atomic adds (shaders/compute_splat.comp), depth-testing the pass's scene
// depth themselves; a full-screen pass adds the buffer to the target. Additive light only (atomic sums
// are order-free) and view-plane facing only.
#include <algorithm>

#include "render/particles/instance_stream.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{
    .name = "compute-splat",
    .summary = "CPU-simulated particles rasterised by compute shaders into a fixed-point light buffer",
    .primitive = Primitive::Splats,
    .additiveOnly = true,
    .viewPlaneOnly = true};

constexpr GLuint kSmallGroup = 64;    // local_size_x of compute_splat.comp's per-particle pass
constexpr GLuint kMaxGroups = 65535;  // the guaranteed dispatch limit; the shader loops beyond it
// The largest footprint (pixels) one invocation splats alone; a larger one is queued for an 8x8
// workgroup of its own, each invocation taking one pixel of every 8x8 tile: no invocation is left
// looping over a sprite tens of pixels wide while its neighbours idle.
constexpr GLuint kSmallArea = 64;

enum Binding : GLuint { kAccum = 0, kInstances = 1, kQueue = 2, kLooks = 3 };  // compute_splat.comp

struct QueueHead {  // the Queue block's head: a glDispatchComputeIndirect command, then its length
    GLuint groupsX, groupsY, groupsZ, queued;
};

// Grows `buffer` to at least `bytes` (contents lost), to twice the need.
void reserve(gl::Buffer& buffer, size_t& capacity, size_t bytes) {
    if (bytes <= capacity) return;
    capacity = std::max<size_t>(bytes * 2, 4096);
    glNamedBufferData(buffer.id(), static_cast<GLsizeiptr>(capacity), nullptr, GL_DYNAMIC_COPY);
}

// The splat shader's variant: its own programs (compute shaders), the flipbook compiled in as
// ParticleMaterial compiles it into the rasterised strategies'.
std::vector<std::string> splatDefines(const StrategyContext& c, bool big) {
    std::vector<std::string> d{std::string("FLIPBOOK ") + (c.options.flipbook ? "1" : "0"),
                               "FLIPBOOK_BLEND " + std::to_string(static_cast<int>(c.options.flipbookBlend))};
    if (big) d.emplace_back("SPLAT_BIG");
    return d;
}

class ComputeSplat : public RenderStrategy {
public:
    explicit ComputeSplat(const StrategyContext& c)
        : material_(c, {}),
          small_(c.dataDir / "shaders", {"compute_splat.comp"}, splatDefines(c, false)),
          big_(c.dataDir / "shaders", {"compute_splat.comp"}, splatDefines(c, true)),
          resolve_(c.dataDir / "shaders", {"fullscreen.vert", "splat_resolve.frag"}) {
        small_.set("uSmallArea", kSmallArea);
    }

    std::string_view name() const override { return kInfo.name; }
    void upload(const sim::FireSystem& fire, const Camera& camera) override {
        stream_.upload(fire, camera, material_.options());
    }
    size_t drawnCount() const override { return stream_.count(); }

    // Splats every particle into the light buffer (two dispatches: small footprints one thread each, big
    // ones a work group each), then resolves the buffer onto the bound target as a blend would.
    void draw(const DrawPass& pass) override {
        const int width = pass.camera.viewportWidth, height = pass.camera.viewportHeight;
        const auto count = static_cast<GLuint>(stream_.count());
        const size_t pixels = static_cast<size_t>(width) * static_cast<size_t>(height);
        bindBuffers(pixels, count);
        setSplatUniforms(pass, count, width, height);
        if (count > 0) splat(count);
        resolve(pass, width, pixels);
        FIRELAB_GL_CHECK();
    }

private:
    // The light buffer (zero between draws: cleared after each resolve, and when it grows), the queue of big
    // footprints (empty), the instances and their looks.
    void bindBuffers(size_t pixels, GLuint count) {
        if (pixels * 16 > accumBytes_) {
            reserve(accum_, accumBytes_, pixels * 16);
            glClearNamedBufferData(accum_.id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
        }
        reserve(queue_, queueBytes_, sizeof(QueueHead) + std::max<size_t>(count, 1) * sizeof(GLuint));
        const QueueHead head{0, 1, 1, 0};
        glNamedBufferSubData(queue_.id(), 0, sizeof head, &head);
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kAccum, accum_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kInstances, stream_.buffer());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kQueue, queue_.id());
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kLooks, stream_.lookBuffer());
    }

    void setSplatUniforms(const DrawPass& pass, GLuint count, int width, int height) {
        for (const gl::Program* p : {&small_, &big_}) {
            material_.bind(*p, pass);
            p->set("uCountOverdraw", static_cast<int>(pass.mode));
            p->set("uCount", count);
            glProgramUniform2i(p->id(), p->location("uTarget"), width, height);
            p->set("uHasDepth", pass.sceneDepth != 0 ? 1 : 0);
            p->set("uHasLooks", stream_.lookBuffer() != 0 ? 1 : 0);
        }
    }

    void splat(GLuint count) {
        small_.use();
        glDispatchCompute(std::clamp<GLuint>((count + kSmallGroup - 1) / kSmallGroup, 1, kMaxGroups), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_COMMAND_BARRIER_BIT);
        big_.use();
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, queue_.id());
        glDispatchComputeIndirect(0);
        glBindBuffer(GL_DISPATCH_INDIRECT_BUFFER, 0);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }

    // Blending as the rasterised strategies blend (additive, or adding counts); no depth test: the compute
    // pass did it. Then the whole buffer is cleared, not just what the resolve read: a stencilled pass
    // resolves only some pixels.
    void resolve(const DrawPass& pass, int width, size_t pixels) {
        material_.setBlendState(pass);
        glDisable(GL_DEPTH_TEST);
        resolve_.set("uWidth", width);
        resolve_.set("uCountOverdraw", static_cast<int>(pass.mode));
        resolve_.use();
        glBindVertexArray(empty_.id());
        glDrawArrays(GL_TRIANGLES, 0, 3);
        glEnable(GL_DEPTH_TEST);
        ParticleMaterial::end();
        glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
        glClearNamedBufferSubData(accum_.id(), GL_R32UI, 0, static_cast<GLsizeiptr>(pixels * 16), GL_RED_INTEGER,
                                  GL_UNSIGNED_INT, nullptr);
    }

    ParticleMaterial material_;
    gl::Program small_, big_, resolve_;
    InstanceStream stream_;
    gl::Buffer accum_, queue_;
    size_t accumBytes_ = 0, queueBytes_ = 0;
    gl::VertexArray empty_;  // the resolve pulls no attributes
};

}  // namespace

extern constexpr StrategyEntry kComputeSplatStrategy{
    kInfo, [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> {
        gl::requireComputeShaders(kInfo.name, "fragment", GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS, 1,
                                  "resolves its light buffer from a storage buffer in a fragment shader");
        return std::make_unique<ComputeSplat>(c);
    }};

}  // namespace firelab::render
