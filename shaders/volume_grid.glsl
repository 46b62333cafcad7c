// volume's froxel grid (src/render/strategies/volume_strategy.cpp): uGrid.x by uGrid.y columns of
// uCellPixels square pixels from the pass's bottom-left, uGrid.z slices of uSliceDepth metres of view depth
// from uDepthRange.x. The splat's sums: 4 uints per cell (emission rgb and optical depth, kCellScale per
// unit: 2^16, so a cell holds 65536 units before a uint wraps and each addition rounds to 2^-17).
layout(std430, binding = 1) buffer Cells { uint cells[]; };
uniform ivec3 uGrid;
uniform int uCellPixels;
uniform vec2 uDepthRange;
uniform float uSliceDepth;
const float kCellScale = 65536.0;
uint cellIndex(ivec3 c) { return uint((c.z * uGrid.y + c.y) * uGrid.x + c.x); }
