// read_to_end and read_regular_file: whole contents across many reads, a stop past the limit, a
// failed read told apart, and what is not a regular file left unread.
#include "read_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <thread>

using namespace cudnn_compat;

namespace {

// A pipe fed in small writes by another thread: read_to_end sees many short reads.
std::string through_pipe(const std::string &text, ReadEnd &end) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    for (std::size_t at = 0; at < text.size(); at += 1000)
      EXPECT_GT(write(fds[1], text.data() + at, std::min<std::size_t>(1000, text.size() - at)), 0);
    close(fds[1]);
  });
  std::string got = "kept:";
  end = read_to_end(fds[0], got);
  writer.join();
  close(fds[0]);
  return got;
}

}  // namespace

TEST(ReadToEnd, AppendsEverythingAcrossShortReads) {
  std::string text(200'000, 'x');
  for (std::size_t i = 0; i < text.size(); i += 7) text[i] = char('a' + i % 26);
  ReadEnd end{};
  EXPECT_EQ(through_pipe(text, end), "kept:" + text);
  EXPECT_EQ(end, ReadEnd::done);
}

TEST(ReadToEnd, StopsOncePastTheLimit) {
  FILE *file = std::tmpfile();
  ASSERT_TRUE(file);
  const std::string text(300'000, 'y');
  ASSERT_EQ(std::fwrite(text.data(), 1, text.size(), file), text.size());
  ASSERT_EQ(std::fflush(file), 0);
  std::rewind(file);
  std::string got;
  EXPECT_EQ(read_to_end(fileno(file), got, 100'000), ReadEnd::too_long);
  EXPECT_GT(got.size(), 100'000u);
  EXPECT_LT(got.size(), text.size());  // it stopped, it did not read on to the end
  std::fclose(file);
}

TEST(ReadToEnd, AFailedReadKeepsErrnoAndWhatWasThere) {
  std::string got = "before";
  errno = 0;
  EXPECT_EQ(read_to_end(-1, got), ReadEnd::failed);
  EXPECT_EQ(errno, EBADF);
  EXPECT_EQ(got, "before");
}

TEST(ReadRegularFile, AFifoIsNamedAndNotWaitedOn) {
  char dir[] = "/tmp/read-file-test.XXXXXX";
  ASSERT_TRUE(mkdtemp(dir));
  const std::string fifo = std::string(dir) + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string why;
  EXPECT_FALSE(read_regular_file(fifo, 1 << 20, &why));
  EXPECT_EQ(why, "is a FIFO, not a regular file");
  unlink(fifo.c_str());
  rmdir(dir);
}
