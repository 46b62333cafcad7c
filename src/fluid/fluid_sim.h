// The grid fluid fire (--model fluid), on the CPU: velocity, temperature, fuel and soot on a voxel grid,
// stepped as real-time fire tools step theirs (Stam's stable fluids; Fedkiw, Stam and Jensen's vorticity
// confinement; Nguyen, Fedkiw and Jensen's burning fuel), with the paper's emitters as its sources. GL-free:
// the test oracle of the compute-shader fluid and the fluid the CPU front ends draw.
//
// The grid is a MAC grid: u on the x faces ((nx+1) x ny x nz), v on the y faces, w on the z faces, the
// scalars (temperature, fuel, soot, pressure) at the cell centres, cell (i,j,k) spanning
// origin + h [i, i+1] x [j, j+1] x [k, k+1]. One step is these passes, in order (Pass):
//   sources  the emitter's region (sim::samplePosition's births, the paper's shape, distribution, rotation
//            and path) is filled with fuel and heat, its faces set to the births' mean velocity (a source of
//            no fuel at no more than ambient is off: it neither heats nor blows);
//   advect   every field carried by the velocity, semi-Lagrangian (RK2 back-trace, trilinear) or
//            MacCormack with Selle's limiter (the result clamped to the values the back-trace interpolated);
//   forces   Boussinesq buoyancy from the temperature, then vorticity confinement;
//   combust  fuel above ignition burns at burn-rate, heating and making soot; radiative cooling towards ambient;
//            soot dissipates;
//   project  the pressure that makes the velocity divergence-free (fluid/poisson.h: Jacobi, Jacobi-preconditioned
//            CG, multigrid V-cycles, or CG preconditioned by a V-cycle), and the velocity less its gradient.
// Boundaries: the floor (j = 0's lower face) is a wall (where the source's region meets it, an inflow at the
// births' speed: the fuel's surface), the top and the sides are open (pressure 0 outside,
// the fields outside: ambient air at rest); solid cells (the logs, sim/stage.h) hold ambient air at rest and
// their faces no flow. A step whose fastest face would cross more than max-cfl cells is cut into sub-steps
// (at most kMaxSubsteps, lastStep().substeps says how many).
//
//   fluid::FluidSim sim(fluidParams, fireParams);
//   for (...) sim.step(1.0f / 60);           // then read sim.state(), sim.lastStep()
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <glm/vec3.hpp>

#include "core/setting.h"
#include "fluid/fluid_params.h"
#include "sim/flow.h"
#include "sim/params.h"
#include "sim/worker_pool.h"

