"""Compares the library table of docs/design.md with the CMake files.

Every `add_streamhal_library` under lib/ must have a row naming its directory
and exactly the streamhal libraries its LINK_LIBS list (without the
`Streamhal` prefix), and every row must name a library that exists; a
library under lib/Conversion links and includes no transform library. Prints
one line per problem and exits 1 if there is any, else prints
`libraries: N match`.
"""
import pathlib
import re
import sys


def cmake_libraries(root):
    libraries = {}
    for path in sorted((root / "lib").rglob("CMakeLists.txt")):
        text = path.read_text()
        for match in re.finditer(r"add_streamhal_library\((\w+)(.*?)\n\s*\)", text,
                                 re.S):
            name, body = match.group(1), match.group(2)
            links = body.split("LINK_LIBS", 1)[1] if "LINK_LIBS" in body else ""
            deps = set(re.findall(r"\bStreamhal(\w+)", links))
            directory = str(path.parent.relative_to(root))
            libraries[name] = (directory, deps)
    return libraries


def design_libraries(root):
    text = (root / "docs" / "design.md").read_text()
    section = text.split("## Libraries", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 3 or not cells[0].startswith("`Streamhal"):
            continue
        name = cells[0].strip("`")
        directory = cells[1].strip("`")
        deps = {dep.strip() for dep in cells[2].split(",") if dep.strip()}
        rows[name] = (directory, deps)
    return rows


def main():
    root = pathlib.Path(sys.argv[1])
    built = cmake_libraries(root)
    documented = design_libraries(root)
    problems = []
    for name, (directory, deps) in sorted(built.items()):
        if name not in documented:
            problems.append(f"{name} ({directory}) has no row in docs/design.md")
            continue
        doc_directory, doc_deps = documented[name]
        if doc_directory != directory:
            problems.append(f"{name}: design.md says {doc_directory}, "
                            f"CMake has {directory}")
        if doc_deps != deps:
            problems.append(f"{name}: design.md says depends on "
                            f"{', '.join(sorted(doc_deps)) or 'nothing'}, "
                            f"LINK_LIBS has {', '.join(sorted(deps)) or 'nothing'}")
    for name in sorted(set(documented) - set(built)):
        problems.append(f"{name}: in docs/design.md but not built")
    # The conversion converts: the passes before and after it are composed
    # by the pipelines, so no conversion library links a transform library
    # (or includes one's headers).
    for name, (directory, deps) in sorted(built.items()):
        if not directory.startswith("lib/Conversion"):
            continue
        for dep in sorted(dep for dep in deps if dep.endswith("Transforms")):
            problems.append(f"{name}: a conversion links {dep}")
        for source in sorted((root / directory).rglob("*")):
            if source.suffix not in (".cpp", ".h"):
                continue
            for line in source.read_text().splitlines():
                if re.match(r'#include "streamhal/Dialect/\w+/Transforms/', line):
                    problems.append(f"{source.relative_to(root)}: a conversion "
                                    f"includes {line.split()[1]}")
    for problem in problems:
        print("error:", problem)
    if problems:
        return 1
    print(f"libraries: {len(built)} match")
    return 0


if __name__ == "__main__":
    sys.exit(main())
