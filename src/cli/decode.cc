// cudnn-compat decode: what a version number, library name or module name means.
#include "cli.h"
#include "diagnostics.h"

#include <iostream>

namespace cudnn_compat::cli {
namespace {

// A CUDA version (--cudart) has no cuDNN integer form and no TensorFlow compatibility version.
nlohmann::json to_json(const Decoded &d, bool cudart) {
  const Version &v = d.version;
  const auto opt = [](const std::optional<int> &c) {
    return c ? nlohmann::json(*c) : nlohmann::json(nullptr);
  };
  nlohmann::json j{{"input", d.input},      {"form", d.form},          {"version", to_string(v)},
                   {"major", v.major},      {"minor", opt(v.minor)},   {"patch", opt(v.patch)},
                   {"build", opt(v.build)}, {"cuda", json_of(d.cuda)}, {"number", nullptr},
                   {"compat", nullptr}};
  if (!cudart && v.minor) {
    if (v.patch) j["number"] = cudnn_number(v);
    j["compat"] = tensorflow_compat_number(v);
  }
  if (d.library)
    j["library"] = {
        {"sub", d.library->sub.empty() ? nlohmann::json(nullptr) : nlohmann::json(d.library->sub)},
        {"windows", d.library->windows}};
  return j;
}

std::string to_text(const Decoded &d, bool cudart) {
  const Version &v = d.version;
  std::string s = d.input + ": ";
  if (cudart) return s + "CUDA " + to_string(v);
  s += "cuDNN " + to_string(v);
  if (d.library)
    s += d.library->sub.empty() ? " (main library)" : " (sub-library " + d.library->sub + ")";
  if (d.cuda) s += " for CUDA " + to_string(*d.cuda);
  if (d.form == "cudnn-number")
    s += std::string("; encoded as ") + (v.major >= 9 ? "major*10000" : "major*1000") +
         " + minor*100 + patch";
  if (v.minor)
    s += "; TensorFlow 2016-2018 \"compatibility version\" " +
         std::to_string(tensorflow_compat_number(v));
  if (!v.minor) s += "; the name carries the major version only";
  return s;
}

}  // namespace

void add_decode(CLI::App &app, Globals &g) {
  struct Opts {
    std::vector<std::string> values;
    bool cudart = false;
  };
  auto o = std::make_shared<Opts>();
  CLI::App *cmd =
      app.add_subcommand("decode", "Say what a cuDNN version number, name or tuple means");
  cmd->add_option("VALUE", o->values,
                  "5005, 91001, 5.1.10, 8.9.2.26, \"(8, 9, 2)\", libcudnn.so.8.9.7, "
                  "cudnn_ops64_9.dll, cudnn/8.9.7.29-12, cuDNN/8.9.2.26-CUDA-12.1.1")
      ->required();
  cmd->add_flag(
      "--cudart", o->cudart,
      "Read integers as CUDA runtime numbers from cudnnGetCudartVersion() (12020 = 12.2)");
  cmd->footer(R"(
Integers are read in both of cuDNN's encodings: major*1000+minor*100+patch up to 8.x
(5103 = 5.1.3, 5110 = 5.1.10) and major*10000+minor*100+patch from 9.0 (91001 = 9.10.1).
An input that does not have one reading is an error, never a guess.

Examples:
  cudnn-compat decode 5005 5103           # the two numbers of TensorFlow's 2016 message
  cudnn-compat decode cuDNN/8.9.2.26-CUDA-12.1.1
  cudnn-compat decode --cudart 13010
  cudnn-compat decode --json 91001        # one object; several values give an array

Exit status: 0 all decoded, 2 a value could not be read.)");
  cmd->callback([o, &g] {
    nlohmann::json all = nlohmann::json::array();
    int rc = kYes;
    for (const std::string &value : o->values) {
      const Parsed<Decoded> d = o->cudart ? decode_cudart(value) : decode(value);
      if (!d) {
        rc = kUsage;
        if (g.json)
          all.push_back({{"input", value}, {"error", d.error}});
        else
          Error() << d.error;
        continue;
      }
      if (g.json)
        all.push_back(to_json(*d, o->cudart));
      else
        std::cout << to_text(*d, o->cudart) << '\n';
    }
    if (g.json) print_json(all.size() == 1 ? all[0] : all);
    g.exit_code = rc;
  });
}

}  // namespace cudnn_compat::cli
