// cudnn-compat-map(5), rendered from the two texts that define the map: the example map, whose
// comments document every key, and docs/contract.md, the specification of the tables derived from
// it (its "FILES" section). Only the Markdown that contract.md uses is read: headings, paragraphs,
// lists, tables, indented code, `code` and **bold**.
#include "cudnn_compat.h"
#include "docs.h"
#include "site_contract.h"

#include <sstream>

namespace cudnn_compat::cli {

namespace {

// `code` and **bold** as roff fonts; everything else through roff().
std::string inline_text(const std::string &line) {
  std::string out, plain;
  auto flush = [&] {
    out += roff(plain);
    plain.clear();
  };
  for (std::size_t i = 0; i < line.size(); ++i) {
    const bool bold = line.compare(i, 2, "**") == 0, code = line[i] == '`';
    const std::string mark = bold ? "**" : "`";
    const std::size_t end = bold || code ? line.find(mark, i + mark.size()) : std::string::npos;
    if (end == std::string::npos) {
      plain += line[i];
      continue;
    }
    flush();
    out += "\\fB" + roff(line.substr(i + mark.size(), end - i - mark.size())) + "\\fR";
    i = end + mark.size() - 1;
  }
  flush();
  return out;
}

// A table's row: its cells, trimmed; a |---| rule gives none.
std::vector<std::string> cells(const std::string &row) {
  std::vector<std::string> out;
  std::stringstream in(row.substr(1));
  for (std::string cell; std::getline(in, cell, '|');) {
    const std::size_t a = cell.find_first_not_of(' '), b = cell.find_last_not_of(' ');
    cell = a == std::string::npos ? "" : cell.substr(a, b - a + 1);
    if (cell.find_first_not_of("- ") == std::string::npos && !cell.empty()) return {};
    out.push_back(cell);
  }
  return out;
}

// Where the reading of the Markdown is: inside an indented code block, after a blank line.
struct MarkdownState {
  bool in_code = false, after_blank = true;
};

// One line of Markdown as roff. Indented code starts only after a blank line (elsewhere a deep
// indent continues a list item).
std::string markdown_line(const std::string &line, MarkdownState &st) {
  const bool after_blank = st.after_blank;
  st.after_blank = line.empty();
  if (line.starts_with("    ") && (st.in_code || after_blank)) {
    const std::string start = st.in_code ? "" : ".PP\n.RS 2\n.nf\n";
    st.in_code = true;
    return start + roff(line.substr(4)) + "\n";
  }
  std::string out = st.in_code ? ".fi\n.RE\n" : "";
  st.in_code = false;
  if (line.starts_with("# ")) return out;  // the title is the man page's NAME
  // The text is one section of the page (FILES): its headings are the levels below.
  if (line.starts_with("## ")) return out + ".SS \"" + roff(line.substr(3)) + "\"\n";
  if (line.starts_with("### ")) return out + ".PP\n.B \"" + roff(line.substr(4)) + "\"\n";
  if (line.empty()) return out + ".PP\n";
  if (line.starts_with("|")) {
    const std::vector<std::string> row = cells(line);
    std::string text;
    for (const std::string &c : row) text += (text.empty() ? "" : " \\(em ") + inline_text(c);
    return row.empty() ? out : out + ".br\n" + text + "\n";
  }
  const std::size_t indent = line.find_first_not_of(' ');
  const std::string rest = line.substr(indent);
  if (rest.starts_with("- "))
    return out + ".IP \\(bu " + (indent ? "6" : "2") + "\n" + inline_text(rest.substr(2)) + "\n";
  const std::size_t dot = rest.find(". ");
  if (dot != std::string::npos && dot > 0 && rest.find_first_not_of("0123456789") == dot)
    return out + ".IP " + rest.substr(0, dot + 1) + " 4\n" + inline_text(rest.substr(dot + 2)) +
           "\n";
  return out + inline_text(rest) + "\n";
}

std::string markdown(const std::string &text) {
  std::string out;
  MarkdownState st;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += markdown_line(line, st);
  return out + (st.in_code ? ".fi\n.RE\n" : "");
}

bool commented_key(const std::string &line) {
  const std::size_t key_end = line.find_first_not_of("abcdefghijklmnopqrstuvwxyz_", 2);
  return key_end > 2 && key_end != std::string::npos && line.compare(key_end, 3, " = ") == 0;
}

// The example map: its comments read as text (a bare "#" ends a paragraph), its TOML and the
// comments' own indented lines (lists of values, examples) keep their layout.
std::string example(const std::string &text) {
  std::string out, block;
  bool in_paragraph = false;
  std::istringstream in(text);
  auto flush = [&] {
    if (!block.empty()) out += ".PP\n.RS 2\n.nf\n" + roff(block) + ".fi\n.RE\n";
    block.clear();
  };
  for (std::string line; std::getline(in, line);) {
    if (line == "#") {
      flush();
      in_paragraph = false;
      continue;
    }
    // A key commented out ("# trusted_group = ...") is TOML too.
    const bool prose = line.starts_with("# ") && !line.starts_with("#  ") && !commented_key(line);
    if (!prose) {
      if (!line.empty() || !block.empty())
        block += (line.starts_with("#  ") ? line.substr(2) : line) + "\n";
      in_paragraph = false;
      continue;
    }
    flush();
    out += (in_paragraph ? "" : ".PP\n") + roff(line.substr(2)) + "\n";
    in_paragraph = true;
  }
  flush();
  return out;
}

}  // namespace

std::string map_page(const std::string &example_map, const std::string &contract,
                     const std::string &version) {
  return ".TH CUDNN-COMPAT-MAP 5 \"\" \"cudnn-compat " + version + "\" \"File Formats\"\n" +
         ".nh\n.ad l\n.SH NAME\ncudnn\\-compat\\-map \\- the site's cuDNN version map, and the "
         "tables derived from it\n.SH SYNOPSIS\n\\fI$CUDNN_COMPAT_MAP\\fR, then " +
         roff(default_map_search_text(std::nullopt)) + "\n" +
         ".SH DESCRIPTION\nThe map lists the cuDNN releases a site has installed and what some "
         "applications need; the shim, the module hooks and \\fBcudnn\\-compat\\fR(1) read it. It "
         "is "
         "TOML, schema 1. The example below, installed as " +
         "\\fI" + roff(example_map_path("<prefix>")) +
         "\\fR (by the .deb, under " SITE_FHS_PREFIX ", as " + "\\fI" +
         roff(example_map_path(SITE_FHS_PREFIX)) +
         "\\fR), documents every key.\n"
         ".SH FORMAT\n" +
         example(example_map) + ".SH FILES\n" + markdown(contract) +
         ".SH SEE ALSO\n\\fBcudnn\\-compat\\fR(1), \\fBld.so\\fR(8)\n";
}

}  // namespace cudnn_compat::cli
