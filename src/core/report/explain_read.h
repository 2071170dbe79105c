// explain's readers (internal to the engine). Each reads one line - with the lines after it for
// the few messages that span several - and returns what it recognises, or nothing. Keyword
// anchored, no regular expressions: a job log can be huge and hostile, and libstdc++'s std::regex
// recurses per character.
#pragma once

#include "reports.h"

#include <optional>
#include <string>
#include <string_view>

namespace cudnn_compat::explain {

// --- explain_words.cc: the small pieces every reader is made of.

// The text after the first occurrence of marker, or nullopt.
std::optional<std::string_view> after(std::string_view s, std::string_view marker);
// The leading version-like token of s ("5103", "7.6.0", "(8, 9, 2)"), trimmed of the punctuation
// that ends sentences.
std::string_view token(std::string_view s);
// An integer from cudnnGetVersion(), a bare major ("8"), or a dotted/tuple version; nullopt when
// it is none of them.
std::optional<Version> version_of(std::string_view t);
std::optional<Version> version_after(std::string_view s, std::string_view marker);
// "5005 is cuDNN 5.0.5 ..." for every integer the line printed: people cannot read them.
std::string raw_numbers(std::string_view line);
// The word that ends at `at`: "libcudnn.so.8" in "libcudnn.so.8: cannot open ...".
std::string word_before(std::string_view s, std::size_t at);
// The file name starting s: "libcudnn_cnn_infer.so.8" in "libcudnn_cnn_infer.so.8. Error".
std::string library_at(std::string_view s);
// A cuDNN library's file name, also as bundling wheels rename them (libcudnn-3f2b1c9a.so.7) and
// as Windows spells them in any case.
bool names_cudnn_library(std::string_view word);
// The name the engine knows it by (libcudnn.so.7 for libcudnn-3f2b1c9a.so.7), or "".
std::string canonical_library(std::string_view word);
// Every word of line that names a file (.so, .dll, .dylib, .h), in order, trimmed of quotes and
// paths.
std::vector<std::string> file_names(std::string_view line);
// The ASCII-lowercased line, same length, for wordings whose capitals vary.
std::string folded(std::string_view line);

// A recognised finding; framework and note when the reader knows them.
Finding found(FindingKind kind, std::string framework = {}, std::string note = {});
// A cuDNN library the loader could not find; nothing for any other library.
std::optional<Finding> not_found(std::string_view library);
Finding mismatch(std::string framework, Rule rule, std::optional<Version> runtime,
                 std::optional<Version> built, std::string note = {});
// mismatch() with the raw numbers of the line explained.
Finding mismatch_in(std::string_view line, std::string framework, Rule rule,
                    std::optional<Version> runtime, std::optional<Version> built);

// --- the readers, tried in this order.

// Frameworks' own version checks and loaders (explain_frameworks.cc, explain_more_frameworks.cc).
std::optional<Finding> read_framework(std::string_view line, std::string_view next);
std::optional<Finding> read_other_framework(std::string_view line, std::string_view next);
// cuDNN's own loader and status codes, the dynamic loader, Windows' loader, ldd, symbol
// versions (explain_loader.cc).
std::optional<Finding> read_loader(std::string_view line);
// Configure and CMake steps, compilers and linkers (explain_build.cc).
std::optional<Finding> read_build(std::string_view line);
// Any other line that names cuDNN or a cuDNN library (explain_general.cc).
std::optional<Finding> read_general(std::string_view line);
// A line about something else that mentions cuDNN (out of memory, the driver, the GPU's
// architecture, cuBLAS): never to be read as a cuDNN version problem.
bool about_something_else(std::string_view lowered);

}  // namespace cudnn_compat::explain
