#include "render/particle_common.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include <stb_image.h>

#include "sim/error.h"
#include "sim/gradient.h"
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

void buildInstances(const sim::FireSystem& fire, const Camera& camera, Sort sort, std::vector<Instance>& out,
                    SortScratch& scratch) {
    const sim::ParticlePool& q = fire.pool();
    const sim::FireParams& p = fire.params();
    const size_t n = q.alive();
    out.resize(n);
    auto make = [&](size_t i) {
        const float t = q.age[i] / q.life[i];
        return Instance{{q.px[i], q.py[i], q.pz[i], sim::sizeAt(p, t, q.scale[i])}, {q.vx[i], q.vy[i], q.vz[i], t}};
    };
    if (sort == Sort::None) {
        for (size_t i = 0; i < n; ++i) out[i] = make(i);
        return;
    }
    auto& depth = scratch.depth;
    depth.resize(n);
    for (size_t i = 0; i < n; ++i)
        depth[i] = glm::dot(camera.forward, glm::vec3(q.px[i], q.py[i], q.pz[i]) - camera.eye);
    sortDescending(depth, scratch);
    for (size_t k = 0; k < n; ++k) out[k] = make(scratch.order[k]);
}

void streamInto(gl::Buffer& buffer, size_t& capacityBytes, const void* data, size_t bytes) {
    if (bytes > capacityBytes) capacityBytes = std::max<size_t>(bytes * 2, 4096);
    glNamedBufferData(buffer.id(), static_cast<GLsizeiptr>(capacityBytes), nullptr, GL_STREAM_DRAW);  // orphan
    if (bytes) glNamedBufferSubData(buffer.id(), 0, static_cast<GLsizeiptr>(bytes), data);
}

void InstanceStream::upload(const sim::FireSystem& fire, const Camera& camera, Sort sort) {
    buildInstances(fire, camera, sort, cpu_, scratch_);
    count_ = cpu_.size();
    size_t capacityBytes = capacity_ * sizeof(Instance);
    streamInto(buffer_, capacityBytes, cpu_.data(), count_ * sizeof(Instance));
    capacity_ = capacityBytes / sizeof(Instance);
}

std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options) {
    const auto textures = dataDir / "textures";
    if (options.flipbook) return textures / "flame_atlas.png";
    const std::filesystem::path tex(options.texture);
    return tex.is_relative() && !std::filesystem::exists(tex) ? textures / tex : tex;
}

void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options) {
    const auto file = spritePath(dataDir, options);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::MissingFile, "texture " + file.string() + ": no such file");
    int w = 0, h = 0, n = 0;
    if (!stbi_info(file.string().c_str(), &w, &h, &n))
        throw Error(ErrorCode::BadFile, "texture " + file.string() + ": not a readable image (" +
                                            std::string(stbi_failure_reason() ? stbi_failure_reason() : "?") + ")");
}

ParticleMaterial::ParticleMaterial(const StrategyContext& c)
    : options_(c.options), sprite_(gl::loadTexture(spritePath(c.dataDir, c.options))),
      gradient_(gl::makeGradientTexture(sim::gradientLut(c.params.gradient))) {}

void ParticleMaterial::bind(const gl::Program& program, const Camera& camera) const {
    glBindTextureUnit(0, sprite_.texture.id());
    glBindTextureUnit(1, gradient_.id());
    program.set("uSprite", 0);
    program.set("uGradient", 1);
    program.set("uViewProj", camera.viewProj);
    program.set("uProjScale", camera.proj[1][1] * 0.5f * static_cast<float>(camera.viewportHeight));
    program.set("uCamRight", camera.right);
    program.set("uCamUp", camera.up);
    program.set("uCamForward", camera.forward);
    program.set("uCamEye", camera.eye);
    program.set("uFacing", static_cast<int>(options_.facing));
    program.set("uStretch", options_.velocityStretch);
    program.set("uBlendMode", static_cast<int>(options_.blend));
    program.set("uFlipbook", options_.flipbook ? 1 : 0);
    program.set("uCountOverdraw", static_cast<int>(counting_));
    program.set("uAlphaScale", options_.alphaScale);
}

void ParticleMaterial::beginParticles() const {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    if (counting_ != Counting::Off) {
        glBlendFunc(GL_ONE, GL_ONE);
        return;
    }
    switch (options_.blend) {
    case Blend::Additive: glBlendFunc(GL_ONE, GL_ONE); break;
    case Blend::Alpha: glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, GL_ONE, GL_ONE_MINUS_SRC_ALPHA); break;
    case Blend::Premultiplied: glBlendFunc(GL_ONE, GL_ONE_MINUS_SRC_ALPHA); break;
    }
}

void ParticleMaterial::endParticles() {
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
}

void billboardAxes(const Camera& camera, const RenderOptions& options, const glm::vec3& p, float size,
                   const glm::vec3& vel, glm::vec3& right, glm::vec3& up, float& halfW, float& halfH) {
    right = camera.right, up = camera.up;
    halfW = halfH = 0.5f * size;
    if (options.facing == Facing::Viewpoint) {
        const glm::vec3 n = glm::normalize(p - camera.eye);
        up = glm::normalize(camera.up - n * glm::dot(camera.up, n));
        right = glm::normalize(glm::cross(n, up));
    } else if (options.facing == Facing::Velocity) {
        const glm::vec3 vp = vel - camera.forward * glm::dot(vel, camera.forward);
        const float speed = glm::length(vp);
        if (speed > 1e-4f) {
            up = vp / speed;
            right = glm::normalize(glm::cross(camera.forward, up));
            halfH *= 1.0f + options.velocityStretch * speed;
        }
    }
}

void setTurbulenceUniforms(const gl::Program& program, const sim::TurbulenceField& field) {
    glm::vec3 k[sim::kTurbulenceWaves], amp[sim::kTurbulenceWaves];
    float phase[sim::kTurbulenceWaves];
    for (size_t i = 0; i < field.size(); ++i) k[i] = field[i].k, amp[i] = field[i].amp, phase[i] = field[i].phase;
    program.setArray("uWaveK", k, sim::kTurbulenceWaves);
    program.setArray("uWaveAmp", amp, sim::kTurbulenceWaves);
    program.setArray("uWavePhase", phase, sim::kTurbulenceWaves);
}

void setModelUniforms(const gl::Program& program, const sim::FireParams& p) {
    program.set("uShape", static_cast<int>(p.shape));
    program.set("uDistribution", static_cast<int>(p.distribution));
    program.set("uCenter", p.center);
    program.set("uExtent", p.extent);
    program.set("uSigma", p.sigma);
    program.set("uConeCos", std::cos(glm::radians(p.coneAngleDeg)));
    program.set("uSpeedMean", p.speedMean);
    program.set("uSpeedVar", p.speedVar);
    program.set("uAccelMean", p.accelMean);
    program.set("uAccelVar", p.accelVar);
    program.set("uDrag", p.drag);
    program.set("uLifetimeMean", p.lifetimeMean);
    program.set("uLifetimeVar", p.lifetimeVar);
    program.set("uSizeStart", p.sizeStart);
    program.set("uSizeEnd", p.sizeEnd);
    program.set("uSizeVar", p.sizeVar);
    glProgramUniform2ui(program.id(), program.location("uSeed"), static_cast<GLuint>(p.seed),
                        static_cast<GLuint>(p.seed >> 32));
}

}  // namespace firelab::render
