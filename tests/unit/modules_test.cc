// The module-system adapters on output recorded from Lmod 8.6 and Environment Modules 5.2, and
// the merge of a scan into the admin's map.
#include "modules.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

TEST(Modules, ReadsSpiderJson) {
  const char *json = R"({"cudnn": {
      "/m/cudnn/5.0.lua": {"fullName": "cudnn/5.0", "hidden": false,
                           "lpathA": {"/opt/cudnn/5.0.5/lib64": 1}},
      "/m/cudnn/.5.1-debug.lua": {"fullName": "cudnn/.5.1-debug", "hidden": true,
                                  "lpathA": {"/opt/cudnn/5.1.10/lib64": 1}}},
    "cuDNN": {"/m/cuDNN/8.9.2.26-CUDA-12.1.1.lua": {"fullName": "cuDNN/8.9.2.26-CUDA-12.1.1"}},
    "cudnn-compat": {"/m/cudnn-compat.lua": {"fullName": "cudnn-compat"}},
    "gcc": {"/m/gcc/12.lua": {"fullName": "gcc/12", "lpathA": {"/opt/gcc/lib64": 1}}}})";
  const Parsed<std::vector<ModuleLibs>> m = parse_spider_json(json);
  ASSERT_TRUE(m) << m.error;
  ASSERT_EQ(m->size(), 3u);  // not gcc, not cudnn-compat's own module
  EXPECT_EQ((*m)[0].name, "cuDNN/8.9.2.26-CUDA-12.1.1");
  EXPECT_TRUE((*m)[0].lib_dirs.empty());
  EXPECT_EQ((*m)[1].name, "cudnn/5.0");
  EXPECT_EQ((*m)[1].lib_dirs, std::vector<std::string>{"/opt/cudnn/5.0.5/lib64"});
  EXPECT_EQ((*m)[2].name, "cudnn/.5.1-debug");  // hidden ones last: visible names win a shared dir
  EXPECT_TRUE((*m)[2].hidden);
  EXPECT_TRUE((*m)[1].load_first.empty());
  // A module of an Lmod hierarchy: the first of its ways in (spider's parentAA).
  const Parsed<std::vector<ModuleLibs>> h = parse_spider_json(R"({"cudnn": {
      "/m/gcc/12.2.0/cudnn/8.9.lua": {"fullName": "cudnn/8.9", "lpathA": {"/opt/c89/lib": 1},
        "parentAA": [["gcc/12.2.0", "openmpi/4.1.5"], ["intel/2023"]]}}})");
  ASSERT_TRUE(h) << h.error;
  EXPECT_EQ(h->at(0).load_first, (std::vector<std::string>{"gcc/12.2.0", "openmpi/4.1.5"}));
  EXPECT_FALSE(parse_spider_json("not json"));
  EXPECT_FALSE(parse_spider_json("[1, 2]"));
}

TEST(Modules, ReadsAvailJsonAndDisplay) {
  const char *json = R"({"/m": {
    "cudnn/5.1": {"name": "cudnn/5.1", "type": "modulefile", "pathname": "/m/cudnn/5.1"},
    "cudnn/default": {"name": "cudnn/default", "type": "alias", "pathname": ""},
    "cudnn/.6.0": {"name": "cudnn/.6.0", "type": "modulefile", "pathname": "/m/cudnn/.6.0"},
    "cudnn/7.0": {"name": "cudnn/7.0", "type": "modulefile", "tags": ["hidden"], "pathname": "x"},
    "tensorflow/1.0": {"name": "tensorflow/1.0", "type": "modulefile", "pathname": "/m/tf"}}})";
  const Parsed<std::vector<ModuleLibs>> m = parse_avail_json(json);
  ASSERT_TRUE(m) << m.error;
  ASSERT_EQ(m->size(), 3u);
  EXPECT_EQ((*m)[0].name, "cudnn/5.1");
  EXPECT_FALSE((*m)[0].hidden);
  EXPECT_EQ((*m)[1].name, "cudnn/.6.0");
  EXPECT_TRUE((*m)[1].hidden);
  EXPECT_EQ((*m)[2].name, "cudnn/7.0");  // hidden by module-hide in a modulerc
  EXPECT_TRUE((*m)[2].hidden);
  EXPECT_EQ(parse_display_lib_dirs("-----\n/m/cudnn/5.1:\n\nmodule-whatis\t{cuDNN 5.1.10}\n"
                                   "prepend-path\tLD_LIBRARY_PATH /a/lib64:/b\n"
                                   "append-path LD_LIBRARY_PATH  /c\n"
                                   "prepend-path\tLIBRARY_PATH /x\n"),
            (std::vector<std::string>{"/a/lib64", "/b", "/c"}));
}

