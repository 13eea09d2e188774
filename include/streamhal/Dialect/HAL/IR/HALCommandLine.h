//===- HALCommandLine.h - command-line parsing of hal enums -----*- C++ -*-===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Lets bit enums of the hal dialect be typed `llvm::cl` / pass options. A bit
// enum has too many combinations for `llvm::cl::values`, so its parser reads
// the `|`-separated spelling the IR uses (`DeviceLocal|HostVisible`) and
// rejects anything else while the command line is parsed, before any pass
// runs. An optional memory type also reads `auto` (unset: the pass decides)
// and prints it back as `auto`.
//
//===----------------------------------------------------------------------===//

#ifndef STREAMHAL_DIALECT_HAL_IR_HALCOMMANDLINE_H
#define STREAMHAL_DIALECT_HAL_IR_HALCOMMANDLINE_H

#include "streamhal/Dialect/HAL/IR/HALDialect.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

namespace streamhal::hal {

/// Prints `value` as the IR spells it (`DeviceLocal|HostVisible`).
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os, MemoryType value) {
  return os << stringifyMemoryType(value);
}

/// Prints an optional memory type as its option spells it: the bits, or
/// `auto` when unset (so that a printed pipeline parses back).
inline llvm::raw_ostream &operator<<(llvm::raw_ostream &os,
                                     const std::optional<MemoryType> &value) {
  if (value)
    return os << stringifyMemoryType(*value);
  return os << "auto";
}

} // namespace streamhal::hal

namespace llvm::cl {

/// Parses a `|`-separated list of memory type bits (`DeviceLocal|HostVisible`,
/// `HostLocal`, `None`...); any other string is an option error.
template <>
class parser<streamhal::hal::MemoryType>
    : public basic_parser<streamhal::hal::MemoryType> {
public:
  using basic_parser<streamhal::hal::MemoryType>::basic_parser;

  bool parse(Option &option, StringRef, StringRef arg,
             streamhal::hal::MemoryType &value) {
    if (std::optional<streamhal::hal::MemoryType> parsed =
            streamhal::hal::symbolizeMemoryType(arg)) {
      value = *parsed;
      return false;
    }
    return option.error("'" + arg +
                        "' is not a memory type; expected bits of "
                        "Transient, HostVisible, HostCoherent, HostCached, "
                        "HostLocal, DeviceVisible, DeviceLocal joined by '|'");
  }

  StringRef getValueName() const override { return "memory-type"; }

  static void print(raw_ostream &os, streamhal::hal::MemoryType value) {
    os << streamhal::hal::stringifyMemoryType(value);
  }

  void
  printOptionDiff(const Option &option, streamhal::hal::MemoryType value,
                  const OptionValue<streamhal::hal::MemoryType> &defaultValue,
                  size_t globalWidth) const {
    printOptionName(option, globalWidth);
    std::string text;
    raw_string_ostream os(text);
    print(os, value);
    outs() << "= " << text;
    size_t padding = text.size() < 8 ? 8 - text.size() : 0;
    outs().indent(padding) << " (default: ";
    if (defaultValue.hasValue())
      print(outs(), defaultValue.getValue());
    else
      outs() << "*no default*";
    outs() << ")\n";
  }

  void anchor() override {}
};

/// Parses `auto` (unset: the pass decides) or a memory type as above.
template <>
class parser<std::optional<streamhal::hal::MemoryType>>
    : public basic_parser<std::optional<streamhal::hal::MemoryType>> {
public:
  using basic_parser<std::optional<streamhal::hal::MemoryType>>::basic_parser;

  bool parse(Option &option, StringRef, StringRef arg,
             std::optional<streamhal::hal::MemoryType> &value) {
    if (arg == "auto") {
      value = std::nullopt;
      return false;
    }
    if (std::optional<streamhal::hal::MemoryType> parsed =
            streamhal::hal::symbolizeMemoryType(arg)) {
      value = *parsed;
      return false;
    }
    return option.error("'" + arg +
                        "' is not a memory type; expected 'auto' or bits of "
                        "Transient, HostVisible, HostCoherent, HostCached, "
                        "HostLocal, DeviceVisible, DeviceLocal joined by '|'");
  }

  StringRef getValueName() const override { return "auto|memory-type"; }

  static void print(raw_ostream &os,
                    const std::optional<streamhal::hal::MemoryType> &value) {
    streamhal::hal::operator<<(os, value);
  }

  void printOptionDiff(
      const Option &option,
      const std::optional<streamhal::hal::MemoryType> &value,
      const OptionValue<std::optional<streamhal::hal::MemoryType>> &,
      size_t globalWidth) const {
    printOptionName(option, globalWidth);
    outs() << "= ";
    print(outs(), value);
    outs() << "\n";
  }

  void anchor() override {}
};

} // namespace llvm::cl

#endif // STREAMHAL_DIALECT_HAL_IR_HALCOMMANDLINE_H
