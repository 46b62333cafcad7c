#version 450 core
// volume-reference's binning: each kernel into the screen tiles its reach covers. Three passes: BIN_PASS 0
// counts per tile, 1 scans the counts into offsets (one work group), 2 writes each tile's list (the counts
// cleared back to zero serve as cursors).
#ifndef BIN_PASS
#define BIN_PASS 0
#endif
#if BIN_PASS == 1
layout(local_size_x = 1024) in;
#else
layout(local_size_x = 64) in;
#endif
#include "medium_common.glsl"

layout(std430, binding = 1) buffer Counts { uint counts[]; };
layout(std430, binding = 2) buffer Offsets { uint offsets[]; };  // tiles + 1: offsets[tiles] is the total
layout(std430, binding = 3) writeonly buffer Lists { uint lists[]; };
uniform ivec2 uTiles;
uniform int uTileSize;

#if BIN_PASS == 1
shared uint partial[1024];
void main() {
    uint tiles = uint(uTiles.x * uTiles.y), i = gl_LocalInvocationID.x;
    uint chunk = (tiles + 1023u) / 1024u, first = min(i * chunk, tiles), last = min(first + chunk, tiles);
    uint sum = 0u;
    for (uint t = first; t < last; ++t) sum += counts[t];
    partial[i] = sum;
    barrier();
    if (i == 0u) {  // 1024 partial sums: serially
        uint run = 0u;
        for (uint j = 0u; j < 1024u; ++j) {
            uint s = partial[j];
            partial[j] = run;
            run += s;
        }
        offsets[tiles] = run;
    }
    barrier();
    uint run = partial[i];
    for (uint t = first; t < last; ++t) {
        offsets[t] = run;
        run += counts[t];
        counts[t] = 0u;
    }
}
#else
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uKernelCount) return;
    vec2 lo, hi;
    if (!kernelRect(kernels[i], lo, hi)) return;
    ivec2 a = max(ivec2(floor(lo)) / uTileSize, ivec2(0));
    ivec2 b = min(ivec2(ceil(hi)) / uTileSize, uTiles - 1);
    if (any(greaterThan(a, uTiles - 1)) || any(lessThan(ivec2(ceil(hi)), ivec2(0)))) return;
    for (int y = a.y; y <= b.y; ++y)
        for (int x = a.x; x <= b.x; ++x) {
            uint tile = uint(y * uTiles.x + x);
#if BIN_PASS == 0
            atomicAdd(counts[tile], 1u);
#else
            lists[offsets[tile] + atomicAdd(counts[tile], 1u)] = i;
#endif
        }
}
#endif
