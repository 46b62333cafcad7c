#include "harness/settings/reference.h"

#include <algorithm>

#include "core/error.h"
#include "render/strategies/strategy.h"
#include "sim/params.h"

namespace firelab::harness {

RunSettings referenceSettings(const RunSettings& run, const ReferenceSpec& spec) {
    RunSettings ref = run;
    ref.quality = QualitySettings{};
    // The reference keeps the run's look (blend, texture, facing, soft particles, tone mapping) but not its
    // approximations of it (core::kApproximation): the fill-rate techniques are what is scored, against
    // the full picture. An effect's layers set their own look, so the full-quality values of the layer's
    // approximations and the spec's layer options must win over the layers' own too (a layer's hull 8 is
    // an approximation to score, not to copy).
    ref.layerForce.clear();
    for (const auto& o : renderOptions()) {
        if (!(o.attrs & core::kApproximation)) continue;
        applySetting(ref, o.name, o.defaultText);
        if (o.attrs & core::kLayer) ref.layerForce.emplace_back(o.name, o.defaultText);
    }
    for (const auto& [key, value] : spec.overrides) applySetting(ref, key, value);
    for (const auto& [key, value] : spec.overrides)
        if (isLayerRenderOption(key)) ref.layerForce.emplace_back(key, value);
    return ref;
}

RunSettings drawnSettings(const RunSettings& run) {
    RunSettings d = run;
    d.render = effectiveRenderOptions(run);
    return d;
}

render::RenderOptions effectiveRenderOptions(const RunSettings& run) {
    render::RenderOptions o = run.render;
    if (run.quality.energyPreserving) {
        const RunSettings ref = referenceSettings(run, run.quality.reference);
        o.alphaScale = static_cast<float>(static_cast<double>(ref.params.particles) /
                                          static_cast<double>(std::max(1u, run.params.particles)));
    }
    return o;
}

// The reference must be drawable: its strategy takes its options, and its supersampled size fits.
void checkReference(const RunSettings& run) {
    const ReferenceSpec& spec = run.quality.reference;
    const RunSettings ref = referenceSettings(run, spec);
    const std::string flag = "--reference '" + referenceText(spec) + "'";
    try {
        sim::validate(ref.params);
        render::checkOptions(ref.strategy, ref.render);
        render::checkFluid(ref.strategy, ref.fluid);
        render::checkVolumeGrid(ref.strategy, run.width * spec.supersample, run.height * spec.supersample, ref.render);
    } catch (const Error& e) {
        throw Error(e.code(), flag + ": " + e.what());
    }
    if (static_cast<long>(run.width) * spec.supersample > 16384 ||
        static_cast<long>(run.height) * spec.supersample > 16384)
        throw Error(ErrorCode::BadValue, flag + ": supersample " + std::to_string(spec.supersample) + " at " +
                                             std::to_string(run.width) + "x" + std::to_string(run.height) +
                                             " exceeds 16384 pixels a side");
}

}  // namespace firelab::harness
