// Blackbody emission: Planck's law integrated against the CIE 1931 2-degree colour-matching functions into CIE
// XYZ, then into linear sRGB (IEC 61966-2-1's D65 matrix). GL-free. The fire's --color blackbody takes a
// particle's rgb from its temperature through a TemperatureTable (sim/look.h, colorOf); the GPU samples the
// same table as a texture.
//
//   blackbodyChromaticity(2000.0)       // CIE 1931 xy on the Planckian locus
//   blackbodyRgb(1200.0, 2000.0)        // linear sRGB, luminance Y(1200 K) / Y(2000 K)
#pragma once
#include <vector>

#include <glm/vec2.hpp>
#include <glm/vec3.hpp>

namespace firelab::sim {

struct FireParams;

// CIE XYZ of a blackbody at `kelvin`: its spectral radiance L(lambda, T) = c1L / lambda^5 / (exp(c2 / (lambda
// T)) - 1) (W sr^-1 m^-3) times each colour-matching function, summed over 360..830 nm in 5 nm steps (times
// the step, in m). Y is the radiance weighted by the photopic luminosity function, without the 683 lm/W.
glm::dvec3 blackbodyXyz(double kelvin);
// The blackbody's chromaticity (x, y) = (X, Y) / (X + Y + Z): a point of the Planckian locus.
glm::dvec2 blackbodyChromaticity(double kelvin);
// Its luminance Y (relative units: only ratios between temperatures mean anything).
double blackbodyLuminance(double kelvin);
// Linear sRGB from CIE XYZ (IEC 61966-2-1: D65 white, XYZ (0.9505, 1, 1.089) -> (1, 1, 1)), unclipped.
glm::dvec3 linearSrgbFromXyz(const glm::dvec3& xyz);
// The linear sRGB colour of a blackbody at `kelvin` whose luminance is Y(kelvin) / Y(referenceKelvin): 1 at
// the reference, in physical proportion elsewhere (a colour can exceed 1: it is a radiance for the HDR path).
// Channels below 0 (chromaticities outside the sRGB gamut: blue below about 1900 K, green below about 950 K)
// are clipped to 0; nothing else is.
glm::vec3 blackbodyRgb(double kelvin, double referenceKelvin);

// blackbodyRgb at kTemperatureTableSize temperatures evenly over [lo, hi], read by linear interpolation: what
// the particles' colours come from on the CPU and, as a 1D texture, on the GPU (shaders/particle_look.glsl).
inline constexpr int kTemperatureTableSize = 1024;
struct TemperatureTable {
    float lo = 0.0f, hi = 0.0f;
    std::vector<glm::vec3> rgb;
    // The colour at `kelvin`, interpolated between the two nearest entries; clamped to [lo, hi].
    glm::vec3 at(float kelvin) const;
};
TemperatureTable temperatureTable(float lo, float hi, float referenceKelvin);
// The table of the model's blackbody colours (FireParams::temperature widened by temperatureVar each way, and
// under --color grid to kGasKelvinRange, relative to referenceTemperature), built once per thread for each new set
// of those parameters.
inline constexpr glm::vec2 kGasKelvinRange{200.0f, 3000.0f};
const TemperatureTable& temperatureTable(const FireParams& p);

}  // namespace firelab::sim
