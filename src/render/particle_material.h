// ParticleMaterial: a particle strategy's shaders and what they sample (the sprite texture, filtered
// as the options say, and the colour gradient). What changes only the shaders' work (facing, blend,
// flipbook, the pass's DrawMode, soft particles) is compiled in as #defines (see particle_common.glsl),
// one program per variant, built on first use; begin(pass) sets up the pass and hands the strategy the
// pass's program, its uniforms set:
//
//     material_.begin(pass);
//     glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, 4, count);
//     ParticleMaterial::end();
#pragma once
#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "render/shader.h"
#include "render/strategy.h"
#include "render/texture.h"

namespace firelab::render {

// The sprite a strategy samples: textures/flame_atlas.png with --flipbook, else options.texture (a path,
// or a name under textures/).
std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options);
// Checks, without GL, that the sprite exists and is a readable image: firelab::Error MissingFile/BadFile.
void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options);
// The sprite's sampling for --filter: trilinear (LINEAR_MIPMAP_LINEAR), bilinear from the nearest mip
// level (LINEAR_MIPMAP_NEAREST) or nearest (NEAREST_MIPMAP_NEAREST, magnified NEAREST).
void setSpriteFilter(const gl::Texture2D& sprite, Filter filter);

class ParticleMaterial {
public:
    // Runs on each variant's program as it is built: the strategy's uniforms that never change (the
    // fire model's, for the GPU-simulated strategies).
    using ProgramSetup = std::function<void(const gl::Program&)>;

    // `shaders` as for gl::Program, under the context's shaders/. Builds the variant a colour pass draws
    // with here, so a shader that does not compile fails the strategy's construction, not a frame.
    ParticleMaterial(const StrategyContext& context, std::vector<std::string> shaders, ProgramSetup setup = {});

    // Blending per the options (or adding counts for a counting pass), depth test on, depth writes off;
    // the textures bound; the pass's variant in use, with bind()'s uniforms set. Restore with end().
    const gl::Program& begin(const DrawPass& pass);
    static void end();

    // Binds the textures (unit 0 sprite, unit 1 gradient, unit 2 the pass's scene depth) and sets the
    // camera, pass and option uniforms of particle_common.glsl on `program`.
    void bind(const gl::Program& program, const DrawPass& pass) const;

    const RenderOptions& options() const { return options_; }

private:
    // The variant for the options, `mode` and soft particles on or off, built on first use.
    const gl::Program& program(DrawMode mode, bool soft);
    void setBlendState(const DrawPass& pass) const;

    RenderOptions options_;
    std::filesystem::path shaderDir_;
    std::vector<std::string> shaders_;
    ProgramSetup setup_;
    gl::Texture2D sprite_;
    gl::Texture gradient_;
    std::array<std::optional<gl::Program>, 6> programs_;  // by draw mode, then soft particles off/on
};

}  // namespace firelab::render
