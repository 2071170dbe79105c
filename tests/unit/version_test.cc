#include "cudnn_compat.h"

#include <gtest/gtest.h>

namespace cudnn_compat {
namespace {

struct Number {
  const char *input;
  const char *version;
  std::int64_t compat;
};

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
