// ꟻLIP for LDR images (Andersson et al. 2020, "FLIP: A Difference Evaluator for Alternating Images", HPG):
// a per-pixel error in [0,1] that models what a viewer sees when flipping between a reference and a test
// image at a given number of pixels per degree of visual angle. Colour error (contrast-sensitivity filtering in
// YCxCz, Hunt-adjusted L*a*b*, HyAB distance, compressed) raised to (1 - feature error) (edges and points of
// the luminance). Inputs are sRGB RGBA8; alpha is ignored. GL-free. docs/flip.md has the equations.
#pragma once
#include <vector>

#include "image/image.h"

namespace firelab::harness {

// 0.7 m from a 0.7 m wide monitor 3840 pixels across: 3840 * pi / 180 pixels per degree (the paper's setting).
inline constexpr double kFlipDefaultPixelsPerDegree = 3840.0 * 3.14159265358979323846 / 180.0;

struct FlipOptions {
    double pixelsPerDegree = kFlipDefaultPixelsPerDegree;  // larger: a farther viewer, fine detail matters less
};

// The per-pixel terms, row 0 at the top: colour error ΔE_c, feature error ΔE_f, and ΔE = ΔE_c^(1 - ΔE_f).
struct FlipMaps {
    std::vector<float> color, feature, error;
};

// All throw firelab::Error(BadValue) if the sizes differ or pixelsPerDegree is not a positive number.
FlipMaps flipMaps(const image::Image& reference, const image::Image& test, const FlipOptions& options = {});
std::vector<float> flipErrorMap(const image::Image& reference, const image::Image& test,
                                const FlipOptions& options = {});
// Mean of the error map; 0 for empty images.
double flip(const image::Image& reference, const image::Image& test, const FlipOptions& options = {});

// Mean of `map` over the pixels where `mask` is set (0 for an empty mask); BadValue if the sizes differ.
double meanOver(const std::vector<float>& map, const std::vector<bool>& mask);

}  // namespace firelab::harness
