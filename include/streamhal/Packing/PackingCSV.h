//===- PackingCSV.h - CSV reader and writer for packing problems -*- C++
//-*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See https://llvm.org/LICENSE.txt for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One buffer a line under a header naming the columns, in any order:
// `id,lower,upper,size` are required, `alignment` and `offset` optional;
// other columns are carried through untouched.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_PACKING_PACKINGCSV_H
#define STREAMHAL_PACKING_PACKINGCSV_H

#include "streamhal/Packing/Packing.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace streamhal::packing {

/// A parsed CSV file: the buffers plus the raw cells, so that a writer can
/// reproduce the input with offsets added.
struct PackingTable {
  /// Column names in file order.
  std::vector<std::string> columns;
  /// Raw cells, one row per buffer.
  std::vector<std::vector<std::string>> rows;
  /// The buffers, in row order.
  std::vector<Buffer> buffers;
  /// Index of the `offset` column, if the file has one.
  std::optional<size_t> offsetColumn;
  /// The offsets of the `offset` column (empty when there is none).
  std::vector<int64_t> givenOffsets;
};

/// Parses `text`. `upper < lower` is rejected for either convention. Errors
/// are one line and name the line and column, e.g.
/// `line 3, column 4 (size): negative size -5`.
llvm::Expected<PackingTable> parsePackingCSV(llvm::StringRef text);

/// Writes `table` with an `offset` column holding `offsets` (replacing the
/// file's own `offset` column when it has one).
void writePackingCSV(llvm::raw_ostream &os, const PackingTable &table,
                     llvm::ArrayRef<int64_t> offsets);

} // namespace streamhal::packing

#endif // STREAMHAL_PACKING_PACKINGCSV_H
