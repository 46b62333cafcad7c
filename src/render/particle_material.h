// ParticleMaterial owns what every particle shader samples (the sprite texture and the colour gradient)
// and sets the common uniforms and blend state of shaders/particle_common.glsl for a DrawPass.
#pragma once
#include <filesystem>

#include "render/shader.h"
#include "render/strategy.h"
#include "render/texture.h"

namespace firelab::render {

// The sprite a strategy samples: textures/flame_atlas.png with --flipbook, else options.texture (a path,
// or a name under textures/).
std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options);
// Checks, without GL, that the sprite exists and is a readable image: firelab::Error MissingFile/BadFile.
void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options);

class ParticleMaterial {
public:
    explicit ParticleMaterial(const StrategyContext& context);

    // Binds the textures (unit 0 sprite, unit 1 gradient, unit 2 the pass's scene depth) and sets the
    // camera, pass and option uniforms.
    void bind(const gl::Program& program, const DrawPass& pass) const;
    // Blending per the options (or adding counts for a counting pass), depth test on, depth writes off.
    // Restore with endParticles().
    void beginParticles(const DrawPass& pass) const;
    static void endParticles();

    const RenderOptions& options() const { return options_; }
    const gl::Texture2D& sprite() const { return sprite_; }

private:
    RenderOptions options_;
    gl::Texture2D sprite_;
    gl::Texture gradient_;
};

}  // namespace firelab::render
