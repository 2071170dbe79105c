// What a recognised error means and what fixes it: the rule in words, the installed modules that
// would fit, or the release to ask the admins for.
#include "cudnn_compat.h"

namespace cudnn_compat {
namespace {

std::string who(const Finding &f) {
  return f.framework.empty() ? "the program" : f.framework;
}

}  // namespace

std::vector<std::string> installed_fixes(const Map *map, const Need &need, int major) {
  std::vector<std::string> out;
  if (!map) return out;
  LibraryName any;
  any.version = Version{major, {}, {}, {}};
  for (std::size_t i : rank(*map, need, any)) {
    const Installed &e = map->cudnn[i];
    if (!e.module.empty())
      out.push_back("module load " + e.module + "   # cuDNN " + to_string(e.version));
  }
  if (out.empty() && !rank(*map, need, any).empty() && need.cudnn)
    out.push_back("export CUDNN_COMPAT_REQUIRE=" + to_string(*need.cudnn) +
                  " LD_AUDIT=$(cudnn-compat shim-path)   # the shim picks it from the map");
  return out;
}

Advice advise(const Finding &f, const Map *map) {
  Advice a;
  const Rule rule = f.rule.value_or(map ? map->policy.rule : Rule::nvidia);
  switch (f.kind) {
    case FindingKind::version_mismatch:
    case FindingKind::outdated: {
      if (!f.runtime || !f.built_with) {
        a.what =
            "cuDNN refused a version mismatch (CUDNN_STATUS_VERSION_MISMATCH): the program "
            "or one of its libraries was built against another cuDNN than the one loaded";
        a.fixes.push_back(
            "cudnn-compat resolve libcudnn.so.<major> --require <the cuDNN it was "
            "built with>");
        break;
      }
      a.what = who(f) + " loaded cuDNN " + to_string(*f.runtime) + " but was built with cuDNN " +
               to_string(*f.built_with);
      const Verdict v = judge(rule, *f.runtime, *f.built_with);
      const Verdict nvidia = judge(Rule::nvidia, *f.runtime, *f.built_with);
      a.compatible = v.compatible;
      a.rule = "rule " + std::string(rule_name(rule)) +
               (v.compatible ? " accepts: " : " refuses: ") + v.reason + "; NVIDIA's own policy " +
               (nvidia.compatible ? "would accept them" : "agrees: " + nvidia.reason);
      const Need need{*f.built_with, std::nullopt, rule, "the message"};
      a.fixes = installed_fixes(map, need, f.built_with->major);
      if (a.fixes.empty())
        a.fixes.push_back("ask the admins for cuDNN " + acceptable_releases(rule, *f.built_with) +
                          (map ? " (none is installed)" : " (no version map here to look in)"));
      break;
    }
    case FindingKind::library_not_found: {
      const Parsed<LibraryName> n = parse_library_name(f.library);
      a.what = f.library.empty() ? "a cuDNN library could not be loaded"
                                 : "the loader found no " + f.library + " on its search path";
      if (n && n->version) {
        const int major = n->version->major;
        a.fixes = installed_fixes(map, Need{std::nullopt, std::nullopt, rule, ""}, major);
        if (a.fixes.empty())
          a.fixes.push_back("ask the admins for cuDNN " + std::to_string(major) +
                            (map ? " (none is installed)" : " (no version map here to look in)"));
      }
      a.fixes.push_back("cudnn-compat resolve " + (f.library.empty() ? "libcudnn.so" : f.library));
      break;
    }
    case FindingKind::sublibrary_mismatch:
      a.what =
          "cuDNN's sub-libraries came from another release than its dispatcher (a mixed "
          "family: a second cuDNN of the same major earlier on LD_LIBRARY_PATH)";
      a.fixes.push_back(
          "export LD_AUDIT=$(cudnn-compat shim-path)   # keeps every libcudnn_* in "
          "the dispatcher's directory");
      break;
    case FindingKind::dependency_not_found: {
      a.what = f.library + " was found but needs " + f.missing + ", which the loader cannot find";
      const bool driver = f.missing.rfind("libcuda.so", 0) == 0;
      a.fixes.push_back(driver ? "run on a node with the NVIDIA driver (" + f.missing +
                                     " comes with the driver, not with CUDA)"
                               : "module load cuda/<the CUDA major this cuDNN was built for>   # "
                                 "provides " +
                                     f.missing);
      break;
    }
    case FindingKind::unknown:
      a.what = f.note;
      break;
  }
  return a;
}

}  // namespace cudnn_compat
