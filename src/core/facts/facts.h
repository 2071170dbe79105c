// Facts gathering: what the file system and the libraries say about the map's releases, and the
// files derived from the map that jobs and hooks read (cache, fits table, decision table). The
// edge where the map, the system and the decisions meet; uses all three.
#pragma once

#include "decide.h"
#include "system.h"

#include <functional>
#include <string>
#include <vector>

namespace cudnn_compat {

// What only the file system can tell: lib directories that vanished or hold no libcudnn, and
// (an error) a relative lib, which would be read against each job's working directory.
std::vector<Diagnostic> check_map_libraries(const Map &map);
// The map as this host holds it, for advice: without the places whose library is missing or does
// not load, each as its library reports it (as_library_reports), so that a module advised loads a
// release that is there.
Map places_that_load(const Map &map, const ProbeOptions &options);
// The map without the places whose directory holds no cuDNN library (a release the site removed,
// its module left behind), as resolve and the shim pass over them (no probe); those go to `gone`
// when given.
Map places_present(const Map &map, std::vector<Installed> *gone = nullptr);
// The main library an entry's directory holds: of the map's major, else of another major, the
// lowest (a directory listed as 5.1.10 that holds only cuDNN 6.0.21's libcudnn.so.6 is, as its
// library reports, a cuDNN 6: a module of it gives a program no libcudnn.so.5).
std::optional<std::string> entry_main_library(const Installed &e);
// What as_their_libraries_report said of the entries it did not take at the map's word.
struct MapCorrections {
  std::vector<std::string> dropped;    // an environment's place whose library does not load
  std::vector<std::string> corrected;  // "the map says 5.2.0 but FILE reports 5.1.10"
  // A site's place whose library ran and did not load: its lib, and the shim's words for it.
  std::vector<std::pair<std::string, std::string>> unloadable = {};
};
// The map as the shim's engine decides on it: each entry `ask` names as its library reports it
// (those of the major asked for; the loaded modules' and the needed majors'), and without the
// environments' places (a conda record's, a wheel's word) whose library does not load; said in
// the words the shim uses when it passes one over. A probe per entry asked.
Map as_their_libraries_report(const Map &map, const std::function<bool(const Installed &)> &ask,
                              const ProbeOptions &options, MapCorrections &said);

// git's racy-clean rule for every file derived from the map (cache, fits table, decision table):
// a reader trusts one only while the map's stamp matches and the map is older than it. The writer
// first waits until the clock has left the second of the map's mtime, then reads the map again
// from one descriptor and checks that it still says what `parsed` says: an edit after that gets
// a newer mtime. Returns the stamp of what was read, or why not.
Parsed<FileStamp> settle_map_stamp(const Map &parsed);
// The map's cache, fits and misfits tables and decision table, all from one settled stamp, beside
// the map or in dir; empty, or why not.
std::string write_job_caches(const MapLoad &load, const std::string &probe_helper);
std::string write_job_caches(const MapLoad &load, const TableFacts &facts,
                             const std::string &dir = "");  // facts gathered
// The four removed (a map with errors must leave none that matches its stamp); empty, or why not.
std::string remove_job_caches(const std::string &map_path, const std::string &dir = "");

TableFacts gather_table_facts(const Map &map, const ProbeOptions &options);
// The map with each release's device code read from its files, for a decision on a node whose
// GPUs are known (resolve, doctor --node-report).
Map with_device_code(Map map);

}  // namespace cudnn_compat
