// spawn_process: what a child wrote, to which stream, and how it ended - exit, signal, deadline,
// or no start at all. No shell: arguments reach the child as they are.
#include "cudnn_compat.h"
#include "spawn_process.h"

#include <gtest/gtest.h>

#include <csignal>

using namespace cudnn_compat;

namespace {

SpawnOptions capturing_both() {
  SpawnOptions o;
  o.err = Output::capture;
  return o;
}

}  // namespace

TEST(Spawn, AnExitCodeAndEachStreamApart) {
  const SpawnResult r =
      spawn_process({"/bin/sh", "-c", "echo out; echo err >&2; exit 3"}, capturing_both());
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.signal);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
}

TEST(Spawn, ACrashIsASignalNotAnExitCode) {
  const SpawnResult r = spawn_process({"/bin/sh", "-c", "kill -SEGV $$"});
  ASSERT_TRUE(r.started) << r.error;
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_FALSE(r.exit_code);
}

TEST(Spawn, PastTheDeadlineTheChildIsKilled) {
  SpawnOptions o;
  o.timeout_ms = 100;
  const SpawnResult r = spawn_process({"/bin/sh", "-c", "echo started; exec sleep 30"}, o);
  EXPECT_TRUE(r.timed_out);
  EXPECT_EQ(r.signal, SIGKILL);
  EXPECT_EQ(r.out, "started\n");
}

TEST(Spawn, AProgramThatIsNotThereDoesNotStart) {
  const SpawnResult r = spawn_process({"/nonexistent/program"});
  EXPECT_FALSE(r.started);
  EXPECT_NE(r.error.find("cannot run /nonexistent/program"), std::string::npos) << r.error;
}

TEST(Spawn, StderrIntoStdoutAndDiscarded) {
  SpawnOptions merged;
  merged.err = Output::into_stdout;
  EXPECT_EQ(spawn_process({"/bin/sh", "-c", "echo a; echo b >&2"}, merged).out, "a\nb\n");
  SpawnOptions dropped;
  dropped.out = Output::discard;
  dropped.err = Output::capture;
  const SpawnResult r = spawn_process({"/bin/sh", "-c", "echo a; echo b >&2"}, dropped);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "b\n");
}

TEST(Spawn, ArgumentsAreNotReadByAShell) {
  EXPECT_EQ(spawn_process({"/bin/echo", "a 'b' $HOME;"}).out, "a 'b' $HOME;\n");
}

TEST(Spawn, AnEnvironmentOfItsOwnAndThePathSearch) {
  SpawnOptions o;
  o.env = environment_with({"CUDNN_COMPAT_SPAWN_TEST=set", "PATH=/bin:/usr/bin"});
  o.search_path = true;
  EXPECT_EQ(spawn_process({"sh", "-c", "echo $CUDNN_COMPAT_SPAWN_TEST"}, o).out, "set\n");
  EXPECT_FALSE(spawn_process({"sh", "-c", "true"}).started);  // no search: not a path
}
