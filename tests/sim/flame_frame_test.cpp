// The paper's colour by place in the flame (--color-position, sim/flame_frame.h): the colour coordinate is the age
// without it, the place with it (0 at the base's centre, 1 on the flame's ellipsoid and beyond), measured in the
// emitter's turned frame, and colorOf takes the rgb at the place and the alpha at the age.
#include <gtest/gtest.h>

#include <cmath>

#include "sim/flame_frame.h"
#include "sim/gradient.h"
#include "sim/look.h"

namespace firelab::sim {
namespace {

FireParams placed(float weight) {
    FireParams p;
    p.colorPosition = weight;
    p.flameRadius = 0.5f;
    p.flameHeight = 2.0f;
    return p;
}

TEST(FlameFrame, TheCoordinateIsTheAgeWithoutAndThePlaceWith) {
    const FlameFrame off = flameFrame(placed(0.0f));
    EXPECT_EQ(colorCoordinate(off, 0.3f, {0.4f, 1.0f, 0.0f}), 0.3f);  // bit for bit: the age
    const FlameFrame on = flameFrame(placed(1.0f));
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.0f, 0.0f, 0.0f}), 0.0f);   // the core
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.25f, 0.0f, 0.0f}), 0.5f);  // halfway to the edge
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.0f, 0.0f, 0.5f}), 1.0f);   // the base's edge
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.0f, 1.0f, 0.0f}), 0.5f);   // halfway up
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.3f, 1.6f, 0.0f}), 1.0f);   // sqrt(0.36 + 0.64)
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.0f, 5.0f, 0.0f}), 1.0f);   // above the flame: its end
    EXPECT_FLOAT_EQ(colorCoordinate(on, 0.3f, {0.0f, -1.0f, 0.0f}), 0.0f);  // below the base: the base's
    const FlameFrame half = flameFrame(placed(0.5f));
    EXPECT_FLOAT_EQ(colorCoordinate(half, 0.2f, {0.0f, 1.0f, 0.0f}), 0.35f);  // halfway between age and place
}

// The frame follows the emitter: its centre, and its axis turned by --rotate-x/y/z (turned 90 degrees about z the
// flame burns along -x).
TEST(FlameFrame, TheFrameIsTheEmittersTurnedAndMoved) {
    FireParams p = placed(1.0f);
    p.center = {1.0f, 2.0f, 3.0f};
    p.rotationDeg = {0.0f, 0.0f, 90.0f};
    const FlameFrame f = flameFrame(p);
    EXPECT_NEAR(colorCoordinate(f, 0.3f, p.center + glm::vec3(-1.0f, 0.0f, 0.0f)), 0.5f, 1e-5f);  // halfway along
    EXPECT_NEAR(colorCoordinate(f, 0.3f, p.center + glm::vec3(0.0f, 0.25f, 0.0f)), 0.5f, 1e-5f);  // half a radius
}

// Sizes 0 are the emitter's radius and the mean particle's height at the end of its mean life: the default flame
// (speed 0.9 up, buoyancy 1.1, drag 1.2, life 1.2 s) reaches 0.9 g1 + 1.1 g2 with g1 = (1 - e^-1.44) / 1.2,
// g2 = (1.2 - g1) / 1.2.
TEST(FlameFrame, AutomaticSizesComeFromTheEmitterAndTheMeanPath) {
    FireParams p;
    const FlameFrame f = flameFrame(p);
    const double g1 = (1.0 - std::exp(-1.44)) / 1.2, g2 = (1.2 - g1) / 1.2;
    EXPECT_FLOAT_EQ(f.size.x, 0.35f);
    EXPECT_NEAR(f.size.y, 0.9 * g1 + 1.1 * g2, 1e-5);
    p.shape = EmitterShape::Rect;
    p.extent = {0.2f, 0.0f, 0.6f};
    EXPECT_FLOAT_EQ(flameFrame(p).size.x, 0.6f);
}

// colorOf: with the place, the rgb is the gradient's at the place and the alpha the gradient's at the age.
TEST(FlameFrame, ColourTakesItsRgbFromThePlaceAndItsAlphaFromTheAge) {
    const FireParams p = placed(1.0f);
    const FlameFrame f = flameFrame(p);
    const float t = 0.9f, at = colorCoordinate(f, t, {0.0f, 0.0f, 0.0f});
    const glm::vec4 c = colorOf(p, t, 0.5f, kNoGas, 0, at);
    const glm::vec4 core = evaluateGradient(p.gradient, 0.0f), old = evaluateGradient(p.gradient, t);
    EXPECT_FLOAT_EQ(c.r, core.r);
    EXPECT_FLOAT_EQ(c.g, core.g);
    EXPECT_FLOAT_EQ(c.b, core.b);
    EXPECT_FLOAT_EQ(c.a, old.a);
    const glm::vec4 byAge = colorOf(p, t, 0.5f);  // no place given: the rgb at the age
    EXPECT_FLOAT_EQ(byAge.r, old.r);
    EXPECT_FLOAT_EQ(byAge.g, old.g);
}

}  // namespace
}  // namespace firelab::sim
