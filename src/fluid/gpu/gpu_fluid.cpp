#include "fluid/gpu/gpu_fluid.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace firelab::fluid {
namespace {

// fluid_reduce.comp's work groups (256 invocations each): enough for each invocation to add at least 16 values,
// at most 256 (a group's barriers cost llvmpipe a coroutine switch per 8 invocations: fewer groups, less waste).
constexpr GLuint kReduceGroups = 256;
constexpr size_t kValuesPerInvocation = 16;
constexpr int kCheckEvery = 10;        // the solvers' read-backs: every 10 iterations, as the CPU's Jacobi checks
constexpr glm::ivec3 kLocal(8, 4, 4);  // local_size of the grid kernels
constexpr GLuint kBindingScalars = 7;  // fluid_scalars.glsl

// fluid_scalars.glsl's block.
struct SolverScalars {
    float rz = 0, alpha = 0, beta = 0, target = 0, cells = 0, result0 = 0, result1 = 0, pad0 = 0;
    GLuint done = 0, iterations = 0, pad1 = 0, pad2 = 0;
};
static_assert(sizeof(SolverScalars) == 48);
static_assert(sizeof(SourceWrites::Face) == 12);  // fluid_sources.comp's Face

double count(glm::ivec3 n) { return static_cast<double>(n.x) * n.y * n.z; }

// Each buffer's values (4 bytes each; the scalars' block and the sources' lists by their own sizes).
std::vector<double> bufferBytes(glm::ivec3 n) {
    const double cells = count(n), fx = count(n + glm::ivec3(1, 0, 0)), fy = count(n + glm::ivec3(0, 1, 0)),
                 fz = count(n + glm::ivec3(0, 0, 1));
    const double largest = std::max({fx, fy, fz});
    return {4 * fx,
            4 * fy,
            4 * fz,
            4 * cells,
            4 * cells,
            4 * cells,  // the state
            4 * fx,
            4 * fy,
            4 * fz,
            4 * cells,
            4 * cells,
            4 * cells,    // its second copy
            4 * largest,  // Back
            4 * cells,
            4 * cells,
            4 * cells,        // Pressure, Next, Solid
            4.0 * n.x * n.z,  // Inflow
            4 * cells,
            4 * cells,
            4 * cells,
            4 * cells,
            4 * cells,
            4 * cells,
            4 * cells,  // Diagonal ... Q
            4.0 * 2 * kReduceGroups,
            sizeof(SolverScalars),
            4.0 * kSourceSamples,
            static_cast<double>(sizeof(SourceWrites::Face)) * 6 * kSourceSamples};
}

// The GPU's free memory in bytes where the driver says (NVIDIA's and AMD's extensions); 0 where it does not
// (Mesa's llvmpipe keeps its buffers in the machine's memory, which fluid::validate bounds).
double freeGpuBytes(std::string& how) {
    GLint kib[4] = {0, 0, 0, 0};
    if (epoxy_has_gl_extension("GL_NVX_gpu_memory_info")) {
        glGetIntegerv(GL_GPU_MEMORY_INFO_CURRENT_AVAILABLE_VIDMEM_NVX, kib);
        how = "GL_NVX_gpu_memory_info";
    } else if (epoxy_has_gl_extension("GL_ATI_meminfo")) {
        glGetIntegerv(GL_TEXTURE_FREE_MEMORY_ATI, kib);
        how = "GL_ATI_meminfo";
    }
    return 1024.0 * kib[0];
}

// Throws what the GPU cannot hold or run (the header says which); returns `p` for the constructor's base.
const FluidParams& checkedForGpu(const FluidParams& p) {
    if (p.solver != Solver::Jacobi && p.solver != Solver::Pcg)
        throw Error(ErrorCode::BadValue,
                    "--solver " + std::string(kSolverNames[static_cast<size_t>(p.solver)]) +
                        " with --fluid-device gpu: the compute shaders solve the pressure with jacobi or pcg only; use "
                        "one of them, or --fluid-device cpu (or auto) for multigrid and mgpcg");
    gl::requireComputeShaders("--fluid-device gpu", "compute", GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS, 8,
                              "steps the grid fluid with up to 8 storage buffers a kernel");
    GLint64 maxBlock = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &maxBlock);
    const std::vector<double> bytes = bufferBytes(p.grid);
    const double largest = *std::max_element(bytes.begin(), bytes.end());
    char msg[400];
    if (maxBlock > 0 && largest > static_cast<double>(maxBlock)) {
        std::snprintf(msg, sizeof msg,
                      "--grid %s: --fluid-device gpu keeps each field in one storage buffer, the largest %.0f MiB, "
                      "beyond this GL's GL_MAX_SHADER_STORAGE_BLOCK_SIZE (%.0f MiB, about %.0f cells); use a smaller "
                      "--grid or --fluid-device cpu",
                      gridText(p.grid).c_str(), largest / 1048576.0, static_cast<double>(maxBlock) / 1048576.0,
                      static_cast<double>(maxBlock) / 4.0);
        throw Error(ErrorCode::TooLarge, msg);
    }
    std::string how;
    const double free = freeGpuBytes(how), total = GpuFluid::gpuBytesFor(p);
    if (free > 0.0 && total > free) {
        std::snprintf(msg, sizeof msg,
                      "--grid %s: --fluid-device gpu needs %.2f GiB of buffers, more than the %.2f GiB the GPU has "
                      "free (%s); use a smaller --grid or --fluid-device cpu",
                      gridText(p.grid).c_str(), total / 1073741824.0, free / 1073741824.0, how.c_str());
        throw Error(ErrorCode::TooLarge, msg);
    }
    return p;
}

