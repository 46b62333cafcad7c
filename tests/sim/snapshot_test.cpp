// Snapshot CSV: the header, one row per live particle, values that match the pool; written through an
// AtomicFile (its own tests: tests/core/atomic_file_test.cpp).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/atomic_file.h"
#include "core/error.h"
#include "sim/fire_system.h"
#include "sim/gradient.h"
#include "sim/snapshot.h"

namespace firelab::sim {
#include "support/scratch_dir.h"

namespace {

namespace fs = std::filesystem;
using core::AtomicFile;

std::vector<std::string> splitOn(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::stringstream in(s);
    for (std::string item; std::getline(in, item, sep);) out.push_back(item);
    return out;
}

std::vector<std::string> linesOf(const std::string& text) { return splitOn(text, '\n'); }

using firelab::testing::readFile;

class TempDir : public firelab::testing::ScratchDirTest {
protected:
    // Files in the folder other than `keep`, e.g. leftover temporaries.
    std::vector<std::string> others(const fs::path& keep) const {
        std::vector<std::string> out;
        for (const auto& e : fs::directory_iterator(dir_))
            if (e.path() != keep) out.push_back(e.path().filename().string());
        return out;
    }
};

int columnOf(const std::vector<std::string>& header, const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == name) return static_cast<int>(i);
    return -1;
}

TEST(SnapshotCsv, HeaderHasTheDocumentedColumns) {
    const auto header = splitOn(kSnapshotHeader, ',');
    for (const char* col : {"x", "y", "z", "vx", "vy", "vz", "age", "lifetime", "size", "r", "g", "b", "a"})
        EXPECT_GE(columnOf(header, col), 0) << col;
}

// 500 freshly emitted particles: a header and 500 rows whose values are the pool's, with the colour
// of age 0 (the gradient's first key) and the size at birth.
TEST(SnapshotCsv, OneRowPerParticleWithThePoolsValues) {
    FireParams p;
    p.particles = 500;
    p.seed = 4;
    FireSystem fire(p);
    fire.emit(500);
    std::ostringstream out;
    writeSnapshotCsv(fire, out);
    const auto lines = linesOf(out.str());
    ASSERT_EQ(lines.size(), 501u);
    EXPECT_EQ(lines[0], kSnapshotHeader);
    const auto header = splitOn(lines[0], ',');
    const ParticlePool& q = fire.pool();
    const int x = columnOf(header, "x"), vy = columnOf(header, "vy"), life = columnOf(header, "lifetime");
    const int size = columnOf(header, "size"), r = columnOf(header, "r"), a = columnOf(header, "a");
    const int age = columnOf(header, "age");
    for (size_t i = 0; i < q.alive(); ++i) {
        const auto f = splitOn(lines[i + 1], ',');
        ASSERT_EQ(f.size(), header.size()) << "row " << i;
        // Written with 7 significant digits: within 1e-6 relative of the pool's floats.
        EXPECT_NEAR(std::stod(f[static_cast<size_t>(x)]), q.px[i], 1e-6 * std::fabs(q.px[i]));
        EXPECT_NEAR(std::stod(f[static_cast<size_t>(vy)]), q.vy[i], 1e-6 * std::fabs(q.vy[i]));
        EXPECT_NEAR(std::stod(f[static_cast<size_t>(life)]), q.life[i], 1e-6 * std::fabs(q.life[i]));
        EXPECT_EQ(std::stof(f[static_cast<size_t>(age)]), 0.0f);
        EXPECT_NEAR(std::stod(f[static_cast<size_t>(size)]), p.sizeStart * q.scale[i], 1e-6);
        EXPECT_FLOAT_EQ(std::stof(f[static_cast<size_t>(r)]), p.gradient.front().rgba.r);
        EXPECT_FLOAT_EQ(std::stof(f[static_cast<size_t>(a)]), p.gradient.front().rgba.a);
    }
}

TEST(SnapshotCsv, RowsFollowTheLiveCountAsTheFireRuns) {
    FireParams p;
    p.particles = 2000;
    FireSystem fire(p);
    for (int i = 0; i < 90; ++i) fire.step(1.0f / 60.0f);
    std::ostringstream out;
    writeSnapshotCsv(fire, out);
    const auto lines = linesOf(out.str());
    ASSERT_EQ(lines.size(), fire.pool().alive() + 1);
    const auto header = splitOn(lines[0], ',');
    const size_t age = static_cast<size_t>(columnOf(header, "age"));
    const size_t life = static_cast<size_t>(columnOf(header, "lifetime"));
    const size_t a = static_cast<size_t>(columnOf(header, "a"));
    for (size_t i = 1; i < lines.size(); ++i) {
        const auto f = splitOn(lines[i], ',');
        ASSERT_LT(std::stof(f[age]), std::stof(f[life]));
        ASSERT_GE(std::stof(f[a]), 0.0f);
        ASSERT_LE(std::stof(f[a]), 1.0f);
    }
}

TEST(SnapshotCsv, EmptyFireWritesOnlyTheHeader) {
    FireSystem fire(FireParams{});
    std::ostringstream out;
    writeSnapshotCsv(fire, out);
    EXPECT_EQ(out.str(), std::string(kSnapshotHeader) + "\n");
}

TEST(SizeOverLife, InterpolatesStartToEndTimesScale) {
    FireParams p;
    p.sizeStart = 0.2f;
    p.sizeEnd = 0.1f;
    EXPECT_FLOAT_EQ(sizeAt(p, 0.0f, 1.0f), 0.2f);
    EXPECT_FLOAT_EQ(sizeAt(p, 1.0f, 1.0f), 0.1f);
    EXPECT_FLOAT_EQ(sizeAt(p, 0.5f, 2.0f), 0.3f);
}

using SnapshotFile = TempDir;

TEST_F(SnapshotFile, IsWrittenThroughAnAtomicFile) {
    FireParams p;
    p.particles = 300;
    FireSystem fire(p);
    fire.emit(300);
    const fs::path target = dir_ / "snap.csv";
    AtomicFile f(target);
    writeSnapshotCsv(fire, f.stream());
    f.commit();
    EXPECT_EQ(linesOf(readFile(target)).size(), 301u);
}

}  // namespace
}  // namespace firelab::sim
