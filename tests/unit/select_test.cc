// The shim's decision, with the loader's answer and every library's version given by the test.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <map>

namespace cudnn_compat {
namespace {

struct World {
  std::map<std::string, Version> versions;  // file -> what it reports; absent: does not load
  std::string not_run;                      // set: no library can be checked, for this reason
  Map map;
  SelectIo io() const {
    return {[this](const std::string &file) -> LibraryCheck {
              const auto it = versions.find(file);
              if (!not_run.empty()) return {std::nullopt, not_run};
              if (it == versions.end()) return {};
              return {Probe{file, it->second, std::nullopt, ProbeSource::library, ""}};
            },
            [](const std::string &dir, const LibraryName &, int major) {
              return std::optional<std::string>(dir + "/libcudnn.so." + std::to_string(major));
            }};
  }
  void install(const char *listed, const char *dir, const char *reports) {
    map.cudnn.push_back(
        {*parse_dotted(listed), dir, std::nullopt, "cudnn/" + std::string(listed), {}});
    versions[std::string(dir) + "/libcudnn.so." + std::to_string(map.cudnn.back().version.major)] =
        *parse_dotted(reports);
  }
};

// A world in which one file's check cannot run (the deadline's time is used up before it).
struct LibraryIo {
  const World &world;
  std::string unchecked;
  SelectIo io() const {
    SelectIo io = world.io();
    io.probe = [this, all = world.io().probe](const std::string &file) -> LibraryCheck {
      return file == unchecked ? LibraryCheck{std::nullopt, "no time left"} : all(file);
    };
    return io;
  }
};

SelectInputs request(const World &w, const char *require) {
  SelectInputs in;
  in.name = "libcudnn.so.5";
  in.requested = *parse_library_name("libcudnn.so.5");
  if (require) in.need = Need{*parse_dotted(require), std::nullopt, Rule::nvidia, "the test"};
  in.loader = LoaderHit{"/path/libcudnn.so.5", "LD_LIBRARY_PATH"};
  in.map = &w.map;
  return in;
}

World site() {
  World w;
  w.map.path = "map.toml";
  w.versions["/path/libcudnn.so.5"] = *parse_dotted("5.0.5");
  w.install("5.0.5", "/opt/5.0.5", "5.0.5");
  w.install("5.1.10", "/opt/5.1.10", "5.1.10");
  return w;
}

TEST(Select, KeepsWhatTheLoaderTakesWhenItFits) {
  const World w = site();
  SelectInputs in = request(w, "5.0");
  Selection s = select_library(in, w.io());
  EXPECT_FALSE(s.use);
  EXPECT_TRUE(s.say.empty());  // silent when all goes well
  in.debug = true;             // a note: no warning
  s = select_library(in, w.io());
  EXPECT_TRUE(s.say.empty());
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("as the loader finds it"), std::string::npos) << s.notes[0];
}

TEST(Select, HandsOverTheFittingReleaseSilently) {
  const World w = site();
  SelectInputs in = request(w, "5.1.3");
  Selection s = select_library(in, w.io());
  EXPECT_EQ(s.use, "/opt/5.1.10/libcudnn.so.5");
  EXPECT_TRUE(s.say.empty());
  in.debug = true;  // a note: no warning
  s = select_library(in, w.io());
  EXPECT_TRUE(s.say.empty());
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_EQ(
      s.notes[0],
      "cudnn-compat: libcudnn.so.5 -> /opt/5.1.10/libcudnn.so.5 (module 5.1.10; needs 5.1.3 from "
      "the test; "
      "5.0.5 on LD_LIBRARY_PATH does not fit: before cuDNN 7 the minor version must match "
      "(5.0 vs 5.1))");
}

// Past its retire day a release is handed over no more, and the line that lists what is installed
// says so: a user told it is installed would ask the admins for what they retired on purpose.
TEST(Select, NamesARetiredReleaseAsRetired) {
  World w = site();
  w.map.cudnn[1].retire_after = "2026-12-06", w.map.cudnn[1].retired = true;
  const Selection s = select_library(request(w, "5.1.3"), w.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("5.1.10 (cudnn/5.1.10, retired on 2026-12-06)"), std::string::npos)
      << s.say[0];
}

// A place whose library reports another release than it is listed as (a wheel's METADATA that
// lies) is listed as what it is: the line does not offer the claim as installed.
TEST(Select, ListsWhatALyingPlaceReports) {
  World w = site();
  w.versions["/opt/5.1.10/libcudnn.so.5"] = *parse_dotted("5.0.5");
  const Selection s = select_library(request(w, "5.1.3"), w.io());
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("installed: 5.0.5 (cudnn/5.0.5), 5.0.5 (cudnn/5.1.10)"),
            std::string::npos)
      << s.say[0];
}

