// cudnn-compat-docgen OUTDIR: writes OUTDIR/man/man1/cudnn-compat.1 and the bash and zsh
// completions from the same application cudnn-compat parses with (app.cc), at build time, so the
// man page and the completions never describe another program than --help does.
#include "cli.h"
#include "docs.h"

#include <filesystem>
#include <fstream>
#include <iostream>

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

}  // namespace

int main(int argc, char **argv) {
  using namespace cudnn_compat::cli;
  if (argc != 2 || !*argv[1]) {
    std::cerr << "usage: cudnn-compat-docgen OUTDIR\n";
    return 2;
  }
  CLI::App app{kSummary, "cudnn-compat"};
  Globals g;
  char *only_program[] = {argv[0], nullptr};
  build_app(app, g, 1, only_program);  // every subcommand
  const fs::path out = argv[1];
  const bool ok = write(out / "man/man1/cudnn-compat.1", man_page(app, CUDNN_COMPAT_VERSION)) &&
                  write(out / "bash-completion/completions/cudnn-compat", bash_completion(app)) &&
                  write(out / "zsh/site-functions/_cudnn-compat", zsh_completion(app));
  return ok ? 0 : 1;
}
