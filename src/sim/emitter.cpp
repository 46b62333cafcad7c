#include "sim/emitter.h"

#include <cmath>

#include <glm/geometric.hpp>

namespace firelab::sim {
namespace {
constexpr float kTwoPi = 6.283185307179586f;

// Standard normal truncated to [-limit, limit] by rejection (limit in sigmas).
float truncatedNormal(Pcg32& rng, float limit) {
    for (;;) {
        const float x = rng.normal();
        if (std::fabs(x) <= limit) return x;
    }
}

glm::vec3 uniformUnitVector(Pcg32& rng) {
    const float z = rng.symmetric();
    const float phi = kTwoPi * rng.uniform01();
    const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
    return {r * std::cos(phi), z, r * std::sin(phi)};
}
}  // namespace

glm::vec3 samplePosition(const FireParams& p, Pcg32& rng) {
    const glm::vec3& c = p.center;
    const bool normal = p.distribution == Distribution::Normal;
    switch (p.shape) {
    case EmitterShape::Rect: {
        if (!normal) return c + glm::vec3(rng.symmetric() * p.extent.x, 0.0f, rng.symmetric() * p.extent.z);
        const float lim = 1.0f / p.sigma;  // the region's edge, in sigmas
        return c + glm::vec3(truncatedNormal(rng, lim) * p.sigma * p.extent.x, 0.0f,
                             truncatedNormal(rng, lim) * p.sigma * p.extent.z);
    }
    case EmitterShape::Circle: {
        const float r = p.extent.x;
        if (!normal) {
            const float rr = r * std::sqrt(rng.uniform01());
            const float phi = kTwoPi * rng.uniform01();
            return c + glm::vec3(rr * std::cos(phi), 0.0f, rr * std::sin(phi));
        }
        for (;;) {  // isotropic 2-D normal truncated to the disc
            const float x = rng.normal() * p.sigma, z = rng.normal() * p.sigma;
            if (x * x + z * z <= 1.0f) return c + glm::vec3(x * r, 0.0f, z * r);
        }
    }
    case EmitterShape::Sphere: {
        const float r = p.extent.x;
        if (!normal) return c + uniformUnitVector(rng) * (r * std::cbrt(rng.uniform01()));
        for (;;) {  // isotropic 3-D normal truncated to the ball
            const glm::vec3 v(rng.normal() * p.sigma, rng.normal() * p.sigma, rng.normal() * p.sigma);
            if (glm::dot(v, v) <= 1.0f) return c + v * r;
        }
    }
    }
    return c;
}

glm::vec3 sampleDirection(const FireParams& p, const glm::vec3& position, Pcg32& rng) {
    if (p.shape == EmitterShape::Sphere) {
        const glm::vec3 d = position - p.center;
        const float len = glm::length(d);
        return len > 1e-6f ? d / len : uniformUnitVector(rng);
    }
    // Uniform over the spherical cap of half-angle alpha around +y.
    const float cosA = std::cos(p.coneAngleDeg * (kTwoPi / 360.0f));
    const float cosT = 1.0f - rng.uniform01() * (1.0f - cosA);
    const float sinT = std::sqrt(std::max(0.0f, 1.0f - cosT * cosT));
    const float phi = kTwoPi * rng.uniform01();
    return {sinT * std::cos(phi), cosT, sinT * std::sin(phi)};
}

glm::vec3 fromEmissionFrame(const glm::vec3& dir, const glm::vec3& local) {
    // Rodrigues: R = c I + [v]x + v v^T / (1 + c). Towards dir = -y, 1 + c loses its digits, so there
    // use 1 / (1 + c) = (1 - c) / |v|^2 (dir is unit), which keeps them.
    const float c = dir.y;                                   // dot(+y, dir)
    const glm::vec3 v(dir.z, 0.0f, -dir.x);                  // cross(+y, dir)
    const float s2 = dir.x * dir.x + dir.z * dir.z;          // |v|^2
    if (c < 0.0f && s2 < 1e-30f) return {local.x, -local.y, -local.z};  // dir = -y: half-turn about x
    const float k = c >= 0.0f ? 1.0f / (1.0f + c) : (1.0f - c) / s2;
    return c * local + glm::cross(v, local) + v * (glm::dot(v, local) * k);
}

}  // namespace firelab::sim
