#!/usr/bin/python3
"""Each SIMD algorithm is written once (lib/simd/kernels-inl.h): fails, listing them, if a function
name is defined in more than one file under the given folder (overloads within one file are fine).
The exception is an op of rfk's own vocabulary (lib/simd/README.md, "Adding a kernel"): one
definition per backend beside its vocabulary, in hwy/kernels_hwy.cc and xsimd/ops_xsimd.h and
nowhere else.

usage: check_simd_single_source.py LIB_SIMD_DIR

Definitions are found as the longfuncs check finds them: comments and strings stripped, a '{' that
follows a parameter list (or const/noexcept after one) at any depth outside another function body
opens a function, and the identifier before that parameter list is its name. Lambdas inside a
function do not count; operators are named 'operator'.
"""
import os
import re
import sys
from collections import defaultdict


def strip(src):
    """Comments and string/char literals blanked out, newlines kept."""
    src = re.sub(r"//[^\n]*", "", src)
    src = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), src, flags=re.S)
    src = re.sub(r"\"(\\.|[^\"\\\n])*\"", '""', src)
    return re.sub(r"(?<![\w])'(\\.|[^'\\\n])'", "''", src)


def open_paren(s, close):
    """Index of the '(' matching the ')' at index close."""
    depth = 0
    for i in range(close, -1, -1):
        if s[i] == ")":
            depth += 1
        elif s[i] == "(":
            depth -= 1
            if depth == 0:
                return i
    return -1


def definitions(src):
    s = strip(src)
    s = "\n".join("" if line.lstrip().startswith("#") else line for line in s.split("\n"))
    names, stack = [], []
    for m in re.finditer(r"[{}]", s):
        if m.group() == "}":
            if stack:
                stack.pop()
            continue
        in_function = any(stack)
        pre = s[: m.start()].rstrip()
        tail = re.search(r"\)\s*(const\s*)?(noexcept\s*)?(override\s*)?(->\s*[\w:<>,\s*&]+)?$", pre)
        name = None
        if tail and not in_function:
            start = open_paren(pre, pre.rfind(")", 0, tail.start() + 1))
            ident = re.search(r"(operator\s*\S+|[A-Za-z_]\w*)\s*(<[^()]*>)?\s*$", pre[:start])
            if ident and ident.group(1) not in ("if", "for", "while", "switch", "catch", "return"):
                name = "operator" if ident.group(1).startswith("operator") else ident.group(1)
        stack.append(name is not None)
        if name:
            names.append(name)
    return names


def main(root):
    files = defaultdict(set)
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            if re.search(r"\.(cc|h)$", f):
                path = os.path.join(dirpath, f)
                for name in definitions(open(path, encoding="utf-8").read()):
                    files[name].add(os.path.relpath(path, root))
    if not files:
        print(f"no function definitions found under {root}")
        return 1
    vocabulary = {os.path.join("hwy", "kernels_hwy.cc"), os.path.join("xsimd", "ops_xsimd.h")}
    dup = {n: sorted(p) for n, p in files.items() if len(p) > 1 and not p <= vocabulary}
    for n, p in sorted(dup.items()):
        print(f"{n}: defined in {', '.join(p)}")
    print(f"{len(files)} function names under {root}, {len(dup)} defined in more than one file")
    return 1 if dup else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