namespace firelab::fluid {

class Poisson;

// Readback: the GPU fluid's copy of its grid into state() after each step (what the renderers, the particles
// and the probes read); none on the CPU.
enum class Pass { Sources, Advect, Forces, Combust, Project, Readback, Count };
inline constexpr auto kPassNames =
    std::to_array<std::string_view>({"sources", "advect", "forces", "combust", "project", "readback"});
static_assert(core::namesEveryValue<Pass>(kPassNames));

// The bytes a pass of the CPU step moves per cell, counted from its loops (each array a loop reads or writes, once,
// scratch included; neighbours' reads are cache hits): the step's memory floor is their sum over the cells over the
// machine's streaming bandwidth (tests/bench/fluid_bench.cpp measures both in one run). The projection's depends on
// the solver's iterations, the advection's on its scheme, the forces' on vorticity confinement.
double passBytesPerCell(Pass pass, const FluidParams& p, int iterations);

// Where each field's samples sit, in cells from the grid's corner: the scalars at the centres, u, v, w on the faces.
inline constexpr glm::vec3 kCentre(0.5f), kFaceX(0.0f, 0.5f, 0.5f), kFaceY(0.5f, 0.0f, 0.5f), kFaceZ(0.5f, 0.5f, 0.0f);

// A grid's cells as --grid writes them, NXxNYxNZ (the refusals' text).
std::string gridText(const glm::ivec3& g);

// A grid of nx x ny x nz values, x fastest.
struct Field {
    glm::ivec3 n{0};
    std::vector<float> v;
    Field() = default;
    Field(glm::ivec3 size, float value) : n(size), v(static_cast<size_t>(size.x) * size.y * size.z, value) {}
    size_t index(int i, int j, int k) const {
        return static_cast<size_t>(i) +
               static_cast<size_t>(n.x) * (static_cast<size_t>(j) + static_cast<size_t>(n.y) * k);
    }
    float& at(int i, int j, int k) { return v[index(i, j, k)]; }
    float at(int i, int j, int k) const { return v[index(i, j, k)]; }
};

struct FluidState {
    glm::ivec3 n{0};         // cells
    float h = 0.0f;          // cell edge, m
    glm::vec3 origin{0.0f};  // the grid's lowest corner, world m
    Field u, v, w;           // face velocities, m/s
    Field temperature, fuel, soot, pressure;
    // --combustion mixing: the mixture fraction (the share of the gas that came from the burner, burnt or not; the
    // air left is what fuel.h's stoichiometry has not taken) and each cell's heat release in the last sub-step, kW/m^3
    // (--combustion rate fills it too). Empty fields where a run has no use for them.
    Field mixture, release;
    std::vector<uint8_t> solid;  // per cell: 1 inside an obstacle
    bool isSolid(int i, int j, int k) const { return solid[temperature.index(i, j, k)] != 0; }
};

// What the last step did and took.
struct StepStats {
    std::array<double, static_cast<size_t>(Pass::Count)> ms{};  // wall-clock milliseconds per pass, every sub-step
    int substeps = 1;
    float maxSpeed = 0.0f;  // m/s, the fastest face before the step
    int iterations = 0;     // pressure iterations (V-cycles of multigrid alone), last sub-step
    double divergenceBefore = 0.0, divergenceAfter = 0.0;  // rms over fluid cells of div u (1/s), last sub-step
    double operations = 0.0;  // the solver's floating-point operations, last sub-step, counted as the code does them
    // The combustion's heat release, kW, mean over the step's sub-steps. --combustion rate: air's density at ambient
    // (Boussinesq) x its heat capacity x --heat x the fuel burnt per second, summed over the cells' volumes
    // (heatReleaseKw below); mixing: the fuel's heat of combustion x the mass of it burnt per second.
    double heatReleaseKw = 0.0;
};

// Air's heat capacity (kJ/(kg K)) and density at `ambient` K and one atmosphere (kg/m^3): what turns the fluid's
// --heat (a temperature rise per unit of fuel) into energy.
inline constexpr double kAirHeatCapacity = 1.005;
inline double airDensity(double ambientKelvin) { return 101325.0 / (287.05 * ambientKelvin); }
// The power (kW) of raising `kelvinCells` (the sum over cells of their temperature rise, K) in cells of edge h over dt.
inline double heatReleaseKw(double kelvinCells, double ambient, double h, double dt) {
    return airDensity(ambient) * kAirHeatCapacity * kelvinCells * h * h * h / dt;
}

// What the sources pass writes this step (FluidSim::sourceWrites): the cells the emitter's births fell in
// (each raised to the source's fuel and temperature) and the faces they blow through, each face once with
// the value the last of its cells (in cell order) gave it. A face: its field (0 u, 1 v, 2 w) and its index.
struct SourceWrites {
    struct Face {
        uint32_t field, index;
        float value;
    };
    std::vector<uint32_t> cells;
    std::vector<Face> faces;
};
// Births drawn from the emitter each step to find the sources' region (FluidSim::sourceWrites).
inline constexpr int kSourceSamples = 4096;
// Floating-point operations per fluid cell of one iteration of the GPU's solvers (counted as its shaders do them).
inline constexpr double kJacobiFlopsPerCell = 8.0;  // six neighbour adds, the right side, one multiply
inline constexpr double kPcgFlopsPerCell =
    21.0;  // stencil product 8, two dot products 4, three axpys 6, preconditioner 1, and 2 for the residual's norm
// The most solver iterations a step takes: --solver-iterations, or with 0 (no bound: the tolerance alone) this.
inline constexpr int kUnboundedIterations = 100000;
inline int iterationBound(const FluidParams& p) { return p.iterations > 0 ? p.iterations : kUnboundedIterations; }

// The passes are virtual: fluid::GpuFluid (fluid/gpu) runs the same step in compute shaders, this class's
// schedule (sub-steps, timing) and grid kept, its state() the GPU's grid read back after each step.
class FluidSim : public sim::Flow {
public:
    // Checks the parameters (firelab::Error BadValue naming the flag) and builds the grid: at rest, ambient,
    // no fuel or soot, the obstacles solid. `source` is the model whose emitter feeds the fluid; the passes run on
    // `threads` threads.
    FluidSim(const FluidParams& params, const sim::FireParams& source, unsigned threads = 1);
    ~FluidSim() override;
    FluidSim(const FluidSim&) = delete;
    FluidSim& operator=(const FluidSim&) = delete;

    const FluidParams& params() const { return params_; }
    const sim::FireParams& source() const { return source_; }
    const FluidState& state() const { return state_; }
    FluidState& state() { return state_; }  // tests set fields in place
    const StepStats& lastStep() const { return stats_; }
    double time() const { return time_; }
    uint64_t steps() const { return steps_; }
    unsigned threads() const { return pool_->threads(); }

    // One step of every pass (sub-stepped as the header says).
    void step(float dt);
    // The passes alone (what step() calls, in order), for tests.
    virtual void addSources(float dt);
    virtual void advect(float dt);
    virtual void applyForces(float dt);
    virtual void combust(float dt);
    virtual void project(float dt);
    // Where the grid lives: "cpu", or the GPU fluid's "gpu".
    virtual std::string_view device() const { return "cpu"; }

    // Trilinear samples at a world point (outside the grid: at rest, ambient, none).
    glm::vec3 velocityAt(const glm::vec3& p) const override;  // sim::Flow: what --motion fluid particles follow
    float temperatureAt(const glm::vec3& p) const override;   // sim::Flow: what --color grid particles glow at
    float sootAt(const glm::vec3& p) const;
    // The centre of cell (i,j,k), world m.
    glm::vec3 cellCenter(int i, int j, int k) const;

