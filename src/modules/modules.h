// Module-system adapters: run Lmod's spider or Environment Modules' modulecmd and read what they
// print. Parsing is pure (tested on recorded output); running is the I/O edge.
#pragma once

#include "cudnn_compat.h"

#include <string>
#include <vector>

namespace cudnn_compat {

struct ModuleLibs {
  std::string name;  // the full name users load: cudnn/5.1, cuDNN/8.9.2.26-CUDA-12.1.1
  std::string file;  // the modulefile
  std::vector<std::string> lib_dirs;  // what it adds to LD_LIBRARY_PATH
  bool hidden = false;  // Lmod's spider says so; Environment Modules: a dot name or tag "hidden"
  std::string error;    // the module system's own words when evaluating the modulefile failed
  // Lmod's hierarchy: the modules whose load puts this one on MODULEPATH (spider's first parentAA
  // path, e.g. gcc/12.2.0); empty when MODULEPATH holds it from the start.
  std::vector<std::string> load_first = {};
};

// Whether a module's name says cuDNN at all (any case, any scheme); its version is never trusted.
bool is_cudnn_module(std::string_view full_name);
// A cuDNN module, or a CUDA module (cuda/12.2, CUDA/12.2.0): some carry cuDNN in their own lib64.
bool may_carry_cudnn(std::string_view full_name);

// `spider -o spider-json MODULEPATH`: {sn: {file: {fullName, lpathA, hidden, ...}}}.
Parsed<std::vector<ModuleLibs>> parse_spider_json(std::string_view text);
// `modulecmd.tcl bash avail -a --json`: {modulepath: {name: {name, type, tags, pathname}}}.
Parsed<std::vector<ModuleLibs>> parse_avail_json(std::string_view text);
// `modulecmd.tcl bash display NAME`: its prepend-path/append-path LD_LIBRARY_PATH directories.
std::vector<std::string> parse_display_lib_dirs(std::string_view text);
// The error a module command printed about a broken modulefile, as one line; empty when none.
std::string parse_module_error(std::string_view text);

struct ModuleSystem {
  ModuleSystemKind kind = ModuleSystemKind::unknown;
  std::string command;  // Lmod's spider, or modulecmd.tcl
};
// Which system this environment has: LMOD_DIR/spider, else MODULES_CMD, else the Debian paths.
// No kind wanted: the shell's own system, else whichever is found.
std::optional<ModuleSystem> find_module_system(std::optional<ModuleSystemKind> wanted);
// Where find_module_system looks for that system, in words ("$LMOD_DIR/spider, else ...").
std::string module_system_places(ModuleSystemKind kind);
// Every cuDNN module on MODULEPATH with its library directories, or why the system failed.
Parsed<std::vector<ModuleLibs>> list_cudnn_modules(const ModuleSystem &system,
                                                   const std::string &modulepath);
// Why a module adds no cuDNN when its modulefile is broken: the module system's own error line
// (Lmod's spider keeps quiet about it, so Lmod is asked to show the module); empty when it is not.
std::string module_error(const ModuleSystem &system, const std::string &modulepath,
                         const ModuleLibs &m);

}  // namespace cudnn_compat
