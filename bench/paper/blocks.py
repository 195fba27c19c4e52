"""Marked blocks in docs/RESULTS.md: each script that measures something on its own (defaults.py,
storage.py) owns the text between `<!-- NAME: begin -->` and `<!-- NAME: end -->`; run.py, which
rewrites the rest of the file, keeps those blocks."""
import contextlib
import io
import os
import re
import sys

MARKED_BLOCK = re.compile(r"<!-- ([\w.-]+): begin -->.*?<!-- \1: end -->", re.S)


def markers(name):
    """The begin and end markers of the block `name` owns."""
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def foreign_blocks(doc):
    """The marked blocks (markers included) in a report that run.py rewrites."""
    return [m.group(0) for m in MARKED_BLOCK.finditer(doc)]


def write_block(path, text, begin, end):
    """Replaces the block between `begin` and `end` in `path` by `text` (which carries the markers),
    or appends it; written atomically."""
    doc = open(path).read() if os.path.exists(path) else ""
    if begin in doc and end in doc:
        doc = doc[:doc.index(begin)] + text + doc[doc.index(end) + len(end) + 1:]
    else:
        doc = doc.rstrip("\n") + "\n\n" + text
    write_atomic(path, doc)


def write_atomic(path, text):
    """Writes `text` to `path` through a temporary file beside it: readers see the old or the new."""
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


@contextlib.contextmanager
def output(page, name):
    """What is printed inside is the block `name`'s text: on leaving, it is printed, or with `page`
    (a path) written between the block's markers there (atomically). Nothing is written when the
    body raises."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        yield
    text = buf.getvalue().rstrip("\n")
    if not page:
        print(text)
        return
    begin, end = markers(name)
    write_block(page, f"{begin}\n{text}\n{end}\n", begin, end)
    print(f"{name}: wrote its table into {page}", file=sys.stderr)


if __name__ == "__main__":
    # blocks.py PAGE NAME: standard input as the text of the block NAME in PAGE (a shell script's table).
    with output(sys.argv[1], sys.argv[2]):
        sys.stdout.write(sys.stdin.read())