TEST(Modules, DisplayOfSpackTclAndBrokenModules) {
  EXPECT_EQ(parse_display_lib_dirs("prepend-path\t--delim : LD_LIBRARY_PATH /s/lib64\n"
                                   "prepend-path\t-d : --duplicates LD_LIBRARY_PATH /t:/u\n"
                                   "prepend-path\t--delim=: LIBRARY_PATH /x\n"
                                   "append-path\t-d { } LD_LIBRARY_PATH {/v /w}\n"),
            (std::vector<std::string>{"/s/lib64", "/t", "/u", "/v", "/w"}));
  EXPECT_EQ(
      parse_module_error("Module ERROR: invalid command name \"x\"\n      while executing\n"
                         "  \"x a\"\n      (file \"/m/cudnn/4.0\" line 3)\n  Please contact\n"),
      "Module ERROR: invalid command name \"x\" (file \"/m/cudnn/4.0\" line 3)");
  EXPECT_EQ(parse_module_error("prepend-path LD_LIBRARY_PATH /x\n"), "");
  EXPECT_TRUE(may_carry_cudnn("cuda/12.2"));
  EXPECT_FALSE(is_cudnn_module("cuda/12.2"));
}

TEST(Modules, MergeKeepsTheAdminsWork) {
  Map old;
  old.policy.rule = Rule::tensorflow_2016;
  old.require.push_back({"/opt/apps/*", *parse_dotted("5.1"), std::nullopt, {}});
  old.cudnn.push_back({*parse_dotted("5.1.3"), "/opt/5.1/lib64", std::nullopt, "cudnn/5.1", {}});
  old.cudnn.push_back({*parse_dotted("8.9.7"), "/hand/made", std::nullopt, "", {}});
  old.cudnn.push_back({*parse_dotted("7.0.5"), "/gone", std::nullopt, "cudnn/7.0", {}});
  const std::vector<Installed> scanned{
      {*parse_dotted("5.1.10"), "/opt/5.1/lib64/", Version{8, 0, {}, {}}, "cudnn/5.1", {}},
      {*parse_dotted("9.1.0"), "/opt/9.1/lib64", Version{12, 4, {}, {}}, "cudnn/9.1", {}}};
  const MergeIo io{[](const std::string &lib) { return lib != "/gone"; },
                   [](std::string lib) {
                     while (lib.size() > 1 && lib.back() == '/') lib.pop_back();
                     return lib;
                   },
                   {},
                   false};
  MergeReport r;
  const Map m = merge_scan(old, scanned, io, r);
  EXPECT_EQ(m.policy.rule, Rule::tensorflow_2016);
  ASSERT_EQ(m.require.size(), 1u);
  ASSERT_EQ(m.cudnn.size(), 3u);
  EXPECT_EQ(to_string(m.cudnn[0].version), "5.1.10");  // found again: the library's word
  EXPECT_EQ(m.cudnn[0].lib, "/opt/5.1/lib64");         // the admin's spelling stays
  EXPECT_EQ(m.cudnn[1].lib, "/hand/made");
  EXPECT_EQ(m.cudnn[2].module, "cudnn/9.1");
  EXPECT_EQ(r.changed, std::vector<std::string>{"cuDNN 5.1.3 (cudnn/5.1) in /opt/5.1/lib64 -> "
                                                "cuDNN 5.1.10 for CUDA 8.0 (cudnn/5.1) in "
                                                "/opt/5.1/lib64"});
  EXPECT_EQ(r.added,
            std::vector<std::string>{"cuDNN 9.1.0 for CUDA 12.4 (cudnn/9.1) in /opt/9.1/lib64"});
  ASSERT_EQ(r.dropped.size(), 1u);
  EXPECT_NE(r.dropped[0].find("/gone"), std::string::npos);
}

// Edges where every place is there, under the name it was written by.
MergeIo every_place_there() {
  return {[](const std::string &) { return true; },
          [](const std::string &lib) { return lib; },
          {},
          false};
}

