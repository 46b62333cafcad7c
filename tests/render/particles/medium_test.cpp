// The medium's formulas (render/particles/medium.h) against direct numerical integration, and its kernels
// against the blend-mode table: no GL.
#include <gtest/gtest.h>

#include <cmath>

#include "render/camera.h"
#include "render/particles/medium.h"
#include "sim/fire_system.h"

namespace firelab::render {
namespace {

// The normalised kernel at distance r from its centre.
double rho(double sigma, double r) {
    return std::exp(-r * r / (2.0 * sigma * sigma)) / (std::sqrt(2.0 * M_PI) * sigma);
}

// Composite Simpson over [a, b], n even.
template <class F>
double simpson(F f, double a, double b, int n = 4000) {
    const double h = (b - a) / n;
    double s = f(a) + f(b);
    for (int i = 1; i < n; ++i) s += f(a + i * h) * (i % 2 ? 4.0 : 2.0);
    return s * h / 3.0;
}

// The closed form of a ray's integral through the kernel against Simpson's rule over the same segment, for
// rays through the centre and off it, whole and cut short on either side (1e-9 relative).
TEST(MediumFormulas, KernelLineIntegralIsTheRaysIntegral) {
    const double sigma = 0.07;
    for (double d : {0.0, 0.03, 0.1, 0.2})
        for (auto [a, b] : {std::pair{-1.0, 1.0}, {-0.05, 1.0}, {-1.0, 0.02}, {0.01, 0.04}}) {
            const double numeric = simpson([&](double t) { return rho(sigma, std::hypot(d, t)); }, a, b);
            EXPECT_NEAR(kernelLineIntegral(sigma, d, a, b), numeric, 1e-9 * std::max(1.0, numeric))
                << d << " " << a << " " << b;
        }
    EXPECT_NEAR(kernelLineIntegral(sigma, 0.0, -10.0, 10.0), 1.0, 1e-12);  // normalised through the centre
}

// One emitting and absorbing kernel: dL/dt = eta rho - kappa rho L, marched in double with a fine step,
// against oneKernelLight's closed form c (1 - exp(-tau g)) (1e-6).
TEST(MediumFormulas, OneKernelLightIsTheTransferEquationsSolution) {
    const double sigma = 0.05, tau = 1.7, color = 0.8;
    for (double d : {0.0, 0.04, 0.1}) {
        double light = 0.0;
        const int n = 200000;
        const double a = -0.5, h = 1.0 / n;
        for (int i = 0; i < n; ++i) {  // exact for each step's midpoint density
            const double r = rho(sigma, std::hypot(d, a + (i + 0.5) * h));
            const double through = std::exp(-tau * r * h);
            light = light * through + color * (1.0 - through);  // source function: the colour
        }
        EXPECT_NEAR(oneKernelLight(color * tau, tau, sigma, d), light, 1e-6) << d;
    }
    EXPECT_DOUBLE_EQ(oneKernelLight(0.3, 0.0, sigma, 0.0), 0.3);  // emission only: eta g
}

// The blend-mode table: additive emits colour x alpha and absorbs nothing; alpha and premultiplied absorb
// so that the transmittance through the centre is 1 - alpha, with the colour as source function.
TEST(MediumFormulas, KernelsFollowTheBlendModeTable) {
    const glm::vec4 c(1.0f, 0.5f, 0.2f, 0.4f);
    const Kernel add = kernelOf({0, 1, 0}, 0.3f, c, Blend::Additive);
    EXPECT_FLOAT_EQ(add.centerSigma.w, 0.05f);
    EXPECT_FLOAT_EQ(add.emissionExtinction.r, 0.4f);
    EXPECT_FLOAT_EQ(add.emissionExtinction.b, 0.08f);
    EXPECT_EQ(add.emissionExtinction.a, 0.0f);
    for (Blend b : {Blend::Alpha, Blend::Premultiplied}) {
        const Kernel k = kernelOf({0, 1, 0}, 0.3f, c, b);
        EXPECT_NEAR(std::exp(-k.emissionExtinction.a), 0.6f, 1e-6);
        EXPECT_NEAR(k.emissionExtinction.g / k.emissionExtinction.a, 0.5f, 1e-6);
    }
}

// Kernels are built from every live particle except those wholly behind the near plane, and --camera-fade
// drops those at NEAR or nearer and dims the rest.
TEST(MediumFormulas, KernelsLeaveOutWhatCannotBeSeen) {
    sim::FireParams p;
    p.particles = 2000;
    sim::FireSystem fire(p, 1);
    for (int i = 0; i < 60; ++i) fire.step(1.0f / 60.0f);
    const Camera camera = lookAtCamera({0.0f, 0.7f, 3.2f}, {0.0f, 0.7f, 0.0f}, 45.0f, 320, 240);
    std::vector<Kernel> all, faded, behind;
    buildKernels(std::vector<MediumLayer>{{&fire, RenderOptions{}}}, camera, all);
    EXPECT_EQ(all.size(), fire.pool().alive());  // the camera is outside the fire
    RenderOptions fade;
    fade.cameraFade = {3.2f, 3.4f};  // the near half of the fire
    buildKernels(std::vector<MediumLayer>{{&fire, fade}}, camera, faded);
    EXPECT_LT(faded.size(), all.size() * 3 / 4);
    EXPECT_GT(faded.size(), all.size() / 4);
    const Camera inside = lookAtCamera({0.0f, 0.7f, -3.0f}, {0.0f, 0.7f, -6.0f}, 45.0f, 320, 240);  // looking away
    buildKernels(std::vector<MediumLayer>{{&fire, RenderOptions{}}}, inside, behind);
    EXPECT_TRUE(behind.empty());
    const glm::vec2 range = kernelDepthRange(all, camera);
    EXPECT_GT(range.x, 2.0f);
    EXPECT_LT(range.y, 4.5f);
}

}  // namespace
}  // namespace firelab::render
