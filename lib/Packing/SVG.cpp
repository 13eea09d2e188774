//===- SVG.cpp - A picture of a packing -----------------------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "PackingInternal.h"
#include "streamhal/Packing/PackingSVG.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <map>

using namespace streamhal::packing;
using namespace streamhal::packing::detail;

/// Above this many buffers rectangles lose their outline, which would
/// otherwise paint the picture black.
static constexpr size_t kMaxOutlinedBuffers = 2000;

/// Pixels right of the plot, for the slab and lower-bound labels (wide
/// enough for "lower bound" and a ten-digit size at 12 px).
static constexpr double kRightMargin = 160;
/// Pixels below the plot: time labels, the axis title and the legend.
static constexpr double kBottomMargin = 64;
/// Vertical pixels two labels in the right margin need so as not to overlap.
static constexpr double kLabelSpacing = 14;

namespace {
/// How one kind of line is drawn; the lines and the legend share it.
struct LineStyle {
  const char *cssClass;
  const char *color;
  const char *dash;
  const char *legend;
};
} // namespace

static constexpr LineStyle kLiveBytes = {"live-bytes", "#1f4e9c", "",
                                         "live bytes"};
static constexpr LineStyle kSlabTop = {"slab-top", "#000", "", "slab top"};
static constexpr LineStyle kLowerBound = {"lower-bound", "#c0392b", "6 4",
                                          "lower bound"};

/// The stroke attributes of `style`.
static void writeStroke(llvm::raw_ostream &os, const LineStyle &style) {
  os << " stroke=\"" << style.color << "\" stroke-width=\"1.5\"";
  if (*style.dash)
    os << " stroke-dasharray=\"" << style.dash << "\"";
}

/// Writes `text` with the five XML special characters escaped.
static void writeEscaped(llvm::raw_ostream &os, llvm::StringRef text) {
  for (char c : text) {
    switch (c) {
    case '&':
      os << "&amp;";
      break;
    case '<':
      os << "&lt;";
      break;
    case '>':
      os << "&gt;";
      break;
    case '"':
      os << "&quot;";
      break;
    case '\'':
      os << "&apos;";
      break;
    default:
      os << c;
    }
  }
}

namespace {
/// Maps time and addresses to pixels.
struct Frame {
  double left, top, width, height;
  int64_t firstTime, lastTime, topAddress;

  double x(int64_t time) const {
    return left + width * double(time - firstTime) /
                      double(std::max<int64_t>(lastTime - firstTime, 1));
  }
  double y(int64_t address) const {
    return top + height -
           height * double(address) / double(std::max<int64_t>(topAddress, 1));
  }
};
} // namespace

/// The live bytes of every elementary time section, as (time, bytes) steps.
static std::vector<std::pair<int64_t, int64_t>>
liveBytesSteps(const NormalizedProblem &problem) {
  std::map<int64_t, int64_t> deltas;
  for (const NormalizedBuffer &buffer : problem.buffers) {
    if (buffer.start >= buffer.end)
      continue;
    deltas[buffer.start] += buffer.size;
    deltas[buffer.end] -= buffer.size;
  }
  std::vector<std::pair<int64_t, int64_t>> steps;
  int64_t live = 0;
  for (auto [time, delta] : deltas) {
    live += delta;
    steps.push_back({time, live});
  }
  return steps;
}

/// Coordinates as the SVG is written: two decimals.
static auto number(double value) { return llvm::format("%.2f", value); }

/// One rectangle per buffer, with its name, size, lifetime and offset as a
/// tooltip.
static void writeBuffers(llvm::raw_ostream &os, const PackingProblem &problem,
                         const NormalizedProblem &normalized,
                         const PackingResult &result,
                         llvm::ArrayRef<std::string> names,
                         const Frame &frame) {
  const std::vector<NormalizedBuffer> &buffers = normalized.buffers;
  size_t numBuffers = buffers.size();
  bool outlined = numBuffers <= kMaxOutlinedBuffers;
  os << "<g" << (outlined ? " stroke=\"#333\" stroke-width=\"0.5\"" : "")
     << ">\n";
  bool closed = problem.lifetimes == LifetimeConvention::Closed;
  for (size_t i = 0; i < numBuffers; ++i) {
    const NormalizedBuffer &buffer = buffers[i];
    int64_t offset = i < result.offsets.size() ? result.offsets[i] : 0;
    double x0 = frame.x(buffer.start), x1 = frame.x(buffer.end);
    double y0 = frame.y(offset + buffer.size), y1 = frame.y(offset);
    double width = std::max(x1 - x0, 0.5), height = std::max(y1 - y0, 0.5);
    // Golden-angle hues tell neighbours apart.
    unsigned hue = unsigned(i * 137.508) % 360;
    os << "<rect class=\"buffer\" x=\"" << number(x0) << "\" y=\""
       << number(y1 - height) << "\" width=\"" << number(width)
       << "\" height=\"" << number(height) << "\" fill=\"hsl(" << hue
       << ",65%,65%)\"><title>";
    if (i < names.size())
      writeEscaped(os, names[i]);
    else
      os << i;
    const Buffer &original = problem.buffers[i];
    os << ": " << buffer.size << " B, lifetime [" << original.lower << ", "
       << original.upper << (closed ? "]" : ")") << ", offset " << offset
       << "</title></rect>\n";
  }
  os << "</g>\n";
}

