// The pressure solve's matrix A (FluidSim's projection): for each fluid cell c, A_cc = its open neighbours
// (diag, 0 for solid cells, which are not unknowns) and A_cn = -1 for each fluid neighbour n. neighbourSum(x, c) is
// the sum of x over c's neighbours inside the grid (solid cells hold x = 0; open air and walls add nothing).
#define FLUID_NEIGHBOUR_SUM(NAME, BUF)                               \
    float NAME(ivec3 c) {                                            \
        uint i = cellIndex(c);                                       \
        uint sy = uint(uN.x), sz = uint(uN.x * uN.y);                \
        float sum = 0.0;                                             \
        if (c.x > 0) sum += BUF[i - 1u];                             \
        if (c.x + 1 < uN.x) sum += BUF[i + 1u];                      \
        if (c.y > 0) sum += BUF[i - sy];                             \
        if (c.y + 1 < uN.y) sum += BUF[i + sy];                      \
        if (c.z > 0) sum += BUF[i - sz];                             \
        if (c.z + 1 < uN.z) sum += BUF[i + sz];                      \
        return sum;                                                  \
    }
