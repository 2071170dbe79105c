#include "cudnn_compat.h"
#include "decision_key.h"
#include "text.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

struct Number {
  const char *input;
  const char *version;
  std::int64_t compat;
};

// The one decimal reader under every version parser: whole digits only, bounded in length.
TEST(Text, ParseUintReadsWholeDecimalNumbersOnly) {
  EXPECT_EQ(parse_uint("0"), 0);
  EXPECT_EQ(parse_uint("0042"), 42);
  EXPECT_EQ(parse_uint("999999999999999"), 999'999'999'999'999);
  EXPECT_EQ(parse_uint("1000000000000000"), std::nullopt) << "16 digits, past the default";
  EXPECT_EQ(parse_uint("123456789", 9), 123'456'789);
  EXPECT_EQ(parse_uint("1234567890", 9), std::nullopt);
  EXPECT_EQ(parse_uint("9223372036854775807", 19), INT64_MAX);
  EXPECT_EQ(parse_uint("9223372036854775808", 19), std::nullopt) << "past int64";
  for (const char *bad : {"", "-1", "+1", " 1", "1 ", "1.0", "0x1", "1e3"})
    EXPECT_EQ(parse_uint(bad), std::nullopt) << bad;
}

// A message shows what the user typed on one line: control characters written out.
TEST(Text, PrintableWritesControlCharactersOut) {
  EXPECT_EQ(printable("7.0,8.0"), "7.0,8.0");
  EXPECT_EQ(printable("7.0\n8.0"), "7.0\\n8.0");
  EXPECT_EQ(printable("a\tb\rc"), "a\\tb\\rc");
  EXPECT_EQ(printable("cu\x1b[31m\x7f"), "cu\\x1b[31m\\x7f");
  EXPECT_EQ(printable(std::string_view("\0x", 2)), "\\x00x");
  EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9");  // UTF-8 stays as it is
  EXPECT_EQ(printable("\xe4\xbd\xa0\xf0\x9f\x98\x80"), "\xe4\xbd\xa0\xf0\x9f\x98\x80");
  // Bytes that are no UTF-8 are written out (helper 104: a bad requirement's reached stderr raw).
  EXPECT_EQ(printable("5.\xff\xfe"), "5.\\xff\\xfe");
  EXPECT_EQ(printable("\xc3"), "\\xc3");                    // cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");           // overlong '/'
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(printable("\xc2\x9b[31m"), "\\xc2\\x9b[31m");   // C1 CSI, a terminal's ESC [
  // Bidirectional controls reorder what the terminal shows (helper 110): written out too.
  EXPECT_EQ(printable("8.9.7 \xe2\x80\xae"
                      "0.9.8"),
            "8.9.7 \\xe2\\x80\\xae0.9.8");  // RLO
  EXPECT_EQ(printable("a\xe2\x81\xa6"
                      "b\xe2\x81\xa9"),
            "a\\xe2\\x81\\xa6b\\xe2\\x81\\xa9");                              // LRI, PDI
  EXPECT_EQ(printable("\xe2\x80\x8f\xd8\x9c"), "\\xe2\\x80\\x8f\\xd8\\x9c");  // RLM, ALM
  EXPECT_EQ(printable("\xd8\xa7\xe2\x80\x94"), "\xd8\xa7\xe2\x80\x94");  // Arabic alef, an em dash
  EXPECT_EQ(quoted("a\nb"), "'a\\nb'");
  // A cut falls before a character, never inside it (helper 112's set: "添\xe5\x8a...").
  EXPECT_EQ(start_of("ab\xe6\xb7\xbb", 3), "ab");
  EXPECT_EQ(start_of("ab\xe6\xb7\xbb", 5), "ab\xe6\xb7\xbb");
  EXPECT_EQ(start_of("abcd", 2), "ab");
  EXPECT_EQ(start_of("\x80\x80\x80\x80\x80", 4), "\x80\x80\x80\x80");  // no UTF-8: as asked
}

TEST(Text, JoinPutsTheSeparatorBetweenItemsOnly) {
  EXPECT_EQ(join({}, ", "), "");
  EXPECT_EQ(join({"a"}, ", "), "a");
  EXPECT_EQ(join({"a", "", "c"}, ", "), "a, , c");
}

