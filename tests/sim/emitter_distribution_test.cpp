// Emitter position distributions, checked statistically for all six shape x distribution pairs.
// Each sample is reduced to a normalised radius rho in [0, 1] (|x - cx| / ex per axis for rect, distance
// over the radius for circle and sphere). Under either distribution rho has the density
// rho^(dim-1) * w(rho) on [0, 1], with w = 1 (uniform over the length, area or volume) or
// w = exp(-rho^2 / (2 sigma^2)) (normal truncated to the region); the expected statistics come from
// quadrature of that density, so the same code predicts both distributions and every sigma.
// Every check asserts that the measured statistic matches the sampler's own distribution AND lies
// outside the tolerance of the other one, so a uniform sampler passed off as normal (or the reverse) fails.
#include <gtest/gtest.h>

#include <cmath>
#include <ostream>
#include <string>
#include <vector>

#include <glm/geometric.hpp>

#include "sim/emitter.h"
#include "sim/fire_system.h"
#include "sim/params.h"
#include "sim/random.h"

namespace firelab::sim {
namespace {

// Statistics of the normalised radius, and their tolerances for kSamples samples (about 5 standard errors).
struct RadialStats {
    double meanSq = 0.0;     // E[rho^2]: the spread
    double fracInner = 0.0;  // P(rho <= 1/2): the shape of the profile
    double kurtosis = 0.0;   // E[rho^4] / E[rho^2]^2: 1.8 for a flat line, near 3 for a bell (rect only)
};
constexpr double kTolMeanSq = 0.008;     // SE of E[rho^2] <= 0.3 / sqrt(40000) = 0.0015
constexpr double kTolFracInner = 0.012;  // SE of a fraction <= 0.5 / sqrt(40000) = 0.0025
constexpr double kTolKurtosis = 0.06;    // SE of the kurtosis of 80000 rect coordinates ~ 0.007
constexpr size_t kSamples = 40000;
constexpr uint64_t kSeed = 20240611;

int dimensionOf(EmitterShape s) {
    switch (s) {
    case EmitterShape::Rect: return 1;
    case EmitterShape::Circle: return 2;
    case EmitterShape::Sphere: return 3;
    case EmitterShape::Ring: return 1;  // its edge (tested in emitter_ring_test.cpp)
    case EmitterShape::Count: break;
    }
    return 0;
}

// Expected statistics by Simpson's rule on the radial density rho^(dim-1) * w(rho), rho in [0, 1].
RadialStats expectedStats(int dim, Distribution dist, double sigma) {
    constexpr int kIntervals = 20000;  // even
    double z = 0.0, m2 = 0.0, m4 = 0.0, inner = 0.0;
    for (int i = 0; i <= kIntervals; ++i) {
        const double r = static_cast<double>(i) / kIntervals;
        const double weight = (i == 0 || i == kIntervals) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        double density = std::pow(r, dim - 1);
        if (dist == Distribution::Normal) density *= std::exp(-r * r / (2.0 * sigma * sigma));
        const double f = weight * density;
        z += f;
        m2 += f * r * r;
        m4 += f * r * r * r * r;
        if (r <= 0.5) inner += (r == 0.5 ? 0.5 : 1.0) * f;  // half of the boundary node's weight
    }
    RadialStats s;
    s.meanSq = m2 / z;
    s.fracInner = inner / z;
    s.kurtosis = (m4 / z) / (s.meanSq * s.meanSq);
    return s;
}

RadialStats measuredStats(const std::vector<double>& rho) {
    double m2 = 0.0, m4 = 0.0, inner = 0.0;
    for (double r : rho) {
        m2 += r * r;
        m4 += r * r * r * r;
        inner += r <= 0.5 ? 1.0 : 0.0;
    }
    const auto n = static_cast<double>(rho.size());
    RadialStats s;
    s.meanSq = m2 / n;
    s.fracInner = inner / n;
    s.kurtosis = (m4 / n) / (s.meanSq * s.meanSq);
    return s;
}

// Normalised radii of the samples (for rect one per axis: two, or three when it has depth).
std::vector<double> normalisedRadii(const FireParams& p, const std::vector<glm::vec3>& pos) {
    std::vector<double> rho;
    rho.reserve(pos.size() * 2);
    for (const glm::vec3& q : pos) {
        const glm::dvec3 d = glm::dvec3(q) - glm::dvec3(p.center);
        switch (p.shape) {
        case EmitterShape::Rect:
            rho.push_back(std::fabs(d.x) / static_cast<double>(p.extent.x));
            if (p.extent.y > 0.0f) rho.push_back(std::fabs(d.y) / static_cast<double>(p.extent.y));
            rho.push_back(std::fabs(d.z) / static_cast<double>(p.extent.z));
            break;
        case EmitterShape::Circle: rho.push_back(std::hypot(d.x, d.z) / static_cast<double>(p.extent.x)); break;
        case EmitterShape::Sphere: rho.push_back(glm::length(d) / static_cast<double>(p.extent.x)); break;
        case EmitterShape::Ring:  // not one of the six pairs: emitter_ring_test.cpp
        case EmitterShape::Count: break;
        }
    }
    return rho;
}

// Whether `m` is within tolerance of `e`; reports which statistic failed.
::testing::AssertionResult matches(const RadialStats& m, const RadialStats& e, bool withKurtosis) {
    std::string failed;
    if (std::fabs(m.meanSq - e.meanSq) > kTolMeanSq)
        failed += " E[rho^2]=" + std::to_string(m.meanSq) + " (expected " + std::to_string(e.meanSq) + ")";
    if (std::fabs(m.fracInner - e.fracInner) > kTolFracInner)
        failed += " P(rho<=1/2)=" + std::to_string(m.fracInner) + " (expected " + std::to_string(e.fracInner) + ")";
    if (withKurtosis && std::fabs(m.kurtosis - e.kurtosis) > kTolKurtosis)
        failed += " kurtosis=" + std::to_string(m.kurtosis) + " (expected " + std::to_string(e.kurtosis) + ")";
    if (failed.empty()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "outside tolerance:" << failed;
}

// Whether every statistic is outside the other distribution's tolerance (the test discriminates).
::testing::AssertionResult rejects(const RadialStats& m, const RadialStats& other, bool withKurtosis) {
    const bool meanSqOut = std::fabs(m.meanSq - other.meanSq) > kTolMeanSq;
    const bool fracOut = std::fabs(m.fracInner - other.fracInner) > kTolFracInner;
    const bool kurtOut = !withKurtosis || std::fabs(m.kurtosis - other.kurtosis) > kTolKurtosis;
    if (meanSqOut && fracOut && kurtOut) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "a statistic is within the other distribution's tolerance: E[rho^2]="
                                         << m.meanSq << " vs " << other.meanSq << ", P(rho<=1/2)=" << m.fracInner
                                         << " vs " << other.fracInner << ", kurtosis=" << m.kurtosis << " vs "
                                         << other.kurtosis;
}

Distribution otherOf(Distribution d) {
    return d == Distribution::Uniform ? Distribution::Normal : Distribution::Uniform;
}

struct Pair {
    EmitterShape shape;
    Distribution dist;
};

std::string nameOf(const Pair& pair) {
    return std::string(kEmitterShapeNames[static_cast<size_t>(pair.shape)]) + "_" +
           std::string(kDistributionNames[static_cast<size_t>(pair.dist)]);
}
std::string pairName(const ::testing::TestParamInfo<Pair>& info) { return nameOf(info.param); }
void PrintTo(const Pair& pair, std::ostream* os) { *os << nameOf(pair); }

FireParams paramsFor(const Pair& pair) {
    FireParams p;
    p.shape = pair.shape;
    p.distribution = pair.dist;
    p.center = {1.5f, 2.0f, -3.0f};
    p.extent = {0.5f, 0.7f, 0.3f};  // rect: different half-sizes on every axis, so swapped axes fail
    p.sigma = 0.4f;
    p.seed = kSeed;
    p.particles = static_cast<uint32_t>(kSamples);
    return p;
}

// Positions of kSamples freshly emitted particles, through the real emission path.
std::vector<glm::vec3> emitPositions(const FireParams& p) {
    FireSystem fire(p);
    fire.emit(kSamples);
    const ParticlePool& q = fire.pool();
    EXPECT_EQ(q.alive(), kSamples);
    std::vector<glm::vec3> pos;
    for (size_t i = 0; i < q.alive(); ++i) pos.emplace_back(q.px[i], q.py[i], q.pz[i]);
    return pos;
}

class EmitterDistribution : public ::testing::TestWithParam<Pair> {};

// Seed kSeed, 40000 samples; tolerances kTol* above (about 5 standard errors).
TEST_P(EmitterDistribution, MatchesItsDistributionAndRejectsTheOther) {
    const FireParams p = paramsFor(GetParam());
    const auto pos = emitPositions(p);
    const int dim = dimensionOf(p.shape);
    const bool rect = p.shape == EmitterShape::Rect;
    const RadialStats measured = measuredStats(normalisedRadii(p, pos));
    const RadialStats own = expectedStats(dim, p.distribution, static_cast<double>(p.sigma));
    const RadialStats other = expectedStats(dim, otherOf(p.distribution), static_cast<double>(p.sigma));
    EXPECT_TRUE(matches(measured, own, rect)) << nameOf(GetParam());
    EXPECT_TRUE(rejects(measured, other, rect)) << nameOf(GetParam());
}

TEST_P(EmitterDistribution, EverySampleIsInsideTheRegion) {
    const FireParams p = paramsFor(GetParam());
    const float slack = 1e-5f;  // float rounding of centre + offset
    size_t outside = 0;
    for (const glm::vec3& q : emitPositions(p)) {
        const glm::vec3 d = q - p.center;
        bool in = true;
        switch (p.shape) {
        case EmitterShape::Rect:
            in = std::fabs(d.x) <= p.extent.x + slack && std::fabs(d.y) <= p.extent.y + slack &&
                 std::fabs(d.z) <= p.extent.z + slack;
            break;
        case EmitterShape::Circle: in = std::hypot(d.x, d.z) <= p.extent.x + slack && q.y == p.center.y; break;
        case EmitterShape::Sphere: in = glm::length(d) <= p.extent.x + slack; break;
        case EmitterShape::Ring:  // not one of the six pairs: emitter_ring_test.cpp
        case EmitterShape::Count: break;
        }
        outside += in ? 0 : 1;
    }
    EXPECT_EQ(outside, 0u);
}

// The samples are centred on the emitter and, for circle and sphere, isotropic: the mean of the
// normalised offset is within 0.02 of zero (SE <= 0.6 / sqrt(40000) = 0.003) on every axis.
TEST_P(EmitterDistribution, IsCentredOnTheEmitter) {
    const FireParams p = paramsFor(GetParam());
    const auto pos = emitPositions(p);
    glm::dvec3 mean(0.0);
    for (const glm::vec3& q : pos) mean += (glm::dvec3(q) - glm::dvec3(p.center)) / glm::dvec3(p.extent);
    mean /= static_cast<double>(pos.size());
    EXPECT_NEAR(mean.x, 0.0, 0.02);
    EXPECT_NEAR(mean.z, 0.0, 0.02);
    EXPECT_NEAR(mean.y, 0.0, 0.02);
    if (p.shape == EmitterShape::Sphere) {  // the sphere fills y as much as x and z
        double my2 = 0.0, mx2 = 0.0;
        for (const glm::vec3& q : pos) {
            my2 += std::pow((q.y - p.center.y) / p.extent.x, 2.0f);
            mx2 += std::pow((q.x - p.center.x) / p.extent.x, 2.0f);
        }
        EXPECT_NEAR(my2 / mx2, 1.0, 0.05);
    }
}

INSTANTIATE_TEST_SUITE_P(AllSixPairs, EmitterDistribution,
                         ::testing::Values(Pair{EmitterShape::Rect, Distribution::Uniform},
                                           Pair{EmitterShape::Rect, Distribution::Normal},
                                           Pair{EmitterShape::Circle, Distribution::Uniform},
                                           Pair{EmitterShape::Circle, Distribution::Normal},
                                           Pair{EmitterShape::Sphere, Distribution::Uniform},
                                           Pair{EmitterShape::Sphere, Distribution::Normal}),
                         pairName);

// The quadrature matches the closed forms it stands for, so the expectations above are sound.
TEST(EmitterExpectations, QuadratureMatchesClosedForms) {
    const RadialStats rectU = expectedStats(1, Distribution::Uniform, 0.4);
    EXPECT_NEAR(rectU.meanSq, 1.0 / 3.0, 1e-9);  // variance extent^2 / 3
    EXPECT_NEAR(rectU.kurtosis, 1.8, 1e-9);
    EXPECT_NEAR(rectU.fracInner, 0.5, 1e-9);
    EXPECT_NEAR(expectedStats(2, Distribution::Uniform, 0.4).fracInner, 0.25, 1e-9);   // over the area
    EXPECT_NEAR(expectedStats(3, Distribution::Uniform, 0.4).fracInner, 0.125, 1e-9);  // over the volume
    // Normal with sigma = 0.4 truncated at the edge (2.5 sigma): closed forms by erf.
    const double s = 0.4;
    const double circleInner = (1.0 - std::exp(-0.125 / (s * s))) / (1.0 - std::exp(-0.5 / (s * s)));
    EXPECT_NEAR(expectedStats(2, Distribution::Normal, s).fracInner, circleInner, 1e-6);
    const double rectInner = std::erf(0.5 / (s * std::sqrt(2.0))) / std::erf(1.0 / (s * std::sqrt(2.0)));
    EXPECT_NEAR(expectedStats(1, Distribution::Normal, s).fracInner, rectInner, 1e-6);
    // A very wide normal is indistinguishable from uniform; a narrow one has the untruncated variance.
    EXPECT_NEAR(expectedStats(1, Distribution::Normal, 0.1).meanSq, 0.01, 1e-6);
}

// Sigma sets the spread of the normal distribution: E[rho^2] follows the truncated normal's for each
// sigma and grows with it. Seed kSeed, 40000 samples per sigma through samplePosition, tolerance kTolMeanSq.
TEST(EmitterDistribution, SigmaChangesTheNormalSpread) {
    for (EmitterShape shape : {EmitterShape::Rect, EmitterShape::Circle, EmitterShape::Sphere}) {
        double previous = 0.0;
        for (float sigma : {0.15f, 0.3f, 0.6f}) {
            FireParams p = paramsFor({shape, Distribution::Normal});
            p.sigma = sigma;
            Rng rng(kSeed, 0);
            std::vector<glm::vec3> pos(kSamples);
            for (auto& q : pos) q = samplePosition(p, rng);
            const double meanSq = measuredStats(normalisedRadii(p, pos)).meanSq;
            const double expected = expectedStats(dimensionOf(shape), Distribution::Normal, sigma).meanSq;
            EXPECT_NEAR(meanSq, expected, kTolMeanSq) << "shape " << static_cast<int>(shape) << " sigma " << sigma;
            if (previous > 0.0) {
                EXPECT_GT(meanSq, previous + 4 * kTolMeanSq)
                    << "shape " << static_cast<int>(shape) << " sigma " << sigma;
            }
            previous = meanSq;
        }
    }
}

// Beyond kWideSigma the rejection proposes uniform points weighted by the normal: at sigma = 1 the
// profile is still the truncated normal's and measurably not uniform, for every shape. Seed kSeed,
// 40000 samples through samplePosition, tolerances kTol* (the kurtosis for rect too).
TEST(EmitterDistribution, WideSigmaFollowsTheTruncatedNormal) {
    static_assert(kWideSigma < 1.0f);
    for (EmitterShape shape : {EmitterShape::Rect, EmitterShape::Circle, EmitterShape::Sphere}) {
        FireParams p = paramsFor({shape, Distribution::Normal});
        p.sigma = 1.0f;
        Rng rng(kSeed, 0);
        std::vector<glm::vec3> pos(kSamples);
        for (auto& q : pos) q = samplePosition(p, rng);
        const RadialStats measured = measuredStats(normalisedRadii(p, pos));
        const int dim = dimensionOf(shape);
        const bool rect = shape == EmitterShape::Rect;
        EXPECT_TRUE(matches(measured, expectedStats(dim, Distribution::Normal, 1.0), rect)) << "shape " << dim;
        EXPECT_TRUE(rejects(measured, expectedStats(dim, Distribution::Uniform, 1.0), rect)) << "shape " << dim;
    }
}

// The paper's Pos = centre + rand() * VarArea on all three axes: a rect with depth spreads in y as in x
// and z, each axis on its own scale (uniform: sd = extent / sqrt(3) within 2%, about 9 standard errors
// at 40000 samples; every sample within the half-size). Seed kSeed.
TEST(EmitterDistribution, RectWithDepthSpreadsInYByItsHalfSize) {
    FireParams p = paramsFor({EmitterShape::Rect, Distribution::Uniform});
    Rng rng(kSeed, 0);
    double s2[3] = {0.0, 0.0, 0.0};
    for (size_t i = 0; i < kSamples; ++i) {
        const glm::vec3 d = samplePosition(p, rng) - p.center;
        for (int a = 0; a < 3; ++a) {
            ASSERT_LE(std::fabs(d[a]), p.extent[a] * (1.0f + 1e-6f));
            s2[a] += static_cast<double>(d[a]) * static_cast<double>(d[a]);
        }
    }
    for (int a = 0; a < 3; ++a) {
        const double sd = std::sqrt(s2[a] / static_cast<double>(kSamples));
        EXPECT_NEAR(sd, static_cast<double>(p.extent[a]) / std::sqrt(3.0),
                    0.02 * static_cast<double>(p.extent[a]) / std::sqrt(3.0))
            << "axis " << a;
    }
}

// A flat rect (extent.y = 0) stays in its plane and draws x then z, as it did before rects had depth:
// its births are unchanged.
TEST(EmitterDistribution, FlatRectDrawsXThenZInItsPlane) {
    FireParams p = paramsFor({EmitterShape::Rect, Distribution::Uniform});
    p.extent.y = 0.0f;
    Rng rng(kSeed, 0), raw(kSeed, 0);
    for (int i = 0; i < 1000; ++i) {
        const glm::vec3 q = samplePosition(p, rng);
        const float x = raw.symmetric(), z = raw.symmetric();
        ASSERT_EQ(q, p.center + glm::vec3(x * p.extent.x, 0.0f, z * p.extent.z));
    }
}

TEST(EmitterDistribution, SigmaDoesNotAffectTheUniformDistribution) {
    FireParams a = paramsFor({EmitterShape::Circle, Distribution::Uniform});
    FireParams b = a;
    b.sigma = 2.0f;
    Rng ra(kSeed, 0), rb(kSeed, 0);
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(samplePosition(a, ra), samplePosition(b, rb));
}

}  // namespace
}  // namespace firelab::sim
