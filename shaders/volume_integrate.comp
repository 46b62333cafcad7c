#version 450 core
// volume: each column of froxels (one invocation) integrated front to back: after slice k, the light
// gathered and the transmittance left, into layer k + 1 of uIntegrated (layer 0 holds nothing: light 0,
// transmittance 1), each slice taken as homogeneous (its light e (1 - exp(-tau)) / tau). Also the column's
// cells the splat touched, which the counting passes report.
layout(local_size_x = 8, local_size_y = 8) in;
#include "volume_grid.glsl"
layout(binding = 0, rgba16f) writeonly uniform image3D uIntegrated;
layout(binding = 1, r32f) writeonly uniform image2D uTouched;

void main() {
    ivec2 col = ivec2(gl_GlobalInvocationID.xy);
    if (any(greaterThanEqual(col, uGrid.xy))) return;
    vec3 light = vec3(0.0);
    float transmittance = 1.0;
    int touched = 0;
    imageStore(uIntegrated, ivec3(col, 0), vec4(0.0, 0.0, 0.0, 1.0));
    for (int slice = 0; slice < uGrid.z; ++slice) {
        uint at = cellIndex(ivec3(col, slice)) * 4u;
        uvec4 raw = uvec4(cells[at], cells[at + 1u], cells[at + 2u], cells[at + 3u]);
        if (raw != uvec4(0u)) {
            ++touched;
            vec4 m = vec4(raw) / kCellScale;  // emission rgb, optical depth within the cell
            float through = exp(-m.a);
            light += transmittance * m.rgb * (m.a > 1e-5 ? (1.0 - through) / m.a : 1.0);
            transmittance *= through;
        }
        imageStore(uIntegrated, ivec3(col, slice + 1), vec4(light, transmittance));
    }
    imageStore(uTouched, col, vec4(float(touched)));
}
