// What doctor looks at, gathered: the loaded modules, LD_LIBRARY_PATH probed, the loader's answer
// for each major, the loaded CUDA, whether the shim is on and what it would choose. Every edge
// (environment, probes, the loader, ELF files, the engine) is injected, so that the gathering is
// tested on made-up environments; diagnose() (cudnn_compat.h) then judges the facts.
#pragma once

#include "decision_inputs.h"
#include "reports.h"
#include "system.h"

#include <functional>
#include <set>

namespace cudnn_compat {

struct DoctorIo {
  EnvReader env;
  std::function<bool(const std::string &dir)> holds_cudnn;
  std::function<Parsed<std::vector<Probe>>(const std::string &dir)> probe_dir;
  std::function<std::optional<Probe>(const std::string &file)> probe_file;
  // Why a file the loader takes does not load, in the probe's words (no_answer); may be empty.
  std::function<std::string(const std::string &file)> why_not_loaded;
  std::function<std::optional<LoaderHit>(const std::string &name, const LoaderContext &lc)> search;
  std::function<std::vector<std::string>(const std::string &file)> needed;  // its DT_NEEDED
  std::function<Selection(const SelectInputs &in)> select;                  // the engine
  std::function<ModuleScene()> scene;  // the module system and what it has loaded
  // The CUDA major of the installation CUDA_HOME names (its version files), when no module says.
  std::function<std::optional<int>(const std::string &home)> cuda_major_of_home;
  // The frameworks of the active Python environment that pin cuDNN (active_consumers), for the
  // program (absolute, or empty).
  std::function<std::vector<CudnnConsumer>(const std::string &program)> consumers;
  // The cuDNN sub-library names a directory holds for major ("engines_tensor_ir", ...): a family
  // may lack one that its search path offers from another release.
  std::function<std::vector<std::string>(const std::string &dir, int major)> subs_in;
  // The sub-libraries a family asks for by name (family_named_subs of its dispatcher).
  std::function<std::set<std::string>(const std::string &dispatcher, int major)> named_subs;
};
// The real edges: probes through options' helper, the engine probing the same way.
DoctorIo system_doctor_io(const ProbeOptions &options);

// The facts for `program` (absolute, or empty) that needs `need` (a cuDNN, or none: then only its
// node, when known, judges what the loader finds), under `map`. `asked`: what `need` was derived
// from; a framework's library asking derives its own from it and its pins, as the shim does.
DoctorFacts gather_doctor_facts(const std::string &program, const Need &need, const Map *map,
                                const DoctorIo &io, const NeedInputs &asked = {});

// The pure steps of the gathering.
// The majors to follow: the need's, those on LD_LIBRARY_PATH, those the program links; 8 and 9
// when nothing says which.
std::vector<int> majors_to_follow(const DoctorFacts &f);
// The CUDA major a loaded `cuda/<version>` module gives (Spack's `cuda/<version>-<hash>` too), and
// which module says so.
std::pair<std::optional<int>, std::string> loaded_cuda(const std::vector<std::string> &modules);

}  // namespace cudnn_compat
