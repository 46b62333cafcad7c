#include "render/particles/particle_material.h"
#include "render/particles/sprite_geometry.h"

#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include <glm/vec4.hpp>

#include "image/image.h"
#include "core/error.h"
#include "sim/gradient.h"
#include "sim/look.h"

namespace firelab::render {
namespace {

// The texture unit of the temperature table (units 0-2: sprite, gradient, scene depth).
constexpr int kTemperatureUnit = 6;

// The texels of uTemperature: the model's temperature table with a blackbody temperature variance (the only
// case a shader reads it), else one white texel.
std::vector<glm::vec4> temperatureTexels(const sim::FireParams& p) {
    if (!sim::hasTemperatureVar(p)) return {glm::vec4(1.0f)};
    std::vector<glm::vec4> texels;
    for (const glm::vec3& c : sim::temperatureTable(p).rgb) texels.emplace_back(c, 1.0f);
    return texels;
}

// Whether the colour table is a radiance, which the tint does not clip: a blackbody's, or one --sprite-gain scales.
bool radiance(const StrategyContext& c) {
    return c.params.color != sim::ColorModel::Gradient || c.options.spriteGain != 1.0f;
}
// The model's colour table, its rgb times --sprite-gain.
std::vector<glm::vec4> gainedLut(const StrategyContext& c) {
    std::vector<glm::vec4> lut = sim::gradientLut(c.params);
    for (glm::vec4& v : lut) v = glm::vec4(glm::vec3(v) * c.options.spriteGain, v.a);
    return lut;
}

constexpr GLuint kHullBinding = 0;   // shaders/sprite_hull.glsl's SpriteHull block
constexpr int kHullMaxVertices = 8;  // its kHullMaxVertices: vertices stored per slot and frame
constexpr int kMotionUnit = 3;       // the texture unit of the motion atlas (units 0-2: sprite, gradient, depth)

// The block in std140: uv [slot][frame][vertex] (a vec4 array, two vertices each), the cell's texels, the
// vertex count, the LOD margin, the frames stored (1: every frame's polygon is the first's, the quad).
struct HullBlock {
    float uv[kHullSlots * kHullFrames * kHullMaxVertices * 2];
    float texels;
    GLint vertices;
    float margin;
    GLint frames;
};
static_assert(sizeof(HullBlock) == 8192 + 16);

// A sprite facing the view plane has an exact LOD; a rotated or tilted one needs a margin (sprite_hull.h).
HullLod hullLod(const RenderOptions& options) { return options.facing == Facing::ViewPlane ? kExactLod : kRotatedLod; }

// The atlas whose cell k holds, texel by texel, the more opaque of frames k and k + 1: what a particle blending
// them (--flipbook-blend linear) can show, so its polygon encloses both.
image::Image withNextFrames(image::Image atlas, const FlipbookLayout& f) {
    const int w = atlas.width / f.cols, h = atlas.height / f.rows;
    for (int k = 0; k + 1 < f.frames(); ++k)
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                uint8_t* a = atlas.at((k % f.cols) * w + x, (k / f.cols) * h + y);
                const uint8_t* b = atlas.at(((k + 1) % f.cols) * w + x, ((k + 1) / f.cols) * h + y);
                a[3] = std::max(a[3], b[3]);  // frame k + 1 is read before it is changed: k runs upwards
            }
    return atlas;
}

// The atlas's layout: the options' with a flipbook, one cell without.
FlipbookLayout cellsOf(const RenderOptions& o) { return o.flipbook ? o.flipbook : FlipbookLayout{1, 1}; }

// Slots 0 .. kHullSlots - 2 trimmed, the last the quad: from there on the blur covers the cell anyway. The quad
// is kept once (every frame's); a trimmed hull per frame (checkSprite keeps those to kHullFrames).
std::vector<std::vector<SpriteHull>> spriteHulls(const std::filesystem::path& file, const RenderOptions& options) {
    const FlipbookLayout cells = cellsOf(options);
    const int k = hullVertices(options.hull);
    if (options.hull == Hull::Quad) return std::vector(kHullSlots, std::vector<SpriteHull>{unitQuad(k)});
    const std::vector<SpriteHull> quads(static_cast<size_t>(cells.frames()), unitQuad(k));
    image::Image sprite = image::readPng(file);
    if (options.flipbook && options.flipbookBlend != FlipbookBlend::None)
        sprite = withNextFrames(std::move(sprite), cells);
    auto slots = trimSpriteLevels(sprite, cells.cols, cells.rows, k, kHullSlots - 1, hullLod(options).levelsPerSlot);
    slots.push_back(quads);
    return slots;
}

gl::Buffer makeHullBlock(const std::vector<std::vector<SpriteHull>>& slots, float texels, int vertices, float margin) {
    HullBlock block{};
    for (size_t s = 0; s < slots.size(); ++s)
        for (size_t f = 0; f < slots[s].size(); ++f)
            for (size_t i = 0; i < slots[s][f].uv.size(); ++i) {
                float* v = &block.uv[((s * kHullFrames + f) * kHullMaxVertices + i) * 2];
                v[0] = slots[s][f].uv[i].x, v[1] = slots[s][f].uv[i].y;
            }
    block.texels = texels;
    block.vertices = vertices;
    block.margin = margin;
    block.frames = static_cast<GLint>(slots.front().size());
    return gl::makeBuffer(sizeof block, &block, GL_STATIC_DRAW);
}

}  // namespace

