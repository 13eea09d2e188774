"""Fails when a function defined in lib/ is longer than a limit.

A definition starts at column 0 (clang-format puts every out-of-class
definition there) with its signature, and ends at the next line that is a
lone `}`; its length counts from the signature's first line to that brace.
Prints one `error:` line per function over the limit and exits 1, else
prints `functions: N in lib/, none over LIMIT lines`.

Usage: function_lengths.py ROOT [LIMIT]
"""
import pathlib
import sys

NOT_FUNCTIONS = ("//", "#", "}", "namespace", "using", "static_assert",
                 "extern", "typedef", "public:", "private:", "protected:")
CLASSES = ("struct", "class", "enum", "union")


def definitions(lines):
    """Yields (first line index, last line index) of each function body."""
    i = 0
    while i < len(lines):
        line = lines[i]
        starts = line and not line[0].isspace() and (
            not line.startswith(NOT_FUNCTIONS) or line.startswith("static "))
        if not starts:
            i += 1
            continue
        j = i
        while j < len(lines) and not lines[j].rstrip().endswith(("{", ";")):
            j += 1
        if line.startswith(CLASSES) and "(" not in line:
            # A class body: its methods are measured like functions.
            k = j + 1
            while k < len(lines) and lines[k] != "};":
                k += 1
            yield from methods(lines, j + 1, k)
            i = k + 1
            continue
        if j == len(lines) or lines[j].rstrip().endswith(";") or \
                "=" in lines[j] and "(" not in lines[i]:
            i = j + 1
            continue
        k = j + 1
        while k < len(lines) and lines[k] not in ("}", "};"):
            k += 1
        yield i, k
        i = k + 1


def methods(lines, begin, end):
    """Yields the bodies of methods defined inside a class (indented by 2)."""
    i = begin
    while i < end:
        line = lines[i]
        if line.startswith("  ") and not line.startswith("   ") and \
                line.rstrip().endswith("{") and "(" in line:
            k = i + 1
            while k < end and lines[k] != "  }":
                k += 1
            yield i, k
            i = k + 1
            continue
        i += 1


def main():
    root = pathlib.Path(sys.argv[1])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 120
    count = 0
    problems = []
    for path in sorted((root / "lib").rglob("*.cpp")):
        lines = path.read_text().splitlines()
        for first, last in definitions(lines):
            count += 1
            length = last - first + 1
            if length > limit:
                problems.append(f"{path.relative_to(root)}:{first + 1}: "
                                f"{length} lines: {lines[first].strip()}")
    for problem in problems:
        print("error:", problem)
    if problems:
        return 1
    print(f"functions: {count} in lib/, none over {limit} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
