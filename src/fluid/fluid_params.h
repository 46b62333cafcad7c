// The grid fluid's parameters (--model fluid): one plain struct with defaults that make a campfire-sized
// flame, declared once by visitFluidParams, which visitRunSettings visits in place, so that each is a flag,
// a TOML key, a sweep axis and a runs.csv column like every other setting.
//
// The grid is nx x ny x nz cells of edge `cell` metres, its floor on the ground (y = the model's
// ground-height), centred in x and z on the emitter's centre. Temperatures are kelvin; fuel and soot are
// concentrations (1: the source's).
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

#include <glm/vec3.hpp>

#include "core/setting.h"

namespace firelab::fluid {

enum class Advection { SemiLagrangian, MacCormack, Count };
enum class Solver { Jacobi, Pcg, Multigrid, Mgpcg, Count };
enum class Obstacles { None, Logs, Count };
// How the fuel burns (--combustion): at a fixed rate above an ignition temperature whatever the air (rate: what
// graphics tools do), or as fast as air mixes in, a burner feeding fuel at --heat-release (mixing: fire science's
// eddy dissipation, fluid/mixing.cpp). The fuel it burns (--fuel): fluid/fuel.h's table.
enum class Combustion { Rate, Mixing, Count };
enum class Fuel { Propane, Methane, Count };
// What the fire is (--model): the paper's particles, or the grid fluid. How the particles move (--motion): by the
// paper's formulas, or carried by the fluid's velocity. What the medium strategies integrate (--medium): the grid's
// medium (auto: under --model fluid) or the particles' (auto: otherwise).
enum class Model { Paper, Fluid, Count };
enum class Motion { Paper, Fluid, Count };
enum class MediumOf { Auto, Grid, Particles, Count };
// Where the grid is stepped (--fluid-device): auto (the faster here: render::chosenFluidDevice), in compute shaders
// (fluid/gpu), or on the CPU (this room: the GPU's oracle, and the only device of firelab physics, which makes no GL
// context).
enum class Device { Auto, Gpu, Cpu, Count };
inline constexpr auto kAdvectionNames = std::to_array<std::string_view>({"semi-lagrangian", "maccormack"});
inline constexpr auto kSolverNames = std::to_array<std::string_view>({"jacobi", "pcg", "multigrid", "mgpcg"});
inline constexpr auto kCombustionNames = std::to_array<std::string_view>({"rate", "mixing"});
inline constexpr auto kFuelNames = std::to_array<std::string_view>({"propane", "methane"});
inline constexpr auto kObstacleNames = std::to_array<std::string_view>({"none", "logs"});
inline constexpr auto kModelNames = std::to_array<std::string_view>({"paper", "fluid"});
inline constexpr auto kMotionNames = std::to_array<std::string_view>({"paper", "fluid"});
inline constexpr auto kMediumOfNames = std::to_array<std::string_view>({"auto", "grid", "particles"});
inline constexpr auto kDeviceNames = std::to_array<std::string_view>({"auto", "gpu", "cpu"});
static_assert(core::namesEveryValue<Advection>(kAdvectionNames));
static_assert(core::namesEveryValue<Solver>(kSolverNames));
static_assert(core::namesEveryValue<Obstacles>(kObstacleNames));
static_assert(core::namesEveryValue<Combustion>(kCombustionNames));
static_assert(core::namesEveryValue<Fuel>(kFuelNames));
static_assert(core::namesEveryValue<Model>(kModelNames));
static_assert(core::namesEveryValue<Motion>(kMotionNames));
static_assert(core::namesEveryValue<MediumOf>(kMediumOfNames));
static_assert(core::namesEveryValue<Device>(kDeviceNames));

inline constexpr int kMinGridCells = 4;    // per axis
inline constexpr int kMaxGridCells = 512;  // per axis
// The most cells a grid may have (512 x 512 x 256, about 14 GiB on the CPU): beyond the 256^3 real-time
// grids are measured at, and a bound that does not depend on the machine; the machine's memory bounds it further.
inline constexpr double kMaxGridCellCount = 512.0 * 512.0 * 256.0;
inline constexpr float kGravity = 9.81f;  // m/s^2

struct FluidParams {
    Model model = Model::Paper;
    Motion motion = Motion::Paper;
    MediumOf medium = MediumOf::Auto;
    Device device = Device::Auto;
    glm::ivec3 grid{32, 64, 32};
    float cell = 0.05f;  // m
    Advection advection = Advection::MacCormack;
    Solver solver = Solver::Mgpcg;
    int iterations = 100;     // the most pressure iterations per step (0: no bound, the tolerance alone)
    float tolerance = 1e-3f;  // the solver stops when the residual's rms falls below this x the divergence's before
    float buoyancy = 1.0f;    // Boussinesq: the upward acceleration is buoyancy * g * (T - ambient) / ambient
    float vorticity = 0.6f;   // vorticity confinement's epsilon (dimensionless: the force scales with the cell)
    float ambient = 300.0f;   // K
    Combustion combustion = Combustion::Rate;
    Fuel fuel = Fuel::Propane;  // --combustion mixing's
    float ignition = 500.0f;    // K: fuel hotter than this burns
    float burnRate = 5.0f;      // 1/s: the fraction of the fuel burnt per second above ignition
    float heat = 800.0f;        // K: the temperature rise per unit of fuel burnt
    float sootYield = 0.35f;    // soot per unit of fuel burnt
    // Radiative cooling: dT/dt = -cooling * (T^4 - ambient^4) / (1000 K)^3 (1/s at 1000 K).
    float cooling = 0.15f;
    float sootDissipation = 0.5f;           // 1/s: soot decays as exp(-sootDissipation t)
    float sourceFuel = 1.0f;                // the fuel concentration the emitter's region holds
    float sourceTemperature = 900.0f;       // K: the emitter's region is held at least this hot (it ignites the fuel)
    float maxCfl = 2.0f;                    // a step whose fastest face moves more cells than this is sub-stepped
    Obstacles obstacles = Obstacles::Logs;  // the campfire's logs (sim/stage.h) as solid cells
    // How the grid is drawn (render/particles/medium.h, gridKernels): light per metre of gas at the model's
    // --temperature-ref (its blackbody colour, other temperatures in physical proportion), and the extinction per
    // metre of a unit of soot.
    float emission = 12.0f;       // 1/m
    float sootExtinction = 3.0f;  // 1/m
};

// The most sub-steps one step takes; a flow faster than maxCfl x cell / (dt / kMaxSubsteps) is clamped to it.
inline constexpr int kMaxSubsteps = 8;

// Every parameter once, with the run settings' visitor vocabulary (harness/settings/run_settings.h):
// grid(name, glm::ivec3&, lo, hi, help, attrs), integer, number, choice.
template <class P, class V>
void visitFluidParams(P& p, V& v) {
    using namespace core;  // the attributes
    v.choice("model", p.model, kModelNames,
             "what the fire is: paper (the paper's particles) | fluid (a grid fluid burning fuel, its sources the "
             "emitter; drawn from the grid by volume and volume-reference, and by sprites on --motion fluid particles)",
             kColumn);
    v.choice("motion", p.motion, kMotionNames,
             "how the particles move: paper (speeds and accelerations drawn at birth, drag, turbulence) | fluid "
             "(carried by the grid fluid's velocity, trilinear; needs --model fluid)",
             kColumn);
    v.choice("medium", p.medium, kMediumOfNames,
             "what volume and volume-reference integrate: auto (the grid under --model fluid, else the particles) | "
             "grid | particles",
             kColumn);
    v.choice(
        "fluid-device", p.device, kDeviceNames,
        "--model fluid: where the grid is stepped: auto (the GPU when the GL context is a hardware GPU's and its "
        "shaders run --solver and --combustion, else the CPU; runs.csv's fluid_device_used says which) | gpu (compute shaders; "
        "the grid read back after each step for the particles and the medium) | cpu (the same step on the CPU "
        "on --threads threads, the GPU's test oracle; firelab physics always steps it there)",
        kColumn);
    v.grid("grid", p.grid, kMinGridCells, kMaxGridCells,
           "--model fluid: the grid's cells NXxNYxNZ (64 alone: 64x64x64), y up", kColumn);
    v.number("cell", p.cell, 0.0f, 10.0f, "--model fluid: a cell's edge, m", kColumn);
    v.choice("advection", p.advection, kAdvectionNames,
             "--model fluid: semi-lagrangian | maccormack (second order, limited to the values it interpolates)",
             kColumn);
    v.choice(
        "solver", p.solver, kSolverNames,
        "--model fluid: the pressure solver, jacobi | pcg (conjugate gradients, Jacobi-preconditioned) | multigrid "
        "(V-cycles) | mgpcg (conjugate gradients preconditioned by a V-cycle; multigrid and mgpcg need every axis "
        "of --grid even)",
        kColumn);
    v.integer("solver-iterations", p.iterations, 0, 100000,
              "--model fluid: the most pressure iterations (multigrid: V-cycles) a step; 0: no bound, "
              "--solver-tolerance alone",
              kColumn);
    v.number("solver-tolerance", p.tolerance, 0.0f, 1.0f,
             "--model fluid: the solver stops when the residual's rms is this fraction of the divergence's (0: "
             "never, --solver-iterations alone)",
             kColumn | kClosedRange);
    v.number("buoyancy", p.buoyancy, -100.0f, 100.0f,
             "--model fluid: Boussinesq buoyancy, times g (T - ambient) / ambient", kColumn);
    v.number("vorticity", p.vorticity, 0.0f, 100.0f, "--model fluid: vorticity confinement's epsilon",
             kColumn | kClosedRange);
    v.number("ambient", p.ambient, 0.0f, 5000.0f, "--model fluid: the air's temperature, K", kColumn);
    v.choice("combustion", p.combustion, kCombustionNames,
             "--model fluid: how the fuel burns: rate (--burn-rate above --ignition, whatever the air) | mixing (as "
             "fast as air mixes in: eddy dissipation over a mixing time set by the cell and gravity; a burner on the "
             "floor under the emitter feeds --fuel at the rate that releases --heat-release, and the heat expands the "
             "gas; needs --heat-release)",
             kColumn);
    v.choice("fuel", p.fuel, kFuelNames,
             "--model fluid, --combustion mixing: the fuel, propane | methane (docs/fluid.md lists their constants)",
             kColumn);
    v.number("ignition", p.ignition, 0.0f, 5000.0f,
             "--model fluid, --combustion rate: fuel above this temperature burns, K", kColumn);
    v.number("burn-rate", p.burnRate, 0.0f, 1000.0f,
             "--model fluid, --combustion rate: the fraction of the fuel burnt per second above ignition, 1/s",
             kColumn | kClosedRange);
    v.number("heat", p.heat, 0.0f, 50000.0f,
             "--model fluid, --combustion rate: the temperature rise per unit of fuel burnt, K",
             kColumn | kClosedRange);
    v.number("soot-yield", p.sootYield, 0.0f, 100.0f,
             "--model fluid, --combustion rate: soot made per unit of fuel burnt", kColumn | kClosedRange);
    v.number("cooling", p.cooling, 0.0f, 1000.0f,
             "--model fluid, --combustion rate: radiative cooling, dT/dt = -cooling (T^4 - ambient^4) / (1000 K)^3",
             kColumn | kClosedRange);
    v.number("soot-dissipation", p.sootDissipation, 0.0f, 1000.0f, "--model fluid: soot's decay rate, 1/s",
             kColumn | kClosedRange);
    v.number("source-fuel", p.sourceFuel, 0.0f, 1000.0f,
             "--model fluid, --combustion rate: the fuel concentration the emitter's region is filled to",
             kColumn | kClosedRange);
    v.number("source-temperature", p.sourceTemperature, 0.0f, 5000.0f,
             "--model fluid, --combustion rate: the emitter's region is held at least this hot, K", kColumn);
    v.number("max-cfl", p.maxCfl, 0.0f, 100.0f,
             "--model fluid: a step is cut into sub-steps (at most 8) when the flow would cross more cells than this",
             kColumn);
    v.choice("obstacles", p.obstacles, kObstacleNames, "--model fluid: solid cells, none | logs (the campfire's)",
             kColumn);
    v.number("emission", p.emission, 0.0f, 1e6f,
             "--model fluid: the grid's light per metre of gas at --temperature-ref (blackbody colour; other "
             "temperatures in physical proportion)",
             kColumn | kClosedRange);
    v.number("soot-extinction", p.sootExtinction, 0.0f, 1e6f,
             "--model fluid: the extinction per metre of a unit of soot, 1/m", kColumn | kClosedRange);
}

}  // namespace firelab::fluid
