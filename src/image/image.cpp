#include "image/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "core/atomic_file.h"
#include "core/error.h"

// stb_easy_font is header-only with static functions; it has its own warnings we do not own.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#include <stb_easy_font.h>
#pragma GCC diagnostic pop

namespace firelab::image {

void writePng(const std::filesystem::path& file, const Image& image) {
    core::AtomicFile out(file);
    auto write = [](void* ctx, void* data, int size) {
        static_cast<std::ostream*>(ctx)->write(static_cast<const char*>(data), size);
    };
    if (!stbi_write_png_to_func(write, &out.stream(), image.width, image.height, 4, image.pixels.data(),
                                image.width * 4))
        throw Error(ErrorCode::Io, "cannot encode " + file.string());
    out.commit();
}

Image readPng(const std::filesystem::path& file) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::MissingFile, file.string() + ": no such file");
    int w = 0, h = 0, n = 0;
    stbi_set_flip_vertically_on_load(0);
    std::unique_ptr<unsigned char, void (*)(void*)> px(stbi_load(file.string().c_str(), &w, &h, &n, 4),
                                                       stbi_image_free);
    if (!px) throw Error(ErrorCode::BadFile, file.string() + ": not a readable image");
    Image img(w, h);
    std::copy(px.get(), px.get() + img.pixels.size(), img.pixels.begin());
    return img;
}

void fillRect(Image& image, int x, int y, int w, int h, const uint8_t rgba[4]) {
    for (int yy = std::max(0, y); yy < std::min(image.height, y + h); ++yy)
        for (int xx = std::max(0, x); xx < std::min(image.width, x + w); ++xx)
            std::copy(rgba, rgba + 4, image.at(xx, yy));
}

void drawText(Image& image, int x, int y, const std::string& text, int scale, const uint8_t rgba[4]) {
    static char buffer[200000];
    std::string t = text;
    const int quads = stb_easy_font_print(0, 0, t.data(), nullptr, buffer, sizeof buffer);
    const float* v = reinterpret_cast<const float*>(buffer);  // 4 vertices per quad: x, y, z, rgba(4 bytes)
    for (int q = 0; q < quads; ++q) {
        const float* a = v + q * 16;      // first vertex
        const float* c = v + q * 16 + 8;  // third vertex (opposite corner)
        fillRect(image, x + static_cast<int>(a[0]) * scale, y + static_cast<int>(a[1]) * scale,
                 static_cast<int>(c[0] - a[0]) * scale, static_cast<int>(c[1] - a[1]) * scale, rgba);
    }
}

Image contactSheet(const std::vector<LabelledImage>& images, int cellWidth) {
    if (images.empty()) return Image(1, 1);
    const int n = static_cast<int>(images.size());
    const int cols = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(n))));
    const int rows = (n + cols - 1) / cols;
    const Image& first = *images[0].image;
    const int cellHeight = cellWidth * first.height / std::max(1, first.width);
    const int labelHeight = 28, pad = 6;
    Image sheet(cols * (cellWidth + pad) + pad, rows * (cellHeight + labelHeight + pad) + pad);
    const uint8_t background[4] = {24, 24, 28, 255}, white[4] = {235, 235, 235, 255};
    fillRect(sheet, 0, 0, sheet.width, sheet.height, background);
    for (int i = 0; i < n; ++i) {
        const Image& src = *images[static_cast<size_t>(i)].image;
        const int ox = pad + (i % cols) * (cellWidth + pad), oy = pad + (i / cols) * (cellHeight + labelHeight + pad);
        for (int y = 0; y < cellHeight; ++y)
            for (int x = 0; x < cellWidth; ++x) {  // nearest-neighbour scaling
                const int sx = x * src.width / cellWidth, sy = y * src.height / cellHeight;
                std::copy(src.at(sx, sy), src.at(sx, sy) + 4, sheet.at(ox + x, oy + y));
            }
        drawText(sheet, ox + 4, oy + cellHeight + 6, images[static_cast<size_t>(i)].label, 2, white);
    }
    return sheet;
}

}  // namespace firelab::image
