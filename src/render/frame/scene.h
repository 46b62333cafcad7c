// The stage the fire burns on: a ground plane and a few logs (opaque, depth-writing), lit by a
// directional light and the fire's glow, so depth testing and sorting matter. Drawn before particles.
// The glow is static (a warm light at (0, 0.5, 0)) until setFireLights() gives the fire's own lights
// (sim/fire_light.h): then each lights the scene by Lambert's law with inverse-square falloff. The lights
// live in a uniform block (shaders/fire_lights.glsl) that draw() binds, so the particle passes drawn after
// it light their particles (--lit) by the same lights.
#pragma once
#include <array>
#include <filesystem>
#include <span>

#include "render/camera.h"
#include "render/gl/shader.h"
#include "sim/fire_light.h"

namespace firelab::render {

class Scene {
public:
    static constexpr int kMaxFireLights = 16;

    explicit Scene(const std::filesystem::path& dataDir);
    // Clears colour and depth and draws the opaque scene into the bound framebuffer.
    void draw(const Camera& camera) const;
    // The fire's lights for the following draws, copied: they replace the static glow (none: no fire
    // lights the scene, only the moon). More than kMaxFireLights throws firelab::Error(BadValue).
    void setFireLights(std::span<const sim::PointLight> lights);
    // Back to the static glow (the default, and --fire-light 0).
    void setStaticGlow();
    int fireLightCount() const { return fireLightCount_; }
    // The block's binding point (fire_lights.glsl's FireLights).
    static constexpr unsigned kLightBinding = 1;
    // Binds the lights' block (draw() does; a particle pass drawn without the scene calls it).
    void bindLights() const;

private:
    gl::Program program_;
    gl::VertexArray vao_;
    gl::Buffer vertices_;
    int vertexCount_ = 0;
    std::array<glm::vec3, kMaxFireLights> fireLightPos_{}, fireLightIntensity_{};
    int fireLightCount_ = 0;
    bool fireLit_ = false;  // fire lights (any number) instead of the static glow
    gl::Buffer lightBlock_;
    void uploadLights() const;
};

}  // namespace firelab::render