    // The bytes the grid of `p` takes (every field, the advection's buffers and the solver's vectors).
    static double bytesFor(const FluidParams& p);

protected:
    // Hooks for a fluid stepped elsewhere: each pass's end (its time is read after it), the step's end.
    virtual void finishPass() {}
    virtual void afterStep() {}
    // Face speeds beyond `limit` (m/s) clamped to it.
    virtual void clampSpeeds(float limit);
    // This step's writes of the sources pass (and inflow_, the floor faces they blow through).
    SourceWrites sourceWrites();
    // A's diagonal (each fluid cell's open neighbours, fluid/poisson.h) into diagonal_, and fluidCells_.
    void buildDiagonal();

    FluidParams params_;
    sim::FireParams source_;
    FluidState state_;
    StepStats stats_;
    double time_ = 0.0;
    uint64_t steps_ = 0;
    std::vector<float> diagonal_;
    double fluidCells_ = 0.0;
    std::vector<uint8_t> inflow_;  // per floor face (x + nx z): the source blows through it this step

private:
    glm::vec3 local(const glm::vec3& p) const;  // world m -> cells from the grid's corner
    glm::vec3 velocityInCells(const glm::vec3& g) const;
    void markLogs();
    void enforceSolids();
    // What advect carries: u, v, w, temperature, fuel, soot, and under --combustion mixing the mixture fraction.
    std::array<Field*, 7> carriedFields();
    size_t carriedCount() const;
    // --combustion mixing (fluid/mixing.cpp): the burner's floor cells, its feed, and the eddy-dissipation reaction.
    void findBurner();
    void feedBurner(float dt);
    void holdBudgets();         // advection.cpp
    double budgetUnit() const;  // kg of a cell's gas at 1 K over its mass fraction: rho_a T_a h^3
    void burnMixing(float dt);
    void settleMixture();           // each cell's burnt share within what its mixture allows, its temperature from it
    void diffuseMixture(float dt);  // the subgrid eddies' mixing of the mixture fraction and the fuel
    void addBuoyancy(float dt);
    void vorticity();
    void confineVorticity(float dt);
    void divergence(std::vector<float>& out);
    void subtractGradient(const std::vector<float>& p, float dt);
    float fastestFace() const;

    std::unique_ptr<sim::WorkerPool> pool_;
    std::unique_ptr<Poisson> poisson_;  // built at the first projection (the solids never move)
    std::vector<size_t> solidCells_;    // the cells inside obstacles
    // Scratch, kept between steps: advection's results (swapped into the state) and MacCormack's limits, the
    // vorticity's centre velocities, curl and force, the projection's divergence and right side, row sums.
    std::array<Field, 7> traced_, corrected_, low_, high_;
    std::vector<uint32_t> burner_;       // --combustion mixing: the floor cells the fuel comes up through
    std::vector<float> dilatation_;      // per cell, 1/s: the divergence the heat release asks of the projection
    std::vector<float> eddy_, scratch_;  // --combustion mixing: the subgrid diffusivity, a field's copy
    double fuelBudget_ = 0.0;            // kg of the burner's fuel on the grid: fed, less burnt and let out
    double mixtureBudget_ = 0.0;         // kg of the burner's gas on the grid, burnt or not: fed, less let out
    std::vector<glm::vec3> centre_, curl_, force_;
    std::vector<float> divergence_, rhs_;
    std::vector<double> rowSums_;
};

// Refuses, naming the flag and what is allowed (firelab::Error: BadValue, TooLarge for a grid beyond the memory
// this process may use), what the fluid cannot run: an axis outside [kMinGridCells, kMaxGridCells], a cell that is
// not a positive finite length, no solver iterations, --combustion mixing without a --heat-release or on a grid too
// coarse for it (characteristicDiameter), and a step in which the source's fastest birth (the model's
// speed plus its variance) would cross more than max-cfl cells even in kMaxSubsteps sub-steps (--cell or --dt).
// A flow that outruns max-cfl otherwise is sub-stepped (FluidSim::step). Needs no allocation: planning calls it.
void validate(const FluidParams& p, const sim::FireParams& source, float dt);
// A fire's characteristic diameter D* = (Q / (rho c_p T sqrt(g)))^(2/5), m, for Q kW in air at `ambient` K: the length
// a grid must resolve (--combustion mixing refuses fewer than kMinCellsAcrossFire cells across it).
double characteristicDiameter(double kw, double ambient);
inline constexpr double kMinCellsAcrossFire = 4.0;
// Refuses (BadValue naming --threads) a thread count of 0 or beyond the machine's cores.
void checkThreads(unsigned threads);

// The velocity's divergence: rms over fluid cells, and the largest magnitude (1/s).
double divergenceRms(const FluidState& s);
double divergenceMax(const FluidState& s);
// The enstrophy: the sum over cells of |curl u|^2 times the cell volume (m^3/s^2).
double enstrophy(const FluidState& s);
// The sum of a field's values over the fluid cells times the cell volume.
double total(const FluidState& s, const Field& f);

}  // namespace firelab::fluid
