// The stage the fire burns on: a ground plane and a few logs (opaque, depth-writing), lit by a
// directional light and the fire's glow, so depth testing and sorting matter. Drawn before particles.
#pragma once
#include <filesystem>

#include "render/camera.h"
#include "render/shader.h"

namespace firelab::render {

class Scene {
public:
    explicit Scene(const std::filesystem::path& dataDir);
    // Clears colour and depth and draws the opaque scene into the bound framebuffer.
    void draw(const Camera& camera) const;

private:
    gl::Program program_;
    gl::VertexArray vao_;
    gl::Buffer vertices_;
    int vertexCount_ = 0;
};

}  // namespace firelab::render
