// The pressure solve's scalars on the GPU (fluid/gpu/gpu_fluid.cpp, SolverScalars): conjugate gradients' rz,
// alpha and beta stay on the GPU between its kernels, which stop (done) as FluidSim::solvePcg does.
layout(std430, binding = 7) buffer Scalars {
    float rz, alpha, beta, target, cells, result0, result1, pad0;
    uint done, iterations, pad1, pad2;
};
