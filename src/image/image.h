// RGBA8 images on the CPU: PNG output (through a temporary name, so a file is never half-written),
// text labels (stb_easy_font) and a labelled contact sheet. GL-free.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace firelab::image {

struct Image {
    Image() = default;
    Image(int w, int h) : width(w), height(h), pixels(static_cast<size_t>(w) * static_cast<size_t>(h) * 4, 0) {}
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;  // RGBA, row 0 at the top

    uint8_t* at(int x, int y) {
        return &pixels[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4];
    }
    const uint8_t* at(int x, int y) const {
        return &pixels[(static_cast<size_t>(y) * static_cast<size_t>(width) + static_cast<size_t>(x)) * 4];
    }
};

// Throws firelab::Error(Io) if the file cannot be written.
void writePng(const std::filesystem::path& file, const Image& image);
// Throws firelab::Error(MissingFile / BadFile).
Image readPng(const std::filesystem::path& file);

// Draws text with its top-left corner at (x, y), `scale` pixels per font unit.
void drawText(Image& image, int x, int y, const std::string& text, int scale, const uint8_t rgba[4]);
void fillRect(Image& image, int x, int y, int w, int h, const uint8_t rgba[4]);

struct LabelledImage {
    std::string label;
    const Image* image;
};
// A grid of the images (about square), each scaled to fit a cell, labelled underneath.
Image contactSheet(const std::vector<LabelledImage>& images, int cellWidth);

}  // namespace firelab::image
