//===- Memory.cpp - Device memory with poison tracking --------------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Exec/Memory.h"
#include "streamhal/Exec/DispatchModel.h"
#include <algorithm>
#include <atomic>
#include <cstring>

using namespace streamhal::exec;

/// Serials of roots, counted from 1 across the process.
static uint64_t nextSerial() {
  static std::atomic<uint64_t> counter{0};
  return ++counter;
}

RootBuffer::RootBuffer()
    : serial(nextSerial()), allocator(std::make_unique<StateMap::Allocator>()),
      states(std::make_unique<StateMap>(*allocator)) {}

RootBuffer::~RootBuffer() {
  // A moved-from root has no account (and no pages).
  if (account)
    account->used -= materialized;
}

RootBuffer RootBuffer::allocate(std::string name, int64_t length) {
  RootBuffer root;
  root.name = std::move(name);
  root.length = std::max<int64_t>(length, 0);
  return root;
}

RootBuffer RootBuffer::withContents(std::string name,
                                    llvm::ArrayRef<uint8_t> bytes) {
  RootBuffer root;
  root.name = std::move(name);
  root.length = static_cast<int64_t>(bytes.size());
  root.pristine.initialized = true;
  root.writeBytes(0, bytes);
  return root;
}

RootBuffer RootBuffer::growable(std::string name, uint64_t seed) {
  RootBuffer root;
  root.name = std::move(name);
  root.length = INT64_MAX;
  root.seed = seed;
  root.pristine.initialized = true;
  return root;
}

void RootBuffer::setAccount(std::shared_ptr<MemoryAccount> newAccount) {
  if (account)
    account->used -= materialized;
  account = std::move(newAccount);
  if (account)
    account->used += materialized;
}

void RootBuffer::setMaterialized(int64_t bytes) {
  if (account)
    account->used += bytes - materialized;
  materialized = bytes;
}

bool RootBuffer::contains(int64_t offset, int64_t size) const {
  return offset >= 0 && size >= 0 && offset <= length &&
         size <= length - offset;
}

int64_t RootBuffer::getPageBytes(int64_t index) const {
  return std::min(kPageBytes, length - index * kPageBytes);
}

void RootBuffer::readPristine(int64_t offset,
                              llvm::MutableArrayRef<uint8_t> out) const {
  if (seed)
    splitMixBytesAt(*seed, static_cast<uint64_t>(offset), out);
  else
    std::fill(out.begin(), out.end(), kPoisonByte);
}

/// Calls `chunk(page, offsetInPage, position, size)` for each page-sized
/// piece of [offset, offset + size), in order; `position` counts from
/// `offset`.
template <typename Fn>
static void forEachPage(int64_t offset, int64_t size, Fn chunk) {
  int64_t position = 0;
  while (position < size) {
    int64_t at = offset + position;
    int64_t page = at / kPageBytes;
    int64_t inPage = at % kPageBytes;
    int64_t bytes = std::min(kPageBytes - inPage, size - position);
    chunk(page, inPage, position, bytes);
    position += bytes;
  }
}

int64_t RootBuffer::getUnmaterializedBytes(int64_t offset, int64_t size) const {
  if (size <= 0)
    return 0;
  int64_t firstPage = offset / kPageBytes;
  int64_t lastPage = (offset + size - 1) / kPageBytes;
  // All pages of the range, less those already there.
  int64_t missing =
      (lastPage - firstPage) * kPageBytes + getPageBytes(lastPage);
  for (auto it = pages.lower_bound(firstPage);
       it != pages.end() && it->first <= lastPage; ++it)
    missing -= static_cast<int64_t>(it->second.size());
  return missing;
}

void RootBuffer::read(int64_t offset,
                      llvm::MutableArrayRef<uint8_t> out) const {
  forEachPage(
      offset, out.size(),
      [&](int64_t page, int64_t inPage, int64_t position, int64_t bytes) {
        llvm::MutableArrayRef<uint8_t> piece = out.slice(position, bytes);
        auto it = pages.find(page);
        if (it == pages.end())
          readPristine(offset + position, piece);
        else
          std::memcpy(piece.data(), it->second.data() + inPage, bytes);
      });
}

