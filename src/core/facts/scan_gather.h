// What `cudnn-compat scan` finds: every library directory the modules name or the search roots
// hold, probed once each, as map entries and problems in words. The file system and the probe
// are injected; the CLI renders the result and writes the map.
#pragma once

#include "map.h"
#include "system.h"

#include <functional>

namespace cudnn_compat {

struct ScanModule {  // a cuDNN module (or a CUDA module that may carry one), as listed
  std::string name;
  std::vector<std::string> lib_dirs;  // what it adds to LD_LIBRARY_PATH
  bool cudnn = true;                  // named as a cuDNN module: finding none there is a problem
  bool hidden = false;                // the module system hides it: its places are not handed out
  std::vector<std::string> load_first = {};  // Lmod's hierarchy: the modules to load before it
};

struct ScanIo {
  std::function<bool(const std::string &dir)> holds_cudnn;
  std::function<std::string(const std::string &path)> canonical;  // symlinks resolved
  // Library directories under the roots (find_cudnn_dirs).
  std::function<std::vector<std::string>(const std::vector<std::string> &roots)> walk;
  std::function<Parsed<std::vector<Probe>>(const std::string &dir)> probe;
  std::function<void(std::size_t index, std::size_t total, const std::string &dir)> progress;
  // The module system's own error for a module, "" when its modulefile is sound.
  std::function<std::string(const ScanModule &m)> module_error;
  // The wheels and conda environments under a root (find_python_places).
  std::function<std::vector<PythonPlace>(const std::string &root)> python_walk;
};

struct ScanFound {
  std::vector<Installed> scanned;
  std::vector<std::string> problems;  // one line each, for people
};

// python_roots: the Python environments an admin names (scan --python), whose places carry
// their source (wheel, conda) and the version their package declares when the library agrees.
ScanFound gather_scan(const std::vector<ScanModule> &modules,
                      const std::vector<std::string> &search_roots, const ScanIo &io,
                      const std::vector<std::string> &python_roots = {});

// Library directories under the roots at any depth, through symlinked directories too, each by
// the path it was reached by (links kept, not resolved); each directory is entered once (by device
// and inode), so a symlink loop ends (I/O).
std::vector<std::string> find_cudnn_dirs(const std::vector<std::string> &roots);

}  // namespace cudnn_compat