std::filesystem::path spritePath(const std::filesystem::path& dataDir, const RenderOptions& options) {
    const auto textures = dataDir / "textures";
    if (options.flipbook && options.texture == RenderOptions{}.texture) return textures / "flame_atlas.png";
    const std::filesystem::path tex(options.texture);
    return tex.is_relative() && !std::filesystem::exists(tex) ? textures / tex : tex;
}

std::filesystem::path motionAtlasPath(const std::filesystem::path& atlas) {
    return atlas.parent_path() / (atlas.stem().string() + "_motion" + atlas.extension().string());
}

namespace {

// The image's size, decoded whole (a truncated PNG has a good header and fails every run's draw), or
// firelab::Error MissingFile/BadFile naming `what` and the file.
glm::ivec2 checkImage(const std::string& what, const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::exists(file, ec))
        throw Error(ErrorCode::MissingFile, what + " " + file.string() + ": no such file");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::BadFile,
                    what + " " + file.string() + ": not a regular file (a folder, a device or a pipe)");
    // A sprite is a few hundred kilobytes; a file far larger is not one (and decoding it would take the memory).
    constexpr std::uintmax_t kMaxSpriteBytes = 64u << 20;
    if (const auto bytes = std::filesystem::file_size(file, ec); !ec && bytes > kMaxSpriteBytes)
        throw Error(ErrorCode::BadFile, what + " " + file.string() + ": " + std::to_string(bytes >> 20) +
                                            " MiB, over the 64 MiB a sprite may take");
    int w = 0, h = 0, n = 0;
    stbi_uc* pixels = stbi_load(file.string().c_str(), &w, &h, &n, 4);
    if (pixels == nullptr) {
        const char* why = stbi_failure_reason();
        throw Error(ErrorCode::BadFile, what + " " + file.string() + ": not a readable image (" +
                                            (why && *why ? std::string(why) : std::string("truncated or corrupt")) +
                                            ")");
    }
    stbi_image_free(pixels);
    return {w, h};
}

std::string sizeText(glm::ivec2 s) { return std::to_string(s.x) + "x" + std::to_string(s.y); }

