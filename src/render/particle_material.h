// ParticleMaterial owns what every particle shader samples (the sprite texture and the colour gradient)
// and the sprite's polygons (its quad, or the hulls trimmed to its visible texels), and sets the common
// uniforms and blend state of shaders/particle_common.glsl and sprite_hull.glsl for a DrawPass.
#pragma once
#include <filesystem>
#include <vector>

#include "render/shader.h"
#include "render/sprite_hull.h"
#include "render/strategy.h"
#include "render/texture.h"

namespace firelab::render {

// The sprite a strategy samples: textures/flame_atlas.png with --flipbook, else options.texture (a path,
// or a name under textures/).
std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options);
// Checks, without GL, that the sprite exists and is a readable image: firelab::Error MissingFile/BadFile.
void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options);

inline constexpr int kHullSlots = 8;      // LOD slots with polygons of their own (trimSpriteLevels; sprite_hull.glsl's)
inline constexpr int kFlipbookCells = 4;  // the atlas's frames per row and column (spriteUv() in particle_common.glsl)
// The flipbook frame (0 .. 15, row-major from the top-left cell) a particle at age t shows, as spriteUv() picks it.
int flipbookFrame(float t);

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

    // The sprite's polygons, [LOD slot][flipbook frame] (one frame without --flipbook), each hullVertices()
    // vertices in its cell's uv: the unit quad with --hull quad, else trimSpriteLevels()' for slots 0 ..
    // kHullSlots - 2 and the quad after. bind() hands them to the shaders (shaders/sprite_hull.glsl).
    const std::vector<std::vector<SpriteHull>>& hulls() const { return hulls_; }
    int hullVertices() const { return render::hullVertices(options_.hull); }
    // The polygon the shaders draw for a particle of `size` at p and age t seen by `camera` (the frame's: the
    // slot is chosen for the particle pass at the options' scale, the coarsest the frame draws it at, whose
    // polygon also encloses what a full-resolution pass shows).
    const SpriteHull& hullFor(const Camera& camera, const glm::vec3& p, float size, float t) const;

private:
    RenderOptions options_;
    gl::Texture2D sprite_;
    gl::Texture gradient_;
    std::vector<std::vector<SpriteHull>> hulls_;
    float hullTexels_ = 0.0f;  // texels across a cell (its larger side)
    gl::Buffer hullBlock_;     // the SpriteHull uniform block of shaders/sprite_hull.glsl
};

}  // namespace firelab::render
