#include "report.h"

#include "cudnn_compat.h"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <thread>

void write_benchmarks_section(const std::string &file, const std::string &name,
                              const std::string &body) {
  const std::string begin = "<!-- " + name + ":begin", end = "<!-- " + name + ":end -->\n";
  const std::string section = begin + " (written by bench/; do not edit) -->\n" + body + end;
  std::string text;
  if (std::ifstream in(file); in) text.assign(std::istreambuf_iterator<char>(in), {});
  const std::size_t b = text.find(begin), e = text.find(end);
  if (b != std::string::npos && e != std::string::npos)
    text.replace(b, e + end.size() - b, section);
  else
    text += (text.empty() ? "# Benchmarks\n\nFigures from `bench/run.sh`; each table's ratios are "
                            "against a baseline measured in the same run.\n\n"
                          : "\n") +
            section;
  if (const std::string err = cudnn_compat::write_file_atomically(file, text); !err.empty())
    std::fprintf(stderr, "%s\n", err.c_str());
}

std::string fmt(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : "%.2f", v);
  return b;
}

std::string load_average() {
  std::string one;
  std::ifstream("/proc/loadavg") >> one;
  return one.empty() ? "?" : one;
}

std::string load_span(const std::string &before) {
  return "Load average at the start and the end of the run: " + before + " and " + load_average() +
         " on " + std::to_string(std::thread::hardware_concurrency()) + " CPUs.";
}

std::string ratio_header() {
  return "| case | plain dlopen | with shim | ratio | target |\n|---|---:|---:|---:|---|\n";
}

std::string ratio_row(const std::string &what, double base, double value,
                      const std::string &target) {
  return "| " + what + " | " + fmt(base) + " us | " + fmt(value) + " us | " + fmt(value / base) +
         "x | " + target + " |\n";
}
