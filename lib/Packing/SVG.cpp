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

void streamhal::packing::writePackingSVG(llvm::raw_ostream &os,
                                         const PackingProblem &problem,
                                         const PackingResult &result,
                                         llvm::ArrayRef<std::string> names,
                                         const PackingSVGOptions &options) {
  NormalizedProblem normalized = normalize(problem);
  const std::vector<NormalizedBuffer> &buffers = normalized.buffers;
  size_t numBuffers = buffers.size();
  int64_t lowerBound = computeLowerBound(problem);

  Frame frame;
  frame.left = 80;
  frame.top = 40;
  frame.width = std::max(double(options.width) - frame.left - 20, 10.0);
  frame.height = std::max(double(options.height) - frame.top - 40, 10.0);
  frame.firstTime = INT64_MAX;
  frame.lastTime = INT64_MIN;
  for (const NormalizedBuffer &buffer : buffers) {
    frame.firstTime = std::min(frame.firstTime, buffer.start);
    frame.lastTime = std::max(frame.lastTime, buffer.end);
  }
  if (numBuffers == 0)
    frame.firstTime = frame.lastTime = 0;
  frame.topAddress = std::max({result.slabSize, lowerBound, int64_t(1)});

  auto number = [](double value) { return llvm::format("%.2f", value); };
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

  // The buffers.
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

  // Live bytes over time.
  os << "<path class=\"live-bytes\" fill=\"none\" stroke=\"#1f4e9c\" "
        "stroke-width=\"1.5\" d=\"M"
     << number(frame.x(frame.firstTime)) << " " << number(frame.y(0));
  for (auto [time, live] : liveBytesSteps(normalized))
    os << " H" << number(frame.x(time)) << " V" << number(frame.y(live));
  os << "\"><title>live bytes</title></path>\n";

  // The lower bound and the slab top.
  auto horizontal = [&](llvm::StringRef cssClass, llvm::StringRef color,
                        llvm::StringRef dash, int64_t address,
                        llvm::StringRef label, double labelDy) {
    double y = frame.y(address);
    os << "<line class=\"" << cssClass << "\" x1=\"" << number(frame.left)
       << "\" x2=\"" << number(frame.left + frame.width) << "\" y1=\""
       << number(y) << "\" y2=\"" << number(y) << "\" stroke=\"" << color
       << "\" stroke-width=\"1.5\"";
    if (!dash.empty())
      os << " stroke-dasharray=\"" << dash << "\"";
    os << "/>\n<text x=\"" << number(frame.left + frame.width - 4) << "\" y=\""
       << number(y + labelDy) << "\" text-anchor=\"end\" fill=\"" << color
       << "\">" << label << " " << address << "</text>\n";
  };
  horizontal("slab-top", "#000", "", result.slabSize, "slab", -4);
  horizontal("lower-bound", "#c0392b", "6 4", lowerBound, "lower bound",
             lowerBound == result.slabSize ? 14 : -4);

  // Axes.
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
  os << "</svg>\n";
}