TEST(Text, NearestWordIsATyposMeaningOrNothing) {
  const std::vector<std::string_view> words = {"decode", "map",  "resolve",   "doctor",
                                               "usage",  "scan", "shim-path", "module-check"};
  EXPECT_EQ(nearest_word("resolv", words), "resolve");   // a letter left out
  EXPECT_EQ(nearest_word("docotr", words), "doctor");    // two swapped
  EXPECT_EQ(nearest_word("RESOLVE", words), "resolve");  // the shift key
  EXPECT_EQ(nearest_word("mpa", words), "map");
  EXPECT_EQ(nearest_word("shim_path", words), "shim-path");
  EXPECT_EQ(nearest_word("modulecheck", words), "module-check");
  EXPECT_EQ(nearest_word("frobnicate", words), "");  // nothing close
  EXPECT_EQ(nearest_word("sc", words), "");          // two edits make "sc" anything
  EXPECT_EQ(nearest_word("", words), "");
  EXPECT_EQ(nearest_word("cap", {"map", "cat"}), "");  // as close to two: no guess
}

TEST(Version, CudnnNumbersInBothEncodings) {
  for (const Number &n : {Number{"5005", "5.0.5", 5000}, Number{"5103", "5.1.3", 5100},
                          Number{"5110", "5.1.10", 5100}, Number{"7605", "7.6.5", 7600},
                          Number{"8907", "8.9.7", 8900}, Number{"90100", "9.1.0", 90100},
                          Number{"91001", "9.10.1", 91000}, Number{"91900", "9.19.0", 91900},
                          Number{"4007", "4.0.7", 4000}, Number{"6021", "6.0.21", 6000}}) {
    const Parsed<Version> v = parse_cudnn_number(n.input);
    ASSERT_TRUE(v) << n.input << ": " << v.error;
    EXPECT_EQ(to_string(*v), n.version);
    EXPECT_EQ(std::to_string(cudnn_number(*v)), n.input) << "round trip";
    EXPECT_EQ(tensorflow_compat_number(*v), n.compat) << n.input;
  }
}

TEST(Version, NumbersNoReleaseCanHaveAreErrors) {
  for (const char *bad :
       {"999", "9000", "12020", "89999", "", "-5005", "5e3", "50 05", "99999999"}) {
    const Parsed<Version> v = parse_cudnn_number(bad);
    EXPECT_FALSE(v) << bad;
    EXPECT_FALSE(v.error.empty());
  }
}

TEST(Version, CudaRuntimeNumbers) {
  EXPECT_EQ(to_string(*parse_cudart_number("8000")), "8.0");
  EXPECT_EQ(to_string(*parse_cudart_number("12020")), "12.2");
  EXPECT_EQ(to_string(*parse_cudart_number("13010")), "13.1");
  EXPECT_EQ(to_string(*parse_cudart_number("10020")), "10.2");
  EXPECT_FALSE(parse_cudart_number("12"));
  EXPECT_FALSE(parse_cudart_number("x"));
}

TEST(Version, Dotted) {
  EXPECT_EQ(*parse_dotted("5.1"), (Version{5, 1, {}, {}}));
  EXPECT_EQ(*parse_dotted("5.1.10"), (Version{5, 1, 10, {}}));
  EXPECT_EQ(*parse_dotted("8.9.2.26"), (Version{8, 9, 2, 26}));
  EXPECT_EQ(*parse_dotted(" v8.9.7 "), (Version{8, 9, 7, {}}));
  for (const char *bad : {"5", "5.", ".5", "5..1", "5.1.2.3.4", "5.x", "five.one", "", "5.1-rc1"})
    EXPECT_FALSE(parse_dotted(bad)) << bad;
}

