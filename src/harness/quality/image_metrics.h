// Image comparison for captures and tests (GL-free).
// PSNR over the RGB channels, capped at kPsnrCap for identical images (so it stays finite in CSVs).
// SSIM on luminance (Rec. 601 luma, 0..255) with the standard constants K1 = 0.01, K2 = 0.03, L = 255
// and an 11x11 Gaussian window of sigma 1.5 (Wang et al. 2004), averaged over every window position
// that fits inside the image; for images smaller than that the window is min(11, width, height) square.
// The masked variants score a region (e.g. the fire's, from differenceMask); ꟻLIP is in flip.h.
#pragma once
#include <vector>

#include "image/image.h"

namespace firelab::harness {

inline constexpr double kPsnrCap = 100.0;

// All throw firelab::Error(BadValue) if the image sizes differ, or a mask's size is not the pixel count.
double psnr(const image::Image& a, const image::Image& b);
double ssim(const image::Image& a, const image::Image& b);
// MSE over the mask's pixels only; kPsnrCap for an empty mask.
double psnr(const image::Image& a, const image::Image& b, const std::vector<bool>& mask);
// Mean SSIM over the window positions whose centre pixel (offset (win - 1) / 2) is in the mask; 1 if none.
double ssim(const image::Image& a, const image::Image& b, const std::vector<bool>& mask);
// How far apart the colours of two images are as distributions, wherever the pixels lie: the Hellinger
// distance sqrt(1 - sum_i sqrt(p_i q_i)) between their normalised joint RGB histograms of kHistogramBins^3
// bins (each channel in kHistogramBins equal ranges of 0..255), over the mask's pixels (or all of them).
// 0 for the same distribution (and for an empty mask), 1 for disjoint ones. It is what OpenCV's
// compareHist(HISTCMP_BHATTACHARYYA) gives for those histograms. A fire drawn from other particles of the
// same model keeps its colour distribution while its pixels move: this sees the colour, not the placement.
inline constexpr int kHistogramBins = 8;
double colorHistogramDistance(const image::Image& a, const image::Image& b);
double colorHistogramDistance(const image::Image& a, const image::Image& b, const std::vector<bool>& mask);
// Mean |a - b| over the pixels and RGB channels, 0..255; 0 if empty.
double meanAbsDifference(const image::Image& a, const image::Image& b);
// Mean (a - b)^2 over the pixels and RGB channels, in (0..255)^2; 0 if empty. Flicker's measure of a
// frame-to-frame change: a sprite that jumps from one picture to the next in one frame and one that moves
// there evenly over n frames have the same mean absolute change summed over those frames, but the jump's
// squares sum to n times the even move's, so a pop counts as one.
double meanSquaredDifference(const image::Image& a, const image::Image& b);

// Pixels whose RGB differs from `background` by more than `threshold` (max over channels).
std::vector<bool> differenceMask(const image::Image& image, const image::Image& background, int threshold);
// |a & b| / |a | b|; 1 when both are empty.
double intersectionOverUnion(const std::vector<bool>& a, const std::vector<bool>& b);

}  // namespace firelab::harness
