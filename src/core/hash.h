// FNV-1a (64 bits): a stable short name or seed from text, the same on every machine and build.
#pragma once
#include <cstdint>
#include <string_view>

namespace firelab::core {

constexpr uint64_t fnv1a(std::string_view text) {
    uint64_t h = 0xcbf29ce484222325ULL;                           // the 64-bit offset basis
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;  // the 64-bit prime
    return h;
}

}  // namespace firelab::core
