// sim::pcgHash (src/sim/random.h): PCG hash (Jarzynski & Olano 2020, "Hash Functions for GPU Rendering").
uint pcgHash(uint v) {
    uint state = v * 747796405u + 2891336453u;
    uint word = ((state >> ((state >> 28u) + 4u)) ^ state) * 277803737u;
    return (word >> 22u) ^ word;
}