glm::uvec3 groupsFor(glm::ivec3 size) { return glm::uvec3((size + kLocal - 1) / kLocal); }

}  // namespace

struct GpuFluid::Programs {
    explicit Programs(const std::filesystem::path& dir)
        : sources(dir, {"fluid_sources.comp"}),
          solidCells(dir, {"fluid_solid_cells.comp"}),
          solidFaces(dir, {"fluid_solid_faces.comp"}),
          advect(dir, {"fluid_advect.comp"}),
          buoyancy(dir, {"fluid_buoyancy.comp"}),
          curl(dir, {"fluid_curl.comp"}),
          confine(dir, {"fluid_confine.comp"}),
          confineApply(dir, {"fluid_confine_apply.comp"}),
          combust(dir, {"fluid_combust.comp"}),
          divergence(dir, {"fluid_divergence.comp"}),
          jacobi(dir, {"fluid_jacobi.comp"}),
          residual(dir, {"fluid_residual.comp"}),
          pcg(dir, {"fluid_pcg.comp"}),
          reduce(dir, {"fluid_reduce.comp"}),
          reduceFinish(dir, {"fluid_reduce_finish.comp"}),
          gradient(dir, {"fluid_gradient.comp"}) {}
    std::vector<const gl::Program*> all() const {
        return {&sources, &solidCells, &solidFaces, &advect,   &buoyancy, &curl,   &confine,      &confineApply,
                &combust, &divergence, &jacobi,     &residual, &pcg,      &reduce, &reduceFinish, &gradient};
    }
    gl::Program sources, solidCells, solidFaces, advect, buoyancy, curl, confine, confineApply, combust, divergence,
        jacobi, residual, pcg, reduce, reduceFinish, gradient;
};

double GpuFluid::gpuBytesFor(const FluidParams& p) {
    double sum = 0.0;
    for (double b : bufferBytes(p.grid)) sum += b;
    return sum;
}

GpuFluid::GpuFluid(const std::filesystem::path& shaderDir, const FluidParams& params, const sim::FireParams& source)
    : FluidSim(checkedForGpu(params), source) {
    programs_ = std::make_unique<Programs>(shaderDir);
    for (const gl::Program* p : programs_->all()) p->set("uN", state_.n);
    const std::vector<double> bytes = bufferBytes(state_.n);
    for (size_t b = 0; b < BufCount; ++b)
        buffers_[b] = gl::makeBuffer(static_cast<GLsizeiptr>(bytes[b]), nullptr, GL_DYNAMIC_COPY);
    cells_ = state_.temperature.v.size();
    glClearNamedBufferData(buffers_[Inflow].id(), GL_R32UI, GL_RED_INTEGER, GL_UNSIGNED_INT, nullptr);
    const std::vector<GLuint> solid(state_.solid.begin(), state_.solid.end());
    glNamedBufferSubData(buffers_[Solid].id(), 0, static_cast<GLsizeiptr>(solid.size() * sizeof(GLuint)), solid.data());
    buildDiagonal();  // the solids never move
    upload(Diagonal, diagonal_);
    pushState();
}

