// Every rule of FACTS.md section 3, both directions, majors 4 to 9, patch and minor differences.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <cctype>

namespace cudnn_compat {
namespace {

struct Case {
  const char *rule;
  const char *runtime;
  const char *built;
  bool compatible;
};

Version v(const char *s) {
  const Parsed<Version> p = parse_dotted(s);
  EXPECT_TRUE(p) << s;
  return p.value.value_or(Version{});
}

class RuleTable : public testing::TestWithParam<Case> {};

TEST_P(RuleTable, Verdict) {
  const Case &c = GetParam();
  const std::optional<Rule> rule = parse_rule(c.rule);
  ASSERT_TRUE(rule) << c.rule;
  const Verdict verdict = judge(*rule, v(c.runtime), v(c.built));
  EXPECT_EQ(verdict.compatible, c.compatible)
      << c.rule << ": runtime " << c.runtime << ", built " << c.built << ": " << verdict.reason;
  EXPECT_FALSE(verdict.reason.empty());
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Facts, RuleTable, testing::Values(
  // NVIDIA: same major; before 7 same minor; from 7 runtime minor >= built; patch free.
  Case{"nvidia", "5.1.10", "5.1.3", true}, Case{"nvidia", "5.1.3", "5.1.10", true},
  Case{"nvidia", "5.0.5", "5.1.3", false}, Case{"nvidia", "5.1.3", "5.0.5", false},
  Case{"nvidia", "4.0.7", "4.0.4", true},  Case{"nvidia", "6.0.21", "5.1.10", false},
  Case{"nvidia", "7.6.5", "7.4.1", true},  Case{"nvidia", "7.4.1", "7.6.0", false},
  Case{"nvidia", "8.9.7", "8.9.2", true},  Case{"nvidia", "8.5.0", "8.9.2", false},
  Case{"nvidia", "9.19.0", "9.1.0", true}, Case{"nvidia", "9.1.0", "9.3.0", false},
  Case{"nvidia", "9.1.0", "8.9.7", false}, Case{"nvidia", "8.9.7", "9.1.0", false},
  // TensorFlow 2016: compatibility versions equal; a newer minor fails too.
  Case{"tensorflow-2016", "5.0.5", "5.1.3", false}, Case{"tensorflow-2016", "5.1.10", "5.1.3", true},
  Case{"tensorflow-2016", "5.1.3", "5.1.10", true}, Case{"tensorflow-2016", "6.0.21", "5.1.5", false},
  Case{"tensorflow-2016", "7.6.5", "7.4.1", false}, Case{"tensorflow-2016", "4.0.7", "5.0.4", false},
  // TensorFlow 2018-2020.
  Case{"tensorflow-2018", "7.4.1", "7.6.0", false}, Case{"tensorflow-2018", "7.6.5", "7.4.1", true},
  Case{"tensorflow-2018", "6.0.21", "6.0.20", true}, Case{"tensorflow-2018", "6.1.0", "6.0.21", false},
  Case{"tensorflow-2018", "8.0.5", "7.6.5", false},
  // TensorFlow 2.x / XLA: same major, newer minor fine even before 7.
  Case{"tensorflow", "8.0.5", "8.1.0", false}, Case{"tensorflow", "8.1.0", "8.0.5", true},
  Case{"tensorflow", "9.1.0", "9.3.0", false}, Case{"tensorflow", "9.19.0", "9.3.0", true},
  Case{"tensorflow", "5.1.10", "5.0.5", true}, Case{"tensorflow", "9.1.0", "8.9.7", false},
  // PyTorch today.
  Case{"pytorch", "8.5.0", "8.9.2", false}, Case{"pytorch", "8.9.7", "8.9.2", true},
  Case{"pytorch", "6.0.21", "6.0.20", true}, Case{"pytorch", "6.1.0", "6.0.21", false},
  Case{"pytorch", "9.1.0", "8.9.7", false},
  // PyTorch 2017-2020: v/100 equal.
  Case{"pytorch-2017", "7.6.5", "7.1.2", false}, Case{"pytorch-2017", "7.1.4", "7.1.2", true},
  Case{"pytorch-2017", "7.1.2", "7.1.4", true},
  // Caffe2: equal, or from 7000 on newer or same major.minor.
  Case{"caffe2", "7.0.5", "7.1.2", false}, Case{"caffe2", "7.1.2", "7.1.2", true},
  Case{"caffe2", "7.6.5", "7.1.2", true},  Case{"caffe2", "7.1.1", "7.1.2", true},
  Case{"caffe2", "6.0.21", "6.0.20", false}, Case{"caffe2", "6.0.21", "6.0.21", true},
  // JAX: runtime//100 >= built//100; 9.10.0 only when built with it.
  Case{"jax", "8.9.7", "9.1.0", false}, Case{"jax", "9.3.0", "9.1.0", true},
  Case{"jax", "9.1.0", "9.1.5", true},  Case{"jax", "9.0.0", "9.1.0", false},
  Case{"jax", "9.10.0", "9.8.0", false}, Case{"jax", "9.10.0", "9.10.0", true},
  Case{"jax", "9.10.1", "9.8.0", true},
  // PaddlePaddle: runtime >= built.
  Case{"paddle", "7.4.1", "7.6.5", false}, Case{"paddle", "7.6.5", "7.6.5", true},
  Case{"paddle", "8.0.5", "7.6.5", true},  Case{"paddle", "7.6.4", "7.6.5", false},
  // MXNet: equal.
  Case{"mxnet", "7.6.5", "7.6.5", true}, Case{"mxnet", "7.6.4", "7.6.5", false},
  Case{"mxnet", "7.6.5", "7.6.4", false},
  // exact: patch matters; an unknown patch matches any.
  Case{"exact", "5.1.10", "5.1.3", false}, Case{"exact", "5.1.3", "5.1.3", true},
  Case{"exact", "5.1.3", "5.1", true},     Case{"exact", "5.0.5", "5.1", false},
  Case{"exact", "8.9.2.26", "8.9.2.27", false}, Case{"exact", "4.0.7", "5.0.4", false}),
  [](const testing::TestParamInfo<Case> &i) {
    std::string name = std::string(i.param.rule) + "_" + i.param.runtime + "_vs_" + i.param.built;
    for (char &c : name) if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
  });
// clang-format on

TEST(Rules, EveryNamedRuleParsesAndRoundTrips) {
  for (const char *name : {"nvidia", "tensorflow-2016", "tensorflow-2018", "tensorflow", "pytorch",
                           "pytorch-2017", "caffe2", "jax", "paddle", "mxnet", "exact"}) {
    const std::optional<Rule> r = parse_rule(name);
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(rule_name(*r), name);
  }
  EXPECT_FALSE(parse_rule("NVIDIA"));
  EXPECT_FALSE(parse_rule(""));
}

TEST(Rules, ReasonSaysWhichRuleRefused) {
  const Verdict v = judge(Rule::nvidia, {5, 0, 5, {}}, {5, 1, 3, {}});
  EXPECT_EQ(v.reason, "before cuDNN 7 the minor version must match (5.0 vs 5.1)");
  const Verdict tf = judge(Rule::tensorflow_2016, {5, 0, 5, {}}, {5, 1, 3, {}});
  EXPECT_NE(tf.reason.find("5000 vs 5100"), std::string::npos) << tf.reason;
}

TEST(Rules, MissingMinorIsNotJudged) {
  const Verdict v = judge(Rule::nvidia, {8, {}, {}, {}}, {8, 9, 2, {}});
  EXPECT_FALSE(v.compatible);
  EXPECT_NE(v.reason.find("minor"), std::string::npos);
}

// A need of a major alone ("built with cuDNN 9", "Require cuDNN 9.*") takes any release of that
// major under every rule; a release of another major only where the rule takes other majors.
TEST(Rules, AMajorAloneAcceptsAnyReleaseOfIt) {
  for (const RuleInfo &r : all_rules()) {
    EXPECT_TRUE(judge(r.rule, {5, 0, 5, {}}, {5, {}, {}, {}}).compatible) << r.name;
    EXPECT_TRUE(judge(r.rule, {9, 19, 0, {}}, {9, {}, {}, {}}).compatible) << r.name;
  }
  EXPECT_FALSE(judge(Rule::nvidia, {8, 9, 7, {}}, {9, {}, {}, {}}).compatible);
  EXPECT_TRUE(judge(Rule::jax, {10, 0, 0, {}}, {9, {}, {}, {}}).compatible);  // JAX takes newer
  EXPECT_FALSE(judge(Rule::jax, {8, 9, 7, {}}, {9, {}, {}, {}}).compatible);
  EXPECT_EQ(judge(Rule::nvidia, {9, 1, 0, {}}, {9, {}, {}, {}}).reason,
            "built with cuDNN 9 without a minor version: any 9.x serves");
  EXPECT_EQ(acceptable_releases(Rule::nvidia, {9, {}, {}, {}}), "9.x");
  EXPECT_EQ(*parse_required("9"), (Version{9, {}, {}, {}}));
  EXPECT_EQ(*parse_required("8.9.7"), (Version{8, 9, 7, {}}));
  EXPECT_FALSE(parse_required("9.x"));
  EXPECT_FALSE(parse_required("nine"));
}

TEST(Rules, AcceptableReleasesInWords) {
  EXPECT_EQ(acceptable_releases(Rule::nvidia, {5, 1, 3, {}}), "5.1.x");
  EXPECT_EQ(acceptable_releases(Rule::nvidia, {7, 6, 0, {}}), "7.6 or a newer 7.x");
  EXPECT_EQ(acceptable_releases(Rule::tensorflow_2016, {7, 6, 0, {}}), "7.6.x");
  EXPECT_EQ(acceptable_releases(Rule::exact, {8, 9, 7, {}}), "8.9.7");
  EXPECT_EQ(acceptable_releases(Rule::paddle, {7, 6, 5, {}}), "7.6.5 or newer");
}

// A minimum stated at run time keeps the SONAME's major, and before 7 the minor: "needs cuDNN 5.1"
// was explained as "5.1 or newer", sending the admins to 5.2 or 6.0, which refuse it.
TEST(Rules, MinimumReleasesInWords) {
  EXPECT_EQ(minimum_releases({5, 1, {}, {}}), "5.1.x");
  EXPECT_EQ(minimum_releases({5, 1, 3, {}}), "5.1.3 or a newer 5.1.x");
  EXPECT_EQ(minimum_releases({9, 1, {}, {}}), "9.1 or a newer 9.x");
  EXPECT_EQ(minimum_releases({8, 9, 6, {}}), "8.9.6 or a newer 8.x");
  EXPECT_EQ(minimum_releases({9, {}, {}, {}}), "9.x");
}

}  // namespace
}  // namespace cudnn_compat