// A release listed as what its library is not is that library's release: passed over where it
// does not fit without a word, as the decision table (which holds it so) does; the map's word is
// said under CUDNN_COMPAT_DEBUG, and by map validate.
TEST(Select, PassesOverAMapThatLiesAsTheTableDoes) {
  World w = site();
  w.install("5.1.99", "/opt/liar", "5.0.5");  // newest by the map, but really 5.0.5
  SelectInputs in = request(w, "5.1");
  Selection s = select_library(in, w.io());
  EXPECT_EQ(s.use, "/opt/5.1.10/libcudnn.so.5");
  EXPECT_TRUE(s.say.empty()) << s.say.front();
  in.debug = true;
  s = select_library(in, w.io());
  ASSERT_FALSE(s.notes.empty());
  EXPECT_NE(s.notes.back().find("the map says 5.1.99 but /opt/liar/libcudnn.so.5 reports 5.0.5"),
            std::string::npos)
      << s.notes.back();
}

// A release the map's word passes over whose library reports one that fits is handed over (the
// map says 5.2.0 of a 5.1.10 library; a need of 5.1): before, the engine refused with "installed:
// 5.2.0" where the decision table handed it over.
TEST(Select, HandsOverAReleaseTheMapMisnames) {
  World w;
  w.map.path = "map.toml";
  w.versions["/path/libcudnn.so.5"] = *parse_dotted("5.0.5");
  w.install("5.2.0", "/opt/misnamed", "5.1.10");
  const Selection s = select_library(request(w, "5.1"), w.io());
  EXPECT_EQ(s.use, "/opt/misnamed/libcudnn.so.5");
  EXPECT_TRUE(s.say.empty()) << s.say.front();
  EXPECT_EQ(to_string(*s.release), "5.1.10");
}

TEST(Select, NothingFitsGivesTheOrdinaryLoadAndOneActionableLine) {
  World w = site();
  w.versions.erase("/opt/5.1.10/libcudnn.so.5");  // does not load
  const Selection s = select_library(request(w, "5.1"), w.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("/opt/5.1.10/libcudnn.so.5 does not load"), std::string::npos);
  EXPECT_NE(s.say[0].find("installed: 5.0.5 (cudnn/5.0.5), 5.1.10 (cudnn/5.1.10)"),
            std::string::npos);
  EXPECT_NE(s.say[0].find("Ask the admins for cuDNN 5.1.x"), std::string::npos) << s.say[0];
}