GpuFluid::~GpuFluid() = default;

void GpuFluid::upload(Buf b, const std::vector<float>& values) {
    glNamedBufferSubData(buffers_[b].id(), 0, static_cast<GLsizeiptr>(values.size() * sizeof(float)), values.data());
}

void GpuFluid::download(Buf b, std::vector<float>& values) const {
    glGetNamedBufferSubData(buffers_[b].id(), 0, static_cast<GLsizeiptr>(values.size() * sizeof(float)), values.data());
}

void GpuFluid::pushState() {
    upload(U, state_.u.v), upload(V, state_.v.v), upload(W, state_.w.v);
    upload(Temperature, state_.temperature.v), upload(Fuel, state_.fuel.v), upload(Soot, state_.soot.v);
    upload(Pressure, state_.pressure.v);
}

void GpuFluid::pullState() {
    glMemoryBarrier(GL_BUFFER_UPDATE_BARRIER_BIT);
    download(U, state_.u.v), download(V, state_.v.v), download(W, state_.w.v);
    download(Temperature, state_.temperature.v), download(Fuel, state_.fuel.v), download(Soot, state_.soot.v);
    download(Pressure, state_.pressure.v);
}

void GpuFluid::finishPass() { glFinish(); }

void GpuFluid::clampSpeeds(float limit) {  // the step's start: state() is the GPU's grid
    FluidSim::clampSpeeds(limit);
    upload(U, state_.u.v), upload(V, state_.v.v), upload(W, state_.w.v);
}

void GpuFluid::bind(std::initializer_list<Buf> buffers) const {
    GLuint binding = 0;
    for (Buf b : buffers) glBindBufferBase(GL_SHADER_STORAGE_BUFFER, binding++, buffers_[b].id());
}

void GpuFluid::dispatch(const gl::Program& p, glm::ivec3 size) const {
    p.use();
    const glm::uvec3 g = groupsFor(size);
    glDispatchCompute(g.x, g.y, g.z);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
}

void GpuFluid::enforceSolids() {
    programs_->solidCells.set("uAmbient", params_.ambient);
    bind({Solid, Temperature, Fuel, Soot, Pressure});
    dispatch(programs_->solidCells, state_.n);
    bind({Solid, Inflow, U, V, W});
    dispatch(programs_->solidFaces, state_.n + 1);
}

// ---- the passes, as FluidSim's ------------------------------------------------------------------------------

void GpuFluid::addSources(float) {
    if (params_.sourceFuel <= 0.0f && params_.sourceTemperature <= params_.ambient) return;  // the source is off
    const SourceWrites w = sourceWrites();
    const std::vector<GLuint> inflow(inflow_.begin(), inflow_.end());
    glNamedBufferSubData(buffers_[Inflow].id(), 0, static_cast<GLsizeiptr>(inflow.size() * sizeof(GLuint)),
                         inflow.data());
    glNamedBufferSubData(buffers_[SourceCells].id(), 0, static_cast<GLsizeiptr>(w.cells.size() * sizeof(uint32_t)),
                         w.cells.data());
    glNamedBufferSubData(buffers_[SourceFaces].id(), 0,
                         static_cast<GLsizeiptr>(w.faces.size() * sizeof(SourceWrites::Face)), w.faces.data());
    const gl::Program& p = programs_->sources;
    p.set("uCells", static_cast<unsigned>(w.cells.size()));
    p.set("uFaces", static_cast<unsigned>(w.faces.size()));
    p.set("uFuel", params_.sourceFuel);
    p.set("uTemperature", params_.sourceTemperature);
    bind({SourceCells, SourceFaces, Temperature, Fuel, U, V, W});
    if (const size_t n = w.cells.size() + w.faces.size(); n > 0) {
        p.use();
        glDispatchCompute(static_cast<GLuint>((n + 63) / 64), 1, 1);
        glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    }
    enforceSolids();
}

