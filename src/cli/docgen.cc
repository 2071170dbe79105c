// cudnn-compat-docgen OUTDIR EXAMPLE_MAP CONTRACT_MD: writes OUTDIR/man/man1/cudnn-compat.1 and the
// bash and zsh completions from the same application cudnn-compat parses with (app.cc), and
// OUTDIR/man/man5/cudnn-compat-map.5 from the example map and docs/contract.md, at build time: the
// pages and completions never describe another program, or another map, than the sources do.
#include "cli.h"
#include "docs.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

namespace {

namespace fs = std::filesystem;

bool write(const fs::path &file, const std::string &text) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (out) return true;
  std::cerr << "cudnn-compat-docgen: cannot write " << file.string() << '\n';
  return false;
}

std::optional<std::string> read(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (in) return text.str();
  std::cerr << "cudnn-compat-docgen: cannot read " << file.string() << '\n';
  return std::nullopt;
}

}  // namespace

namespace {

int generate(int argc, char **argv) {
  using namespace cudnn_compat::cli;
  if (argc != 4 || !*argv[1]) {
    std::cerr << "usage: cudnn-compat-docgen OUTDIR EXAMPLE_MAP CONTRACT_MD\n";
    return 2;
  }
  const std::optional<std::string> example = read(argv[2]), contract = read(argv[3]);
  if (!example || !contract) return 1;
  CLI::App app{kSummary, "cudnn-compat"};
  Globals g;
  char *only_program[] = {argv[0], nullptr};
  build_app(app, g, 1, only_program);  // every subcommand
  const fs::path out = argv[1];
  const bool ok =
      write(out / "man/man1/cudnn-compat.1", man_page(app, version())) &&
      write(out / "bash-completion/completions/cudnn-compat", bash_completion(app)) &&
      write(out / "zsh/site-functions/_cudnn-compat", zsh_completion(app)) &&
      write(out / "man/man5/cudnn-compat-map.5", map_page(*example, *contract, version()));
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  try {
    return generate(argc, argv);
  } catch (const std::exception &e) {
    std::fputs("cudnn-compat-docgen: ", stderr);
    std::fputs(e.what(), stderr);
    std::fputs("\n", stderr);
    return 1;
  }
}
