#include "render/gl/pass_timer.h"

namespace firelab::render {

PassTimes passTimes(std::span<const uint64_t> stampsNs, size_t frameEnd, std::span<const PassSpan> spans) {
    auto ms = [&](size_t from, size_t to) {
        return stampsNs[to] > stampsNs[from] ? static_cast<double>(stampsNs[to] - stampsNs[from]) * 1e-6 : 0.0;
    };
    PassTimes t;
    t.frameMs = ms(0, frameEnd);
    for (const PassSpan& span : spans) {
        auto& pass = t.passMs[static_cast<size_t>(span.pass)];
        pass = pass.value_or(0.0) + ms(span.begin, span.end);
    }
    return t;
}

size_t PassTimer::stamp(Slot& slot) {
    if (slot.used == slot.queries.size()) slot.queries.emplace_back(GL_TIMESTAMP);
    glQueryCounter(slot.queries[slot.used].id(), GL_TIMESTAMP);
    return slot.used++;
}

void PassTimer::beginFrame(long frame) {
    currentFrame_ = frame, depth_ = 0;
    Slot& s = current();
    s.frame = frame, s.used = 0, s.frameEnd = 0;
    s.spans.clear();
    stamp(s);
}

void PassTimer::endFrame() {
    if (currentFrame_ < 0) return;
    if (depth_ > 0) depth_ = 1, end();  // a pass left open ends with the frame
    Slot& s = current();
    s.frameEnd = stamp(s);
    currentFrame_ = -1;
}

void PassTimer::begin(Pass pass) {
    if (currentFrame_ < 0 || depth_++ > 0) return;
    Slot& s = current();
    const size_t at = stamp(s);
    s.spans.push_back({pass, at, at});
}

void PassTimer::end() {
    if (currentFrame_ < 0 || depth_ == 0 || --depth_ > 0) return;
    Slot& s = current();
    s.spans.back().end = stamp(s);
}

std::optional<PassTimes> PassTimer::collect(long frame) {
    const long timed = frame - kLag;
    if (timed < 0) return std::nullopt;
    Slot& s = slots_[static_cast<size_t>(timed % (kLag + 1))];
    if (s.frame != timed || s.frameEnd == 0) return std::nullopt;
    std::vector<uint64_t>& ns = stamps_;
    ns.resize(s.used);
    for (size_t i = 0; i < s.used; ++i) {
        GLint ready = 0;
        glGetQueryObjectiv(s.queries[i].id(), GL_QUERY_RESULT_AVAILABLE, &ready);
        if (!ready) return std::nullopt;
        glGetQueryObjectui64v(s.queries[i].id(), GL_QUERY_RESULT, &ns[i]);
    }
    const PassTimes t = passTimes(ns, s.frameEnd, s.spans);
    s.frame = -1;  // read once
    return t;
}

}  // namespace firelab::render