// The flipbook options against the atlas of `size` in `file` (checkSprite's second half), and the motion atlas's
// size: `motionSize` where it is known (loaded), else read from its file.
void checkFlipbook(const RenderOptions& o, const std::filesystem::path& file, glm::ivec2 size,
                   std::optional<glm::ivec2> motionSize = std::nullopt) {
    const FlipbookLayout& f = o.flipbook;
    const std::string layout = "--flipbook " + flipbookText(f);
    if (o.texture == RenderOptions{}.texture && f != kFlameAtlasLayout)
        throw Error(ErrorCode::BadValue, layout + " with the default texture: its atlas, " + file.string() +
                                             ", is 4x4; give --texture an atlas of that layout");
    if (size.x % f.cols != 0 || size.y % f.rows != 0)
        throw Error(ErrorCode::BadValue, layout + ": the atlas " + file.string() + " is " + sizeText(size) +
                                             " pixels, which " + std::to_string(f.cols) + " columns and " +
                                             std::to_string(f.rows) +
                                             " rows do not divide; its width must be a multiple of the columns "
                                             "and its height of the rows");
    if (o.hull != Hull::Quad && f.frames() > kHullFrames)
        throw Error(ErrorCode::BadValue, layout + " with --hull " + std::string(kHullNames[size_t(o.hull)]) + ": " +
                                             std::to_string(f.frames()) + " frames; a trimmed hull is kept for " +
                                             std::to_string(kHullFrames) + " frames at most (--hull quad for more)");
    if (o.flipbookBlend != FlipbookBlend::Motion) return;
    if (o.hull != Hull::Quad)
        throw Error(ErrorCode::BadValue, "--flipbook-blend motion with --hull " +
                                             std::string(kHullNames[size_t(o.hull)]) +
                                             ": a warped texel may come from outside the frame's polygon; use --hull "
                                             "quad");
    const auto motion = motionAtlasPath(file);
    const glm::ivec2 m = motionSize ? *motionSize : checkImage("--flipbook-blend motion: motion atlas", motion);
    if (m != size)
        throw Error(ErrorCode::BadValue, "--flipbook-blend motion: the motion atlas " + motion.string() + " is " +
                                             sizeText(m) + " pixels, the atlas " + file.string() + " " +
                                             sizeText(size) + "; they must be the same size");
}

}  // namespace

void checkSprite(const std::filesystem::path& dataDir, const RenderOptions& options) {
    const auto file = spritePath(dataDir, options);
    const glm::ivec2 size = checkImage("texture", file);
    if (options.flipbook) checkFlipbook(options, file, size);
}

void setSpriteFilter(const gl::Texture2D& sprite, Filter filter) {
    const GLint min = filter == Filter::Trilinear  ? GL_LINEAR_MIPMAP_LINEAR
                      : filter == Filter::Bilinear ? GL_LINEAR_MIPMAP_NEAREST
                                                   : GL_NEAREST_MIPMAP_NEAREST;
    glTextureParameteri(sprite.texture.id(), GL_TEXTURE_MIN_FILTER, min);
    glTextureParameteri(sprite.texture.id(), GL_TEXTURE_MAG_FILTER, filter == Filter::Nearest ? GL_NEAREST : GL_LINEAR);
}

float flipbookPosition(float t, FlipbookBlend blend, int frames) {
    const float last = float(frames - 1);
    return blend != FlipbookBlend::None ? std::clamp(t * float(frames) - 0.5f, 0.0f, last)
                                        : std::clamp(std::floor(t * float(frames)), 0.0f, last);
}

int flipbookFrame(float t, FlipbookBlend blend, int frames) {
    return static_cast<int>(std::floor(flipbookPosition(t, blend, frames)));
}

ParticleMaterial::ParticleMaterial(const StrategyContext& c, std::vector<std::string> shaders, ProgramSetup setup)
    : options_(c.options),
      plane_(spritePlane(c.params)),
      flame_(sim::flameFrame(c.params)),
      pixelSizes_(c.params.sizeUnit == sim::SizeUnit::Pixels),
      shaderDir_(c.dataDir / "shaders"),
      shaders_(std::move(shaders)),
      setup_(std::move(setup)),
      sprite_(gl::loadTexture(spritePath(c.dataDir, c.options))),
      motion_(c.options.flipbook && c.options.flipbookBlend == FlipbookBlend::Motion
                  ? std::optional(gl::loadTexture(motionAtlasPath(spritePath(c.dataDir, c.options))))
                  : std::nullopt),
      gradient_(gl::makeGradientTexture(gainedLut(c), radiance(c))),
      blackbody_(radiance(c)),
      temperature_(gl::makeGradientTexture(temperatureTexels(c.params), true)),
      hulls_(spriteHulls(spritePath(c.dataDir, c.options), c.options)) {
    // The flipbook against the textures as loaded, before the hull block takes a polygon per frame: on every
    // path (the viewer's edits too), without decoding the files again.
    if (options_.flipbook)
        checkFlipbook(options_, spritePath(c.dataDir, options_), {sprite_.width, sprite_.height},
                      motion_ ? std::optional(glm::ivec2(motion_->width, motion_->height)) : std::nullopt);
    setSpriteFilter(sprite_, options_.filter);
    const FlipbookLayout cells = cellsOf(options_);
    hullTexels_ = static_cast<float>(std::max(sprite_.width / cells.cols, sprite_.height / cells.rows));
    hullBlock_ = makeHullBlock(hulls_, hullTexels_, hullVertices(), hullLod(options_).margin);
    if (!shaders_.empty()) program(DrawMode::Color, options_.soft > 0.0f);
}