std::vector<uint8_t> RootBuffer::readBytes(int64_t offset, int64_t size) const {
  std::vector<uint8_t> bytes(std::max<int64_t>(size, 0));
  read(offset, bytes);
  return bytes;
}

void RootBuffer::writeBytes(int64_t offset, llvm::ArrayRef<uint8_t> data) {
  int64_t added = 0;
  forEachPage(
      offset, data.size(),
      [&](int64_t page, int64_t inPage, int64_t position, int64_t bytes) {
        std::vector<uint8_t> &stored = pages[page];
        if (stored.empty()) {
          stored.resize(getPageBytes(page));
          // Bytes of the page outside the write keep their value.
          readPristine(page * kPageBytes, stored);
          added += static_cast<int64_t>(stored.size());
        }
        std::memcpy(stored.data() + inPage, data.data() + position, bytes);
      });
  setMaterialized(materialized + added);
}

void RootBuffer::assign(int64_t first, int64_t last, ByteState state) {
  // IntervalMap::insert needs free keys: cut the overlapping intervals out,
  // keeping their parts outside [first, last].
  llvm::SmallVector<StateRun, 2> kept;
  for (auto it = states->find(first); it.valid() && it.start() <= last;) {
    if (it.start() < first)
      kept.push_back({it.start(), first - it.start(), it.value()});
    if (it.stop() > last)
      kept.push_back({last + 1, it.stop() - last, it.value()});
    it.erase();
  }
  for (const StateRun &run : kept)
    states->insert(run.start, run.start + run.length - 1, run.state);
  states->insert(first, last, state);
}

void RootBuffer::write(int64_t offset, llvm::ArrayRef<uint8_t> data,
                       mlir::Operation *writer) {
  if (data.empty())
    return;
  writeBytes(offset, data);
  assign(offset, offset + static_cast<int64_t>(data.size()) - 1,
         {writer, true});
}

llvm::SmallVector<StateRun> RootBuffer::getRuns(int64_t offset,
                                                int64_t size) const {
  llvm::SmallVector<StateRun> runs;
  if (size <= 0)
    return runs;
  int64_t last = offset + size - 1;
  int64_t next = offset;
  for (auto it = states->find(offset); it.valid() && it.start() <= last; ++it) {
    int64_t start = std::max(it.start(), offset);
    int64_t stop = std::min(it.stop(), last);
    if (next < start)
      runs.push_back({next, start - next, pristine});
    runs.push_back({start, stop - start + 1, it.value()});
    next = stop + 1;
  }
  if (next <= last)
    runs.push_back({next, last - next + 1, pristine});
  return runs;
}

std::optional<int64_t> RootBuffer::findUninitialized(int64_t offset,
                                                     int64_t size) const {
  for (const StateRun &run : getRuns(offset, size))
    if (!run.state.initialized)
      return run.start;
  return std::nullopt;
}

mlir::Operation *RootBuffer::getLastWriter(int64_t offset) const {
  return states->lookup(offset, pristine).writer;
}

void RootBuffer::copyFrom(const RootBuffer &source, int64_t sourceOffset,
                          int64_t targetOffset, int64_t size,
                          mlir::Operation *writer) {
  if (size <= 0)
    return;
  // The source's states before any byte moves: the ranges may overlap.
  llvm::SmallVector<StateRun> runs = source.getRuns(sourceOffset, size);
  // Page-sized pieces through a buffer; backwards when the target lies
  // after an overlapping source, so that no piece reads bytes already
  // overwritten.
  bool backwards = &source == this && targetOffset > sourceOffset;
  std::vector<uint8_t> piece;
  for (int64_t done = 0; done < size;) {
    int64_t bytes = std::min(kPageBytes, size - done);
    int64_t at = backwards ? size - done - bytes : done;
    piece.resize(bytes);
    source.read(sourceOffset + at, piece);
    writeBytes(targetOffset + at, piece);
    done += bytes;
  }
  for (const StateRun &run : runs) {
    int64_t start = targetOffset + (run.start - sourceOffset);
    assign(start, start + run.length - 1, {writer, run.state.initialized});
  }
}

