// Property: the grammar of cuDNN library names - the shim's C parser, through which the engine
// reads Linux names - gives, for any name, the answer the grammar written out below (as a regular
// expression, from shim_text.h's description) gives: over real names and their systematic and
// random mutations. The engine's readers (parse_library_name, is_cudnn_library_name,
// version_in_name) are held to the same written answer.
#include "cudnn_compat.h"
#include "shim_text.h"

#include <gtest/gtest.h>

#include <random>
#include <regex>
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

// The grammar as written: libcudnn, optional words (a lower-case letter, then lower-case letters or
// digits) each after one '_', ".so", then up to four numbers of one to six digits.
struct Expected {
  bool accepted = false;
  std::string sub;
  std::vector<int> numbers;
};

Expected expected_of(const std::string &base) {
  static const std::regex grammar(R"(libcudnn((?:_[a-z][a-z0-9]*)*)\.so((?:\.[0-9]{1,6}){0,4}))");
  std::smatch m;
  Expected e;
  if (!std::regex_match(base, m, grammar)) return e;
  e.accepted = true;
  e.sub = m[1].length() ? m[1].str().substr(1) : "";
  const std::string numbers = m[2].str();
  for (std::size_t at = 0; at < numbers.size();) {
    const std::size_t next = numbers.find('.', at + 1);
    e.numbers.push_back(std::stoi(numbers.substr(at + 1, next - at - 1)));
    at = next == std::string::npos ? numbers.size() : next;
  }
  return e;
}

// Each reader against the written grammar; a failure names the reader that differs.
void expect_grammar(const std::string &name) {
  const std::size_t slash = name.rfind('/');
  const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
  const Expected want = expected_of(base);
  cudnn_name c{};
  const bool shim = base.find('\0') == std::string::npos && parse_cudnn_name(base.c_str(), &c);
  ASSERT_EQ(shim, want.accepted) << "shim C parser on '" << name << "'";
  const Parsed<LibraryName> engine = parse_library_name(name);
  ASSERT_EQ(engine && !engine->windows, want.accepted) << "parse_library_name on '" << name << "'";
  if (!want.accepted) return;
  EXPECT_TRUE(is_cudnn_library_name(name)) << name;
  EXPECT_EQ(std::string(c.sub ? c.sub_name : "", std::size_t(c.sub_len)), want.sub) << name;
  EXPECT_EQ(engine->sub, want.sub) << name;
  EXPECT_EQ(c.parts, int(want.numbers.size())) << name;
  // A number written with a leading zero ("09") is one the loader's cache reads as 9.
  const std::string numbers = base.substr(base.find(".so") + 3);
  EXPECT_EQ(c.padded != 0, std::regex_search(numbers, std::regex(R"(\.0[0-9])"))) << name;
  for (std::size_t i = 0; i < std::size_t(CUDNN_NAME_PARTS); ++i)
    EXPECT_EQ(c.version[i], i < want.numbers.size() ? want.numbers[i] : -1) << name;
  std::optional<Version> v;
  if (!want.numbers.empty()) v = Version{want.numbers[0], {}, {}, {}};
  if (want.numbers.size() > 1) v->minor = want.numbers[1];
  if (want.numbers.size() > 2) v->patch = want.numbers[2];
  if (want.numbers.size() > 3) v->build = want.numbers[3];
  EXPECT_EQ(engine->version, v) << name;
  EXPECT_EQ(version_in_name(name), v) << name;
}

TEST(NamesProperty, RealNamesAndTheirMutations) {
  std::size_t accepted = 0, total = 0;
  for (const std::string &real : kReal)
    for (const std::string &m : mutations(real)) {
      expect_grammar(m);
      accepted += is_cudnn_library_name(m);
      ++total;
    }
  // The mutations reach both sides of the grammar, or the property says little.
  EXPECT_GT(accepted, total / 10);
  EXPECT_LT(accepted, total / 2);
}

TEST(NamesProperty, RandomNames) {
  std::mt19937 rng(20261130);
  for (int i = 0; i < 20000; ++i) expect_grammar(random_name(rng));
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
