// gpu-stateless: instead of streaming the CPU pool every frame (points), birth slots are uploaded once
// and the vertex shader computes each particle from the time alone (NVIDIA's particle-system shader):
// periodic rebirth, a hash RNG per life, closed-form motion under drag; drawn as instanced sprite polygons.
// It cannot sort (checkOptions says so): the positions exist only inside the vertex shader.
#include <algorithm>
#include <limits>
#include <array>
#include <cmath>
#include <vector>

#include "render/particles/gpu_model.h"
#include "render/particles/particle_material.h"
#include "render/strategies/strategy.h"
#include "sim/random.h"

namespace firelab::render {
namespace {

constexpr StrategyInfo kInfo{.name = "gpu-stateless",
                             .summary = "closed-form motion in the vertex shader from birth parameters uploaded once",
                             .primitive = Primitive::Sprites,
                             .simulatesOnGpu = true,
                             .canSort = false,
                             .closedForm = true};

// One particle slot: first birth (s), lifetime (s), 1 if it is reborn, rebirth period (s).
using Slot = glm::vec4;

// The N steady slots, then the burst slots (born once, on the first step). A steady slot's lifetime L
// is drawn length-biased (density proportional to L on [mean - var, mean + var]) and its first birth
// is u L, u spread evenly over (0, 1]. Then, as in the CPU model: the slots emit N/mean per second
// (each 1/L), hold N particles at steady state with the CPU's lifetime distribution, grow from empty
// as the CPU's count does (rate * E[min(L, t)]), and their ages are uniform over [0, L) from the first
// full lifetime on. (First births spread evenly over one *mean* lifetime would leave the ages of each
// lifetime class bunched, and the fire breathing, forever.) Slots are sorted by first birth, so the
// born are a prefix.
// With --rate R (NVIDIA's periodicity) every steady slot is reborn each N / R seconds whatever its
// lifetime, drawn as the CPU draws it; a life shorter than the period leaves a gap (checkModel refuses
// a longest life beyond the period: it would be cut short).
std::vector<Slot> makeSlots(const sim::FireParams& p, float dt) {
    const size_t n = p.particles;
    std::vector<Slot> slots(n + p.burst);
    sim::Rng rng(p.seed, ~uint64_t{0});  // a stream of its own: no birth number reaches 2^64 - 1
    const float a = p.lifetimeMean - p.lifetimeVar, b = p.lifetimeMean + p.lifetimeVar;
    const float ratePeriod =
        p.rate > 0.0f ? static_cast<float>(static_cast<double>(n) / static_cast<double>(p.rate)) : 0.0f;
    for (size_t i = 0; i < n; ++i) {
        const float life = ratePeriod > 0.0f ? p.lifetimeMean + rng.symmetric() * p.lifetimeVar
                                             : std::sqrt(a * a + rng.uniform01() * (b * b - a * a));
        const float period = ratePeriod > 0.0f ? ratePeriod : life;
        const float u = static_cast<float>(static_cast<double>(i + 1) / static_cast<double>(n));
        slots[i] = {u * period, life, 1.0f, period};
    }
    std::sort(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(n),
              [](const Slot& x, const Slot& y) { return x.x < y.x; });
    // Burst slots: born on the first step, and with a burst period reborn every period (checkModel
    // refuses a longest life beyond it).
    const bool periodic = p.burstPeriod > 0.0f;
    for (size_t i = n; i < slots.size(); ++i) {
        const float life = p.lifetimeMean + rng.symmetric() * p.lifetimeVar;
        slots[i] = {dt, life, periodic ? 1.0f : 0.0f, periodic ? p.burstPeriod : life};
    }
    return slots;
}

// Whether the slot's particle lives at time t: born, and within its life of the current period.
bool aliveAt(const Slot& s, float t) {
    const float since = t - s.x;
    if (since < 0.0f) return false;
    return s.z == 0.0f ? since < s.y : !(s.w > s.y && since - std::floor(since / s.w) * s.w >= s.y);
}

// Each wave's phase speed (rad/s), from the field's phases 1/64 s apart (unambiguous below 400 rad/s).
std::array<float, sim::kTurbulenceWaves> waveRates(const sim::FireParams& p) {
    constexpr double kStep = 1.0 / 64.0;
    const auto f0 = sim::turbulenceAt(0.0, p.turbulence, p.turbulenceFrequency, p.turbulenceSpeed);
    const auto f1 = sim::turbulenceAt(kStep, p.turbulence, p.turbulenceFrequency, p.turbulenceSpeed);
    std::array<float, sim::kTurbulenceWaves> rates{};
    for (size_t i = 0; i < rates.size(); ++i) {
        float d = f1[i].phase - f0[i].phase;
        if (d < 0.0f) d += 6.2831853f;  // the phase wrapped
        rates[i] = d / static_cast<float>(kStep);
    }
    return rates;
}

class GpuStateless : public RenderStrategy {
public:
    explicit GpuStateless(const StrategyContext& c)
        : material_(c, {"gpu_stateless.vert", "quad.frag"}, modelSetup(c.params)),
          params_(c.params),
          slots_(makeSlots(c.params, c.dt)),
          step_(c.dt) {
        // The only upload of particle data: a static buffer, one Slot per instance.
        slotBuffer_ =
            gl::makeBuffer(static_cast<GLsizeiptr>(slots_.size() * sizeof(Slot)), slots_.data(), GL_STATIC_DRAW);
        glEnableVertexArrayAttrib(vao_.id(), 0);
        glVertexArrayAttribFormat(vao_.id(), 0, 4, GL_FLOAT, GL_FALSE, 0);
        glVertexArrayAttribBinding(vao_.id(), 0, 0);
        glVertexArrayBindingDivisor(vao_.id(), 0, 1);
        glVertexArrayVertexBuffer(vao_.id(), 0, slotBuffer_.id(), 0, sizeof(Slot));
        for (size_t i = params_.particles; i < slots_.size(); ++i)
            burstEnd_ = params_.burstPeriod > 0.0f ? std::numeric_limits<float>::infinity()
                                                   : std::max(burstEnd_, slots_[i].x + slots_[i].y);
    }

