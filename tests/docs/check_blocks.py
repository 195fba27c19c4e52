#!/usr/bin/env python3
"""Every block a user would type in README.md and docs/*.md either runs or says why it does not.

The guides that tests run block by block (tests/docs/run_guide.sh: README.md, docs/CLI.md,
docs/DEPLOY.md, docs/PYTHON.md) run their sh and python blocks; every other fenced block with a
language that is code (sh, python, c, cpp, cmake, make) -- in those guides and in the reference
pages -- must follow a line `<!-- not run: WHY -->` that says why it is not run here and what runs
its commands instead. `text` blocks (output shown, not typed) need nothing. Exit status 1, with
each offending block's file and line, when one is unmarked.

    check_blocks.py ROOT
"""
import pathlib
import re
import sys

RUN_GUIDES = {"README.md", "docs/CLI.md", "docs/DEPLOY.md", "docs/PYTHON.md"}
RUNNABLE = {"sh", "python"}
CODE = {"sh", "python", "c", "cpp", "cmake", "make"}
MARK = re.compile(r"^<!-- not run: \S.*-->$")


def check(root):
    bad, counts = [], {"run": 0, "marked": 0, "text": 0}
    files = [root / "README.md"] + sorted((root / "docs").glob("*.md"))
    for path in files:
        rel = path.relative_to(root).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        inside = False
        prev = ""  # the last non-blank line before the fence
        for n, line in enumerate(lines, 1):
            if inside:
                inside = not line.startswith("```")
                continue
            fence = re.match(r"^```(\S*)\s*$", line)
            if not fence:
                if line.strip():
                    prev = line.strip()
                continue
            inside = True
            lang = fence.group(1)
            if lang not in CODE:
                if lang == "":
                    bad.append(f"{rel}:{n}: a fenced block without a language (sh, python, c, ..., or text)")
                else:
                    counts["text"] += 1
            elif MARK.match(prev):
                counts["marked"] += 1
            elif rel in RUN_GUIDES and lang in RUNNABLE:
                counts["run"] += 1
            else:
                bad.append(f"{rel}:{n}: a {lang} block that no test runs and no '<!-- not run: WHY -->' line explains")
            prev = ""
    return bad, counts, len(files)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    bad, counts, nfiles = check(root)
    for b in bad:
        print(b)
    print(f"check_blocks: {nfiles} files; {counts['run']} blocks run by the guide tests, "
          f"{counts['marked']} marked not run, {counts['text']} output blocks; {len(bad)} unexplained")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
