//===- CSV.cpp - CSV reader and writer for packing problems ---------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "streamhal/Packing/PackingCSV.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace streamhal::packing;

/// Lifetime bounds and sizes beyond this are rejected while parsing so that
/// the packer's arithmetic cannot overflow (see verifyProblem).
static constexpr int64_t kMaxValue = int64_t(1) << 60;

static llvm::Error fail(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

namespace {
/// Where each known column sits in the file.
struct ColumnLayout {
  std::optional<size_t> id, lower, upper, size, alignment, offset;
};
} // namespace

/// Splits a CSV line into trimmed cells (no quoting: ids are plain tokens).
static llvm::SmallVector<llvm::StringRef, 8> splitCells(llvm::StringRef line) {
  llvm::SmallVector<llvm::StringRef, 8> cells;
  line.split(cells, ',');
  for (llvm::StringRef &cell : cells)
    cell = cell.trim();
  return cells;
}

static llvm::Expected<ColumnLayout>
parseHeader(llvm::ArrayRef<llvm::StringRef> names) {
  ColumnLayout layout;
  for (size_t column = 0; column < names.size(); ++column) {
    llvm::StringRef name = names[column];
    std::optional<size_t> *slot =
        llvm::StringSwitch<std::optional<size_t> *>(name)
            .Case("id", &layout.id)
            .Case("lower", &layout.lower)
            .Case("upper", &layout.upper)
            .Case("size", &layout.size)
            .Case("alignment", &layout.alignment)
            .Case("offset", &layout.offset)
            .Default(nullptr);
    if (!slot)
      continue;
    if (*slot)
      return fail("line 1, column " + llvm::Twine(column + 1) +
                  ": duplicate column '" + name + "'");
    *slot = column;
  }
  for (auto [slot, name] :
       {std::pair{&layout.id, "id"}, std::pair{&layout.lower, "lower"},
        std::pair{&layout.upper, "upper"}, std::pair{&layout.size, "size"}}) {
    if (!*slot)
      return fail(llvm::Twine("line 1: missing column '") + name + "'");
  }
  return layout;
}

llvm::Expected<PackingTable>
streamhal::packing::parsePackingCSV(llvm::StringRef text) {
  PackingTable table;
  llvm::SmallVector<llvm::StringRef, 0> lines;
  text.split(lines, '\n');
  // The first non-blank line is the header.
  size_t lineIndex = 0;
  while (lineIndex < lines.size() && lines[lineIndex].trim().empty())
    ++lineIndex;
  if (lineIndex == lines.size())
    return fail("line 1: empty input, expected a header 'id,lower,upper,size'");
  llvm::SmallVector<llvm::StringRef, 8> header = splitCells(lines[lineIndex]);
  llvm::Expected<ColumnLayout> layout = parseHeader(header);
  if (!layout)
    return layout.takeError();
  for (llvm::StringRef name : header)
    table.columns.push_back(name.str());
  table.offsetColumn = layout->offset;

  for (++lineIndex; lineIndex < lines.size(); ++lineIndex) {
    llvm::StringRef line = lines[lineIndex];
    if (line.trim().empty())
      continue;
    size_t lineNumber = lineIndex + 1;
    llvm::SmallVector<llvm::StringRef, 8> cells = splitCells(line);
    if (cells.size() != header.size())
      return fail("line " + llvm::Twine(lineNumber) + ": expected " +
                  llvm::Twine(header.size()) + " columns, found " +
                  llvm::Twine(cells.size()));

    auto where = [&](size_t column) {
      return ("line " + llvm::Twine(lineNumber) + ", column " +
              llvm::Twine(column + 1) + " (" + header[column] + "): ")
          .str();
    };
    auto readInteger = [&](size_t column, int64_t &value) -> llvm::Error {
      if (cells[column].getAsInteger(10, value))
        return fail(where(column) + "expected an integer, found '" +
                    cells[column] + "'");
      if (value > kMaxValue || value < -kMaxValue)
        return fail(where(column) + "value " + cells[column] +
                    " is out of range");
      return llvm::Error::success();
    };

    Buffer buffer;
    if (llvm::Error error = readInteger(*layout->lower, buffer.lower))
      return std::move(error);
    if (llvm::Error error = readInteger(*layout->upper, buffer.upper))
      return std::move(error);
    if (llvm::Error error = readInteger(*layout->size, buffer.size))
      return std::move(error);
    if (buffer.size < 0)
      return fail(where(*layout->size) + "negative size " +
                  llvm::Twine(buffer.size));
    if (buffer.upper < buffer.lower)
      return fail(where(*layout->upper) + "upper " + llvm::Twine(buffer.upper) +
                  " is less than lower " + llvm::Twine(buffer.lower));
    if (layout->alignment) {
      if (llvm::Error error = readInteger(*layout->alignment, buffer.alignment))
        return std::move(error);
      if (buffer.alignment < 1 || buffer.alignment > (int64_t(1) << 30))
        return fail(where(*layout->alignment) + "alignment " +
                    llvm::Twine(buffer.alignment) + " is not in [1, 2^30]");
    }
    if (layout->offset) {
      int64_t offset = 0;
      if (llvm::Error error = readInteger(*layout->offset, offset))
        return std::move(error);
      table.givenOffsets.push_back(offset);
    }
    table.buffers.push_back(buffer);
    std::vector<std::string> row;
    for (llvm::StringRef cell : cells)
      row.push_back(cell.str());
    table.rows.push_back(std::move(row));
  }
  return table;
}

void streamhal::packing::writePackingCSV(llvm::raw_ostream &os,
                                         const PackingTable &table,
                                         llvm::ArrayRef<int64_t> offsets) {
  std::vector<std::string> columns = table.columns;
  if (!table.offsetColumn)
    columns.push_back("offset");
  os << llvm::join(columns, ",") << "\n";
  size_t offsetColumn = table.offsetColumn.value_or(table.columns.size());
  for (size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string> row = table.rows[r];
    if (!table.offsetColumn)
      row.emplace_back();
    row[offsetColumn] = std::to_string(offsets[r]);
    os << llvm::join(row, ",") << "\n";
  }
}
