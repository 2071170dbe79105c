#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace cudnn_compat {
namespace {

const std::string kRoot = FAKECUDNN_ROOT;

Map fake_map(Prefer prefer = Prefer::newest) {
  Map m;
  m.path = "test.toml";
  m.policy.prefer = prefer;
  for (const char *v : {"5.0.5", "5.1.10", "6.0.21", "7.6.5", "8.9.7", "9.1.0"})
    m.cudnn.push_back({*parse_dotted(v),
                       kRoot + "/" + v + "/lib64",
                       std::nullopt,
                       std::string("cudnn/") + v,
                       {}});
  m.cudnn[2].cuda = Version{8, 0, {}, {}};
  m.cudnn[4].cuda = Version{12, 2, {}, {}};
  m.cudnn[5].cuda = Version{12, 4, {}, {}};
  return m;
}

LibraryName lib(const char *name) {
  return *parse_library_name(name);
}

Need need(const char *cudnn, Rule rule = Rule::nvidia) {
  return Need{*parse_dotted(cudnn), std::nullopt, rule, "test"};
}

// Issue 27 item 10: JAX's, Caffe2's and PaddlePaddle's rules accept a newer major, but a program
// that asks for libcudnn.so.8 by name and says it was built with 5.0 (or 7.0) is served by no
// release: resolve and the shim's selection refuse alike, under every rule.
TEST(Choose, ANameOfOneMajorIsServedForNoRequirementOfAnother) {
  const Map m = fake_map();
  for (const Rule rule : {Rule::nvidia, Rule::jax, Rule::caffe2, Rule::paddle})
    for (const char *required : {"5.0", "7.0", "9.1"}) {
      const Choice c = choose(m, need(required, rule), lib("libcudnn.so.8"));
      EXPECT_TRUE(c.ranked.empty()) << required << " under " << rule_name(rule);
      EXPECT_NE(c.considered[4].why.find("only a cuDNN 8 can serve"), std::string::npos)
          << c.considered[4].why;
    }
}

TEST(Choose, MinorMustMatchBeforeSeven) {
  const Map m = fake_map();
  const Choice c = choose(m, need("5.1"), lib("libcudnn.so.5"));
  ASSERT_EQ(c.ranked.size(), 1u);
  EXPECT_EQ(to_string(m.cudnn[c.ranked[0]].version), "5.1.10");
  EXPECT_FALSE(c.considered[0].fits);
  EXPECT_EQ(c.considered[0].why, "before cuDNN 7 the minor version must match (5.0 vs 5.1)");
  EXPECT_NE(c.reason.find("5.1.10 (cudnn/5.1.10)"), std::string::npos) << c.reason;
}

TEST(Choose, ARelativeLibIsNeverChosen) {
  Map m = fake_map();
  m.cudnn.push_back({*parse_dotted("5.1.11"), "5.1.10/lib64", std::nullopt, "", {}});
  const Choice c = choose(m, need("5.1"), lib("libcudnn.so.5"));
  ASSERT_EQ(c.ranked.size(), 1u);
  EXPECT_EQ(to_string(m.cudnn[c.ranked[0]].version), "5.1.10");
  EXPECT_FALSE(c.considered.back().fits);
  EXPECT_NE(c.considered.back().why.find("is relative; skipped"), std::string::npos);
}

TEST(Choose, PreferNewestOrOldest) {
  Map m = fake_map();
  m.cudnn.push_back({*parse_dotted("8.9.2"), "/x", std::nullopt, "", {}});
  EXPECT_EQ(to_string(m.cudnn[choose(m, need("8.5"), lib("libcudnn.so.8")).ranked[0]].version),
            "8.9.7");
  m.policy.prefer = Prefer::oldest;
  const Choice c = choose(m, need("8.5"), lib("libcudnn.so.8"));
  ASSERT_EQ(c.ranked.size(), 2u);
  EXPECT_EQ(to_string(m.cudnn[c.ranked[0]].version), "8.9.2");
  EXPECT_EQ(to_string(m.cudnn[c.ranked[1]].version), "8.9.7");
}

TEST(Choose, EqualVersionsKeepTheAdminsOrder) {
  Map m;
  m.cudnn.push_back({*parse_dotted("8.9.7"), "/first", std::nullopt, "", {}});
  m.cudnn.push_back({*parse_dotted("8.9.7"), "/second", Version{12, {}, {}, {}}, "", {}});
  EXPECT_EQ(m.cudnn[choose(m, need("8.9"), lib("libcudnn.so.8")).ranked[0]].lib, "/first");
}

TEST(Choose, CudaMustMatchAndUnknownCudaCannotBeConfirmed) {
  const Map m = fake_map();
  Need n = need("8.9");
  n.cuda_major = 11;
  Choice c = choose(m, n, lib("libcudnn.so.8"));
  EXPECT_TRUE(c.ranked.empty());
  EXPECT_EQ(c.considered[4].why, "it is built for CUDA 12.2, not CUDA 11");
  n = need("5.1");
  n.cuda_major = 8;
  c = choose(m, n, lib("libcudnn.so.5"));
  EXPECT_TRUE(c.ranked.empty());
  EXPECT_NE(c.considered[1].why.find("cannot be confirmed"), std::string::npos);
  EXPECT_NE(c.reason.find("no installed cuDNN fits cuDNN 5.1 for CUDA 8"), std::string::npos)
      << c.reason;
}

// The reason counts releases, as map validate does, not the places that hold them (an outside
// tester's finding: "3 releases are in MAP" for 2 in 3 places).
TEST(Choose, NothingFitsCountsReleasesNotPlaces) {
  Map m;
  m.path = "/etc/map.toml";
  m.cudnn.push_back({*parse_dotted("9.1.0"), "/eb/lib", std::nullopt, "", {}});
  m.cudnn.push_back({*parse_dotted("9.1.0"), "/spack/lib", std::nullopt, "", {}});
  m.cudnn.back().joined = true;  // one [[cudnn]] listing both places, as scan writes it
  m.cudnn.push_back({*parse_dotted("8.9.2"), "/eb8/lib", std::nullopt, "", {}});
  const Choice c = choose(m, need("7.6"), lib("libcudnn.so.7"));
  EXPECT_TRUE(c.ranked.empty());
  EXPECT_NE(c.reason.find("; 2 releases in 3 places are in /etc/map.toml"), std::string::npos)
      << c.reason;
  m.cudnn.pop_back();
  EXPECT_NE(choose(m, need("7.6"), lib("libcudnn.so.7"))
                .reason.find("; 1 release in 2 places is in /etc/map.toml"),
            std::string::npos);
}

// A release whose CUDA the map does not name is left to its library, which a prober asks: ranked
// for that, and only for that; one whose map CUDA says no stays out.
TEST(Choose, AnUnknownCudaIsAskedOfTheLibrary) {
  const Map m = fake_map();
  Need n = need("5.1");
  n.cuda_major = 8;
  EXPECT_TRUE(rank(m, n, lib("libcudnn.so.5")).empty());
  EXPECT_EQ(rank_asking_libraries(m, n, lib("libcudnn.so.5")), (std::vector<std::size_t>{1}));
  // A CUDA the map names is asked of the library too: its word is the one that counts (an outside
  // tester's finding: resolve went by a map's cuda = that the library contradicted).
  n = need("8.9");
  n.cuda_major = 11;
  EXPECT_TRUE(rank(m, n, lib("libcudnn.so.8")).empty());
  EXPECT_EQ(rank_asking_libraries(m, n, lib("libcudnn.so.8")), (std::vector<std::size_t>{4}));
  n = need("9.2");
  EXPECT_TRUE(
      rank_asking_libraries(m, n, lib("libcudnn.so.9")).empty());  // the version still counts
  Probe p{"/x/libcudnn.so.5", *parse_dotted("5.1.10"), std::nullopt, ProbeSource::library, {}};
  EXPECT_EQ(release_cuda(m.cudnn[2], p), m.cudnn[2].cuda);  // cuDNN 5 reports none: the map's
  p.cuda = Version{8, 0, {}, {}};
  EXPECT_EQ(release_cuda(m.cudnn[1], p), p.cuda);
  p.source = ProbeSource::header;  // a header is no word of the library's
  EXPECT_EQ(release_cuda(m.cudnn[1], p), std::nullopt);
}

// rank() decides without words and choose() explains: they must never disagree.
TEST(Choose, RankAndTheReasonsAgreeOnEveryEntry) {
  const Map m = fake_map();
  for (const char *v : {"5.0", "5.1.3", "6.0", "7.1", "7.6.5", "8.0", "8.9.7", "9.0", "9.2"})
    for (Rule rule : {Rule::nvidia, Rule::exact, Rule::tensorflow_2016, Rule::pytorch})
      for (std::optional<int> cuda :
           {std::optional<int>{}, std::optional<int>{8}, std::optional<int>{12}}) {
        Need n = need(v, rule);
        n.cuda_major = cuda;
        const LibraryName requested = lib("libcudnn.so");
        const Choice c = choose(m, n, requested);
        EXPECT_EQ(c.ranked, rank(m, n, requested)) << v;
        for (const Considered &k : c.considered)
          EXPECT_EQ(k.fits, std::count(c.ranked.begin(), c.ranked.end(), k.entry) == 1)
              << v << " entry " << k.entry << ": " << k.why;
      }
}

TEST(Choose, WithoutRequirementTheNamedMajorDecides) {
  const Map m = fake_map();
  const Need none{std::nullopt, std::nullopt, Rule::nvidia, ""};
  const Choice c = choose(m, none, lib("libcudnn.so.5"));
  ASSERT_EQ(c.ranked.size(), 2u);
  EXPECT_EQ(to_string(m.cudnn[c.ranked[0]].version), "5.1.10");
}

TEST(Choose, TheRuleMatters) {
  const Map m = fake_map();
  EXPECT_TRUE(choose(m, need("7.4", Rule::nvidia), lib("libcudnn.so.7")).ranked.size() == 1);
  EXPECT_TRUE(choose(m, need("7.4", Rule::tensorflow_2016), lib("libcudnn.so.7")).ranked.empty());
}

TEST(DeriveNeed, ExplicitThenMapRuleThenName) {
  Map m = fake_map();
  m.require.push_back(
      {"/opt/apps/tensorflow/1.0/*", *parse_dotted("5.1"), Version{8, {}, {}, {}}, {12, 1}});
  NeedInputs in;
  in.requested = lib("libcudnn.so.5");
  in.programs = {"/opt/apps/tensorflow/1.0/bin/python"};
  Parsed<Need> n = derive_need(in, &m);
  ASSERT_TRUE(n);
  EXPECT_EQ(to_string(*n->cudnn), "5.1");
  EXPECT_EQ(n->cuda_major, 8);
  EXPECT_NE(n->source.find("test.toml:12"), std::string::npos) << n->source;

  in.require = "5.0";
  in.require_source = "CUDNN_COMPAT_REQUIRE";
  n = derive_need(in, &m);
  EXPECT_EQ(to_string(*n->cudnn), "5.0");
  EXPECT_EQ(n->source, "CUDNN_COMPAT_REQUIRE");

  NeedInputs by_name;
  by_name.requested = lib("libcudnn.so.8.9.7");
  n = derive_need(by_name, &m);
  EXPECT_EQ(to_string(*n->cudnn), "8.9.7");
  by_name.requested = lib("libcudnn.so.8");
  EXPECT_FALSE(derive_need(by_name, &m)->cudnn);
}

TEST(Choose, AWithheldPlaceIsNeverChosenButSaysWhy) {
  Map m = fake_map();
  m.cudnn[5].hand_out = false;  // 9.1.0, as for a hidden module
  const Choice c = choose(m, need("9.0"), lib("libcudnn.so.9"));
  EXPECT_TRUE(c.ranked.empty());
  EXPECT_FALSE(c.considered[5].fits);
  EXPECT_NE(c.considered[5].why.find("the map does not hand it out (hand_out = false)"),
            std::string::npos)
      << c.considered[5].why;
  m.cudnn[5].module = "cudnn/.9.1.0";
  EXPECT_NE(choose(m, need("9.0"), lib("libcudnn.so.9")).considered[5].why.find("a hidden module"),
            std::string::npos);
}

// What a request asks for and the requirement given, with where it came from.
NeedInputs asked(const char *name, const char *require, const char *source) {
  NeedInputs in;
  in.requested = lib(name);
  in.require = require;
  in.require_source = source;
  return in;
}

TEST(DeriveNeed, AMajorAloneIsANeed) {
  const NeedInputs in = asked("libcudnn.so.9", "9", "--require");
  const Parsed<Need> n = derive_need(in, nullptr);
  ASSERT_TRUE(n) << n.error;
  EXPECT_EQ(*n->cudnn, (Version{9, {}, {}, {}}));
  const Map m = fake_map();
  EXPECT_EQ(rank(m, *n, in.requested), std::vector<std::size_t>{5});
}

TEST(DeriveNeed, BadInputSaysWhereItCameFrom) {
  NeedInputs in = asked("libcudnn.so.5", "five", "CUDNN_COMPAT_REQUIRE");
  const Parsed<Need> n = derive_need(in, nullptr);
  ASSERT_FALSE(n);
  EXPECT_EQ(n.error.rfind("CUDNN_COMPAT_REQUIRE: ", 0), 0u) << n.error;
  in.require.reset();
  in.cuda = "twelve";
  in.cuda_source = "--cuda";
  EXPECT_FALSE(derive_need(in, nullptr));
}

TEST(FindLibraryFile, SonameExactNameAndSubLibraries) {
  const std::string d9 = kRoot + "/9.1.0/lib64";
  EXPECT_EQ(find_library_file(d9, lib("libcudnn.so.9"), 9), d9 + "/libcudnn.so.9");
  EXPECT_EQ(find_library_file(d9, lib("libcudnn_graph.so.9.1.0"), 9),
            d9 + "/libcudnn_graph.so.9.1.0");
  // The exact name of another release falls back to the SONAME of this one.
  EXPECT_EQ(find_library_file(d9, lib("libcudnn_graph.so.9.19.0"), 9), d9 + "/libcudnn_graph.so.9");
  EXPECT_EQ(find_library_file(d9, lib("libcudnn.so"), 9), d9 + "/libcudnn.so.9");
  EXPECT_FALSE(find_library_file(d9, lib("libcudnn_ops_infer.so.8"), 8));
  EXPECT_FALSE(find_library_file("/nonexistent", lib("libcudnn.so.9"), 9));
}

}  // namespace
}  // namespace cudnn_compat
