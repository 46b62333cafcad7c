// What a run's picture is scored against, as settings: the reference's settings derived from the run's
// and its --reference spec (run_settings.h parses the spec), and the run's settings as its frames are drawn.
#pragma once
#include "harness/settings/run_settings.h"

namespace firelab::harness {

// The reference's settings: the run's with the spec's overrides (quality off). The run's fill-rate
// approximations (the render options marked core::kApproximation: particle-scale, upsample, edge-fixup,
// hull, filter) return to their full-quality defaults unless the spec names them; its look (blend, texture,
// facing, soft, hdr, tonemap, exposure) stays.
RunSettings referenceSettings(const RunSettings& run, const ReferenceSpec& spec);
// The run's render options as drawn: with --energy-preserving, alpha scaled by the reference's
// particle count over the run's.
render::RenderOptions effectiveRenderOptions(const RunSettings& run);
// The run's settings as its frames are drawn: render = effectiveRenderOptions(run).
RunSettings drawnSettings(const RunSettings& run);
// The reference must be drawable: its strategy takes its options, and its supersampled size fits. Throws
// Error naming --reference.
void checkReference(const RunSettings& run);

}  // namespace firelab::harness