// A check that could not run (no process left, a noexec probe) is no verdict on a library: not
// "does not load", and nothing to ask the admins for.
TEST(Select, ACheckThatCouldNotRunSaysSoAndAsksNothing) {
  World w = site();
  w.not_run = "cannot run cudnn-compat-probe: Resource temporarily unavailable";
  Selection s = select_library(request(w, "5.1"), w.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_EQ(s.say[0],
            "cudnn-compat: libcudnn.so.5: needs 5.1 from the test, but /path/libcudnn.so.5 could "
            "not be checked (cannot run cudnn-compat-probe: Resource temporarily unavailable); "
            "loading as usual");
  // The loader's own choice checked, the map's release not: the line names the one not checked.
  World partly = site();
  const LibraryIo partial{partly, "/opt/5.1.10/libcudnn.so.5"};
  s = select_library(request(partly, "5.1"), partial.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("/opt/5.1.10/libcudnn.so.5 could not be checked (no time left)"),
            std::string::npos)
      << s.say[0];
  EXPECT_EQ(s.say[0].find("does not load"), std::string::npos) << s.say[0];
  EXPECT_EQ(s.say[0].find("Ask the admins"), std::string::npos) << s.say[0];
}

// No cuDNN on the loader's path, and the map's releases of the major here but none that fits: the
// load fails, and the line says why and what to ask for (an outside tester's finding: silence).
TEST(Select, NothingFitsAndNothingOnThePathIsSaid) {
  World w = site();
  SelectInputs in = request(w, "5.2");
  in.loader.reset();
  const Selection s = select_library(in, w.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("the loader finds no libcudnn.so.5"), std::string::npos) << s.say[0];
  EXPECT_NE(s.say[0].find("Ask the admins for cuDNN 5.2.x"), std::string::npos) << s.say[0];
}

// No cuDNN on the loader's path and none of the map's here: the load fails on its own, unsaid
// (frameworks try several names in turn) - unless the map is there and the requirement is of that
// major: the process needs it, and this line alone says none is installed.
TEST(Select, NoCudnnAnywhereSaysNothingUnlessRequired) {
  World w = site();
  SelectInputs in = request(w, nullptr);
  in.loader.reset();
  SelectIo io = w.io();
  io.find_file = [](const std::string &, const LibraryName &, int) {
    return std::optional<std::string>();
  };
  Selection s = select_library(in, io);
  EXPECT_FALSE(s.use);
  EXPECT_TRUE(s.say.empty()) << s.say[0];
  // Another major's requirement: a program trying several names in turn (libcudnn.so.5, then
  // .so.6) fails this one as it would, unsaid; where the loader finds it, one line says the
  // requirement and the name disagree.
  in.need = Need{*parse_dotted("6.0"), std::nullopt, Rule::nvidia, "the test"};
  s = select_library(in, io);
  EXPECT_TRUE(s.say.empty()) << s.say[0];
  in.loader = LoaderHit{"/path/libcudnn.so.5", "LD_LIBRARY_PATH"};
  s = select_library(in, io);
  ASSERT_EQ(s.say.size(), 1U);
  EXPECT_NE(s.say[0].find("only a cuDNN 5 can serve"), std::string::npos) << s.say[0];
  in.loader.reset();
  in = request(w, "5.1");
  in.loader.reset();
  s = select_library(in, io);
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1U);
  // The map lists a release that fits and whose file is gone: the map is out of date, and the
  // line says so rather than "nothing installed fits" (helper 94).
  EXPECT_NE(s.say[0].find("needs 5.1 from the test, but the loader finds no libcudnn.so.5; "
                          "5.1.10 (cudnn/5.1.10) would fit, but /opt/5.1.10 holds no "
                          "libcudnn.so.5; loading as usual. The map is out of date"),
            std::string::npos)
      << s.say[0];
  in.map = nullptr;  // no map: nothing installed is known, and the loader's error is the word
  s = select_library(in, io);
  EXPECT_TRUE(s.say.empty()) << s.say[0];
}

TEST(Select, WithoutAMapItExplainsAndKeepsTheLoad) {
  const World w = site();
  SelectInputs in = request(w, "5.1");
  in.map = nullptr;
  in.map_problem = "none at /etc/cudnn-compat/map.toml";
  const Selection s = select_library(in, w.io());
  EXPECT_FALSE(s.use);
  ASSERT_EQ(s.say.size(), 1u);
  EXPECT_NE(s.say[0].find("no version map to find another (none at /etc/cudnn-compat/map.toml)"),
            std::string::npos);
}

// Inside an Apptainer container with no map bound in, the host's requirement came in with its
// environment: the same misfit keeps the load without a line (docs/containers.md); a debug run
// still says it.
TEST(Select, WithoutAMapInsideAContainerItIsSilent) {
  const World w = site();
  SelectInputs in = request(w, "5.1");
  in.map = nullptr;
  in.map_problem = "none at /etc/cudnn-compat/map.toml";
  in.quiet_without_map = true;
  Selection s = select_library(in, w.io());
  EXPECT_FALSE(s.use);
  EXPECT_TRUE(s.say.empty()) << s.say[0];
  in.debug = true;
  s = select_library(in, w.io());
  EXPECT_FALSE(s.say.empty());
}

TEST(Select, NoRequirementKeepsTheLoadersLibraryOfTheNamesMajor) {
  const World w = site();
  const Selection s = select_library(request(w, nullptr), w.io());
  EXPECT_FALSE(s.use);
  EXPECT_TRUE(s.say.empty());
}

// A name is only served by its major: libcudnn.so.5 linked to a cuDNN 6 (a user's workaround) is
// no cuDNN 5, required version or not.
TEST(Select, ALibraryOfAnotherMajorUnderTheNameIsNotKept) {
  World w = site();
  w.versions["/path/libcudnn.so.5"] = *parse_dotted("6.0.21");
  const Selection s = select_library(request(w, nullptr), w.io());
  EXPECT_EQ(s.use, "/opt/5.1.10/libcudnn.so.5");
}

TEST(Select, NothingOnThePathTakesTheMapsRelease) {
  const World w = site();
  SelectInputs in = request(w, nullptr);
  in.loader.reset();
  EXPECT_EQ(select_library(in, w.io()).use, "/opt/5.1.10/libcudnn.so.5");  // newest of major 5
}

}  // namespace
}  // namespace cudnn_compat
