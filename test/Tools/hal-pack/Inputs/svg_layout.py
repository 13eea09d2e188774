"""Checks the layout of a hal-pack --svg picture and prints what it found.

The plot area is the box the axes path draws (`M left top V bottom H right`).
No text may be anchored inside it (labels would cover rectangles and the
live-bytes curve), the slab and lower-bound labels must not overlap, and the
legend must name the live-bytes curve and both lines."""

import re
import sys
import xml.etree.ElementTree as ET

ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
axes = next(p for p in root.iter(ns + "path") if p.get("class") == "axes")
left, top, bottom, right = map(
    float, re.fullmatch(r"M(\S+) (\S+) V(\S+) H(\S+)", axes.get("d")).groups())

inside = []
labels = {}
for text in root.iter(ns + "text"):
    if text.get("x") is None:  # the rotated axis title, left of the plot
        continue
    x, y = float(text.get("x")), float(text.get("y"))
    if left < x < right and top < y < bottom:
        inside.append(text.text)
    if text.get("class"):
        labels[text.get("class")] = (y, text.text)
print("text inside the plot:", inside or "none")

slab_y, slab = labels["slab-top-label"]
bound_y, bound = labels["lower-bound-label"]
print("labels:", slab, "/", bound,
      "overlap" if abs(slab_y - bound_y) < 12 else "apart")

legend = next(g for g in root.iter(ns + "g") if g.get("class") == "legend")
print("legend:", ", ".join(t.text for t in legend.iter(ns + "text")))
