// The columns of runs.csv and rounds.csv, each with its group and its rule for summarising rounds, built
// once from what declares them: the settings' visitors (core::kColumn), the frame's passes
// (render::kPassNames), the image metrics' registry (harness/quality/metrics.h) and the measured and
// recorded columns listed in schema.cpp. The CSV's header, summariseRounds (rounds.h), meta.json's
// "columns" and docs/csv.md (checked by a test) all follow it; a row holding a key the schema does not
// know is an error, never a dropped value.
//
//   for (const Column& c : runColumns()) if (c.group == ColumnGroup::Timing) ...
//   Row row; setField(row, "frame_ms_median", "2.5");  // Error for a name not in the schema
#pragma once
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace firelab::harness {

// What a column holds.
enum class ColumnGroup {
    Identity,  // which experiment and configuration (experiment, run_key)
    Setting,   // a setting's value (the run's, as planned; warmup: as run)
    Timing,    // what the timed frames measured
    Quality,   // the picture's scores against its reference (--quality), from the round that scored it
    Record,    // how and when: rounds, the GL renderer, the start, the status
    Count
};

// How runs.csv summarises a configuration's rounds (rounds.csv holds each round's own row).
enum class SummaryRule {
    First,           // the first ok round's value (settings, identity, the renderer, the start)
    MedianInterval,  // the median over rounds, with a bootstrap 95 % interval in the next two columns
    IntervalLow,     // the interval's low end (follows its MedianInterval column)
    IntervalHigh,    // the interval's high end
    Median,          // the median over rounds
    Mean,            // the mean over rounds
    Sum,             // the sum over rounds (frames, seconds)
    OkRounds,        // how many rounds ran ok (rounds)
    RoundNumber,     // the round's number in rounds.csv; empty in runs.csv
    Scored,          // from the round that scored the picture (the first; later rounds only time)
    Fps,             // 1000 / the summary's frame_ms_median
    Processes,       // how many processes its ok rounds ran in (--processes)
    Count
};

struct Column {
    std::string name;
    ColumnGroup group;
    SummaryRule rule;
    std::string setting;  // Setting columns: the setting's name ("particle-scale" for particle_scale)
};

// Every column, in the order runs.csv and rounds.csv write them.
const std::vector<Column>& runColumns();
// The column called `name`, or null.
const Column* findColumn(std::string_view name);
// The lower-case names of the groups and rules, as meta.json writes them ("timing", "median_interval").
std::string_view groupName(ColumnGroup g);
std::string_view ruleName(SummaryRule r);

// A setting's column: its name with '_' for '-' (particle-scale: particle_scale).
std::string csvColumn(std::string_view setting);

// A row of runs.csv or rounds.csv by column name.
using Row = std::map<std::string, std::string>;
// Sets row[name] = value; Error(Internal) naming the column when the schema has no such column.
void setField(Row& row, const std::string& name, std::string value);
// Error(Internal) naming the first key of `row` that is not a column of the schema.
void checkColumns(const Row& row);

}  // namespace firelab::harness
