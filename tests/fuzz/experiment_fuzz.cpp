// libFuzzer target: arbitrary bytes as an experiment file. loadExperiment + expand must either succeed or
// throw firelab::Error; any other exception, a crash, a leak or undefined behaviour is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "harness/settings/experiment.h"
#include "core/error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const std::string path = "/tmp/firelab-fuzz-" + std::to_string(::getpid()) + ".toml";
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data, 1, size, f);
        std::fclose(f);
    }
    try {
        const auto e = firelab::harness::loadExperiment(path);
        size_t runs = 1;
        for (const auto& a : e.axes) runs *= a.values.size();
        if (runs <= 2000) firelab::harness::expand(e, path);  // bounded: the expansion itself is linear
    } catch (const firelab::Error&) {}
    return 0;
}
