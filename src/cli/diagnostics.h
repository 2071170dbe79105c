// The one place where the CLI's errors, warnings and notes on stderr get their prefix and colour,
// after mold's `Error(ctx) << ...`. The line is written when the statement ends:
//   Error() << "no map";    "cudnn-compat: no map"           the prefix in bold red
//   Warn() << "scan: ...";  "cudnn-compat: scan: ..."        the prefix in bold magenta
//   Note() << "no cache";   "cudnn-compat: note: no cache"   "note:" in bold cyan
//   print_diagnostic(d);    "map.toml:3:11: error: ..."      "error:"/"warning:" coloured
// Colour only when stderr is a terminal and NO_COLOR is unset (https://no-color.org).
#pragma once

#include "cudnn_compat.h"

#include <sstream>

namespace cudnn_compat::cli {

class Said {
 public:
  enum class Kind { error, warning, note };
  explicit Said(Kind kind) : kind_(kind) {}
  Said(const Said &) = delete;
  Said &operator=(const Said &) = delete;
  ~Said();

  template <typename T>
  Said &operator<<(const T &value) {
    text_ << value;
    return *this;
  }

 private:
  Kind kind_;
  std::ostringstream text_;
};

inline Said Error() {
  return Said(Said::Kind::error);
}
inline Said Warn() {
  return Said(Said::Kind::warning);
}
inline Said Note() {
  return Said(Said::Kind::note);
}

void print_diagnostic(const Diagnostic &d);  // a map's own diagnostic, in the compilers' form

// Every error said so far (Error() and error diagnostics), uncoloured: what a failing command that
// printed no JSON document tells --json.
const std::vector<std::string> &errors_said();

}  // namespace cudnn_compat::cli
