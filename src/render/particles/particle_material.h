// ParticleMaterial: a particle strategy's shaders and what they sample (the sprite texture, filtered
// as the options say, the colour gradient, and the sprite's polygons: its quad, or the hulls trimmed to its
// visible texels). What changes only the shaders' work (facing, blend, flipbook, the pass's DrawMode, soft
// particles) is compiled in as #defines (see particle_common.glsl), one program per variant, built on
// first use; begin(pass) sets up the pass and hands the strategy the pass's program, its uniforms set:
//
//     material_.begin(pass);
//     glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, material_.hullVertices(), count);
//     ParticleMaterial::end();
//
// A strategy with programs of its own (compute-splat) gives no shaders and uses bind() and setBlendState().
#pragma once
#include <array>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "render/gl/shader.h"
#include "render/particles/sprite_hull.h"
#include "render/draw_pass.h"
#include "render/gl/texture.h"
#include "sim/flame_frame.h"

namespace firelab::render {

// The sprite a strategy samples: options.texture (a path, or a name under textures/); with --flipbook and the
// default texture (flame.png), the atlas cut from it, textures/flame_atlas.png.
std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options);
// An atlas's motion vectors (--flipbook-blend motion): NAME_motion.png beside NAME.png, the same size, each cell
// the motion of the colour atlas's frame in it to the next frame (kMotionRange's encoding).
std::filesystem::path motionAtlasPath(const std::filesystem::path& atlas);
// Checks, without GL, that the sprite exists and is a readable image (firelab::Error MissingFile/BadFile) and
// that the flipbook options fit it (BadValue, naming the flag, the file and what is allowed): an atlas whose
// sides its layout divides; with --flipbook-blend motion a motion atlas of the same size, and no trimmed hull
// (a warped texel may come from outside the frame's polygon); a trimmed hull for at most kHullFrames frames.
void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options);
// The sprite's sampling for --filter: trilinear (LINEAR_MIPMAP_LINEAR), bilinear from the nearest mip
// level (LINEAR_MIPMAP_NEAREST) or nearest (NEAREST_MIPMAP_NEAREST, magnified NEAREST).
void setSpriteFilter(const gl::Texture2D& sprite, Filter filter);

inline constexpr int kHullSlots = 8;    // LOD slots with polygons of their own (trimSpriteLevels; sprite_hull.glsl's)
inline constexpr int kHullFrames = 16;  // flipbook frames a trimmed hull is kept for (sprite_hull.glsl's block)
// The flipbook's frame at age t as a position along its n frames (particle_common.glsl's flipbookPosition): with
// a blend frame k is shown alone at the middle of its 1/n of the life and blended with k + 1 towards the next;
// without, a whole frame for the whole 1/n.
float flipbookPosition(float t, FlipbookBlend blend, int frames = kFlameAtlasLayout.frames());
// The (first) flipbook frame (0 .. n - 1, row-major from the top-left cell) a particle at age t shows, as
// spriteUv() picks it; with a blend, the frame after it is blended in.
int flipbookFrame(float t, FlipbookBlend blend = FlipbookBlend::None, int frames = kFlameAtlasLayout.frames());

// How a layer is lit: its --lit for alpha and premultiplied blending, none for additive (it emits).
inline Lit litShading(const RenderOptions& o) { return o.blend == Blend::Additive ? Lit::None : o.lit; }

// Blending of `blend` over the pass's target (alpha accumulates coverage; into an accumulation buffer it
// multiplies the transmittance), or adding counts for a counting pass; depth test on, depth writes off.
// What every particle draw blends with: ParticleMaterial's, the splat and medium resolves'.
void setBlendState(Blend blend, const DrawPass& pass);

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
    // Whether this layer draws in `pass` (an order-independent mode draws alpha and additive layers in passes of
    // their own): a strategy's draw() returns at once when not.
    bool drawsIn(const DrawPass& pass) const;

    // Binds the textures (unit 0 sprite, unit 1 gradient, unit 2 the pass's scene depth) and sets the
    // camera, pass and option uniforms of particle_common.glsl on `program`.
    void bind(const gl::Program& program, const DrawPass& pass) const;

    const RenderOptions& options() const { return options_; }

    // The sprite's polygons, [LOD slot][flipbook frame] (one frame without --flipbook), each hullVertices()
    // vertices in its cell's uv: the unit quad with --hull quad, else trimSpriteLevels()' for slots 0 ..
    // kHullSlots - 2 and the quad after. bind() hands them to the shaders (shaders/sprite_hull.glsl).
    const std::vector<std::vector<SpriteHull>>& hulls() const { return hulls_; }
    int hullVertices() const { return render::hullVertices(options_.hull); }
    // The polygon the shaders draw for a particle of `size` at p and age t seen by `camera` (the frame's: the
    // slot is chosen for the particle pass at the options' scale, the coarsest the frame draws it at, whose
    // polygon also encloses what a full-resolution pass shows).
    const SpriteHull& hullFor(const Camera& camera, const glm::vec3& p, float size, float t) const;

    // Blending per the options (or adding counts for a counting pass), depth test on, depth writes off.
    void setBlendState(const DrawPass& pass) const { render::setBlendState(options_.blend, pass); }

private:
    // The variant for the options, `mode`, soft particles on or off and the order-independent stage, built on
    // first use.
    const gl::Program& program(DrawMode mode, bool soft, OitStage oit = OitStage::None);

    RenderOptions options_;
    glm::mat3 plane_;        // --facing plane's: the emitter's rotation (spritePlane)
    sim::FlameFrame flame_;  // --color-position's (sim::colorCoordinate)
    bool pixelSizes_;        // --size-unit px (the GPU-simulated strategies' sizes: spriteSize in particle_common.glsl)
    std::filesystem::path shaderDir_;
    std::vector<std::string> shaders_;
    ProgramSetup setup_;
    gl::Texture2D sprite_;
    std::optional<gl::Texture2D> motion_;  // --flipbook-blend motion's vectors (motionAtlasPath)
    gl::Texture gradient_;                 // sim::gradientLut(params)
    bool blackbody_ = false;               // --color blackbody: uBlackbody (the tint does not clip the radiance)
    gl::Texture temperature_;              // the model's sim::TemperatureTable, for the GPU-simulated strategies
    std::vector<std::vector<SpriteHull>> hulls_;
    float hullTexels_ = 0.0f;  // texels across a cell (its larger side)
    gl::Buffer hullBlock_;     // the SpriteHull uniform block of shaders/sprite_hull.glsl
    std::array<std::optional<gl::Program>, static_cast<size_t>(OitStage::Count) * 3 * 2>
        programs_;  // by OIT stage, draw mode (3), then soft particles off/on
};

}  // namespace firelab::render
