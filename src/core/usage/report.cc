// The usage report for people: a table, and a page with a chart of use over time per release.
#include "text.h"
#include "usage.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <set>

namespace cudnn_compat {
namespace {

std::string or_none(const std::string &s) {
  return s.empty() ? "-" : s;
}

std::string xml(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string heading(const std::string &by) {
  if (by == "module") return "MODULE";
  if (by == "user") return "USER";
  if (by == "job") return "JOB";
  return "RELEASE";
}

// "9.0.0 (12), none (3)"
std::string counts_text(const UsageStore::Row::Counts &counts) {
  std::string s;
  for (const auto &[release, n] : counts)
    s += (s.empty() ? "" : ", ") + release + " (" + std::to_string(n) + ")";
  return s;
}

// The cells of one row, as the text table and the page show them.
std::vector<std::string> cells(const UsageStore::Row &r, const std::string &by) {
  return {or_none(r.key),
          std::to_string(r.records),
          std::to_string(r.users),
          std::to_string(r.jobs),
          utc_date(r.last),
          std::to_string(r.redirected),
          or_none(counts_text(r.instead_of)),
          or_none(join(by == "release" || by == "module" ? r.user_names : r.release_names, ","))};
}

std::vector<std::string> headings(const std::string &by) {
  return {heading(by),  "PROCESSES",
          "USERS",      "JOBS",
          "LAST USED",  "REDIRECTED",
          "INSTEAD OF", by == "release" || by == "module" ? "WHO" : "RELEASES"};
}

std::string footer(const UsageReport &r) {
  std::string s;
  for (const UsageStore::Row &row : r.rows)
    if (row.report_only)
      s += "report-only: " + std::to_string(row.report_only) + " processes of " +
           printable(or_none(row.key)) + " loaded what the loader found" +
           (row.would.empty()
                ? ""
                : "; the shim would have handed over " + printable(counts_text(row.would))) +
           "\n";
  if (r.drops)
    s += "dropped: " + std::to_string(r.drops) +
         " records could not be sent (no syslog socket, a full one, or a spool that could not "
         "be written), as later records from the same hosts and users say\n";
  const IngestCounts &k = r.skipped;
  if (k.torn + k.forged + k.newer + k.too_long)
    s += "skipped lines in all ingests: " + std::to_string(k.torn) + " torn, " +
         std::to_string(k.forged) + " forged, " + std::to_string(k.newer) + " of a newer format, " +
         std::to_string(k.too_long) + " too long\n";
  return s;
}

}  // namespace

std::string utc_date(std::int64_t t) {
  if (t <= 0) return "-";
  const std::time_t tt = std::time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

std::string report_text(const UsageReport &r) {
  std::vector<std::vector<std::string>> table = {headings(r.by)};
  // A record's values are the user's words: control characters written out, so no record can
  // move the admin's cursor or forge a row.
  for (const UsageStore::Row &row : r.rows) {
    table.push_back(cells(row, r.by));
    for (std::string &c : table.back()) c = printable(c);
  }
  std::vector<std::size_t> width(table[0].size(), 0);
  for (const auto &line : table)
    for (std::size_t i = 0; i < line.size(); ++i) width[i] = std::max(width[i], line[i].size());
  std::string s = "Use of cuDNN by " + r.by +
                  (r.since ? ", since " + utc_date(r.since) : std::string(", all records")) +
                  " (what each process loaded: the release handed over, or the loader's own)\n";
  if (r.rows.empty()) s += "no records" + std::string(r.since ? " since then" : "") + "\n";
  for (std::size_t n = 0; n < table.size() && !r.rows.empty(); ++n) {
    std::string line;
    for (std::size_t i = 0; i < table[n].size(); ++i) {
      const std::string &c = table[n][i];
      const bool number = i >= 1 && i <= 5 && i != 4;
      const std::string pad(width[i] - c.size(), ' ');
      line += (i ? "  " : "") + (number ? pad + c : i + 1 == table[n].size() ? c : c + pad);
    }
    s += line + "\n";
  }
  return s + footer(r);
}

std::string chart_svg(
    const std::vector<std::tuple<std::int64_t, std::string, std::int64_t>> &daily) {
  constexpr int kWidth = 720, kHeight = 300, kLeft = 60, kBottom = 40, kTop = 20, kRight = 160;
  static const char *const colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                        "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
  std::set<std::string> releases;
  std::int64_t first = 0, last = 0, most = 1;
  for (const auto &[day, release, n] : daily) {
    releases.insert(release);
    first = first ? std::min(first, day) : day;
    last = std::max(last, day);
    most = std::max(most, n);
  }
  const double plot_w = kWidth - kLeft - kRight, plot_h = kHeight - kTop - kBottom;
  const double span = double(std::max<std::int64_t>(last - first, 86400));
  auto x = [&](std::int64_t day) { return kLeft + plot_w * double(day - first) / span; };
  auto y = [&](std::int64_t n) { return kTop + plot_h * (1 - double(n) / double(most)); };
  char buf[160];
  std::string s =
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + std::to_string(kWidth) +
      "\" height=\"" + std::to_string(kHeight) + "\" font-family=\"sans-serif\" " +
      "font-size=\"11\" role=\"img\"><title>Processes per day, per cuDNN release</title>\n";
  std::snprintf(buf, sizeof buf, "<path d=\"M%d %d V%d H%d\" stroke=\"#444\" fill=\"none\"/>\n",
                kLeft, kTop, kHeight - kBottom, kWidth - kRight);
  s += buf;
  s += "<text x=\"4\" y=\"" + std::to_string(kTop + 4) + "\">" + std::to_string(most) + "</text>";
  s += "<text x=\"" + std::to_string(kLeft) + "\" y=\"" + std::to_string(kHeight - kBottom + 16) +
       "\">" + utc_date(first) + "</text><text x=\"" + std::to_string(kWidth - kRight) + "\" y=\"" +
       std::to_string(kHeight - kBottom + 16) + "\" text-anchor=\"end\">" + utc_date(last) +
       "</text>\n";
  int k = 0;
  for (const std::string &release : releases) {
    const char *colour = colours[k % 10];
    std::string points, dots;
    for (const auto &[day, r, n] : daily)
      if (r == release) {
        std::snprintf(buf, sizeof buf, "%s%.1f,%.1f", points.empty() ? "" : " ", x(day), y(n));
        points += buf;
        // A day of its own is a point, which a line alone does not draw.
        std::snprintf(buf, sizeof buf, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>",
                      x(day), y(n), colour);
        dots += buf;
      }
    s += dots + "\n<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" + std::string(colour) +
         "\" points=\"" + points + "\"><title>" + xml(or_none(release)) + "</title></polyline>\n";
    std::snprintf(buf, sizeof buf,
                  "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>",
                  kWidth - kRight + 12, kTop + 16 * k, colour);
    s += buf + std::string("<text x=\"") + std::to_string(kWidth - kRight + 28) + "\" y=\"" +
         std::to_string(kTop + 16 * k + 9) + "\">" + xml(or_none(release)) + "</text>\n";
    ++k;
  }
  return s + "</svg>\n";
}

std::string report_html(const UsageReport &r) {
  std::string s =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>cuDNN use by " +
      xml(r.by) + "</title><style>body{font-family:sans-serif;margin:2em}table{border-collapse:" +
      "collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}</style></head><body>\n"
      "<h1>cuDNN use by " +
      xml(r.by) + "</h1>\n<p>" +
      (r.since ? "Since " + utc_date(r.since) : std::string("All records")) +
      ": what each process loaded (the release handed over, or the loader's own).</p>\n" +
      "<h2>Processes per day, per release</h2>\n" + chart_svg(r.daily) + "<h2>By " + xml(r.by) +
      "</h2>\n<table>\n<tr>";
  for (const std::string &h : headings(r.by)) s += "<th>" + xml(h) + "</th>";
  s += "</tr>\n";
  for (const UsageStore::Row &row : r.rows) {
    s += "<tr>";
    for (const std::string &c : cells(row, r.by)) s += "<td>" + xml(c) + "</td>";
    s += "</tr>\n";
  }
  const std::string notes = footer(r);
  return s + "</table>\n" + (notes.empty() ? "" : "<pre>" + xml(notes) + "</pre>\n") +
         "</body></html>\n";
}

}  // namespace cudnn_compat
