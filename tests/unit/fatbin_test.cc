// The fatbin parser on containers written here byte by byte: whole, padded, cut short, forged.
#include "cudnn_compat.h"

#include <gtest/gtest.h>

#include <cstring>

namespace cudnn_compat {
namespace {

void put(std::string &s, std::size_t at, const void *v, std::size_t n) {
  if (s.size() < at + n) s.resize(at + n);
  std::memcpy(s.data() + at, v, n);
}
template <class T>
void put(std::string &s, std::size_t at, T v) {
  put(s, at, &v, sizeof v);
}

// An entry: kind (1 PTX, 2 cubin), arch, a payload of `payload` bytes, a header of `header` bytes.
std::string entry(std::uint16_t kind, std::uint32_t arch, std::uint64_t payload = 24,
                  std::uint32_t header = 64) {
  std::string e(header + payload, '\0');
  put(e, 0, kind);
  put<std::uint16_t>(e, 2, 0x0101);
  put(e, 4, header);
  put(e, 8, payload);
  put(e, 28, arch);
  return e;
}

std::string container(const std::string &entries, std::uint32_t magic = 0xBA55ED50u,
                      std::uint16_t version = 1) {
  std::string c(16, '\0');
  put(c, 0, magic);
  put(c, 4, version);
  put<std::uint16_t>(c, 6, 16);
  put<std::uint64_t>(c, 8, entries.size());
  return c + entries;
}

Parsed<DeviceCode> parse(const std::string &section) {
  const ReadAt read = [&](std::uint64_t at, void *out, std::size_t n) {
    if (at > section.size() || n > section.size() - at) return false;
    std::memcpy(out, section.data() + at, n);
    return true;
  };
  return parse_fatbin(read, section.size());
}

TEST(Fatbin, ReadsCubinsAndPtxOfEveryContainer) {
  const std::string s = container(entry(2, 75) + entry(2, 80) + entry(1, 121, 40, 80)) +
                        container(entry(2, 100, 16, 112) + entry(2, 75));
  const Parsed<DeviceCode> code = parse(s);
  ASSERT_TRUE(code) << code.error;
  EXPECT_EQ(code->cubin, (std::set<int>{75, 80, 100}));
  EXPECT_EQ(code->ptx, (std::set<int>{121}));
  EXPECT_EQ(describe(*code), "sm_75 80 100, PTX 121");
}

TEST(Fatbin, SkipsALinkersPaddingBetweenContainers) {
  std::string s = container(entry(2, 86, 3)) + std::string(5, '\0');
  ASSERT_EQ(s.size() % 8, 0u);
  s += container(entry(1, 90, 8));
  const Parsed<DeviceCode> code = parse(s);
  ASSERT_TRUE(code) << code.error;
  EXPECT_EQ(code->cubin, (std::set<int>{86}));
  EXPECT_EQ(code->ptx, (std::set<int>{90}));
}

TEST(Fatbin, AnEmptySectionCarriesNothing) {
  const Parsed<DeviceCode> code = parse("");
  ASSERT_TRUE(code);
  EXPECT_EQ(describe(*code), "no device code");
}

TEST(Fatbin, ACutShortSectionSaysWhere) {
  const std::string whole = container(entry(2, 75) + entry(2, 80));
  for (std::size_t n : {std::size_t(8), std::size_t(40), whole.size() - 1}) {
    const Parsed<DeviceCode> code = parse(whole.substr(0, n));
    EXPECT_FALSE(code) << n;
    EXPECT_NE(code.error.find("cut short"), std::string::npos) << code.error;
  }
}

TEST(Fatbin, ForgedHeadersAreRefusedNeverTrusted) {
  EXPECT_NE(parse(container(entry(2, 75), 0xdeadbeef)).error.find("magic 0xdeadbeef"),
            std::string::npos);
  EXPECT_NE(parse(container(entry(2, 75), 0xBA55ED50u, 7)).error.find("version 7"),
            std::string::npos);
  EXPECT_NE(parse(container(entry(2, 0))).error.find("architecture 0"), std::string::npos);
  EXPECT_NE(parse(container(entry(2, 75, 24, 8))).error.find("header of 8 bytes"),
            std::string::npos);
  // An entry that claims more than its container: a size near 2^64 must not wrap around.
  std::string huge = entry(2, 75);
  put<std::uint64_t>(huge, 8, ~std::uint64_t(0) - 10);
  EXPECT_NE(parse(container(huge)).error.find("more than its container holds"), std::string::npos);
  std::string big = container(entry(2, 75));
  put<std::uint64_t>(big, 8, ~std::uint64_t(0));
  EXPECT_NE(parse(big).error.find("cut short"), std::string::npos);
}

TEST(Fatbin, UnknownEntryKindsAreNotCode) {
  const Parsed<DeviceCode> code = parse(container(entry(0x40, 0) + entry(2, 90)));
  ASSERT_TRUE(code) << code.error;
  EXPECT_EQ(code->cubin, (std::set<int>{90}));
}

TEST(Fatbin, ALibraryWithoutTheSectionHasNoDeviceCode) {
  const Parsed<DeviceCode> code = read_device_code(PROBE_HELPER);
  ASSERT_TRUE(code) << code.error;
  EXPECT_TRUE(code->cubin.empty() && code->ptx.empty());
  EXPECT_FALSE(read_device_code("/nonexistent/libcudnn_cnn.so.9"));
  EXPECT_NE(read_device_code("/etc/hostname").error.find("not a 64-bit ELF"), std::string::npos);
}

}  // namespace
}  // namespace cudnn_compat
