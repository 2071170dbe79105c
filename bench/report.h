// Writes one benchmark's section of BENCHMARKS.md between its own markers, keeping the others.
#pragma once

#include <string>

// body is the section's Markdown without markers; name is the marker's key ("map-resolve").
void write_benchmarks_section(const std::string &file, const std::string &name,
                              const std::string &body);

// A figure for a table: whole units from 100 on, else two decimals.
std::string fmt(double v);

// The machine's 1-minute load average: a process start waits for a CPU on a busy machine, so
// figures of paths that start processes mean little without it.
std::string load_average();
// "Load average at the start and the end of the run: B and E on N CPUs." (E is read now.)
std::string load_span(const std::string &before);
// The header of a table of ratio_row()s against the plain dlopen.
std::string ratio_header();
// A table row "| what | base us | value us | value/base x | target |".
std::string ratio_row(const std::string &what, double base, double value,
                      const std::string &target);
