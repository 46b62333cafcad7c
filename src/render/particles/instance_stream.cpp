#include "render/particles/instance_stream.h"

#include <algorithm>
#include <cstring>
#include <limits>

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

Look lookOf(const sim::FireParams& params, float rnd, float age) {
    return {sim::tintOf(params, rnd), sim::spriteAngle(sim::spinRadians(params), rnd, age)};
}

void buildInstances(const sim::FireSystem& fire, const Camera& camera, const RenderOptions& options,
                    std::vector<Instance>& out, SortScratch& scratch, std::vector<Look>* looks) {
    const sim::ParticlePool& q = fire.pool();
    const sim::FireParams& p = fire.params();
    const size_t n = q.alive();
    const bool withLooks = looks && sim::hasLook(p);
    const float near = options.cullBehind ? nearDistance(camera) : -std::numeric_limits<float>::infinity();
    const bool sliced = options.sliceNear > -std::numeric_limits<float>::infinity() ||
                        options.sliceFar < std::numeric_limits<float>::infinity();
    const bool cull = near > -std::numeric_limits<float>::infinity() || sliced;
    auto depthOf = [&](size_t i) { return glm::dot(camera.forward, glm::vec3(q.px[i], q.py[i], q.pz[i]) - camera.eye); };
    auto behind = [&](size_t i, float depth) {
        if (sliced && (depth < options.sliceNear || depth >= options.sliceFar)) return true;  // another slice's
        if (depth >= near) return false;  // in front whatever its reach: the common case costs one dot product
        const float size = sim::sizeAt(p, q.age[i] / q.life[i], q.scale[i]);
        return behindNear(depth, spriteRadius(options, size, {q.vx[i], q.vy[i], q.vz[i]}), near);
    };
    out.resize(n);
    if (looks) looks->resize(withLooks ? n : 0);
    auto put = [&](size_t k, size_t i) {  // particle i as the k-th record
        const float t = q.age[i] / q.life[i];
        out[k] = Instance{{q.px[i], q.py[i], q.pz[i], sim::sizeAt(p, t, q.scale[i])}, {q.vx[i], q.vy[i], q.vz[i], t}};
        if (withLooks) (*looks)[k] = lookOf(p, q.rnd[i], q.age[i]);
    };
    auto keep = [&](size_t count) {
        out.resize(count);
        if (withLooks) looks->resize(count);
    };
    if (options.sort == Sort::None) {
        size_t k = 0;
        for (size_t i = 0; i < n; ++i)
            if (!cull || !behind(i, depthOf(i))) put(k++, i);
        keep(k);
        return;
    }
    // The particles in front, in pool order, and their depths: the stable sort orders them as it orders
    // the whole pool, less those skipped.
    auto& depth = scratch.depth;
    auto& kept = scratch.kept;
    depth.resize(n), kept.resize(n);
    size_t m = 0;
    for (size_t i = 0; i < n; ++i) {
        const float d = depthOf(i);
        if (cull && behind(i, d)) continue;
        depth[m] = d, kept[m] = static_cast<uint32_t>(i);
        ++m;
    }
    depth.resize(m), kept.resize(m);
    sortDescending(depth, scratch);
    for (size_t k = 0; k < m; ++k) {
        scratch.order[k] = kept[scratch.order[k]];
        put(k, scratch.order[k]);
    }
    keep(m);
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
        glVertexAttrib4f(attrib, kPlainLook.r, kPlainLook.g, kPlainLook.b, kPlainLook.a);  // context state: set per draw
        return;
    }
    glEnableVertexArrayAttrib(vao, attrib);
    glVertexArrayAttribFormat(vao, attrib, 4, GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao, attrib, binding);
    glVertexArrayBindingDivisor(vao, binding, divisor);
    glVertexArrayVertexBuffer(vao, binding, looks, 0, sizeof(Look));
}

}  // namespace firelab::render