void GpuFluid::advectField(Buf from, Buf to, glm::ivec3 size, glm::vec3 offset, float dtCells, float outside) {
    const gl::Program& p = programs_->advect;
    p.set("uSize", size);
    p.set("uOffset", offset);
    p.set("uDtCells", dtCells);
    p.set("uOutside", outside);
    bind({U, V, W, from, to, Back});
    const int stages = params_.advection == Advection::MacCormack ? 3 : 1;
    for (int stage = 0; stage < stages; ++stage) {
        p.set("uStage", stage);
        dispatch(p, size);
    }
}

void GpuFluid::advect(float dt) {
    const glm::ivec3 n = state_.n;
    const float dtCells = dt / state_.h;
    advectField(U, U2, n + glm::ivec3(1, 0, 0), kFaceX, dtCells, 0.0f);
    advectField(V, V2, n + glm::ivec3(0, 1, 0), kFaceY, dtCells, 0.0f);
    advectField(W, W2, n + glm::ivec3(0, 0, 1), kFaceZ, dtCells, 0.0f);
    advectField(Temperature, Temperature2, n, kCentre, dtCells, params_.ambient);
    advectField(Fuel, Fuel2, n, kCentre, dtCells, 0.0f);
    advectField(Soot, Soot2, n, kCentre, dtCells, 0.0f);
    constexpr std::pair<Buf, Buf> kCopies[] = {{U, U2},       {V, V2},      {W, W2}, {Temperature, Temperature2},
                                               {Fuel, Fuel2}, {Soot, Soot2}};
    for (const auto& [a, b] : kCopies) std::swap(buffers_[a], buffers_[b]);
    enforceSolids();
}

void GpuFluid::applyForces(float dt) {
    const gl::Program& b = programs_->buoyancy;
    b.set("uK", dt * params_.buoyancy * kGravity / params_.ambient);
    b.set("uAmbient", params_.ambient);
    bind({Temperature, Solid, V});
    dispatch(b, state_.n + glm::ivec3(0, 1, 0));
    if (params_.vorticity > 0.0f) {  // the curl in R, Z, D; the force in Q, Divergence, Next (free until project)
        programs_->curl.set("uH", state_.h);
        bind({U, V, W, R, Z, D});
        dispatch(programs_->curl, state_.n);
        programs_->confine.set("uEpsilonH", params_.vorticity * state_.h);
        bind({R, Z, D, Q, Divergence, Next});
        dispatch(programs_->confine, state_.n);
        programs_->confineApply.set("uDt", dt);
        bind({Q, Divergence, Next, U, V, W});
        dispatch(programs_->confineApply, state_.n);
    }
    enforceSolids();
}

void GpuFluid::combust(float dt) {
    const gl::Program& p = programs_->combust;
    p.set("uBurnt", 1.0f - std::exp(-params_.burnRate * dt));
    p.set("uKeep", std::exp(-params_.sootDissipation * dt));
    p.set("uIgnition", params_.ignition);
    p.set("uHeat", params_.heat);
    p.set("uSootYield", params_.sootYield);
    p.set("uAmbient", params_.ambient);
    p.set("uCooling", params_.cooling);
    p.set("uDt", dt);
    bind({Temperature, Fuel, Soot, Solid, R});  // R: each cell's temperature rise from burning (free until project)
    dispatch(p, state_.n);
    reduce(0, R, R, BufCount, BufCount, /*sum=*/true);
    stats_.heatReleaseKw = heatReleaseKw(readDot(), params_.ambient, state_.h, dt);
}

// ---- the projection ---------------------------------------------------------------------------------------

void GpuFluid::reduce(int stage, Buf a0, Buf b0, Buf a1, Buf b1, bool sum) {
    const bool two = a1 != BufCount;
    bind({a0, b0, two ? a1 : a0, two ? b1 : b0, Partial});
    glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindingScalars, buffers_[Scalars].id());
    programs_->reduce.set("uCount", static_cast<unsigned>(cells_));
    programs_->reduce.set("uPairs", sum ? 0 : two ? 2 : 1);
    programs_->reduce.use();
    const auto groups =
        static_cast<GLuint>(std::clamp<size_t>(cells_ / (256 * kValuesPerInvocation), 1, kReduceGroups));
    glDispatchCompute(groups, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT);
    programs_->reduceFinish.set("uGroups", groups);
    programs_->reduceFinish.set("uStage", stage);
    programs_->reduceFinish.use();
    glDispatchCompute(1, 1, 1);
    glMemoryBarrier(GL_SHADER_STORAGE_BARRIER_BIT | GL_BUFFER_UPDATE_BARRIER_BIT);
}

