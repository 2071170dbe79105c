#!/usr/bin/env python3
"""Lists every C/C++ function in the given trees whose body is longer than a limit.

usage: function_size.py [--max N] DIR|FILE...      exit 1 when a function is over N lines (default 60)

A function's length is the line of its closing brace less that of its opening one, lambdas included
(clang-tidy's readability-function-size counts the same way). The parse is textual: comments,
strings and preprocessor lines are blanked, then a brace opened at namespace, class or extern "C"
scope whose header has a parameter list opens a function body. It needs no compile database, so it
runs in a second over the whole tree, as a test.
"""
import os
import re
import sys

SOURCES = (".c", ".cc", ".h", ".hpp", ".cpp")
SCOPE = re.compile(r"\b(namespace|struct|class|union)\b|\bextern\s+\"C\"")
OPAQUE = re.compile(r"\benum\b|=|\b(if|for|while|switch|catch|do|else|return)\b")


def blank(text):
    """The text with comments, string and character literals and preprocessor lines replaced by
    spaces; newlines stay, so line numbers hold."""
    out, i, n = [], 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c == "#":  # a directive, continued lines included
            j = i
            while j < n and not (text[j] == "\n" and text[j - 1] != "\\"):
                j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        if c == "\n":
            line_start = True
        elif not c.isspace():
            line_start = False
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            delim = text[i + 2:text.find("(", i + 2)]
            j = text.find(")" + delim + '"', i) + len(delim) + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            j += 1
        else:
            out.append(c)
            i += 1
            continue
        out.append(re.sub(r"[^\n]", " ", text[i:j]))
        i = j
    return "".join(out)


def functions(text):
    """(name, first line, body lines) of each function defined in the text."""
    code = blank(text)
    found, stack, header_start = [], [], 0  # stack: kinds of the open braces
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        if stack and stack[-1][0] in ("function", "opaque"):
            if c == "{":
                stack.append(("inner", line, None))
            elif c == "}":
                kind, start, name = stack.pop()
                if kind == "function":
                    found.append((name, start, line - start))
                header_start = i + 1
            continue
        if stack and stack[-1][0] == "inner":
            if c == "{":
                stack.append(("inner", line, None))
            elif c == "}":
                stack.pop()
            continue
        if c in ";}":
            if c == "}" and stack:
                stack.pop()
            header_start = i + 1
        elif c == "{":
            header = " ".join(code[header_start:i].split())
            header_start = i + 1
            name = re.search(r"([~\w:]+(?:operator\W+)?)\s*\(", header)
            if SCOPE.search(header) and not name:
                stack.append(("scope", line, None))
            elif name and not OPAQUE.search(header.split("(")[0]) and ")" in header:
                stack.append(("function", line, name.group(1)))
            else:
                stack.append(("opaque", line, None))
    return found


def main(argv):
    limit = 60
    if len(argv) > 2 and argv[1] == "--max":
        limit, argv = int(argv[2]), argv[2:]
    over = []
    for root in argv[1:]:
        walk = [(os.path.dirname(root), [], [os.path.basename(root)])] if os.path.isfile(root) \
            else os.walk(root)
        for dirpath, _, files in walk:
            for f in sorted(files):
                if not f.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8", errors="replace") as fh:
                    for name, start, lines in functions(fh.read()):
                        if lines > limit:
                            over.append((lines, f"{path}:{start}: {name}: {lines} lines"))
    for _, text in sorted(over, reverse=True):
        print(text)
    if over:
        print(f"{len(over)} function(s) over {limit} lines: split them along their seams",
              file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
