// Textures: PNGs loaded with stb_image (RGBA8, mipmapped, row 0 at the top of the image mapped to
// v = 1 so sprites stand upright), and the colour-over-life gradient as a 1-D lookup texture.
#pragma once
#include <filesystem>
#include <vector>

#include <glm/vec4.hpp>

#include "render/gl/gl.h"

namespace firelab::gl {

struct Texture2D {
    Texture texture{GL_TEXTURE_2D};
    int width = 0, height = 0;
};

// Throws firelab::Error: MissingFile if the file is absent, BadFile if it is not a readable image.
Texture2D loadTexture(const std::filesystem::path& file);

// RGBA float texture of the gradient samples, linear filtering, clamped: half floats (colours in [0, 1]),
// or with `hdr` full floats (blackbody radiances, which may span many orders of magnitude).
Texture makeGradientTexture(const std::vector<glm::vec4>& lut, bool hdr = false);

}  // namespace firelab::gl
