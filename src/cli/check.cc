// cudnn-compat check: is a runtime cuDNN compatible with the one a program was built with?
#include "cli.h"
#include "diagnostics.h"

#include <algorithm>
#include <iostream>

namespace cudnn_compat::cli {

std::string rule_list() {
  std::string s;
  for (const RuleInfo &r : all_rules()) {
    std::string name(r.name);
    name.resize(std::max<std::size_t>(name.size() + 1, 18), ' ');
    s.append("  ").append(name).append(r.summary).append("\n");
  }
  return s;
}

void add_check(CLI::App &app, Globals &g) {
  struct Opts {
    std::string built, runtime, rule = "nvidia";
  };
  auto o = std::make_shared<Opts>();
  CLI::App *cmd =
      app.add_subcommand("check", "Judge a runtime cuDNN against the one a program was built with");
  cmd->add_option("--built-with,-b", o->built,
                  "The cuDNN the program was compiled with (any form decode reads)")
      ->required();
  cmd->add_option("--runtime,-r", o->runtime,
                  "The cuDNN loaded at run time (any form decode reads)")
      ->required();
  cmd->add_option("--rule", o->rule, "Whose rule judges (default: nvidia)");
  cmd->footer("\nRules:\n" + rule_list() + R"(
Examples:
  cudnn-compat check --built-with 5103 --runtime 5005 --rule tensorflow-2016
  cudnn-compat check -b 8.9.2 -r 8.5.0 --rule pytorch --json

Exit status: 0 compatible, 1 incompatible, 2 bad input.)");
  cmd->callback([o, &g] {
    const Parsed<Decoded> built = decode(o->built), runtime = decode(o->runtime);
    const std::optional<Rule> rule = parse_rule(o->rule);
    for (const std::string &e : {built.error, runtime.error})
      if (!e.empty()) Error() << e;
    if (!rule) Error() << "unknown rule '" + o->rule + "'; expected one of:\n" + rule_list();
    if (!built || !runtime || !rule) {
      g.exit_code = kUsage;
      return;
    }
    const Verdict v = judge(*rule, runtime->version, built->version);
    const Verdict nv = judge(Rule::nvidia, runtime->version, built->version);
    if (g.json) {
      print_json({{"compatible", v.compatible},
                  {"rule", rule_name(*rule)},
                  {"reason", v.reason},
                  {"runtime", to_string(runtime->version)},
                  {"built_with", to_string(built->version)},
                  {"nvidia", {{"compatible", nv.compatible}, {"reason", nv.reason}}}});
    } else {
      std::cout << (v.compatible ? "compatible" : "incompatible") << ": runtime cuDNN "
                << to_string(runtime->version) << ", built with " << to_string(built->version)
                << ", rule " << rule_name(*rule) << ": " << v.reason << ".\n";
      if (*rule != Rule::nvidia && nv.compatible != v.compatible)
        std::cout << "NVIDIA's own policy " << (nv.compatible ? "allows" : "forbids")
                  << " it: " << nv.reason << ".\n";
    }
    g.exit_code = v.compatible ? kYes : kNo;
  });
}

}  // namespace cudnn_compat::cli