/// The axes, their end values and their names.
static void writeAxes(llvm::raw_ostream &os, const Frame &frame) {
  double bottom = frame.top + frame.height;
  os << "<path class=\"axes\" fill=\"none\" stroke=\"#000\" d=\"M"
     << number(frame.left) << " " << number(frame.top) << " V" << number(bottom)
     << " H" << number(frame.left + frame.width) << "\"/>\n";
  os << "<text x=\"" << number(frame.left - 6) << "\" y=\"" << number(bottom)
     << "\" text-anchor=\"end\">0</text>\n";
  os << "<text x=\"" << number(frame.left - 6) << "\" y=\""
     << number(frame.top + 4) << "\" text-anchor=\"end\">" << frame.topAddress
     << "</text>\n";
  os << "<text x=\"" << number(frame.left) << "\" y=\"" << number(bottom + 16)
     << "\">" << frame.firstTime << "</text>\n";
  os << "<text x=\"" << number(frame.left + frame.width) << "\" y=\""
     << number(bottom + 16) << "\" text-anchor=\"end\">" << frame.lastTime
     << "</text>\n";
  os << "<text x=\"" << number(frame.left + frame.width / 2) << "\" y=\""
     << number(bottom + 32) << "\" text-anchor=\"middle\">time</text>\n";
  os << "<text transform=\"translate(16 "
     << number(frame.top + frame.height / 2)
     << ") rotate(-90)\" text-anchor=\"middle\">address (bytes)</text>\n";
}

/// One sample line and name per kind of line, below the plot.
static void writeLegend(llvm::raw_ostream &os, const Frame &frame) {
  double bottom = frame.top + frame.height;
  os << "<g class=\"legend\">\n";
  double legendX = frame.left, legendY = bottom + 52;
  for (const LineStyle *style : {&kLiveBytes, &kSlabTop, &kLowerBound}) {
    os << "<line x1=\"" << number(legendX) << "\" x2=\"" << number(legendX + 24)
       << "\" y1=\"" << number(legendY - 4) << "\" y2=\"" << number(legendY - 4)
       << "\"";
    writeStroke(os, *style);
    os << "/>\n<text x=\"" << number(legendX + 30) << "\" y=\""
       << number(legendY) << "\">" << style->legend << "</text>\n";
    legendX += 140;
  }
  os << "</g>\n";
}

void streamhal::packing::writePackingSVG(llvm::raw_ostream &os,
                                         const PackingProblem &problem,
                                         const PackingResult &result,
                                         llvm::ArrayRef<std::string> names,
                                         const PackingSVGOptions &options) {
  NormalizedProblem normalized = normalize(problem);
  const std::vector<NormalizedBuffer> &buffers = normalized.buffers;
  size_t numBuffers = buffers.size();
  int64_t lowerBound = computeLowerBound(problem);

  // Everything that is not data sits outside the plot area: the title above
  // it, the line labels in a right margin, the axis labels and the legend
  // below it. Inside, labels would cover rectangles, and the live-bytes curve
  // would cross them where it touches the lower bound.
  Frame frame;
  frame.left = 80;
  frame.top = 40;
  frame.width =
      std::max(double(options.width) - frame.left - kRightMargin, 10.0);
  frame.height =
      std::max(double(options.height) - frame.top - kBottomMargin, 10.0);
  frame.firstTime = INT64_MAX;
  frame.lastTime = INT64_MIN;
  for (const NormalizedBuffer &buffer : buffers) {
    frame.firstTime = std::min(frame.firstTime, buffer.start);
    frame.lastTime = std::max(frame.lastTime, buffer.end);
  }
  if (numBuffers == 0)
    frame.firstTime = frame.lastTime = 0;
  frame.topAddress = std::max({result.slabSize, lowerBound, int64_t(1)});

  os << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
     << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << options.width
     << "\" height=\"" << options.height << "\" viewBox=\"0 0 " << options.width
     << " " << options.height
     << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  os << "<text x=\"" << number(frame.left) << "\" y=\"20\">";
  writeEscaped(os, options.title);
  if (!options.title.empty())
    os << ": ";
  os << numBuffers << " buffers, slab " << result.slabSize << " B, lower bound "
     << lowerBound << " B</text>\n";

  writeBuffers(os, problem, normalized, result, names, frame);

  // Live bytes over time.
  os << "<path class=\"" << kLiveBytes.cssClass << "\" fill=\"none\"";
  writeStroke(os, kLiveBytes);
  os << " d=\"M" << number(frame.x(frame.firstTime)) << " "
     << number(frame.y(0));
  for (auto [time, live] : liveBytesSteps(normalized))
    os << " H" << number(frame.x(time)) << " V" << number(frame.y(live));
  os << "\"><title>live bytes</title></path>\n";

  // The slab top and the lower bound, each labelled in the right margin.
  // The lower bound is never above the slab; when the two lines are closer
  // than a label's height (always when the packing is optimal), the slab
  // label goes above its line and the lower-bound label below its own.
  double slabY = frame.y(result.slabSize), boundY = frame.y(lowerBound);
  bool crowded = boundY - slabY < kLabelSpacing;
  auto horizontal = [&](const LineStyle &style, int64_t address,
                        llvm::StringRef label, double labelY) {
    double y = frame.y(address);
    os << "<line class=\"" << style.cssClass << "\" x1=\"" << number(frame.left)
       << "\" x2=\"" << number(frame.left + frame.width) << "\" y1=\""
       << number(y) << "\" y2=\"" << number(y) << "\"";
    writeStroke(os, style);
    os << "/>\n<text class=\"" << style.cssClass << "-label\" x=\""
       << number(frame.left + frame.width + 6) << "\" y=\"" << number(labelY)
       << "\" fill=\"" << style.color << "\">" << label << " " << address
       << "</text>\n";
  };
  horizontal(kSlabTop, result.slabSize, "slab",
             crowded ? slabY - 2 : slabY + 4);
  horizontal(kLowerBound, lowerBound, "lower bound",
             crowded ? slabY + kLabelSpacing - 2 : boundY + 4);

  writeAxes(os, frame);
  writeLegend(os, frame);
  os << "</svg>\n";
}
