// What the engine tells the shim for a usage record: the fields only a decision knows, from the
// need to the verdict, encoded as shim/shared/usage_record.h says (the shim adds the rest).
#include "decide.h"
#include "usage_record.h"

#include <filesystem>

namespace cudnn_compat {
namespace {

std::string_view origin_word(NeedOrigin o) {
  switch (o) {
    case NeedOrigin::asked:
      return "env";
    case NeedOrigin::pin:
      return "pin";
    case NeedOrigin::rule:
      return "rule";
    case NeedOrigin::name:
      return "name";
    case NeedOrigin::none:
      break;
  }
  return "";
}

struct Fields {
  std::string text = std::string(CUDNN_COMPAT_USAGE_MAX, '\0');
  long at = 0;
  void put(const char *key, std::string_view value) {
    at = cudnn_compat_usage_put(text.data(), long(text.size()), at, key, value.data(),
                                long(value.size()));
  }
};

// The map's place of a file: the entry whose lib is the file's directory.
const Installed *place_of(const Map *map, const std::string &file) {
  if (!map || file.empty()) return nullptr;
  const std::filesystem::path dir = std::filesystem::path(file).parent_path().lexically_normal();
  for (const Installed &e : map->cudnn)
    if (std::filesystem::path(e.lib).lexically_normal() == dir) return &e;
  return nullptr;
}

// "KEY=file REL=release SRC=source MOD=module" of one file ("" for none).
void put_file(Fields &f, const char *const keys[4], const std::string &file,
              const std::optional<Version> &release, Source source, const Map *map) {
  const Installed *e = place_of(map, file);
  f.put(keys[0], file);
  // A place of the map is named by the map's release (8.9.2.26, as the decision table names it).
  f.put(keys[1], e ? to_string(e->version) : release ? to_string(*release) : "");
  f.put(keys[2], file.empty() ? "" : to_string(source));
  f.put(keys[3], e ? e->module : "");
}

}  // namespace

std::string usage_fields(const SelectInputs &in, const Selection &s) {
  static const char *const loader_keys[4] = {"loader", "lrel", "lsrc", "lmod"};
  static const char *const got_keys[4] = {"got", "rel", "src", "mod"};
  Fields f;
  f.put("need", in.need.cudnn ? to_string(*in.need.cudnn) : "");
  f.put("cuda", in.need.cuda_major ? std::to_string(*in.need.cuda_major) : "");
  f.put("from", origin_word(in.need.origin));
  const std::string loader = in.loader ? in.loader->path : "";
  put_file(f, loader_keys, loader, s.loader_release, in.loader_source, in.map);
  if (s.use)
    put_file(f, got_keys, *s.use, s.release, s.source.value_or(in.loader_source), in.map);
  else
    put_file(f, got_keys, loader, s.loader_release, in.loader_source, in.map);
  f.put("verdict", to_string(s.outcome));
  f.text.resize(std::size_t(f.at));
  return f.text;
}

}  // namespace cudnn_compat