// The grammar's limits (shim/shared/version_grammar.h): five digits a part, so a number past
// them is no version to the engine nor to the shim's fast path, which reads the same code.
TEST(Version, DottedLimits) {
  EXPECT_EQ(*parse_dotted("5.0.99999"), (Version{5, 0, 99999, {}}));
  EXPECT_EQ(*parse_dotted("05.01"), (Version{5, 1, {}, {}}));
  for (const char *bad : {"5.0.100000", "5.0.000001", "5.18446744073709551617", "99999999999.1",
                          "v", "vv5.1", "5 .1", "+5.1", "-5.1"})
    EXPECT_FALSE(parse_dotted(bad)) << bad;
  EXPECT_FALSE(parse_cuda("1234")) << "a bare CUDA major has at most three digits";
  EXPECT_EQ(*parse_cuda(" 012 "), (Version{12, {}, {}, {}}));
}

// A requirement may be a major alone, read by the same C code the shim's fast path asks.
TEST(Version, Required) {
  EXPECT_EQ(*parse_required("9"), (Version{9, {}, {}, {}}));
  EXPECT_EQ(*parse_required(" v9 "), (Version{9, {}, {}, {}}));
  EXPECT_EQ(*parse_required("V9.1"), (Version{9, 1, {}, {}}));
  EXPECT_EQ(*parse_required("5.1.10"), (Version{5, 1, 10, {}}));
  for (const char *bad : {"", "v", "vv9", "vv9.1", "1234", "9.", "9 .1", "nine"})
    EXPECT_FALSE(parse_required(bad)) << bad;
}

// Every (minor, patch) the grammar accepts, and the points just past them the table's writer
// asks at, has a key of its own, in the order of the versions (5.0.99999 is not 5.1).
TEST(Version, DecisionKeysNeverCollide) {
  const unsigned long max = CUDNN_COMPAT_VERSION_MAX;
  std::vector<std::pair<unsigned long, long>> points;  // (minor, patch or -1), ascending
  for (unsigned long minor : {0ul, 1ul, 2ul, max - 1, max, max + 1})
    for (long patch : {-1l, 0l, 1l, long(max) - 1, long(max), long(max) + 1})
      points.emplace_back(minor, patch);
  unsigned long previous = 0;
  for (const auto &[minor, patch] : points) {
    const unsigned long key =
        cudnn_compat_decision_key(minor, patch >= 0, patch >= 0 ? (unsigned long)patch : 0);
    EXPECT_GT(key, previous) << minor << "." << patch;
    previous = key;
  }
  EXPECT_NE(cudnn_compat_decision_key(0, 1, 99999), cudnn_compat_decision_key(1, 0, 0));
}

TEST(Version, Tuples) {
  EXPECT_EQ(*parse_tuple("(8, 9, 2)"), (Version{8, 9, 2, {}}));
  EXPECT_EQ(*parse_tuple("(7,6,5)"), (Version{7, 6, 5, {}}));
  EXPECT_FALSE(parse_tuple("(8)"));
  EXPECT_FALSE(parse_tuple("8, 9, 2"));
  EXPECT_FALSE(parse_tuple("(8, x, 2)"));
}

TEST(Version, Cuda) {
  EXPECT_EQ(*parse_cuda("12"), (Version{12, {}, {}, {}}));
  EXPECT_EQ(*parse_cuda("12.2"), (Version{12, 2, {}, {}}));
  EXPECT_FALSE(parse_cuda("twelve"));
  EXPECT_FALSE(parse_cuda("0")) << "CUDA's releases start at 1 (resolve --cuda 0 was taken)";
  EXPECT_FALSE(parse_cuda("0.5"));
  EXPECT_FALSE(parse_cuda("12020"));
}

TEST(Version, OrderAndPrefix) {
  EXPECT_LT(compare(*parse_dotted("5.1.3"), *parse_dotted("5.1.10")), 0);
  EXPECT_GT(compare(*parse_dotted("9.10.0"), *parse_dotted("9.9.9")), 0);
  EXPECT_EQ(compare(*parse_dotted("8.9.7"), *parse_dotted("8.9.7")), 0);
  EXPECT_TRUE(is_prefix_of(*parse_dotted("5.1"), *parse_dotted("5.1.10")));
  EXPECT_FALSE(is_prefix_of(*parse_dotted("5.1"), *parse_dotted("5.10.1")));
}

}  // namespace
}  // namespace cudnn_compat