// A module's parents (load_first): an Lmod scan's word where it finds some; a scan that finds
// none (Environment Modules prints none) keeps the admin's (an outside tester's finding: merge
// dropped them).
TEST(Modules, MergeKeepsParentsTheScanCannotSee) {
  Map old;
  old.cudnn.push_back({*parse_dotted("5.1.10"), "/a", std::nullopt, "cudnn/5.1", {}});
  old.cudnn.back().load_first = {"gcc/12.2.0"};
  old.cudnn.push_back({*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9", {}});
  old.cudnn.back().load_first = {"gcc/11.3.0"};
  std::vector<Installed> scanned{{*parse_dotted("5.1.10"), "/a", std::nullopt, "cudnn/5.1", {}},
                                 {*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9", {}}};
  scanned[1].load_first = {"gcc/12.2.0"};
  const MergeIo io = every_place_there();
  MergeReport r;
  const Map m = merge_scan(old, scanned, io, r);
  ASSERT_EQ(m.cudnn.size(), 2u);
  EXPECT_EQ(m.cudnn[0].load_first, std::vector<std::string>{"gcc/12.2.0"});
  EXPECT_EQ(m.cudnn[1].load_first, std::vector<std::string>{"gcc/12.2.0"});
  EXPECT_EQ(r.changed, std::vector<std::string>{
                           "cuDNN 8.9.7 (cudnn/8.9, loaded after gcc/11.3.0) in /b -> cuDNN 8.9.7 "
                           "(cudnn/8.9, loaded after gcc/12.2.0) in /b"});
}

// Withdrawn stays withdrawn: a place the old map withholds, or whose module the scan found hidden,
// is withheld after the merge.
TEST(Modules, MergeKeepsAPlaceWithheld) {
  Map old;
  old.cudnn.push_back(
      {*parse_dotted("8.9.8"), "/a", std::nullopt, "cudnn/8.9.8", {}, false, false});
  old.cudnn.push_back({*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9.7", {}});
  const std::vector<Installed> scanned{
      {*parse_dotted("8.9.8"), "/a", std::nullopt, "cudnn/8.9.8", {}},
      {*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9.7", {}, false, false},
      {*parse_dotted("9.0.0"), "/c", std::nullopt, "cudnn/9.0", {}, false, false}};
  const MergeIo io = every_place_there();
  MergeReport r;
  const Map m = merge_scan(old, scanned, io, r);
  ASSERT_EQ(m.cudnn.size(), 3u);
  EXPECT_FALSE(m.cudnn[0].hand_out);  // the old map's word
  EXPECT_FALSE(m.cudnn[1].hand_out);  // hidden since
  EXPECT_FALSE(m.cudnn[2].hand_out);  // new, and hidden
  EXPECT_EQ(r.changed, std::vector<std::string>{"cuDNN 8.9.7 (cudnn/8.9.7) in /b -> cuDNN 8.9.7 "
                                                "(cudnn/8.9.7) in /b, not handed out"});
  EXPECT_EQ(r.added, std::vector<std::string>{"cuDNN 9.0.0 (cudnn/9.0) in /c, not handed out"});
}

// A hidden module's place the map itself hands out (hand_out = true: admin-guide's way to hand a
// withdrawn build out after all) stays handed out; the scan's default for a hidden module applies
// where the map says nothing (helper 115, finding 1: a merge took the admin's word back).
TEST(Modules, MergeKeepsTheAdminsHandOut) {
  Map old;
  old.cudnn.push_back({*parse_dotted("9.0.0"), "/a", std::nullopt, "cudnn/.9.0", {}});
  old.cudnn.back().hand_out_written = true;
  old.cudnn.push_back({*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9", {}});
  const std::vector<Installed> scanned{
      {*parse_dotted("9.0.0"), "/a", std::nullopt, "cudnn/.9.0", {}, false, false},
      {*parse_dotted("8.9.7"), "/b", std::nullopt, "cudnn/8.9", {}, false, false}};
  MergeReport r;
  const Map m = merge_scan(old, scanned, every_place_there(), r);
  ASSERT_EQ(m.cudnn.size(), 2u);
  EXPECT_TRUE(m.cudnn[0].hand_out);   // the admin's word
  EXPECT_FALSE(m.cudnn[1].hand_out);  // hidden since, and the map said nothing
  EXPECT_EQ(r.changed, std::vector<std::string>{"cuDNN 8.9.7 (cudnn/8.9) in /b -> cuDNN 8.9.7 "
                                                "(cudnn/8.9) in /b, not handed out"});
}

// An entry the scan did not find, whose directory holds no cuDNN now: kept as it was while its
// module is in the module tree (a file system briefly away is no uninstall), --prune or not;
// dropped when its module left too, or when no module says it is there (helper 115, finding 2).
TEST(Modules, MergeKeepsAnEntryWhoseModuleIsThereThoughItsDirectoryIsNot) {
  Map old;
  old.cudnn.push_back({*parse_dotted("5.0.5"), "/away", std::nullopt, "cudnn/5.0", {}});
  old.cudnn.back().retire_after = "2027-03-01";
  old.cudnn.back().hand_out = false;
  old.cudnn.push_back({*parse_dotted("5.1.10"), "/gone", std::nullopt, "cudnn/5.1", {}});
  old.cudnn.push_back({*parse_dotted("8.9.7"), "/hand", std::nullopt, "", {}});
  for (const bool prune : {false, true}) {
    MergeIo io{[](const std::string &) { return false; },
               [](const std::string &lib) { return lib; },
               [](const std::string &module) { return module == "cudnn/5.0"; }, prune};
    MergeReport r;
    const Map m = merge_scan(old, {}, io, r);
    ASSERT_EQ(m.cudnn.size(), 1u);
    EXPECT_EQ(m.cudnn[0].retire_after, "2027-03-01");
    EXPECT_FALSE(m.cudnn[0].hand_out);
    EXPECT_EQ(r.unreadable,
              std::vector<std::string>{
                  "cuDNN 5.0.5 (cudnn/5.0) in /away, not handed out: its directory holds no cuDNN "
                  "now (missing or unreadable), though module cudnn/5.0 is in the module tree; "
                  "kept as it was (delete the entry if the release is gone for good)"});
    ASSERT_EQ(r.dropped.size(), 2u);
    EXPECT_NE(r.dropped[0].find("/gone (the directory holds no cuDNN any more)"),
              std::string::npos);
    EXPECT_NE(r.dropped[1].find("/hand (the directory holds no cuDNN any more)"),
              std::string::npos);
  }
}

}  // namespace
}  // namespace cudnn_compat
