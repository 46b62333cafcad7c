#include "harness/settings/config.h"

#include <sstream>

#include "core/error.h"
#include "harness/settings/run_settings.h"

namespace firelab::harness {

namespace {
std::string numberText(const toml::node& n) {
    std::ostringstream o;
    if (auto i = n.value_exact<int64_t>())
        o << *i;
    else if (auto d = n.value_exact<double>())
        o.precision(9), o << *d;
    return o.str();
}
}  // namespace

std::string tomlValueText(const toml::node& node, const std::string& where, std::string_view setting) {
    const SettingInfo* info = findSetting(setting);
    const bool gradient = info != nullptr && info->kind == SettingInfo::Kind::Gradient;
    if (node.is_integer() || node.is_floating_point()) return numberText(node);
    if (auto s = node.value_exact<std::string>()) return *s;
    if (auto b = node.value_exact<bool>()) return *b ? "true" : "false";
    if (const auto* arr = node.as_array()) {
        std::string out;
        bool nested = false;
        for (const auto& el : *arr) {
            if (!out.empty()) out += nested ? "," : ",";
            if (const auto* inner = el.as_array()) {  // gradient key [t, r, g, b, a]
                if (!gradient)
                    throw Error(ErrorCode::BadValue, where +
                                                         ": a number, a string or a list of them, not arrays in arrays "
                                                         "(only gradient takes [[t, r, g, b, a], ...])");
                nested = true;
                std::string key;
                for (const auto& x : *inner) {
                    if (!x.is_number())
                        throw Error(ErrorCode::BadValue, where + ": gradient keys are arrays of numbers");
                    key += (key.empty() ? "" : ":") + numberText(x);
                }
                out += key;
            } else if (el.is_number()) {
                out += numberText(el);
            } else if (auto s = el.value_exact<std::string>()) {
                out += *s;
            } else {
                throw Error(ErrorCode::BadValue, where + ": arrays may hold numbers, strings or arrays of numbers");
            }
        }
        return out;
    }
    throw Error(ErrorCode::BadValue, where + ": expected a number, a string or an array");
}

std::string tomlLine(const std::string& file, const toml::node& node) {
    return file + ":" + std::to_string(node.source().begin.line);
}

toml::table parseTomlFile(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw Error(ErrorCode::BadFile, file.string() + ": is a directory, not a TOML file");
    if (std::filesystem::exists(file, ec) && !std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::BadFile, file.string() + ": not a regular file (a TOML file is needed)");
    if (!std::filesystem::is_regular_file(file, ec))
        throw Error(ErrorCode::MissingFile, file.string() + ": no such file");
    try {
        return toml::parse_file(file.string());
    } catch (const toml::parse_error& e) {
        const auto& b = e.source().begin;
        throw Error(ErrorCode::BadFile, file.string() + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                                            ": " + std::string(e.description()));
    }
}

void applyModelTable(const toml::table& model, sim::FireParams& params, const std::string& file) {
    for (const auto& [key, value] : model) {
        const std::string where = file + ": [model] " + std::string(key.str());
        try {
            sim::setParam(params, key.str(), tomlValueText(value, where, key.str()));
        } catch (const Error& e) {
            throw Error(e.code(), file + ":" + std::to_string(value.source().begin.line) + ": [model] " + e.what());
        }
    }
}

void loadModelConfig(const std::filesystem::path& file, sim::FireParams& params) {
    const toml::table t = parseTomlFile(file);
    if (const auto* model = t["model"].as_table()) applyModelTable(*model, params, file.string());
}

}  // namespace firelab::harness
