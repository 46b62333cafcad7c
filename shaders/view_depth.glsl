// Depth-buffer values back to view distance, for the passes that compare depths (soft particles, the
// low-resolution composite and its edge mark). z_ndc = (A z + B) / -z with A = proj[2][2], B = proj[3][2].
uniform vec2 uDepthTerms;  // proj[2][2], proj[3][2]

float viewDistance(float depth) { return uDepthTerms.y / (depth * 2.0 - 1.0 + uDepthTerms.x); }
