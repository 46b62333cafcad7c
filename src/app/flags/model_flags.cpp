#include "app/flags/model_flags.h"

namespace firelab::app {
namespace {
// Registers a string option per parameter, with the parameter's help and its default value.
struct Registrar {
    CLI::App& cmd;
    Flags& flags;
    const sim::FireParams defaults{};

    void add(std::string_view name, std::string_view help) {
        const std::string n(name);
        auto& flag = flags[n];
        flag.option =
            cmd.add_option("--" + n, flag.text, std::string(help) + " [default: " + sim::getParam(defaults, n) + "]");
        flag.option->group("Model");
    }
    void scalar(std::string_view n, float&, float, float, std::string_view h, unsigned = 0) { add(n, h); }
    void count(std::string_view n, uint32_t&, uint32_t, uint32_t, std::string_view h, unsigned = 0) { add(n, h); }
    void seed(std::string_view n, uint64_t&, std::string_view h, unsigned = 0) { add(n, h); }
    void vec3(std::string_view n, glm::vec3&, float, float, std::string_view h, unsigned = 0) { add(n, h); }
    template <class E, size_t N>
    void choice(std::string_view n, E&, const std::array<std::string_view, N>&, std::string_view h, unsigned = 0) {
        add(n, h);
    }
    void gradient(std::string_view n, std::vector<sim::ColorKey>&, std::string_view h, unsigned = 0) { add(n, h); }
    void span(std::string_view n, glm::vec2&, float, float, std::string_view h, unsigned = 0) { add(n, h); }
};
}  // namespace

void ModelFlags::addTo(CLI::App& cmd, bool withConfig) {
    if (withConfig)
        cmd.add_option("--config", config, "TOML file whose [model] table sets parameters (flags override it)")
            ->group("Model");
    sim::FireParams scratch;
    visitParams(scratch, Registrar{cmd, flags_});
}

std::vector<std::pair<std::string, std::string>> givenFlags(const Flags& flags) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, flag] : flags)
        if (flag.option->count() > 0) out.emplace_back(name, flag.text);
    return out;
}

harness::RunSettings ModelFlags::settings() const {
    harness::RunSettings s = config.empty() ? harness::RunSettings{} : harness::loadRunSettings(config);
    for (const auto& [name, text] : given()) sim::setParam(s.params, name, text);
    sim::validate(s.params);
    return s;
}

}  // namespace firelab::app
