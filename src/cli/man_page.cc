// cudnn-compat(1), rendered from the application: each subcommand's description, options and the
// footer its --help prints (the explanation, examples and exit status).
#include "cli.h"
#include "docs.h"

#include <sstream>

namespace cudnn_compat::cli {

std::vector<Command> commands(const CLI::App &app) {
  std::vector<Command> out = {{"", &app}};
  for (std::size_t i = 0; i < out.size(); ++i)  // breadth first: "map" before "map validate"
    for (const CLI::App *sub : out[i].app->get_subcommands([](const CLI::App *) { return true; }))
      out.push_back(
          {out[i].path.empty() ? sub->get_name() : out[i].path + " " + sub->get_name(), sub});
  return out;
}

bool takes_path(const CLI::Option &o) {
  std::stringstream type(o.get_type_name());
  for (std::string word; std::getline(type, word, ':');)
    if (word == "FILE" || word == "DIR" || word == "PATH") return true;
  return false;
}

// Text as roff reads it: a backslash is printed with \e, a line that starts with a dot or an
// apostrophe would be a request, and every hyphen is a minus (\-): options, commands and names
// such as cudnn-compat are typed as they read, and a line never breaks inside them.
std::string roff(std::string_view text) {
  std::string out;
  bool line_start = true;
  for (char c : text) {
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";
    else
      out += c;
    line_start = c == '\n';
  }
  return out;
}

namespace {

std::vector<std::string> paragraphs(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) {
    if (line.find_first_not_of(' ') == std::string::npos) {
      if (!current.empty()) out.push_back(current);
      current.clear();
    } else {
      current += line + "\n";
    }
  }
  if (!current.empty()) out.push_back(current);
  return out;
}

// A paragraph of --help text: indented lines (examples, tables) keep their layout; a first line
// that ends in a colon is a label; the rest flows.
std::string render_paragraph(const std::string &p) {
  std::string out = ".PP\n", block;
  std::istringstream in(p);
  auto flush = [&] {
    if (!block.empty()) out += ".RS 2\n.nf\n" + roff(block) + ".fi\n.RE\n";
    block.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("  ")) {
      block += line.substr(2) + "\n";
      continue;
    }
    flush();
    out += line.ends_with(":") ? ".B " + roff(line) + "\n" : roff(line) + "\n";
  }
  flush();
  return out;
}

std::string render_text(std::string_view text) {
  std::string out;
  for (const std::string &p : paragraphs(text)) out += render_paragraph(p);
  return out;
}

std::string option_label(const CLI::Option &o) {
  std::string label;
  for (const std::string &s : o.get_snames()) label += (label.empty() ? "" : ", ") + ("-" + s);
  for (const std::string &l : o.get_lnames()) label += (label.empty() ? "" : ", ") + ("--" + l);
  std::string positional = o.get_positional() ? "\\fI" + o.get_name(true) + "\\fR" : "";
  if (label.empty()) return positional;
  label = "\\fB" + roff(label) + "\\fR";
  if (o.get_expected_max() > 0) {
    const std::string type = o.get_type_name();
    label += " \\fI" + type.substr(0, type.find(':')) + "\\fR";
  }
  // A map given as FILE or as --map FILE, as every other subcommand takes it.
  return positional.empty() ? label : positional + ", " + label;
}

std::string render_command(const Command &c) {
  std::string out = ".SS \"cudnn-compat " + c.path + "\"\n" + roff(c.app->get_description()) + "\n";
  for (const CLI::Option *o : c.app->get_options()) {
    if (o->get_lnames() == std::vector<std::string>{"help"}) continue;
    out += ".TP\n" + option_label(*o) + "\n" + roff(o->get_description()) + "\n";
  }
  return out + render_text(c.app->get_footer());
}

}  // namespace

std::string man_page(const CLI::App &app, const std::string &version) {
  std::string out = ".TH CUDNN-COMPAT 1 \"\" \"cudnn-compat " + version + "\" \"User Commands\"\n";
  // Commands, paths and versions must read as typed: no hyphenation, no stretched spaces.
  out += ".nh\n.ad l\n";
  const std::string summary = app.get_description();  // "cudnn-compat - what it does\n"
  const std::size_t dash = summary.find(" - ");
  out += ".SH NAME\ncudnn-compat \\- " +
         roff(summary.substr(dash + 3, summary.find('\n') - dash - 3)) + "\n";
  out +=
      ".SH SYNOPSIS\n.B cudnn-compat\n[\\fB\\-\\-json\\fR] \\fISUBCOMMAND\\fR [\\fIOPTIONS\\fR]\n";
  out += ".br\n.B cudnn-compat\n\\fB\\-\\-version\\fR | \\fB\\-\\-help\\fR\n";
  for (const HelpSection &s : top_help(std::nullopt)) {
    out += ".SH " + std::string(s.title) + "\n" + render_text(s.text);
    if (s.title != "DESCRIPTION") continue;
    out += ".SH COMMANDS\n";
    for (const Command &c : commands(app))
      if (!c.path.empty() && c.app->get_subcommands([](const CLI::App *) { return true; }).empty())
        out += render_command(c);
  }
  out += ".SH FILES\n.TP\n" + roff(default_map_search_text(std::nullopt)) +
         "\nThe version map, and the tables \\fBmap validate\\fR writes beside it.\n";
  out += ".SH SEE ALSO\n\\fBcudnn-compat-map\\fR(5), \\fBld.so\\fR(8), \\fBmodule\\fR(1)\n";
  return out;
}

}  // namespace cudnn_compat::cli
