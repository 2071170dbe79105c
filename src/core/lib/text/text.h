// Small string helpers shared by the parsers of the engine (internal).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat {

std::string_view trim(std::string_view s);
// What follows the last '/' or '\\' (Windows paths too).
std::string_view basename_of(std::string_view path);
std::vector<std::string_view> split(std::string_view s, char sep);
std::string join(const std::vector<std::string> &items, std::string_view separator);
std::string lower(std::string_view s);
// The one reader of a whole decimal number: digits only, no sign, no spaces, at most `most_digits`
// of them (nullopt past 10^15 unless asked for more).
std::optional<std::int64_t> parse_uint(std::string_view s, std::size_t most_digits = 15);
// 0-9 in any locale; inline, as the explain scanners ask it of every character of a log.
constexpr bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// A character of an identifier or a word (ASCII letters, digits, '_'), in any locale.
constexpr bool word_char(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool all_digits(std::string_view s);
// text with its control characters written out (\n, \t, \r, \xHH), for a message on one line
// that shows what the user typed: a value holding a newline broke the line, an escape sequence
// reached the terminal.
std::string printable(std::string_view text);
// Whether text is UTF-8 with no control character: what a line of a table or a TOML string holds.
bool plain_text(std::string_view text);
// At most n bytes of text's start, not ending inside a UTF-8 character (a cut there wrote the
// character's first bytes out as \xHH).
std::string_view start_of(std::string_view text, std::size_t n);
// 'text', printable, for messages that show what the user typed; past 120 bytes, its start and
// its length.
std::string quoted(std::string_view text);
// text as one word of a POSIX shell command a user pastes: as it is when it holds only letters,
// digits and /._+@%,:=- (every module name seen), else in single quotes, so that `$(...)`, `;` or
// a space in a module name is a name and never a command.
std::string shell_word(std::string_view text);
// The one of `words` a typo of `typed` most likely meant: at most two edits away (a letter left
// out, added, changed or two swapped), or "" when none is that close or two are equally close.
std::string_view nearest_word(std::string_view typed, const std::vector<std::string_view> &words);

}  // namespace cudnn_compat
