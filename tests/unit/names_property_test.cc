// Property: every reader of cuDNN library names gives one answer for any name - the shim's C
// parser (the grammar), parse_library_name, is_cudnn_library_name and version_in_name - over
// real names and their systematic and random mutations.
#include "cudnn_compat.h"
#include "shim_text.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

namespace cudnn_compat {
namespace {

const std::vector<std::string> kReal{"libcudnn.so",
                                     "libcudnn.so.5",
                                     "libcudnn.so.5.1.10",
                                     "libcudnn.so.8.9.7",
                                     "libcudnn.so.9.1.0.70",
                                     "libcudnn_ops_infer.so.8",
                                     "libcudnn_graph.so.9",
                                     "libcudnn_graph.so.9.19.0",
                                     "libcudnn_engines_runtime_compiled.so.9",
                                     "libcudnn_cnn_train.so.8.9.7",
                                     "libcudnn_ops.so",
                                     "libcudnn_adv.so.9.1"};

// Small edits of a name: each character dropped, doubled or replaced by a separator, a digit,
// an upper-case or lower-case letter; components appended; huge and empty numbers.
std::set<std::string> mutations(const std::string &name) {
  std::set<std::string> out{name};
  for (std::size_t i = 0; i <= name.size(); ++i) {
    for (const char *ins : {".", "_", "-", "0", "7", "x", "X", ".1", "..", "_2", "\\", "/", " "})
      out.insert(name.substr(0, i) + ins + name.substr(i));
    if (i < name.size()) {
      out.insert(name.substr(0, i) + name.substr(i + 1));
      out.insert(name.substr(0, i + 1) + name.substr(i));
      for (char c : {'.', '_', '9', 'a', 'Z', '\0'}) {
        std::string m = name;
        m[i] = c;
        out.insert(m);
      }
    }
  }
  for (const char *tail : {".1", ".1.2", ".1.2.3", ".1.2.3.4", ".99999", ".999999", ".1000000",
                           ".0000001", "0", ".", ".x", ".-1", ".1.", " "})
    out.insert(name + tail);
  out.insert("/opt/cudnn/lib64/" + name);
  out.insert("relative/dir/" + name);
  return out;
}

std::string random_name(std::mt19937 &rng) {
  static const std::vector<std::string> pieces{
      "lib", "cudnn", "_",     "ops",     "x2",     "2x", "graph", ".so", ".",        "8", "9",
      "19",  "0",     "12345", "1234567", "_infer", "__", "-",     "dll", "cudnn64_", "A"};
  std::string s = std::uniform_int_distribution<int>(0, 3)(rng) ? "libcudnn" : "";
  const int n = std::uniform_int_distribution<int>(0, 8)(rng);
  for (int i = 0; i < n; ++i)
    s += pieces[std::uniform_int_distribution<std::size_t>(0, pieces.size() - 1)(rng)];
  return s;
}

// The one answer, checked on every reader; a failure names the reader that differs.
void expect_one_answer(const std::string &name) {
  const std::size_t slash = name.rfind('/');
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  cudnn_name c{};
  const bool shim = base.find('\0') == std::string::npos && parse_cudnn_name(base.c_str(), &c);
  const Parsed<LibraryName> engine = parse_library_name(name);
  const bool linux_name = engine && !engine->windows;
  ASSERT_EQ(shim, linux_name) << "shim C parser vs parse_library_name on '" << name << "'";
  EXPECT_EQ(is_cudnn_library_name(name), engine.value.has_value())
      << "is_cudnn_library_name on '" << name << "'";
  const std::optional<Version> named = version_in_name(name);
  EXPECT_EQ(named, engine ? engine->version : std::nullopt)
      << "version_in_name on '" << name << "'";
  if (!shim) return;
  EXPECT_EQ(c.sub != 0, !engine->sub.empty()) << name;
  EXPECT_EQ(std::string(c.sub ? c.sub_name : "", std::size_t(c.sub_len)), engine->sub) << name;
  EXPECT_EQ(c.major, engine->version ? engine->version->major : -1) << name;
  EXPECT_EQ(c.full_version != 0, engine->version && engine->version->minor) << name;
  const Version &v = engine->version.value_or(Version{-1, {}, {}, {}});
  EXPECT_EQ(c.version[1], v.minor.value_or(-1)) << name;
  EXPECT_EQ(c.version[2], v.patch.value_or(-1)) << name;
  EXPECT_EQ(c.version[3], v.build.value_or(-1)) << name;
}

TEST(NamesProperty, RealNamesAndTheirMutations) {
  std::size_t accepted = 0, total = 0;
  for (const std::string &real : kReal)
    for (const std::string &m : mutations(real)) {
      expect_one_answer(m);
      accepted += is_cudnn_library_name(m);
      ++total;
    }
  // The mutations reach both sides of the grammar, or the property says little.
  EXPECT_GT(accepted, total / 10);
  EXPECT_LT(accepted, total / 2);
}

TEST(NamesProperty, RandomNames) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 20000; ++i) expect_one_answer(random_name(rng));
}

// The names the issue found answered differently, with the grammar's answer.
TEST(NamesProperty, TheGrammarsAnswers) {
  EXPECT_FALSE(is_cudnn_library_name("libcudnn.so.1.2.3.4.5"));  // more than x.y.z.b
  EXPECT_TRUE(is_cudnn_library_name("libcudnn.so.1.2.3.4"));
  EXPECT_EQ(parse_library_name("libcudnn_x2.so.8")->sub, "x2");  // words may carry digits
  EXPECT_FALSE(is_cudnn_library_name("libcudnn_2x.so.8"));       // but start with a letter
  EXPECT_FALSE(is_cudnn_library_name("libcudnn__.so.8"));
  EXPECT_FALSE(is_cudnn_library_name("libcudnn_ops_.so.9"));
  EXPECT_FALSE(is_cudnn_library_name("libcudnn_ops__infer.so.8"));
  EXPECT_FALSE(is_cudnn_library_name("libcudnn.so.1234567"));  // six digits at most
  EXPECT_EQ(version_in_name("libcudnn.so.123456")->major, 123456);
  EXPECT_FALSE(is_cudnn_library_name(" libcudnn.so.8"));
  EXPECT_FALSE(is_cudnn_library_name("dir\\libcudnn.so.8"));
  EXPECT_TRUE(is_cudnn_library_name("C:\\cuda\\bin\\cudnn64_8.dll"));
}

}  // namespace
}  // namespace cudnn_compat
