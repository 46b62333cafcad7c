#include "render/gl/texture.h"

#include <stb_image.h>

#include <memory>

#include "core/error.h"

namespace firelab::gl {

Texture2D loadTexture(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::MissingFile, "texture " + file.string() + ": no such file");
    int w = 0, h = 0, n = 0;
    stbi_set_flip_vertically_on_load(1);
    std::unique_ptr<unsigned char, void (*)(void*)> pixels(stbi_load(file.string().c_str(), &w, &h, &n, 4),
                                                           stbi_image_free);
    if (!pixels)
        throw Error(ErrorCode::BadFile, "texture " + file.string() + ": not a readable image (" +
                                            std::string(stbi_failure_reason() ? stbi_failure_reason() : "?") + ")");
    Texture2D t;
    t.width = w, t.height = h;
    int levels = 1;
    for (int s = std::max(w, h); s > 1; s /= 2) ++levels;
    glTextureStorage2D(t.texture.id(), levels, GL_RGBA8, w, h);
    glTextureSubImage2D(t.texture.id(), 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, pixels.get());
    glGenerateTextureMipmap(t.texture.id());
    glTextureParameteri(t.texture.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTextureParameteri(t.texture.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(t.texture.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(t.texture.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    return t;
}

Texture makeGradientTexture(const std::vector<glm::vec4>& lut, bool hdr) {
    Texture t(GL_TEXTURE_1D);
    glTextureStorage1D(t.id(), 1, hdr ? GL_RGBA32F : GL_RGBA16F, static_cast<GLsizei>(lut.size()));
    glTextureSubImage1D(t.id(), 0, 0, static_cast<GLsizei>(lut.size()), GL_RGBA, GL_FLOAT, lut.data());
    glTextureParameteri(t.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(t.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
    glTextureParameteri(t.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    return t;
}

}  // namespace firelab::gl
