// libFuzzer target: the command line's list/range parsers and value setters. The first byte picks the
// setting; the rest is the flag's text. Everything must succeed or throw firelab::Error.
#include <cstdint>
#include <string>

#include "harness/results/csv.h"
#include "harness/settings/experiment.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    static const auto names = firelab::harness::allSettingNames();
    const std::string& name = names[data[0] % names.size()];
    const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const auto values = firelab::harness::splitValues(name, text);
        firelab::harness::RunSettings s;
        for (size_t i = 0; i < values.size() && i < 64; ++i) firelab::harness::applySetting(s, name, values[i]);
    } catch (const firelab::Error&) {}
    try {
        firelab::harness::parseShard(text);
    } catch (const firelab::Error&) {}
    (void)firelab::harness::parseCsv(text);
    return 0;
}
