// libFuzzer target: find_errors() and advise() on arbitrary bytes must neither crash nor hang.
#include "reports.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  using namespace cudnn_compat;
  static const Map map = [] {
    Map m;
    m.cudnn.push_back({Version{5, 1, 10, {}}, "/a", std::nullopt, "cudnn/5.1", {}});
    m.cudnn.push_back({Version{9, 1, 0, {}}, "/b", Version{12, 4, {}, {}}, "cudnn/9.1", {}});
    return m;
  }();
  for (const Finding &f : find_errors(std::string_view(reinterpret_cast<const char *>(data), size)))
    advise(f, &map);
  return 0;
}