double GpuFluid::readDot() {
    float sum = 0.0f;
    glGetNamedBufferSubData(buffers_[Scalars].id(), offsetof(SolverScalars, result0), sizeof sum, &sum);
    return sum;
}

int GpuFluid::solveJacobi(double target, double& flops) {
    const double cells = fluidCells_;
    int it = 0;
    while (it < iterationBound(params_)) {
        bind({Diagonal, Rhs, Pressure, Next});
        dispatch(programs_->jacobi, state_.n);
        std::swap(buffers_[Pressure], buffers_[Next]);
        ++it;
        flops += cells * kJacobiFlopsPerCell;
        if (it % kCheckEvery == 0 || it == iterationBound(params_)) {
            programs_->residual.set("uStage", 1);
            bind({Diagonal, Rhs, Pressure, R});
            dispatch(programs_->residual, state_.n);
            reduce(0, R, R);
            flops += cells * (kJacobiFlopsPerCell + 3.0);
            if (std::sqrt(readDot() / cells) <= target) break;
        }
    }
    return it;
}

int GpuFluid::solvePcg(double target, double& flops) {
    const double cells = fluidCells_;
    programs_->residual.set("uStage", 1);  // r = b - A p
    bind({Diagonal, Rhs, Pressure, R});
    dispatch(programs_->residual, state_.n);
    flops += cells * (kJacobiFlopsPerCell + 1.0);
    reduce(0, R, R);
    if (std::sqrt(readDot() / cells) <= target) return 0;
    SolverScalars start;
    start.target = static_cast<float>(target);
    start.cells = static_cast<float>(cells);
    glNamedBufferSubData(buffers_[Scalars].id(), 0, sizeof start, &start);
    const gl::Program& pcg = programs_->pcg;
    const auto vectors = [&] {
        bind({Diagonal, Pressure, R, D, Q, Z});
        glBindBufferBase(GL_SHADER_STORAGE_BUFFER, kBindingScalars, buffers_[Scalars].id());
    };
    vectors();
    pcg.set("uStage", 0);  // z = r / A_cc, d = z
    dispatch(pcg, state_.n);
    reduce(1, R, Z);  // rz
    SolverScalars s;
    for (int k = 1; k <= iterationBound(params_); ++k) {
        programs_->residual.set("uStage", 0);  // q = A d
        bind({Diagonal, Rhs, D, Q});
        dispatch(programs_->residual, state_.n);
        reduce(2, D, Q);  // alpha, or done
        vectors();
        pcg.set("uStage", 1);  // p, r, z
        dispatch(pcg, state_.n);
        reduce(3, R, R, R, Z);  // rr: done, or beta
        vectors();
        pcg.set("uStage", 2);  // d
        dispatch(pcg, state_.n);
        if (k % kCheckEvery == 0 || k == iterationBound(params_)) {
            glGetNamedBufferSubData(buffers_[Scalars].id(), 0, sizeof s, &s);
            if (s.done != 0) break;
        }
    }
    flops += cells * kPcgFlopsPerCell * s.iterations;
    return static_cast<int>(s.iterations);
}

void GpuFluid::project(float dt) {
    enforceSolids();
    const float scale = -state_.h * state_.h / dt;
    const auto divergence = [&] {
        programs_->divergence.set("uH", state_.h);
        programs_->divergence.set("uScale", scale);
        bind({U, V, W, Solid, Divergence, Rhs});
        dispatch(programs_->divergence, state_.n);
        reduce(0, Divergence, Divergence);
        return std::sqrt(readDot() / std::max(fluidCells_, 1.0));
    };
    const double before = divergence();
    const double target = static_cast<double>(params_.tolerance) * before * static_cast<double>(-scale);
    double flops = 0.0;
    const int iterations = params_.solver == Solver::Pcg ? solvePcg(target, flops) : solveJacobi(target, flops);
    programs_->gradient.set("uK", dt / state_.h);
    bind({Pressure, Solid, U, V, W});
    dispatch(programs_->gradient, state_.n + 1);
    enforceSolids();
    stats_.iterations = iterations;
    stats_.operations = flops;
    stats_.divergenceBefore = before;
    stats_.divergenceAfter = divergence();
}

}  // namespace firelab::fluid
