// The grid fluid in compute shaders (--fluid-device gpu): FluidSim's step, pass for pass, on storage buffers
// (shaders/fluid_*.comp), with FluidSim on the CPU as its test oracle. It keeps FluidSim's schedule (the CFL
// sub-steps, the timing of each pass, ended by glFinish so that its wall clock is the GPU's work: timer queries
// measure nothing on llvmpipe) and its grid: after each step the fields are read back into state() (the Readback
// pass), which the particles (--motion fluid), the medium strategies and the probes read.
//
// The pressure solvers run as the CPU's do: Jacobi checks its residual every 10 iterations (a read-back);
// conjugate gradients keep rz, alpha and beta on the GPU (fluid_reduce_finish.comp), stop themselves on the same
// test, and are read back every 10 iterations to end the dispatches.
//
//   fluid::GpuFluid gpu(dataDir / "shaders", fluidParams, fireParams);   // needs a current GL 4.3+ context
//   gpu.step(1.0f / 60);                                                  // then gpu.state() as FluidSim's
#pragma once
#include <array>
#include <filesystem>
#include <initializer_list>
#include <memory>

#include "fluid/fluid_sim.h"
#include "render/gl/gl.h"
#include "render/gl/shader.h"

namespace firelab::fluid {

class GpuFluid final : public FluidSim {
public:
    // Refuses (firelab::Error: GlUnsupported without compute shaders; TooLarge, naming --grid, for a grid whose
    // buffers exceed the GPU's free memory or whose largest field exceeds GL_MAX_SHADER_STORAGE_BLOCK_SIZE) and
    // uploads FluidSim's starting grid.
    GpuFluid(const std::filesystem::path& shaderDir, const FluidParams& params, const sim::FireParams& source);
    ~GpuFluid() override;

    void addSources(float dt) override;
    void advect(float dt) override;
    void applyForces(float dt) override;
    void combust(float dt) override;
    void project(float dt) override;
    std::string_view device() const override { return "gpu"; }

    // state() to the GPU (tests set fields in place), and the GPU's grid into state() (step() does this itself).
    void pushState();
    void pullState();

    // The bytes of the GPU's buffers for a grid of `p`.
    static double gpuBytesFor(const FluidParams& p);

protected:
    void finishPass() override;
    void afterStep() override { pullState(); }
    void clampSpeeds(float limit) override;

private:
    // The storage buffers. U..Soot are the state, each with a second copy that advection writes (then swapped);
    // Back is MacCormack's forward trace; Pressure persists (the solve's warm start). The solver's vectors hold
    // the vorticity's components (R, Z, D: curl) and force (Q, Divergence, Next) during the forces pass.
    enum Buf {
        U,
        V,
        W,
        Temperature,
        Fuel,
        Soot,  // the state
        U2,
        V2,
        W2,
        Temperature2,
        Fuel2,
        Soot2,
        Back,
        Pressure,
        Next,
        Solid,
        Inflow,
        Diagonal,
        Divergence,
        Rhs,
        R,
        Z,
        D,
        Q,
        Partial,
        Scalars,
        SourceCells,
        SourceFaces,
        BufCount
    };
    struct Programs;

    void bind(std::initializer_list<Buf> buffers) const;  // buffer k to storage binding k
    void dispatch(const gl::Program& p, glm::ivec3 size) const;
    void enforceSolids();
    void advectField(Buf from, Buf to, glm::ivec3 size, glm::vec3 offset, float dtCells, float outside);
    // The dot products a0 . b0 (and a1 . b1) over the cells, or (sum) a0's sum, finished by fluid_reduce_finish's
    // `stage`.
    void reduce(int stage, Buf a0, Buf b0, Buf a1 = BufCount, Buf b1 = BufCount, bool sum = false);
    double readDot();  // stage 0's first sum, read back
    int solveJacobi(double target, double& flops);
    int solvePcg(double target, double& flops);
    void upload(Buf b, const std::vector<float>& values);
    void download(Buf b, std::vector<float>& values) const;

    std::unique_ptr<Programs> programs_;
    std::array<gl::Buffer, BufCount> buffers_;
    size_t cells_ = 0;
};

}  // namespace firelab::fluid
