// The per-pixel fragment lists of --sort abuffer (render/frame/order_independent.h): a node pool in a buffer
// texture (imageBuffer: larger than a storage block may be on many drivers), each pixel's list head in an
// r32ui image, and the counters in a small storage buffer. A node is 16 bytes: the fragment's premultiplied
// colour and coverage as half floats, its view distance, the next node's index (kEndOfList ends a list).
const uint kEndOfList = 0xffffffffu;
layout(std430, binding = 5) coherent buffer AbufferCounters {
    uint abufferCount;     // nodes claimed this frame (beyond abufferCapacity: overflowed)
    uint abufferOverflow;  // fragments that found no room: the pool's, and the resolve's per-pixel limit's
    uint abufferCapacity;  // nodes the pool holds
    uint abufferMaxDepth;  // the longest list a pixel had
};
layout(r32ui, binding = 0) uniform coherent uimage2D uAbufferHeads;
layout(rgba32ui, binding = 1) uniform coherent uimageBuffer uAbufferNodes;

uvec4 abufferNode(vec4 premultiplied, float distance, uint next) {
    return uvec4(packHalf2x16(premultiplied.rg), packHalf2x16(premultiplied.ba), floatBitsToUint(distance), next);
}
uvec4 abufferLoad(uint n) { return imageLoad(uAbufferNodes, int(n)); }
void abufferStore(uint n, uvec4 node) { imageStore(uAbufferNodes, int(n), node); }
vec4 abufferColor(uvec4 node) { return vec4(unpackHalf2x16(node.x), unpackHalf2x16(node.y)); }
float abufferDistance(uvec4 node) { return uintBitsToFloat(node.z); }
