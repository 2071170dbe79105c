// The map's word on usage records ([usage]) and on retiring releases (retire_after).
#include "map.h"

#include <charconv>
#include <cmath>
#include <ctime>

#include "usage_record.h"

namespace cudnn_compat {

std::string_view to_string(UsageMode m) {
  switch (m) {
    case UsageMode::record:
      return "record";
    case UsageMode::report_only:
      return CUDNN_COMPAT_USAGE_REPORT_ONLY;
    case UsageMode::off:
      break;
  }
  return "off";
}

std::optional<UsageMode> parse_usage_mode(std::string_view word) {
  for (UsageMode m : {UsageMode::off, UsageMode::record, UsageMode::report_only})
    if (word == to_string(m)) return m;
  return std::nullopt;
}

std::string usage_settings_text(const UsageSettings &u, char sep) {
  const long ppm = std::lround(u.sample * 1e6);
  return std::string(CUDNN_COMPAT_USAGE_SETTINGS) + sep + std::string(to_string(u.mode)) + sep +
         std::to_string(ppm) + sep + u.to;
}

std::optional<std::int64_t> day_start(std::string_view date) {
  int n[3] = {};
  const char *p = date.data(), *end = date.data() + date.size();
  for (int i = 0; i < 3; ++i) {
    const auto [next, ec] = std::from_chars(p, end, n[i]);
    const std::ptrdiff_t width = next - p;
    if (ec != std::errc() || width != (i == 0 ? 4 : 2)) return std::nullopt;
    p = next;
    if (i < 2 && (p == end || *p++ != '-')) return std::nullopt;
  }
  if (p != end) return std::nullopt;
  std::tm tm{};
  tm.tm_year = n[0] - 1900, tm.tm_mon = n[1] - 1, tm.tm_mday = n[2], tm.tm_isdst = -1;
  const std::time_t t = std::mktime(&tm);
  // mktime moves a day that does not exist (2025-02-30) into the next month: no such date.
  if (t == std::time_t(-1) || tm.tm_year != n[0] - 1900 || tm.tm_mon != n[1] - 1 ||
      tm.tm_mday != n[2])
    return std::nullopt;
  return std::int64_t(t);
}

void mark_retired(Map &map, std::int64_t now) {
  for (Installed &e : map.cudnn) {
    const std::optional<std::int64_t> from = day_start(e.retire_after);
    e.retired = from && now >= *from;
  }
}

}  // namespace cudnn_compat
