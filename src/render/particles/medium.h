// The fire as a medium: what the particles stand for, drawn by the Medium strategies (volume-reference,
// volume) and by nothing else. GL-free, so the tests check its formulas on the CPU.
//
// Each particle is a 3D Gaussian kernel centred on it, of standard deviation sigma = size / 6 (the sprite's
// quad, size wide, spans +-3 sigma), normalised so that its line integral through the centre is 1:
//     rho(x) = exp(-|x - c|^2 / (2 sigma^2)) / (sqrt(2 pi) sigma).
// A ray passing at distance d from the centre integrates exp(-d^2 / (2 sigma^2)): the Gaussian a sprite of
// textures/gaussian.png draws (scripts/make_textures.py), cut like the sprite at d = 3 sigma. The particle's
// colour c and alpha a (sim::colorOf, times --energy-preserving's scale and the camera fade) set its
// emission eta (light per unit length) and extinction kappa (per unit length), by its layer's blend mode:
//     additive:               eta = c a rho,       kappa = 0             (glowing gas, emission only)
//     alpha, premultiplied:   eta = c tau rho,     kappa = tau rho,  tau = -ln(1 - a)
// so an alpha blob's transmittance through its centre is 1 - a, as its sprite's, and its source function is
// its colour (a thin blob blends as its sprite does). Along a ray from the near plane to the scene's depth:
//     L = integral eta(t) T(t) dt,   T(t) = exp(-integral kappa),   frame = L + T * scene.
// With no extinction the integral is a sum of closed forms (erfs); with extinction it is marched.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include <glm/vec3.hpp>
#include <glm/vec4.hpp>

#include "render/camera.h"
#include "render/options.h"
#include "fluid/fluid_sim.h"
#include "sim/fire_system.h"

namespace firelab::render {

inline constexpr float kKernelSigmaPerSize = 1.0f / 6.0f;  // sigma = size / 6
inline constexpr float kKernelReach = 3.0f;                // in sigmas: the cut, as the sprite's edge

// One kernel as the shaders read it (std430): centre and sigma, emission weight (rgb, light per unit
// line integral) and extinction weight (optical depth through the centre).
struct Kernel {
    glm::vec4 centerSigma;
    glm::vec4 emissionExtinction;
};
static_assert(sizeof(Kernel) == 32);

// One layer of an effect as a Medium strategy takes it: its fire and its look (blend, alpha scale, camera fade).
struct MediumLayer {
    const sim::FireSystem* fire;
    RenderOptions options;
    const fluid::FluidSim* grid = nullptr;  // set: the layer is the grid's medium (gridKernels), not its particles
};

// The kernel of a particle of colour `color` (rgba: alpha is its opacity or its light's weight) and size
// `size` at `center`, in a layer blended as `blend`.
Kernel kernelOf(const glm::vec3& center, float size, const glm::vec4& color, Blend blend);

// Every live particle of the layers as kernels, less those wholly behind the near plane (with the options'
// cullBehind, as the sprite strategies) and those --camera-fade leaves out (faded by the rest). Appends to `out`,
// and with `velocities` each kernel's velocity (its particle's, or the grid's at the cell) to it.
void buildKernels(std::span<const MediumLayer> layers, const Camera& camera, std::vector<Kernel>& out,
                  std::vector<glm::vec3>* velocities = nullptr);

// The grid fluid's medium (--model fluid) as kernels: one per cell that glows or absorbs, at its centre, of sigma
// kGridSigmaPerCell cells (a lattice of such Gaussians sums to within 0.1 % of flat), weighted so that the cell's
// volume holds its emission and extinction: the light fluid::GridLight says per metre, extinction --soot-extinction
// x soot per metre. A cell whose light and optical depth per
// metre are both below kGridCutoff is left out. Appends to `out`.
inline constexpr float kGridSigmaPerCell = 0.6f;
inline constexpr float kGridCutoff = 1e-3f;  // per metre
void gridKernels(const fluid::FluidSim& grid, const sim::FireParams& look, std::vector<Kernel>& out,
                 std::vector<glm::vec3>* velocities = nullptr);

// The view depth range [near, far] the kernels reach (centre +- kKernelReach sigma along the view), the
// near end at least the near plane; empty (near > far) without kernels.
glm::vec2 kernelDepthRange(std::span<const Kernel> kernels, const Camera& camera);

// Closed forms (the shaders repeat them): the normalised kernel's integral along a ray passing at distance d
// from its centre, between ray parameters a and b measured from the point nearest the centre.
double kernelLineIntegral(double sigma, double d, double a, double b);
// The light an emission-and-absorption ray gathers through one kernel of emission `eta` and extinction
// `tau` (weights) at distance d, from far behind it to far in front: eta / tau (1 - exp(-tau g)) with
// g = exp(-d^2 / (2 sigma^2)); eta g when tau is 0.
double oneKernelLight(double eta, double tau, double sigma, double d);

}  // namespace firelab::render

namespace firelab::render {

// How volume-reference's last absorbing frame converged: the march's step (in the smallest sigma of the
// absorbing kernels reaching each step) it kept, the largest change of any pixel (display units, 0..1) its last halving made, and the
// integrations it took. Emission-only frames are closed forms: step 0, one integration.
struct MediumConvergence {
    float step = 0.0f;
    float maxChange = 0.0f;
    int integrations = 0;
    bool converged = true;
    // Windows of the ray more kernels reach than the march's arrays hold (96), marched reading the whole tile
    // list at each step instead (exact, slower), over every integration.
    unsigned overflowed = 0;
};
MediumConvergence lastMediumConvergence();
// The convergence threshold: halving the step changes no pixel by more than this (0.5 / 255).
inline constexpr float kMediumTolerance = 0.5f / 255.0f;
// The coarsest and finest march steps tried, in sigmas.
inline constexpr float kMediumFirstStep = 0.5f;
inline constexpr float kMediumFinestStep = 1.0f / 256.0f;

}  // namespace firelab::render