    std::string_view name() const override { return kInfo.name; }

    // No particle data moves: only the time and the turbulence waves of this instant. No simulation pass
    // to time either: the vertex shader computes each particle, inside the particles pass.
    void upload(const sim::FireSystem& fire, const Camera&) override {
        time_ = static_cast<float>(fire.time());
        turbulence_ =
            sim::turbulenceAt(fire.time(), params_.turbulence, params_.turbulenceFrequency, params_.turbulenceSpeed);
    }

    void draw(const DrawPass& pass) override {
        if (!material_.drawsIn(pass)) return;
        const gl::Program& program = material_.begin(pass);
        program.set("uTime", time_);
        program.set("uStep", step_);  // the stepped models' step, for what counts as a bounce
        setTurbulenceUniforms(program, turbulence_);
        glBindVertexArray(vao_.id());
        // Steady slots are sorted by first birth, so the unborn tail is skipped; while burst particles live,
        // all slots are drawn (the unborn and the dead are culled in the vertex shader).
        const size_t count = time_ < burstEnd_ ? slots_.size() : bornSteady();
        glDrawArraysInstanced(GL_TRIANGLE_STRIP, 0, material_.hullVertices(), static_cast<GLsizei>(count));
        ParticleMaterial::end();
    }

    size_t drawnCount() const override {
        return static_cast<size_t>(
            std::count_if(slots_.begin(), slots_.end(), [&](const Slot& s) { return aliveAt(s, time_); }));
    }

private:
    // The model's uniforms, which never change, on each of the material's programs.
    static ParticleMaterial::ProgramSetup modelSetup(const sim::FireParams& params) {
        return [params, rates = waveRates(params)](const gl::Program& program) {
            setModelUniforms(program, params);
            program.setArray("uWaveRate", rates.data(), sim::kTurbulenceWaves);
        };
    }

    size_t bornSteady() const {
        const auto end = slots_.begin() + static_cast<std::ptrdiff_t>(params_.particles);
        return static_cast<size_t>(
            std::upper_bound(slots_.begin(), end, time_, [](float t, const Slot& s) { return t < s.x; }) -
            slots_.begin());
    }

    ParticleMaterial material_;
    sim::FireParams params_;
    std::vector<Slot> slots_;  // kept to count the born (drawnCount), never re-uploaded
    float step_;               // the stepped models' step (s)
    gl::Buffer slotBuffer_;
    gl::VertexArray vao_;
    float time_ = 0.0f;
    sim::TurbulenceField turbulence_{};  // the field at time_
    float burstEnd_ = 0.0f;              // when the last burst particle dies
};

}  // namespace

extern constexpr StrategyEntry kGpuStatelessStrategy{
    kInfo,
    [](const StrategyContext& c) -> std::unique_ptr<RenderStrategy> { return std::make_unique<GpuStateless>(c); }};

}  // namespace firelab::render