RootBuffer::Snapshot RootBuffer::snapshot() const {
  Snapshot saved;
  saved.pages = pages;
  for (auto it = states->begin(); it.valid(); ++it)
    saved.runs.push_back({it.start(), it.stop() - it.start() + 1, it.value()});
  return saved;
}

void RootBuffer::restore(const Snapshot &saved) {
  pages = saved.pages;
  int64_t bytes = 0;
  for (const auto &[index, page] : pages)
    bytes += static_cast<int64_t>(page.size());
  setMaterialized(bytes);
  states->clear();
  for (const StateRun &run : saved.runs)
    states->insert(run.start, run.start + run.length - 1, run.state);
}

/// The run of `runs` (sorted, disjoint) holding `offset`, if any.
static const StateRun *findRun(llvm::ArrayRef<StateRun> runs, int64_t offset) {
  auto it =
      llvm::upper_bound(runs, offset, [](int64_t at, const StateRun &run) {
        return at < run.start;
      });
  if (it == runs.begin())
    return nullptr;
  --it;
  return offset - it->start < it->length ? &*it : nullptr;
}

mlir::Operation *RootBuffer::Snapshot::getLastWriter(int64_t offset) const {
  const StateRun *run = findRun(runs, offset);
  return run ? run->state.writer : nullptr;
}

std::optional<int64_t>
RootBuffer::firstDifference(const Snapshot &other) const {
  std::optional<int64_t> first;
  auto note = [&](int64_t offset) {
    if (!first || offset < *first)
      first = offset;
  };

  // Bytes: only pages stored on either side can differ.
  std::vector<uint8_t> mine, theirs;
  auto comparePage = [&](int64_t index) {
    int64_t start = index * kPageBytes;
    mine.resize(getPageBytes(index));
    theirs.resize(mine.size());
    read(start, mine);
    auto it = other.pages.find(index);
    if (it != other.pages.end())
      std::memcpy(theirs.data(), it->second.data(), theirs.size());
    else
      readPristine(start, theirs);
    auto [a, b] = std::mismatch(mine.begin(), mine.end(), theirs.begin());
    if (a == mine.end())
      return false;
    note(start + (a - mine.begin()));
    return true;
  };
  auto mineIt = pages.begin();
  auto theirsIt = other.pages.begin();
  while (mineIt != pages.end() || theirsIt != other.pages.end()) {
    // The next page index stored on either side, in increasing order.
    bool takeMine = mineIt != pages.end() && (theirsIt == other.pages.end() ||
                                              mineIt->first <= theirsIt->first);
    bool takeTheirs =
        theirsIt != other.pages.end() &&
        (mineIt == pages.end() || theirsIt->first <= mineIt->first);
    int64_t index = takeMine ? mineIt->first : theirsIt->first;
    if (takeMine)
      ++mineIt;
    if (takeTheirs)
      ++theirsIt;
    if (comparePage(index))
      break;
  }

  // Initialized state: it is constant between the ends of runs, so the
  // first difference, if any, is at one of them.
  llvm::SmallVector<int64_t> edges;
  for (auto it = states->begin(); it.valid(); ++it)
    edges.append({it.start(), it.stop() + 1});
  for (const StateRun &run : other.runs)
    edges.append({run.start, run.start + run.length});
  llvm::sort(edges);
  for (int64_t edge : edges) {
    if (first && edge >= *first)
      break;
    if (edge >= length)
      continue;
    const StateRun *run = findRun(other.runs, edge);
    bool theirState = run ? run->state.initialized : pristine.initialized;
    if (states->lookup(edge, pristine).initialized != theirState) {
      note(edge);
      break;
    }
  }
  return first;
}
