// Writes one benchmark's section of BENCHMARKS.md between its own markers, keeping the others.
#pragma once

#include <string>

// body is the section's Markdown without markers; name is the marker's key ("map-resolve").
void write_benchmarks_section(const std::string &file, const std::string &name,
                              const std::string &body);

// A figure for a table: whole units from 100 on, else two decimals.
std::string fmt(double v);
