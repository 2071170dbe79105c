// Device code in words.
#include "model.h"

namespace cudnn_compat {

std::string arch_name(int arch) {
  return std::to_string(arch / 10) + "." + std::to_string(arch % 10);
}

std::string gpu_list(const std::vector<int> &gpus) {
  std::string out;
  for (int g : gpus) out += (out.empty() ? "" : ",") + arch_name(g);
  return out;
}

std::string describe(const DeviceCode &code) {
  std::string out;
  for (const auto &[word, archs] : {std::pair{"sm_", &code.cubin}, {"PTX ", &code.ptx}}) {
    if (archs->empty()) continue;
    out += out.empty() ? word : std::string(", ") + word;
    bool first = true;
    for (int a : *archs) out += (first ? "" : " ") + std::to_string(a), first = false;
  }
  return out.empty() ? "no device code" : out;
}

std::optional<Version> first_cuda_for(int arch) {
  static const std::pair<int, Version> first[] = {
      {30, {5, 0, {}, {}}},   {32, {6, 0, {}, {}}},   {35, {5, 0, {}, {}}},
      {37, {6, 5, {}, {}}},   {50, {6, 0, {}, {}}},   {52, {6, 5, {}, {}}},
      {53, {7, 0, {}, {}}},   {60, {8, 0, {}, {}}},   {61, {8, 0, {}, {}}},
      {62, {8, 0, {}, {}}},   {70, {9, 0, {}, {}}},   {72, {10, 0, {}, {}}},
      {75, {10, 0, {}, {}}},  {80, {11, 0, {}, {}}},  {86, {11, 1, {}, {}}},
      {87, {11, 4, {}, {}}},  {89, {11, 8, {}, {}}},  {90, {11, 8, {}, {}}},
      {100, {12, 8, {}, {}}}, {101, {12, 8, {}, {}}}, {103, {12, 9, {}, {}}},
      {110, {13, 0, {}, {}}}, {120, {12, 8, {}, {}}}, {121, {12, 9, {}, {}}}};
  for (const auto &[a, cuda] : first)
    if (a == arch) return cuda;
  return std::nullopt;
}

std::optional<Version> driver_cuda_for(int driver_major, int driver_minor) {
  struct Row {
    int major, minor;
    Version cuda;
  };
  static const Row rows[] = {
      // newest first: the first the driver reaches is its CUDA
      {580, 65, {13, 0, {}, {}}}, {575, 51, {12, 9, {}, {}}}, {570, 26, {12, 8, {}, {}}},
      {565, 57, {12, 7, {}, {}}}, {560, 28, {12, 6, {}, {}}}, {555, 42, {12, 5, {}, {}}},
      {550, 54, {12, 4, {}, {}}}, {545, 23, {12, 3, {}, {}}}, {535, 54, {12, 2, {}, {}}},
      {530, 30, {12, 1, {}, {}}}, {525, 60, {12, 0, {}, {}}}, {520, 61, {11, 8, {}, {}}},
      {515, 43, {11, 7, {}, {}}}, {510, 39, {11, 6, {}, {}}}, {495, 29, {11, 5, {}, {}}},
      {470, 42, {11, 4, {}, {}}}, {465, 19, {11, 3, {}, {}}}, {460, 27, {11, 2, {}, {}}},
      {455, 23, {11, 1, {}, {}}}, {450, 36, {11, 0, {}, {}}}, {440, 33, {10, 2, {}, {}}},
      {418, 39, {10, 1, {}, {}}}, {410, 48, {10, 0, {}, {}}}, {396, 26, {9, 2, {}, {}}},
      {390, 46, {9, 1, {}, {}}},  {384, 81, {9, 0, {}, {}}}};
  for (const Row &r : rows)
    if (driver_major > r.major || (driver_major == r.major && driver_minor >= r.minor))
      return r.cuda;
  return std::nullopt;
}

}  // namespace cudnn_compat
