// Facts gathering: what the file system and the libraries say about the map's releases, and the
// files derived from the map that jobs and hooks read (cache, fits table, decision table). The
// edge where the map, the system and the decisions meet; uses all three.
#pragma once

#include "decide.h"
#include "system.h"

#include <string>
#include <vector>

namespace cudnn_compat {

// What only the file system can tell: lib directories that vanished or hold no libcudnn, and
// (an error) a relative lib, which would be read against each job's working directory.
std::vector<Diagnostic> check_map_libraries(const Map &map);
// The map as this host holds it, for advice: without the places whose library is missing, does
// not load or reports another release (the decision table's rule), so that a module advised
// loads a release that is there; each with the CUDA its library reports (release_cuda).
Map places_that_load(const Map &map, const ProbeOptions &options);
// The map with each entry of major (any, when unknown) given the CUDA its library reports, over
// the map's word where the two differ (release_cuda): what the engine and the decision table go
// by.
Map with_library_cuda(const Map &map, std::optional<int> major, const ProbeOptions &options);
// The map without the environments' places (a conda record's, a wheel's word for its release)
// whose library reports another release or does not load; dropped says which and why, as the shim
// says it when it passes one over.
Map places_their_libraries_confirm(const Map &map, const ProbeOptions &options,
                                   std::vector<std::string> &dropped);

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