const SpriteHull& ParticleMaterial::hullFor(const Camera& camera, const glm::vec3& p, float size, float t) const {
    const float w = (camera.viewProj * glm::vec4(p, 1.0f)).w;
    const float pixelsAtOne = pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight)) *
                              scaleFactor(options_.particleScale);  // uProjScale of the particle pass
    const int slot = w > 0.0f ? hullSlot(hullTexels_, size * pixelsAtOne / w, hullLod(options_).margin) : kHullSlots;
    return hulls_[static_cast<size_t>(std::min(slot, kHullSlots - 1))]
                 [hulls_.front().size() > 1
                      ? static_cast<size_t>(flipbookFrame(t, options_.flipbookBlend, options_.flipbook.frames()))
                      : 0];
}


const gl::Program& ParticleMaterial::begin(const DrawPass& pass) {
    setBlendState(pass);
    // Soft particles fade colour: without a scene depth there is nothing to fade by, and counting ignores
    // the fade (it comes after the discard).
    const bool soft = options_.soft > 0.0f && pass.sceneDepth != 0 && pass.mode == DrawMode::Color;
    const gl::Program& p = program(pass.mode, soft, pass.mode == DrawMode::Color ? pass.oit : OitStage::None);
    p.use();
    bind(p, pass);
    return p;
}

bool ParticleMaterial::drawsIn(const DrawPass& pass) const {
    const bool additive = options_.blend == Blend::Additive;
    return pass.layers == LayerFilter::All || (pass.layers == LayerFilter::Additive) == additive;
}

const gl::Program& ParticleMaterial::program(DrawMode mode, bool soft, OitStage oit) {
    auto& variant = programs_[(static_cast<size_t>(oit) * 3 + static_cast<size_t>(mode)) * 2 + (soft ? 1 : 0)];
    if (!variant) {
        auto define = [](const char* name, int value) { return std::string(name) + " " + std::to_string(value); };
        variant.emplace(
            shaderDir_, shaders_,
            std::vector<std::string>{
                define("FACING", static_cast<int>(options_.facing)), define("BLEND", static_cast<int>(options_.blend)),
                define("FLIPBOOK", options_.flipbook ? 1 : 0),
                define("FLIPBOOK_BLEND", static_cast<int>(options_.flipbookBlend)),
                define("LIT", static_cast<int>(litShading(options_))), define("DRAW_MODE", static_cast<int>(mode)),
                define("SOFT", soft ? 1 : 0), define("OIT_STAGE", static_cast<int>(oit))});
        if (setup_) setup_(*variant);
    }
    return *variant;
}

