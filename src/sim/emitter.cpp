#include "sim/emitter.h"

#include <algorithm>
#include <cmath>

#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <glm/vec2.hpp>

#include "sim/ground.h"

namespace firelab::sim {
namespace {
constexpr float kTwoPi = 6.283185307179586f;

// Every draw below is a statement of its own: the order of draws inside one expression (constructor
// arguments, operands) is unspecified in C++, and the GPU must draw in the same order.

float squaredLength(float x) { return x * x; }
float squaredLength(const glm::vec2& v) { return glm::dot(v, v); }
float squaredLength(const glm::vec3& v) { return glm::dot(v, v); }

glm::vec2 uniformDisc(Rng& rng) {
    const float r = std::sqrt(rng.uniform01());
    const float phi = kTwoPi * rng.uniform01();
    return {r * std::cos(phi), r * std::sin(phi)};
}

glm::vec3 uniformUnitVector(Rng& rng) {
    const float z = rng.symmetric();
    const float phi = kTwoPi * rng.uniform01();
    const float r = std::sqrt(std::max(0.0f, 1.0f - z * z));
    return {r * std::cos(phi), z, r * std::sin(phi)};
}

glm::vec3 uniformBall(Rng& rng) {
    const glm::vec3 d = uniformUnitVector(rng);
    return d * std::cbrt(rng.uniform01());
}

// The isotropic normal of deviation sigma conditioned on the unit region (interval, disc or ball), by
// bounded rejection: `uniform` draws a point uniformly in the region, `normal` a standard normal one.
// Wide: uniform proposals accepted with the normal's relative density exp(-r^2 / (2 sigma^2)).
template <class Uniform, class Normal>
auto truncatedNormal(Rng& rng, float sigma, Uniform uniform, Normal normal) {
    for (int i = 0; i < kMaxRejectionTries; ++i) {
        if (sigma > kWideSigma) {
            const auto v = uniform();
            if (rng.uniform01() < std::exp(-0.5f * squaredLength(v) / (sigma * sigma))) return v;
        } else {
            const auto v = normal() * sigma;
            if (squaredLength(v) <= 1.0f) return v;
        }
    }
    return uniform();
}

float truncatedNormal1(Rng& rng, float sigma) {
    return truncatedNormal(
        rng, sigma, [&] { return rng.symmetric(); }, [&] { return rng.normal2().x; });
}
glm::vec2 truncatedNormalDisc(Rng& rng, float sigma) {
    return truncatedNormal(
        rng, sigma, [&] { return uniformDisc(rng); }, [&] { return rng.normal2(); });
}
glm::vec3 truncatedNormalBall(Rng& rng, float sigma) {
    const auto normal3 = [&] {
        const glm::vec2 xy = rng.normal2();
        const float z = rng.normal2().x;
        return glm::vec3(xy, z);
    };
    return truncatedNormal(
        rng, sigma, [&] { return uniformBall(rng); }, normal3);
}
}  // namespace

glm::vec3 samplePosition(const FireParams& p, Rng& rng) {
    const bool normal = p.distribution == Distribution::Normal;
    switch (p.shape) {
    case EmitterShape::Rect: {  // x, y (only when the rect has depth: a flat one draws what it always drew), z
        const auto axis = [&] { return normal ? truncatedNormal1(rng, p.sigma) : rng.symmetric(); };
        const float x = axis();
        const float y = p.extent.y > 0.0f ? axis() : 0.0f;
        const float z = axis();
        return p.center + glm::vec3(x, y, z) * p.extent;
    }
    case EmitterShape::Circle: {
        const glm::vec2 v = normal ? truncatedNormalDisc(rng, p.sigma) : uniformDisc(rng);
        return p.center + glm::vec3(v.x, 0.0f, v.y) * p.extent.x;
    }
    case EmitterShape::Sphere:
        return p.center + (normal ? truncatedNormalBall(rng, p.sigma) : uniformBall(rng)) * p.extent.x;
    case EmitterShape::Ring: {  // the edge: an azimuth, uniform (the distribution has no width to act on)
        const float phi = kTwoPi * rng.uniform01();
        return p.center + glm::vec3(std::cos(phi), 0.0f, std::sin(phi)) * p.extent.x;
    }
    case EmitterShape::Count: break;  // not a shape
    }
    return p.center;
}

glm::vec3 sampleDirection(const FireParams& p, const glm::vec3& position, Rng& rng) {
    if (p.shape == EmitterShape::Sphere) {
        const glm::vec3 d = position - p.center;
        const float len = glm::length(d);
        return len > 1e-6f ? d / len : uniformUnitVector(rng);
    }
    if (p.shape == EmitterShape::Ring) {  // outwards through the particle's azimuth, tilted by the cone's angle
        const glm::vec2 r(position.x - p.center.x, position.z - p.center.z);
        const float len = glm::length(r);
        const glm::vec2 out = len > 1e-6f ? r / len : glm::vec2(1.0f, 0.0f);
        const float a = p.coneAngleDeg * (kTwoPi / 360.0f);
        return {out.x * std::sin(a), std::cos(a), out.y * std::sin(a)};
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
    const float c = dir.y;                                              // dot(+y, dir)
    const glm::vec3 v(dir.z, 0.0f, -dir.x);                             // cross(+y, dir)
    const float s2 = dir.x * dir.x + dir.z * dir.z;                     // |v|^2
    if (c < 0.0f && s2 < 1e-30f) return {local.x, -local.y, -local.z};  // dir = -y: half-turn about x
    const float k = c >= 0.0f ? 1.0f / (1.0f + c) : (1.0f - c) / s2;
    return c * local + glm::cross(v, local) + v * (glm::dot(v, local) * k);
}

glm::vec3 pathOffset(const FireParams& p, double t) {
    if (p.pathAmplitude == glm::vec3(0.0f)) return glm::vec3(0.0f);
    constexpr double kTau = 6.283185307179586;
    const glm::vec3& a = p.pathAmplitude;
    const glm::vec3& f = p.pathFrequency;
    return {a.x * static_cast<float>(std::sin(kTau * f.x * t)), a.y * static_cast<float>(std::sin(kTau * f.y * t)),
            a.z * static_cast<float>(std::cos(kTau * f.z * t))};
}

EmitterTransform emitterTransform(const FireParams& p, double time) {
    EmitterTransform t;
    t.offset = pathOffset(p, time);
    t.rotated = p.rotationDeg != glm::vec3(0.0f);
    if (!t.rotated) return t;
    const glm::vec3 r = glm::radians(p.rotationDeg);
    const glm::mat3 rx(1, 0, 0, 0, std::cos(r.x), std::sin(r.x), 0, -std::sin(r.x), std::cos(r.x));  // columns
    const glm::mat3 ry(std::cos(r.y), 0, -std::sin(r.y), 0, 1, 0, std::sin(r.y), 0, std::cos(r.y));
    const glm::mat3 rz(std::cos(r.z), std::sin(r.z), 0, -std::sin(r.z), std::cos(r.z), 0, 0, 0, 1);
    t.rotation = rz * ry * rx;
    return t;
}

glm::vec2 driftIntegrals(const FireParams& p, float tau) {
    const float d = p.drag;
    const float g1 = d * tau < 1e-4f ? tau : (1.0f - std::exp(-d * tau)) / d;
    const float g2 = d * tau < 1e-4f || p.dragOn == DragOn::Launch ? 0.5f * tau * tau : (tau - g1) / d;
    return {g1, g2};
}

glm::vec3 typicalPosition(const FireParams& p, double t) {
    const float tau = 0.5f * p.lifetimeMean;
    const EmitterTransform transform = emitterTransform(p, t - static_cast<double>(tau));
    // The sphere emits radially: its mean velocity is the mean speed's zero.
    glm::vec3 v0 = p.shape == EmitterShape::Sphere ? glm::vec3(0.0f) : p.speedMean;
    if (transform.rotated) v0 = transform.rotation * v0;
    const glm::vec2 g = driftIntegrals(p, tau);
    glm::vec3 pos = p.center + transform.offset + v0 * g.x + p.accelMean * g.y;
    if (p.ground != Ground::Off) pos.y = std::max(pos.y, p.groundHeight);
    return pos;
}

Birth sampleBirth(const FireParams& p, const EmitterTransform& transform, Rng& rng) {
    Birth b{};
    b.position = samplePosition(p, rng);
    const glm::vec3 dir = sampleDirection(p, b.position, rng);
    glm::vec3 local;
    for (int a = 0; a < 3; ++a) local[a] = p.speedMean[a] + rng.symmetric() * p.speedVar[a];
    b.velocity = fromEmissionFrame(dir, local);
    if (transform.rotated) {
        b.position = p.center + transform.rotation * (b.position - p.center);
        b.velocity = transform.rotation * b.velocity;
    }
    b.position += transform.offset;
    b.position.y = aboveGround(b.position.y, p);
    for (int a = 0; a < 3; ++a) b.acceleration[a] = p.accelMean[a] + rng.symmetric() * p.accelVar[a];
    b.life = p.lifetimeMean + rng.symmetric() * p.lifetimeVar;
    b.scale = 1.0f + rng.symmetric() * p.sizeVar;
    b.rnd = rng.uniform01();
    return b;
}

}  // namespace firelab::sim
