// Property: for any installed release and any need, every caller that decides whether the one
// fits the other gives one answer - resolve's rank and choose, the shim's selection and serves,
// module-check and the hooks' fits table.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <random>

namespace cudnn_compat {
namespace {

struct Tuple {
  Version release;
  std::optional<Version> cuda;  // of the release: unknown when absent
  Version need;
  std::optional<int> need_cuda;
  Rule rule;
};

std::string describe(const Tuple &t) {
  return "release " + to_string(t.release) + " cuda " + (t.cuda ? to_string(*t.cuda) : "?") +
         ", need " + to_string(t.need) +
         (t.need_cuda ? " cuda " + std::to_string(*t.need_cuda) : "") + " under " +
         std::string(rule_name(t.rule));
}

// Each caller's answer to "does the release fit the need?".
struct Answers {
  bool rank, choose, select, serves, module_check;
  std::optional<bool> fits_table;  // when the table lists the need at all
};

Answers ask_everyone(const Tuple &t) {
  Map map;
  map.path = "map.toml";
  map.policy.rule = t.rule;
  map.cudnn.push_back({t.release, "/opt/r", t.cuda, "cudnn/r", {}});
  const Need need{t.need, t.need_cuda, t.rule, "the test"};
  const LibraryName requested = main_library(t.need.major);
  Answers a{};
  a.rank = !rank(map, need, requested).empty();
  a.choose = choose(map, need, requested).considered.at(0).fits;

  SelectInputs in;
  in.name = "libcudnn.so." + std::to_string(t.need.major);
  in.requested = requested;
  in.need = need;
  in.map = &map;
  const Probe reported{"/opt/r/libcudnn.so", t.release, t.cuda, ProbeSource::library, ""};
  const SelectIo io{
      [&](const std::string &) { return std::optional<Probe>(reported); },
      [](const std::string &dir, const LibraryName &, int major) {
        return std::optional<std::string>(dir + "/libcudnn.so." + std::to_string(major));
      }};
  a.select = select_library(in, io).use.has_value();
  a.serves = serves(need, t.need.major, reported).compatible;
  a.module_check =
      check_loaded_modules(map, {{"app/1", t.need, t.need_cuda}}, {{}, {{"cudnn/r", ""}}, {}, ""})
          .empty();

  const std::string text =
      to_string(t.need) + (t.need_cuda ? ",cuda=" + std::to_string(*t.need_cuda) : "");
  const std::string table = format_fits_table(map, FileStamp{});
  if (table.find("\nN\t" + text + "\n") != std::string::npos)
    a.fits_table = table.find("\nF\tcudnn/r\t" + text + "\n") != std::string::npos;
  return a;
}

void expect_one_answer(const Tuple &t, int &fitting, int &listed) {
  const Answers a = ask_everyone(t);
  const std::string what = describe(t);
  EXPECT_EQ(a.choose, a.rank) << "choose vs rank: " << what;
  EXPECT_EQ(a.select, a.rank) << "select_library vs rank: " << what;
  EXPECT_EQ(a.serves, a.rank) << "serves vs rank: " << what;
  EXPECT_EQ(a.module_check, a.rank) << "module-check vs rank: " << what;
  if (a.fits_table) {
    EXPECT_EQ(*a.fits_table, a.rank) << "fits table vs rank: " << what;
    ++listed;
  }
  fitting += a.rank;
}

Version random_version(std::mt19937 &rng, bool full) {
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  Version v{pick(4, 10), pick(0, 12), {}, {}};
  if (full || pick(0, 1)) v.patch = pick(0, 12);
  if (full && pick(0, 3) == 0) v.build = pick(0, 99);
  return v;
}

TEST(FitProperty, RandomTuples) {
  std::mt19937 rng(20261130);
  int fitting = 0, listed = 0;
  const int n = 4000;
  for (int i = 0; i < n; ++i) {
    const auto pick = [&](int lo, int hi) {
      return std::uniform_int_distribution<int>(lo, hi)(rng);
    };
    Tuple t;
    t.release = random_version(rng, true);
    if (pick(0, 2)) t.cuda = Version{pick(10, 13), pick(0, 8), {}, {}};
    t.need = random_version(rng, false);
    if (pick(0, 1)) t.need.major = t.release.major;  // same major half the time: the rules decide
    if (pick(0, 1)) t.need_cuda = pick(10, 13);
    if (pick(0, 3) == 0) {  // a need the fits table lists: the release's x.y or x.y.z[.b]
      t.need = pick(0, 1) ? t.release : Version{t.release.major, t.release.minor, {}, {}};
      if (t.cuda && pick(0, 1)) t.need_cuda = t.cuda->major;
    }
    t.rule = all_rules()[std::size_t(pick(0, int(all_rules().size()) - 1))].rule;
    expect_one_answer(t, fitting, listed);
  }
  // Both answers and the fits table occur often enough to say something.
  EXPECT_GT(fitting, n / 20);
  EXPECT_LT(fitting, n - n / 20);
  EXPECT_GT(listed, n / 50);
}

// Every rule on the edges: unknown CUDA, another CUDA, another major, minor below and above.
TEST(FitProperty, SystematicEdges) {
  int fitting = 0, listed = 0;
  for (const RuleInfo &r : all_rules())
    for (const char *release : {"5.1.10", "7.6.5", "8.9.7", "9.1.0", "9.10.0"})
      for (const char *need : {"5.1", "5.1.10", "7.6", "8.9", "8.9.7", "8.1", "9.0", "9.10.0"})
        for (std::optional<Version> cuda :
             {std::optional<Version>(), std::optional<Version>(Version{12, 2, {}, {}})})
          for (std::optional<int> need_cuda :
               {std::optional<int>(), std::optional<int>(11), std::optional<int>(12)})
            expect_one_answer(
                {*parse_dotted(release), cuda, *parse_dotted(need), need_cuda, r.rule}, fitting,
                listed);
  EXPECT_GT(fitting, 0);
  EXPECT_GT(listed, 0);
}

}  // namespace
}  // namespace cudnn_compat