void ParticleMaterial::bind(const gl::Program& program, const DrawPass& pass) const {
    const Camera& camera = pass.camera;
    glBindTextureUnit(0, sprite_.texture.id());
    glBindTextureUnit(1, gradient_.id());
    glBindTextureUnit(2, pass.sceneDepth);
    glBindTextureUnit(static_cast<GLuint>(kMotionUnit), motion_ ? motion_->texture.id() : 0);
    glBindTextureUnit(static_cast<GLuint>(kTemperatureUnit), temperature_.id());
    glBindBufferBase(GL_UNIFORM_BUFFER, kHullBinding, hullBlock_.id());
    program.set("uSprite", 0);
    program.set("uGradient", 1);
    program.set("uSceneDepth", 2);
    program.set("uMotion", kMotionUnit);
    const FlipbookLayout cells = cellsOf(options_);
    program.set("uFlipbook", glm::ivec2(cells.rows, cells.cols));
    program.set("uTemperature", kTemperatureUnit);
    program.set("uBlackbody", blackbody_ ? 1 : 0);
    program.set("uViewProj", camera.viewProj);
    program.set("uProjScale", pixelsPerUnit(camera, static_cast<float>(camera.viewportHeight)));
    program.set("uCamRight", camera.right);
    program.set("uCamUp", camera.up);
    program.set("uCamForward", camera.forward);
    program.set("uCamEye", camera.eye);
    glProgramUniformMatrix3fv(program.id(), program.location("uPlane"), 1, GL_FALSE, &plane_[0][0]);
    // --size-unit px (render::spriteWorldSize): the pass's pixels per pixel of the frame.
    const int frameHeight = pass.frameHeight > 0 ? pass.frameHeight : camera.viewportHeight;
    program.set("uSizePixels",
                pixelSizes_ ? static_cast<float>(camera.viewportHeight) / static_cast<float>(frameHeight) : 0.0f);
    program.set("uColorPosition", flame_.weight);  // --color-position (sim::colorCoordinate)
    program.set("uFlameCenter", flame_.center);
    glProgramUniformMatrix3fv(program.id(), program.location("uFlameRotation"), 1, GL_FALSE, &flame_.rotation[0][0]);
    program.set("uFlameSize", flame_.size);
    program.set("uStretch", options_.velocityStretch);
    program.set("uAlphaScale", options_.alphaScale);
    program.set("uCameraFade", options_.cameraFade);
    if (options_.soft > 0.0f) program.set("uSoft", 1.0f / options_.soft);
    program.set("uDepthTerms", depthTerms(camera));  // soft particles compare view distances
    if (pass.oit == OitStage::MomentAccumulate || pass.oit == OitStage::MomentShade) {
        // --sort moment's log-depth warp between the near and far planes (shaders/moment_oit.glsl): per pass.
        const glm::vec2 t = depthTerms(camera);
        const float lnNear = std::log(t.y / (t.x - 1.0f)), lnFar = std::log(t.y / (t.x + 1.0f));
        program.set("uMomentWarp", glm::vec2(lnNear, 2.0f / (lnFar - lnNear)));
    }
}

void setBlendState(Blend blend, const DrawPass& pass) {
    glEnable(GL_DEPTH_TEST);
    glDepthFunc(GL_LESS);
    glDepthMask(GL_FALSE);
    glEnable(GL_BLEND);
    if (pass.mode != DrawMode::Color) {
        glBlendFunc(GL_ONE, GL_ONE);
        return;
    }
    switch (pass.oit) {
    case OitStage::None: break;
    case OitStage::WboitAccumulate:  // colour and coverage weighted and summed; revealage multiplied by 1 - alpha
        glBlendFunci(0, GL_ONE, GL_ONE);
        glBlendFunci(1, GL_ZERO, GL_ONE_MINUS_SRC_COLOR);
        return;
    case OitStage::AbufferInsert:  // the fragment goes into a list, not the target
        glDisable(GL_BLEND);
        glColorMask(GL_FALSE, GL_FALSE, GL_FALSE, GL_FALSE);
        return;
    case OitStage::AbufferShade:  // light added, already dimmed by what lies in front
        glBlendFuncSeparate(GL_ONE, GL_ONE, GL_ZERO, GL_ONE);
        return;
    case OitStage::MomentAccumulate:  // absorbance and its moments summed
        glBlendFunc(GL_ONE, GL_ONE);
        return;
    case OitStage::MomentShade:  // colour and coverage, dimmed by what lies in front, summed (alpha: into the
                                 // average the resolve lays over the frame; additive: onto the frame, alpha 0)
        glBlendFunc(GL_ONE, GL_ONE);
        return;
    case OitStage::Count: break;  // not a stage
    }
    // Over the scene, alpha accumulates coverage (an opaque frame stays opaque); into an accumulation
    // buffer, it multiplies the transmittance.
    const GLenum srcA = pass.accumulate ? GL_ZERO : GL_ONE;
    switch (blend) {
    case Blend::Additive: glBlendFuncSeparate(GL_ONE, GL_ONE, pass.accumulate ? GL_ZERO : GL_ONE, GL_ONE); break;
    case Blend::Alpha: glBlendFuncSeparate(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA, srcA, GL_ONE_MINUS_SRC_ALPHA); break;
    case Blend::Premultiplied: glBlendFuncSeparate(GL_ONE, GL_ONE_MINUS_SRC_ALPHA, srcA, GL_ONE_MINUS_SRC_ALPHA); break;
    case Blend::Count: break;  // not a blend mode
    }
}

void ParticleMaterial::end() {
    glDisable(GL_BLEND);
    glDepthMask(GL_TRUE);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
}

}  // namespace firelab::render
