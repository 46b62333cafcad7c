#include "sim/blackbody.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "sim/look.h"

namespace firelab::sim {
namespace {

// The CIE 1931 2-degree standard colorimetric observer, x-bar, y-bar, z-bar at 5 nm from 360 to 830 nm: every
// fifth row of the CIE's 1 nm table (CIE 015:2018 "Colorimetry", 4th ed., Table 1; ISO/CIE 11664-1 = CIE
// S 014-1; the CIE's data file CIE_xyz_1931_2deg.csv, DOI 10.25039/CIE.DS.xvudnb9b), numbers as published.
constexpr double kFirstNm = 360.0, kStepNm = 5.0;
constexpr std::array<glm::dvec3, 95> kCmf1931{{
    {0.0001299, 0.000003917, 0.0006061},  // 360 nm
    {0.0002321, 0.000006965, 0.001086},   // 365 nm
    {0.0004149, 0.00001239, 0.001946},    // 370 nm
    {0.0007416, 0.00002202, 0.003486},    // 375 nm
    {0.001368, 0.000039, 0.006450001},    // 380 nm
    {0.002236, 0.000064, 0.01054999},     // 385 nm
    {0.004243, 0.00012, 0.02005001},      // 390 nm
    {0.00765, 0.000217, 0.03621},         // 395 nm
    {0.01431, 0.000396, 0.06785001},      // 400 nm
    {0.02319, 0.00064, 0.1102},           // 405 nm
    {0.04351, 0.00121, 0.2074},           // 410 nm
    {0.07763, 0.00218, 0.3713},           // 415 nm
    {0.13438, 0.004, 0.6456},             // 420 nm
    {0.21477, 0.0073, 1.0390501},         // 425 nm
    {0.2839, 0.0116, 1.3856},             // 430 nm
    {0.3285, 0.01684, 1.62296},           // 435 nm
    {0.34828, 0.023, 1.74706},            // 440 nm
    {0.34806, 0.0298, 1.7826},            // 445 nm
    {0.3362, 0.038, 1.77211},             // 450 nm
    {0.3187, 0.048, 1.7441},              // 455 nm
    {0.2908, 0.06, 1.6692},               // 460 nm
    {0.2511, 0.0739, 1.5281},             // 465 nm
    {0.19536, 0.09098, 1.28764},          // 470 nm
    {0.1421, 0.1126, 1.0419},             // 475 nm
    {0.09564, 0.13902, 0.8129501},        // 480 nm
    {0.05795001, 0.1693, 0.6162},         // 485 nm
    {0.03201, 0.20802, 0.46518},          // 490 nm
    {0.0147, 0.2586, 0.3533},             // 495 nm
    {0.0049, 0.323, 0.272},               // 500 nm
    {0.0024, 0.4073, 0.2123},             // 505 nm
    {0.0093, 0.503, 0.1582},              // 510 nm
    {0.0291, 0.6082, 0.1117},             // 515 nm
    {0.06327, 0.71, 0.07824999},          // 520 nm
    {0.1096, 0.7932, 0.05725001},         // 525 nm
    {0.1655, 0.862, 0.04216},             // 530 nm
    {0.2257499, 0.9148501, 0.02984},      // 535 nm
    {0.2904, 0.954, 0.0203},              // 540 nm
    {0.3597, 0.9803, 0.0134},             // 545 nm
    {0.4334499, 0.9949501, 0.008749999},  // 550 nm
    {0.5120501, 1.0, 0.005749999},        // 555 nm
    {0.5945, 0.995, 0.0039},              // 560 nm
    {0.6784, 0.9786, 0.002749999},        // 565 nm
    {0.7621, 0.952, 0.0021},              // 570 nm
    {0.8425, 0.9154, 0.0018},             // 575 nm
    {0.9163, 0.87, 0.001650001},          // 580 nm
    {0.9786, 0.8163, 0.0014},             // 585 nm
    {1.0263, 0.757, 0.0011},              // 590 nm
    {1.0567, 0.6949, 0.001},              // 595 nm
    {1.0622, 0.631, 0.0008},              // 600 nm
    {1.0456, 0.5668, 0.0006},             // 605 nm
    {1.0026, 0.503, 0.00034},             // 610 nm
    {0.9384, 0.4412, 0.00024},            // 615 nm
    {0.8544499, 0.381, 0.00019},          // 620 nm
    {0.7514, 0.321, 0.0001},              // 625 nm
    {0.6424, 0.265, 0.00005},             // 630 nm
    {0.5419, 0.217, 0.00003},             // 635 nm
    {0.4479, 0.175, 0.00002},             // 640 nm
    {0.3608, 0.1382, 0.00001},            // 645 nm
    {0.2835, 0.107, 0.0},                 // 650 nm
    {0.2187, 0.0816, 0.0},                // 655 nm
    {0.1649, 0.061, 0.0},                 // 660 nm
    {0.1212, 0.04458, 0.0},               // 665 nm
    {0.0874, 0.032, 0.0},                 // 670 nm
    {0.0636, 0.0232, 0.0},                // 675 nm
    {0.04677, 0.017, 0.0},                // 680 nm
    {0.0329, 0.01192, 0.0},               // 685 nm
    {0.0227, 0.00821, 0.0},               // 690 nm
    {0.01584, 0.005723, 0.0},             // 695 nm
    {0.01135916, 0.004102, 0.0},          // 700 nm
    {0.008110916, 0.002929, 0.0},         // 705 nm
    {0.005790346, 0.002091, 0.0},         // 710 nm
    {0.004109457, 0.001484, 0.0},         // 715 nm
    {0.002899327, 0.001047, 0.0},         // 720 nm
    {0.00204919, 0.00074, 0.0},           // 725 nm
    {0.001439971, 0.00052, 0.0},          // 730 nm
    {0.000999949, 0.0003611, 0.0},        // 735 nm
    {0.000690079, 0.0002492, 0.0},        // 740 nm
    {0.000476021, 0.0001719, 0.0},        // 745 nm
    {0.000332301, 0.00012, 0.0},          // 750 nm
    {0.000234826, 0.0000848, 0.0},        // 755 nm
    {0.000166151, 0.00006, 0.0},          // 760 nm
    {0.000117413, 0.0000424, 0.0},        // 765 nm
    {0.0000830753, 0.00003, 0.0},         // 770 nm
    {0.0000587065, 0.0000212, 0.0},       // 775 nm
    {0.0000415099, 0.00001499, 0.0},      // 780 nm
    {0.0000293533, 0.0000106, 0.0},       // 785 nm
    {0.0000206738, 0.0000074657, 0.0},    // 790 nm
    {0.0000145598, 0.0000052578, 0.0},    // 795 nm
    {0.000010254, 0.0000037029, 0.0},     // 800 nm
    {0.00000722146, 0.0000026078, 0.0},   // 805 nm
    {0.00000508587, 0.0000018366, 0.0},   // 810 nm
    {0.00000358165, 0.0000012934, 0.0},   // 815 nm
    {0.00000252253, 0.00000091093, 0.0},  // 820 nm
    {0.00000177651, 0.00000064153, 0.0},  // 825 nm
    {0.00000125114, 0.00000045181, 0.0},  // 830 nm
}};
static_assert(kFirstNm + kStepNm * (kCmf1931.size() - 1) == 830.0);

// Planck's radiation constants for spectral radiance (CODATA 2018): c1L = 2 h c^2, c2 = h c / k.
constexpr double kC1L = 1.191042972e-16;  // W m^2 sr^-1
constexpr double kC2 = 1.438776877e-2;    // m K

double planck(double lambdaM, double kelvin) {
    return kC1L / (std::pow(lambdaM, 5.0) * std::expm1(kC2 / (lambdaM * kelvin)));
}

}  // namespace

glm::dvec3 blackbodyXyz(double kelvin) {
    glm::dvec3 xyz(0.0);
    for (size_t i = 0; i < kCmf1931.size(); ++i) {
        const double lambda = (kFirstNm + kStepNm * static_cast<double>(i)) * 1e-9;
        xyz += planck(lambda, kelvin) * kCmf1931[i];
    }
    return xyz * (kStepNm * 1e-9);
}

glm::dvec2 blackbodyChromaticity(double kelvin) {
    const glm::dvec3 xyz = blackbodyXyz(kelvin);
    const double sum = xyz.x + xyz.y + xyz.z;
    return {xyz.x / sum, xyz.y / sum};
}

double blackbodyLuminance(double kelvin) { return blackbodyXyz(kelvin).y; }

glm::dvec3 linearSrgbFromXyz(const glm::dvec3& xyz) {
    return {3.2406 * xyz.x - 1.5372 * xyz.y - 0.4986 * xyz.z,   //
            -0.9689 * xyz.x + 1.8758 * xyz.y + 0.0415 * xyz.z,  //
            0.0557 * xyz.x - 0.2040 * xyz.y + 1.0570 * xyz.z};
}

glm::vec3 blackbodyRgb(double kelvin, double referenceKelvin) {
    const glm::dvec3 rgb = linearSrgbFromXyz(blackbodyXyz(kelvin)) / blackbodyLuminance(referenceKelvin);
    return glm::vec3(glm::max(rgb, glm::dvec3(0.0)));
}

glm::vec3 TemperatureTable::at(float kelvin) const {
    if (rgb.empty()) return glm::vec3(1.0f);
    const float last = static_cast<float>(rgb.size() - 1);
    const float f = hi > lo ? std::clamp((kelvin - lo) / (hi - lo), 0.0f, 1.0f) * last : 0.0f;
    const auto i0 = static_cast<size_t>(f);
    const size_t i1 = std::min(i0 + 1, rgb.size() - 1);
    return rgb[i0] + (rgb[i1] - rgb[i0]) * (f - static_cast<float>(i0));
}

TemperatureTable temperatureTable(float lo, float hi, float referenceKelvin) {
    TemperatureTable table{lo, hi, std::vector<glm::vec3>(kTemperatureTableSize)};
    for (int i = 0; i < kTemperatureTableSize; ++i) {
        const double f = static_cast<double>(i) / (kTemperatureTableSize - 1);
        table.rgb[static_cast<size_t>(i)] = blackbodyRgb(lo + (static_cast<double>(hi) - lo) * f, referenceKelvin);
    }
    return table;
}

const TemperatureTable& temperatureTable(const FireParams& p) {
    struct Cached {
        glm::vec2 temperature{0.0f};
        float var = -1.0f, reference = -1.0f;
        ColorModel color = ColorModel::Count;
        TemperatureTable table;
    };
    thread_local Cached cached;
    const float reference = referenceTemperature(p);
    if (cached.temperature != p.temperature || cached.var != p.temperatureVar || cached.reference != reference ||
        cached.color != p.color) {
        float lo = std::max(std::min(p.temperature.x, p.temperature.y) - p.temperatureVar, 1.0f);
        float hi = std::max(p.temperature.x, p.temperature.y) + p.temperatureVar;
        if (p.color == ColorModel::Grid)  // the gas's: from below room temperature to beyond a flame's
            lo = std::min(lo, kGasKelvinRange.x), hi = std::max(hi, kGasKelvinRange.y);
        cached = {p.temperature, p.temperatureVar, reference, p.color, temperatureTable(lo, hi, reference)};
    }
    return cached.table;
}

}  // namespace firelab::sim
