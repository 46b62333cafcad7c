#include "render/particles/instance_stream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include <glm/common.hpp>
#include <glm/geometric.hpp>

#include "render/particles/sprite_geometry.h"
#include "sim/look.h"
#include "sim/snapshot.h"

namespace firelab::render {

void sortDescending(const std::vector<float>& keys, SortScratch& scratch) {
    const size_t n = keys.size();
    // Map floats to unsigned integers that sort the same way, inverted for descending order.
    auto& k = scratch.keys;
    auto& order = scratch.order;
    k.resize(n), order.resize(n), scratch.tmpKeys.resize(n), scratch.tmpOrder.resize(n);
    for (size_t i = 0; i < n; ++i) {
        uint32_t u;
        std::memcpy(&u, &keys[i], 4);
        u = (u & 0x80000000u) ? ~u : (u | 0x80000000u);
        k[i] = ~u;
        order[i] = static_cast<uint32_t>(i);
    }
    for (int shift = 0; shift < 32; shift += 11) {
        size_t count[2049] = {};
        for (size_t i = 0; i < n; ++i) ++count[((k[i] >> shift) & 2047u) + 1];
        for (size_t b = 0; b < 2048; ++b) count[b + 1] += count[b];
        for (size_t i = 0; i < n; ++i) {
            const size_t dst = count[(k[i] >> shift) & 2047u]++;
            scratch.tmpKeys[dst] = k[i];
            scratch.tmpOrder[dst] = order[i];
        }
        k.swap(scratch.tmpKeys);
        order.swap(scratch.tmpOrder);
    }
}

Look lookOf(const sim::FireParams& params, float rnd, float age, float t, float gasKelvin, uint32_t bounces) {
    return {sim::lookTint(params, t, rnd, gasKelvin, bounces), sim::spriteAngle(sim::spinRadians(params), rnd, age)};
}

float gasKelvinAt(const sim::FireSystem& fire, const glm::vec3& position) {
    const sim::Flow* flow = fire.params().color == sim::ColorModel::Grid ? fire.flow() : nullptr;
    return flow ? flow->temperatureAt(position) : std::numeric_limits<float>::quiet_NaN();
}

namespace {

constexpr float kInfinity = std::numeric_limits<float>::infinity();

// Which particles buildInstances leaves out: those of another depth slice, those --camera-fade fades out
// wholly (at NEAR and nearer) and, with options.cullBehind, those wholly behind the near plane.
class DepthCull {
public:
    DepthCull(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options)
        : q_(fire.pool()),
          p_(fire.params()),
          camera_(camera),
          options_(options),
          near_(options.cullBehind ? nearDistance(camera) : -kInfinity),
          sliced_(options.sliceNear > -kInfinity || options.sliceFar < kInfinity),
          fadeNear_(fadesNearCamera(options.cameraFade) ? options.cameraFade.x : -kInfinity),
          active_(near_ > -kInfinity || sliced_ || fadeNear_ > -kInfinity) {}

    // Particle i's view depth.
    float depthOf(size_t i) const {
        return glm::dot(camera_.forward, glm::vec3(q_.px[i], q_.py[i], q_.pz[i]) - camera_.eye);
    }
    bool leavesOut(size_t i) const { return active_ && behind(i, depthOf(i)); }
    bool leavesOut(size_t i, float depth) const { return active_ && behind(i, depth); }

private:
    bool behind(size_t i, float depth) const {
        if (sliced_ && (depth < options_.sliceNear || depth >= options_.sliceFar)) return true;  // another slice's
        if (depth <= fadeNear_) return true;  // faded out: cameraFadeAt is 0
        if (depth >= near_) return false;     // in front whatever its reach: the common case costs one dot product
        const glm::vec3 at(q_.px[i], q_.py[i], q_.pz[i]);
        const float size = spriteWorldSize(p_, camera_, at, sim::sizeAt(p_, q_.age[i] / q_.life[i], q_.scale[i]));
        return behindNear(depth, spriteRadius(options_, size, {q_.vx[i], q_.vy[i], q_.vz[i]}), near_);
    }

    const sim::ParticlePool& q_;
    const sim::FireParams& p_;
    const Camera& camera_;
    const RenderOptions& options_;
    float near_;
    bool sliced_;
    float fadeNear_;
    bool active_;
};

// Writes particles as records into `out` (and their looks into `looks`, when given and the model varies
// them), sized for the whole pool until keep() cuts them to the records written.
class RecordWriter {
public:
    RecordWriter(const sim::FireSystem& fire, const Camera& camera, std::vector<Instance>& out,
                 std::vector<Look>* looks)
        : q_(fire.pool()),
          p_(fire.params()),
          fire_(fire),
          camera_(camera),
          out_(out),
          looks_(looks),
          withLooks_(looks && sim::hasLook(p_)),
          flame_(sim::flameFrame(p_)) {
        out.resize(q_.alive());
        if (looks) looks->resize(withLooks_ ? q_.alive() : 0);
    }

