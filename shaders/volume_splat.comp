#version 450 core
// volume: each kernel (one invocation) into the view-aligned froxel grid: per cell it touches, the cell's
// average over its pixels of the kernel's line integral within the cell's depth slice, times the kernel's
// emission and extinction weights, added in fixed point (render/particles/medium.h gives the kernel). The
// kernel is taken as separable on the screen (its projected Gaussian, at its centre's depth) and along
// the view depth, so each factor is a difference of erfs: a kernel smaller than a cell keeps its light.
layout(local_size_x = 64) in;
#include "medium_common.glsl"
#include "volume_grid.glsl"

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uKernelCount) return;
    Kernel k = kernels[i];
    vec3 v = k.centerSigma.xyz - uCamEye;
    float s = k.centerSigma.w;
    float z = dot(v, uCamForward);
    if (z + kReach * s < uNear) return;
    float zp = max(z, uNear + kReach * s);  // a kernel across the near plane: projected as if just beyond it
    vec2 pixelsPerUnit = 0.5 * vec2(uTarget) / (uTanHalf * zp);
    vec2 center = (vec2(dot(v, uCamRight), dot(v, uCamUp)) / (uTanHalf * zp) * 0.5 + 0.5) * vec2(uTarget);
    vec2 sp = s * pixelsPerUnit;  // sigma on the screen, pixels
    float cell = float(uCellPixels);
    ivec2 lo = max(ivec2(floor((center - kReach * sp) / cell)), ivec2(0));
    ivec2 hi = min(ivec2(floor((center + kReach * sp) / cell)), uGrid.xy - 1);
    int s0 = max(int(floor((z - kReach * s - uDepthRange.x) / uSliceDepth)), 0);
    int s1 = min(int(floor((z + kReach * s - uDepthRange.x) / uSliceDepth)), uGrid.z - 1);
    if (any(greaterThan(lo, hi)) || s0 > s1) return;
    // The screen Gaussian's mass per cell, times 2 pi sigma^2 / cell^2: the cell's mean line integral.
    vec2 inv = 1.0 / (kSqrt2 * sp);
    float area = 6.28318531 * sp.x * sp.y / (cell * cell);
    float invZ = 1.0 / (kSqrt2 * s);
    for (int slice = s0; slice <= s1; ++slice) {
        float za = uDepthRange.x + float(slice) * uSliceDepth;
        float pz = 0.5 * (erfApprox((za + uSliceDepth - z) * invZ) - erfApprox((za - z) * invZ));
        for (int y = lo.y; y <= hi.y; ++y) {
            float py = 0.5 * (erfApprox((float(y + 1) * cell - center.y) * inv.y) - erfApprox((float(y) * cell - center.y) * inv.y));
            for (int x = lo.x; x <= hi.x; ++x) {
                float px = 0.5 * (erfApprox((float(x + 1) * cell - center.x) * inv.x) - erfApprox((float(x) * cell - center.x) * inv.x));
                vec4 add = k.emissionExtinction * (area * px * py * pz);
                uvec4 fixedAdd = uvec4(add * kCellScale + 0.5);
                if (fixedAdd == uvec4(0u)) continue;
                uint at = cellIndex(ivec3(x, y, slice)) * 4u;
                for (uint c = 0u; c < 4u; ++c)
                    if (fixedAdd[c] != 0u) atomicAdd(cells[at + c], fixedAdd[c]);
            }
        }
    }
}
