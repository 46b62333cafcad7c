// The harness's CSV: one row per run, a fixed header (kRunColumns, documented in docs/csv.md),
// RFC 4180 quoting. Rows are appended and flushed one at a time, each with a single write, so an
// interrupted sweep leaves whole rows only; a torn last line (from kill -9 mid-write) is dropped on resume.
#pragma once
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace firelab::harness {

inline constexpr std::array<std::string_view, 82> kRunColumns{
    "experiment", "label", "run_key", "strategy", "effect", "emitter", "distribution", "particles", "alive_mean",
    "width", "height", "blend", "sort", "facing", "flipbook", "particle_scale", "upsample", "edge_fixup", "hull",
    "filter", "hdr", "tonemap", "exposure", "soft", "layer_order", "seed", "dt", "warmup", "frames", "timing", "fire_light", "round", "rounds",
    "frame_ms_median", "frame_ms_ci_low", "frame_ms_ci_high", "frame_ms_mean", "frame_ms_p5", "frame_ms_p95",
    "frame_ms_p99", "frame_ms_stddev", "frame_ms_min", "frame_ms_max", "fps", "sim_ms_median", "upload_ms_median",
    "draw_ms_median", "draw_ms_ci_low", "draw_ms_ci_high", "gpu_ms_median", "gpu_simulate_ms_median",
    "gpu_sort_ms_median", "gpu_scene_ms_median", "gpu_depth_ms_median", "gpu_particles_ms_median",
    "gpu_composite_ms_median", "gpu_tonemap_ms_median", "light_fit_ms_median", "light_shade_ms_median", "harness_ms_mean", "reference", "energy_scale", "quality_frames", "psnr_db", "ssim", "flip",
    "psnr_fire_db", "ssim_fire", "flip_fire", "flicker_ratio", "fragments_shaded", "fragments_visible",
    "covered_fraction", "frame_png", "reference_png", "quality_seconds", "gl_renderer", "gl_version", "threads", "started", "seconds", "status"};

// A setting's column: its name with '_' for '-' (particle-scale: particle_scale).
std::string csvColumn(std::string_view setting);

// A measured number as the CSV writes it: 6 significant digits.
std::string csvNumber(double v);

// One field, quoted when it holds a comma, a quote, CR or LF (quotes doubled).
std::string csvField(std::string_view s);
std::string csvLine(const std::vector<std::string>& fields);  // ends in "\n"

// Parses RFC 4180 text into rows. A final line without its newline is treated as torn and dropped.
// With `recordStarts`: each record's offset in `text`, then one more, where the text after the last
// whole record begins (text.size() when there is none).
std::vector<std::vector<std::string>> parseCsv(std::string_view text, std::vector<size_t>* recordStarts = nullptr);

using Row = std::map<std::string, std::string>;

// The row's fields in kRunColumns order (missing columns empty).
std::vector<std::string> rowFields(const Row& row);
// Why `fields` is not a whole run row (every column, an experiment, a run_key, a status "ok" or
// "error: ..."), or "" when it is.
std::string whyNotARunRow(const std::vector<std::string>& fields);
// A whole run row's fields (kRunColumns order) as a Row.
Row toRow(std::vector<std::string> fields);
// kRunColumns as a CSV line.
std::string runsHeaderLine();
// Replaces `file` (temp + rename) with a runs.csv of `rows`. Throws Error(Io).
void writeRunsCsv(const std::filesystem::path& file, const std::vector<Row>& rows);
// Appends CSV lines to a side file (history, rejected rows), writing `header` first when it is new or
// empty. Throws Error(Io).
void appendCsvLines(const std::filesystem::path& file, const std::string& header, const std::vector<std::string>& lines);

// Appends rows to a runs.csv, writing the header when the file is new or empty. The file is opened,
// locked (one writer per CSV: a second one fails naming the holder) and checked (firelab's header, a
// regular writable file; a symlink is followed) by the constructor, so a bad path fails before any run.
// A row that cannot be written whole (full disk) is cut back off. Throws Error(Io) or Error(BadFile).
class CsvAppender {
public:
    explicit CsvAppender(std::filesystem::path file);
    ~CsvAppender();
    CsvAppender(const CsvAppender&) = delete;
    CsvAppender& operator=(const CsvAppender&) = delete;
    void append(const Row& row);  // one write + fsync per row
    const std::filesystem::path& path() const { return file_; }

private:
    void writeLine(const std::string& line);
    std::filesystem::path file_;
    int fd_ = -1;
};

// Reads a runs.csv (header + rows) into maps; a torn last row is dropped. Missing file: empty.
// Throws Error(BadFile) when the header is not firelab's or the path is not a regular file (a FIFO,
// a device or a folder is never opened).
std::vector<Row> readRunsCsv(const std::filesystem::path& file);
// Makes `file` end on a whole line, so appends start on a fresh one (resume after kill -9): a torn last
// line is cut; a whole last row that only lacks its newline gets one.
void repairTornTail(const std::filesystem::path& file);

}  // namespace firelab::harness
