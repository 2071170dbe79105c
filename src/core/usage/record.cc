// One usage record read back from the line it travelled in (the format:
// shim/shared/usage_record.h).
#include "text.h"
#include "usage.h"
#include "usage_record.h"

#include <charconv>

namespace cudnn_compat {
namespace {

constexpr std::string_view kTag = CUDNN_COMPAT_USAGE_TAG "[";

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool read_number(std::string_view s, std::int64_t &out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out >= 0;
}

LineRead fail(LineKind kind, std::string why) {
  LineRead r;
  r.kind = kind;
  r.why = std::move(why);
  return r;
}

// "cudnn-compat-usage[PID]: [uid=N] U..." -> the daemon's uid (or nullopt) and the record text.
std::optional<std::string_view> after_tag(std::string_view line, std::optional<std::int64_t> &uid) {
  const std::size_t tag = line.find(kTag);
  if (tag == std::string_view::npos) return std::nullopt;
  const std::size_t close = line.find("]:", tag + kTag.size());
  if (close == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(close + 2);
  while (rest.starts_with(' ')) rest.remove_prefix(1);
  if (rest.starts_with("uid=")) {
    const std::size_t space = rest.find(' ');
    std::int64_t n = 0;
    if (space != std::string_view::npos && read_number(rest.substr(4, space - 4), n)) uid = n;
    rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
  }
  return rest;
}

// The fields of a record whose sum matches, by key.
struct Fields {
  std::map<std::string_view, std::string_view, std::less<>> by_key;
  std::string missing;  // the first required key that is absent
  std::string_view get(std::string_view key) {
    const auto it = by_key.find(key);
    if (it != by_key.end()) return it->second;
    if (missing.empty()) missing = key;
    return "-";
  }
};

std::optional<LineRead> split(std::string_view text, Fields &f) {
  const std::size_t sum_at = text.rfind(" sum=");
  if (sum_at == std::string_view::npos) return fail(LineKind::torn, "it has no sum (cut short)");
  std::string_view sum = text.substr(sum_at + 5);
  while (sum.ends_with(' ') || sum.ends_with('\r')) sum.remove_suffix(1);
  unsigned int want = 0;
  const auto [end, ec] = std::from_chars(sum.data(), sum.data() + sum.size(), want, 16);
  if (sum.size() != 8 || ec != std::errc() || end != sum.data() + sum.size())
    return fail(LineKind::torn, "its sum is not 8 hex digits (cut short, or text after it)");
  if (cudnn_compat_usage_sum(text.data(), long(sum_at)) != want)
    return fail(LineKind::torn, "its sum does not match (changed or cut on the way)");
  std::string_view rest = text.substr(0, sum_at);
  rest.remove_prefix(rest.find(' ') == std::string_view::npos ? rest.size() : rest.find(' ') + 1);
  while (!rest.empty()) {
    const std::size_t space = rest.find(' ');
    const std::string_view item = rest.substr(0, space);
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos || eq == 0) return fail(LineKind::torn, "a field has no key");
    f.by_key.emplace(item.substr(0, eq), item.substr(eq + 1));
    rest.remove_prefix(space == std::string_view::npos ? rest.size() : space + 1);
  }
  return std::nullopt;
}

// The record's fields; torn when a required one is missing or not a number where it must be.
std::optional<LineRead> fill(Fields &f, UsageRecord &r) {
  auto text = [&](std::string_view key) { return decode_value(f.get(key)); };
  r.host = text("host"), r.job = text("job"), r.exe = text("exe"), r.by = text("by");
  r.asked = text("asked"), r.need = text("need"), r.cuda = text("cuda"), r.from = text("from");
  r.loader = text("loader"), r.loader_release = text("lrel"), r.loader_source = text("lsrc");
  r.loader_module = text("lmod"), r.got = text("got"), r.release = text("rel");
  r.source = text("src"), r.module = text("mod"), r.verdict = text("verdict");
  r.mode = text("mode");
  const std::string_view drops = f.by_key.contains("drops") ? f.get("drops") : "-";
  // ns came after the first shims of U1: a record without it is one of theirs (ns 0).
  const std::string_view ns = f.by_key.contains("ns") ? f.get("ns") : "0";
  if (!read_number(f.get("t"), r.time) || !read_number(f.get("uid"), r.uid) ||
      !read_number(f.get("pid"), r.pid) || (drops != "-" && !read_number(drops, r.drops)) ||
      !read_number(ns, r.ns) || r.ns >= 1'000'000'000)
    return fail(LineKind::torn, "t, uid, pid, drops or ns is not a number");
  if (!f.missing.empty() && f.missing != "by" && f.missing != "job")
    return fail(LineKind::torn, "it lacks " + f.missing);
  return std::nullopt;
}

// What the shim could not have written for this sender.
std::optional<LineRead> check(const UsageRecord &r, const LineOrigin &o,
                              std::optional<std::int64_t> daemon_uid) {
  const std::string verdicts = " fit redirected refused undecided ";
  if (r.host.empty() || r.asked.empty() ||
      verdicts.find(" " + r.verdict + " ") == std::string::npos ||
      (r.mode != "record" && r.mode != CUDNN_COMPAT_USAGE_REPORT_ONLY))
    return fail(LineKind::forged, "a field holds what the shim never writes");
  if (o.owner && *o.owner != r.uid)
    return fail(LineKind::forged, "it says uid " + std::to_string(r.uid) +
                                      " in a spool file of uid " + std::to_string(*o.owner));
  if (!o.file_host.empty() && o.file_host != r.host)
    return fail(LineKind::forged,
                "it says host " + r.host + " in the spool file of " + o.file_host);
  // A syslog line is believed only with the sender's uid as the daemon saw it (imuxsock's
  // annotation): one that came another way (a network input) may claim anyone.
  if (!o.spool && !daemon_uid)
    return fail(LineKind::forged,
                "the syslog daemon named no sender's uid (uid=NUMBER before the record: it did not "
                "come through the local socket with imuxsock's annotation)");
  if (daemon_uid && *daemon_uid != r.uid)
    return fail(LineKind::forged, "it says uid " + std::to_string(r.uid) +
                                      " but the syslog daemon saw uid " +
                                      std::to_string(*daemon_uid) + " send it");
  if (o.now && r.time > o.now + 86400)
    return fail(LineKind::forged, "its time is more than a day ahead of this machine's clock");
  return std::nullopt;
}

}  // namespace

std::string_view to_string(LineKind k) {
  switch (k) {
    case LineKind::record:
      return "record";
    case LineKind::torn:
      return "torn";
    case LineKind::forged:
      return "forged";
    case LineKind::newer:
      return "newer";
    case LineKind::too_long:
      return "too long";
    case LineKind::other:
      break;
  }
  return "other";
}

std::string decode_value(std::string_view v) {
  if (v == "-") return "";
  const bool cut = v.ends_with(CUDNN_COMPAT_USAGE_CUT);
  if (cut) v.remove_suffix(sizeof CUDNN_COMPAT_USAGE_CUT - 1);
  std::string out;
  out.reserve(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const int hi = v[i] == '%' && i + 2 < v.size() ? hex_digit(v[i + 1]) : -1;
    const int lo = hi >= 0 ? hex_digit(v[i + 2]) : -1;
    if (lo >= 0) {
      out += char(hi * 16 + lo);
      i += 2;
    } else {
      out += v[i];
    }
  }
  return cut ? out + "..." : out;
}

std::optional<std::int64_t> spool_name_uid(std::string_view stem) {
  const std::size_t dot = stem.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view uid = stem.substr(dot + 1);
  return parse_uint(uid.substr(0, uid.find(CUDNN_COMPAT_USAGE_SPOOL_OWN)), 10);
}

LineRead read_usage_line(std::string_view line, const LineOrigin &origin) {
  while (line.ends_with('\n') || line.ends_with('\r')) line.remove_suffix(1);
  if (line.size() > std::size_t(CUDNN_COMPAT_USAGE_MAX) * 2)
    return fail(LineKind::too_long, "longer than any record");
  std::optional<std::int64_t> daemon_uid;
  std::optional<std::string_view> text =
      origin.spool ? std::optional(line) : after_tag(line, daemon_uid);
  if (!text) return fail(LineKind::other, "");
  if (text->size() > CUDNN_COMPAT_USAGE_MAX)
    return fail(LineKind::too_long, "longer than any record");
  if (!text->starts_with(CUDNN_COMPAT_USAGE_MAGIC " ")) {
    const bool later =
        text->size() > 1 && (*text)[0] == 'U' && hex_digit((*text)[1]) >= 0 && (*text)[1] != '1';
    return later ? fail(LineKind::newer, "format " + std::string(text->substr(0, text->find(' '))))
                 : fail(LineKind::torn, "no record starts there");
  }
  Fields f;
  if (std::optional<LineRead> bad = split(*text, f)) return *bad;
  LineRead out;
  if (std::optional<LineRead> bad = fill(f, out.record)) return *bad;
  if (std::optional<LineRead> bad = check(out.record, origin, daemon_uid)) return *bad;
  out.kind = LineKind::record;
  return out;
}

}  // namespace cudnn_compat