    void put(size_t k, size_t i) {  // particle i as the k-th record
        const float t = q_.age[i] / q_.life[i];
        const glm::vec3 at(q_.px[i], q_.py[i], q_.pz[i]);
        out_[k] = Instance{{at, spriteWorldSize(p_, camera_, at, sim::sizeAt(p_, t, q_.scale[i]))},
                           {q_.vx[i], q_.vy[i], q_.vz[i], t}};
        if (withLooks_) {
            (*looks_)[k] = lookOf(p_, q_.rnd[i], q_.age[i], sim::colorCoordinate(flame_, t, at), gasKelvinAt(fire_, at),
                                  q_.bounces[i]);
        }
    }
    void keep(size_t count) {
        out_.resize(count);
        if (withLooks_) looks_->resize(count);
    }

private:
    const sim::ParticlePool& q_;
    const sim::FireParams& p_;
    const sim::FireSystem& fire_;
    const Camera& camera_;  // --size-unit px: the pixels' metres
    std::vector<Instance>& out_;
    std::vector<Look>* looks_;
    bool withLooks_;
    sim::FlameFrame flame_;  // --color-position: where a tint's temperature is taken
};

// The particles kept, in pool order.
void writeInPoolOrder(size_t n, const DepthCull& cull, RecordWriter& records) {
    size_t k = 0;
    for (size_t i = 0; i < n; ++i)
        if (!cull.leavesOut(i)) records.put(k++, i);
    records.keep(k);
}

// The particles kept, farthest first. The stable sort of those in front, in pool order, with their depths
// orders them as it orders the whole pool, less those skipped.
void writeBackToFront(size_t n, const DepthCull& cull, SortScratch& scratch, RecordWriter& records) {
    auto& depth = scratch.depth;
    auto& kept = scratch.kept;
    depth.resize(n), kept.resize(n);
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        const float d = cull.depthOf(i);
        if (cull.leavesOut(i, d)) continue;
        depth[m] = d, kept[m] = static_cast<uint32_t>(i);
        ++m;
    }
    depth.resize(m), kept.resize(m);
    sortDescending(depth, scratch);
    for (size_t k = 0; k < m; ++k) {
        scratch.order[k] = kept[scratch.order[k]];
        records.put(k, scratch.order[k]);
    }
    records.keep(m);
}

}  // namespace

void buildInstances(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                    std::vector<Instance>& out, SortScratch& scratch, std::vector<Look>* looks) {
    const DepthCull cull(fire, camera, options);
    RecordWriter records(fire, camera, out, looks);
    if (options.sort == Sort::None)
        writeInPoolOrder(fire.pool().alive(), cull, records);
    else
        writeBackToFront(fire.pool().alive(), cull, scratch, records);
}

std::optional<glm::ivec4> viewPlaneRect(std::span<const Instance> instances, const Camera& camera) {
    const float near = nearDistance(camera);
    const float perUnit = pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight));
    glm::vec2 lo(std::numeric_limits<float>::infinity()), hi(-std::numeric_limits<float>::infinity());
    for (const Instance& in : instances) {
        const glm::vec3 p(in.posSize);
        const float half = 0.5f * std::abs(in.posSize.w);
        const float depth = glm::dot(camera.forward, p - camera.eye);
        if (depth - half <= near) return std::nullopt;  // a view-plane square lies at its centre's depth
        const glm::vec4 clip = camera.viewProj * glm::vec4(p, 1.0f);
        const glm::vec2 centre =
            (glm::vec2(clip) / clip.w * 0.5f + 0.5f) *
            glm::vec2(static_cast<float>(camera.viewportWidth), static_cast<float>(camera.viewportHeight));
        const float reach = half * perUnit / depth + 1.0f;
        lo = glm::min(lo, centre - reach), hi = glm::max(hi, centre + reach);
    }
    if (!(lo.x <= hi.x && lo.y <= hi.y)) return glm::ivec4(0);  // no square at all
    // Clamped to the viewport as floats first: a square far off to a side projects beyond any int.
    const glm::vec2 size(static_cast<float>(camera.viewportWidth), static_cast<float>(camera.viewportHeight));
    const glm::ivec2 a(glm::floor(glm::clamp(lo, glm::vec2(0.0f), size)));
    const glm::ivec2 b(glm::ceil(glm::clamp(hi, glm::vec2(0.0f), size)));
    if (b.x <= a.x || b.y <= a.y) return glm::ivec4(0);
    return glm::ivec4(a, b - a);
}

void streamInto(gl::Buffer& buffer, size_t& capacityBytes, const void* data, size_t bytes) {
    if (bytes > capacityBytes) capacityBytes = std::max<size_t>(bytes * 2, 4096);
    glNamedBufferData(buffer.id(), static_cast<GLsizeiptr>(capacityBytes), nullptr, GL_STREAM_DRAW);  // orphan
    if (bytes) glNamedBufferSubData(buffer.id(), 0, static_cast<GLsizeiptr>(bytes), data);
}

void InstanceStream::upload(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options) {
    buildInstances(fire, camera, options, cpu_, scratch_, &looks_);
    count_ = cpu_.size();
    size_t capacityBytes = capacity_ * sizeof(Instance);
    streamInto(buffer_, capacityBytes, cpu_.data(), count_ * sizeof(Instance));
    capacity_ = capacityBytes / sizeof(Instance);
    if (!looks_.empty()) streamInto(lookBuffer_, lookBytes_, looks_.data(), looks_.size() * sizeof(Look));
}

void bindLooks(GLuint vao, GLuint attrib, GLuint binding, GLuint looks, GLuint divisor) {
    if (looks == 0) {
        glDisableVertexArrayAttrib(vao, attrib);
        glVertexAttrib4f(attrib, kPlainLook.r, kPlainLook.g, kPlainLook.b,
                         kPlainLook.a);  // context state: set per draw
        return;
    }
    glEnableVertexArrayAttrib(vao, attrib);
    glVertexArrayAttribFormat(vao, attrib, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, attrib, binding);
    glVertexArrayBindingDivisor(vao, binding, divisor);
    glVertexArrayVertexBuffer(vao, binding, looks, 0, sizeof(Look));
}

}  // namespace firelab::render
