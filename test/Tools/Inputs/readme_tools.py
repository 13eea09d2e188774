"""Checks that the tools a reader is told to run are the ones the build makes.

Usage: readme_tools.py SOURCE_ROOT TOOLS_DIR TOOL...

TOOL... are the tools add_streamhal_tool defined (what `ninja streamhal-tools`,
and so scripts/bootstrap.sh, builds). Every `build/bin/<name>` in README.md
and docs/*.md must be one of them, every tool must start from TOOLS_DIR and
name itself and streamhal in its `--version`, the README's package list
must name every package scripts/common.sh installs, and every benchmark
results file the README links must exist and be dated. Prints one line per tool
and one per problem; exits 1 on any problem."""

import glob
import os
import re
import subprocess
import sys

root, tools_dir, tools = sys.argv[1], sys.argv[2], sys.argv[3:]
problems = []

documents = [os.path.join(root, "README.md")]
documents += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
used = {}
for path in documents:
    with open(path, encoding="utf-8") as document:
        for name in re.findall(r"build/bin/([A-Za-z0-9_-]+)", document.read()):
            used.setdefault(name, os.path.relpath(path, root))
for name, path in sorted(used.items()):
    if name not in tools:
        problems.append("%s runs build/bin/%s, which no target builds" % (path, name))

with open(os.path.join(root, "scripts", "bootstrap.sh"), encoding="utf-8") as script:
    if "streamhal-tools" not in script.read():
        problems.append("scripts/bootstrap.sh does not build streamhal-tools")

# The README lists the Debian packages the scripts install.
with open(os.path.join(root, "scripts", "common.sh"), encoding="utf-8") as script:
    packages = re.search(r"PACKAGES=\(([^)]*)\)", script.read()).group(1).split()
with open(os.path.join(root, "README.md"), encoding="utf-8") as readme:
    listed = re.search(r"Debian packages first \(`([^`]*)`\)", readme.read())
listed = set(listed.group(1).split()) if listed else set()
for package in packages:
    if package not in listed:
        problems.append("README.md does not list the package %s" % package)
print("packages: %s" % " ".join(sorted(packages)))

# Measured numbers live in the results files bench/record.sh writes; every
# one the README links exists and says when it was measured.
with open(os.path.join(root, "README.md"), encoding="utf-8") as readme:
    results = sorted(set(re.findall(r"\]\((bench/[^)]*results\.md)\)", readme.read())))
for path in results:
    try:
        with open(os.path.join(root, path), encoding="utf-8") as result:
            if not re.search(r"^- measured: \d{4}-\d\d-\d\d ", result.read(), re.M):
                problems.append("%s has no '- measured: <date>' line" % path)
    except OSError:
        problems.append("README.md links %s, which does not exist" % path)
print("results: %d files" % len(results))

for name in tools:
    run = subprocess.run([os.path.join(tools_dir, name), "--version"],
                         capture_output=True, text=True)
    first = run.stdout.splitlines()[0] if run.stdout else ""
    if run.returncode != 0 or not first.startswith(name + " (streamhal "):
        problems.append("%s --version: exit %d, %r" % (name, run.returncode, first))
    else:
        print("%s: %s%s" % (name, first, ", used in " + used[name] if name in used else ""))

for problem in problems:
    print("error: " + problem)
sys.exit(1 if problems else 0)
