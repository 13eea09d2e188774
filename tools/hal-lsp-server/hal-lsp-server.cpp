//===- hal-lsp-server.cpp - MLIR language server for streamhal ------------===//
//
// Part of the streamhal project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `mlir-lsp-server` that knows the util, flow and hal dialects, for editors,
// with a `--help` limited to the server's own options and a `--version` and
// an LSP `serverInfo` naming hal-lsp-server and streamhal's version.
//
// MlirLspServerMain hard-codes the `serverInfo` of its `initialize` reply
// ("mlir-lsp-server", "0.0.0") and offers no option to change it, so the
// server's stdout goes through a pipe to a thread that forwards every message
// to the real stdout unchanged, except that one field.
//
//===----------------------------------------------------------------------===//

#include "ToolVersion.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "streamhal/Registration/Registration.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <cerrno>
#include <cstdlib>
#include <thread>
#include <unistd.h>

using llvm::StringRef;

namespace {

/// Writes all of `data` to `fd`, retrying short and interrupted writes.
/// Returns false when the reader is gone.
bool writeAll(int fd, StringRef data) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    data = data.drop_front(written);
  }
  return true;
}

/// The body with the `serverInfo` of an `initialize` reply replaced by
/// hal-lsp-server's, in the same layout (pretty-printed or compact); any
/// other body unchanged.
std::string rewriteServerInfo(StringRef body) {
  llvm::Expected<llvm::json::Value> message = llvm::json::parse(body);
  if (!message) {
    llvm::consumeError(message.takeError());
    return body.str();
  }
  llvm::json::Object *result = message->getAsObject()
                                   ? message->getAsObject()->getObject("result")
                                   : nullptr;
  if (!result || !result->get("serverInfo"))
    return body.str();
  (*result)["serverInfo"] = llvm::json::Object{{"name", "hal-lsp-server"},
                                               {"version", STREAMHAL_VERSION}};
  bool pretty = body.contains('\n');
  return llvm::formatv(pretty ? "{0:2}" : "{0}", *message).str();
}

/// Copies the LSP stream read from `in` to `out`: `Content-Length` framed
/// messages, each forwarded as soon as it is complete (the first reply with a
/// `serverInfo` rewritten). Bytes that are not a well-formed frame (`--help`
/// text, a truncated message) are forwarded unchanged.
void forwardMessages(int in, int out) {
  std::string pending;
  bool rewritten = false;
  char chunk[4096];
  while (true) {
    ssize_t count = ::read(in, chunk, sizeof(chunk));
    if (count < 0 && errno == EINTR)
      continue;
    if (count <= 0)
      break;
    pending.append(chunk, count);
    while (true) {
      size_t headerEnd = pending.find("\r\n\r\n");
      if (headerEnd == std::string::npos)
        break;
      StringRef header = StringRef(pending).take_front(headerEnd);
      size_t length = 0;
      bool framed = false;
      for (StringRef rest = header; !rest.empty();) {
        auto [line, next] = rest.split("\r\n");
        rest = next;
        auto [name, value] = line.split(':');
        if (name.trim().equals_insensitive("content-length"))
          framed = !value.trim().getAsInteger(10, length);
      }
      size_t bodyStart = headerEnd + 4;
      if (!framed) {
        // Not a frame: pass the bytes on as they are.
        if (!writeAll(out, StringRef(pending).take_front(bodyStart)))
          return;
        pending.erase(0, bodyStart);
        continue;
      }
      if (pending.size() - bodyStart < length)
        break;
      StringRef body = StringRef(pending).substr(bodyStart, length);
      std::string message;
      if (!rewritten && body.contains("\"serverInfo\"")) {
        std::string newBody = rewriteServerInfo(body);
        rewritten = true;
        message = "Content-Length: " + std::to_string(newBody.size()) +
                  "\r\n\r\n" + newBody;
      } else {
        message = pending.substr(0, bodyStart + length);
      }
      if (!writeAll(out, message))
        return;
      pending.erase(0, bodyStart + length);
    }
  }
  writeAll(out, pending);
}

/// The forwarding thread and the real stdout, while the server's stdout is
/// the pipe.
std::thread *forwarder = nullptr;
int realStdout = -1;

/// Flushes the server's output, puts the real stdout back (closing the
/// pipe, so that the thread sees its end) and waits for the thread to
/// forward everything. Runs on return from main and, through atexit, when
/// llvm::cl exits after `--help` or `--version`.
void finishForwarding() {
  if (!forwarder)
    return;
  llvm::outs().flush();
  ::dup2(realStdout, STDOUT_FILENO);
  forwarder->join();
  delete forwarder;
  forwarder = nullptr;
  ::close(realStdout);
}

/// Sends stdout through the forwarding thread. Without a pipe (no file
/// descriptors left), the server runs unfiltered.
void startForwarding() {
  int fds[2];
  if (::pipe(fds) != 0)
    return;
  realStdout = ::dup(STDOUT_FILENO);
  if (realStdout < 0 || ::dup2(fds[1], STDOUT_FILENO) < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    if (realStdout >= 0)
      ::close(realStdout);
    return;
  }
  ::close(fds[1]);
  int readEnd = fds[0];
  forwarder = new std::thread([readEnd] {
    forwardMessages(readEnd, realStdout);
    ::close(readEnd);
  });
  // llvm::outs() is constructed first, so finishForwarding runs before it
  // is destroyed.
  (void)llvm::outs();
  std::atexit(finishForwarding);
}

} // namespace

int main(int argc, char **argv) {
  // Hides the LLVM backend flags libLLVM registers when it is loaded; the
  // server's options are registered inside MlirLspServerMain, after this,
  // and stay visible.
  llvm::cl::HideUnrelatedOptions(
      llvm::ArrayRef<const llvm::cl::OptionCategory *>());
  streamhal::setToolVersionPrinter("hal-lsp-server");

  mlir::DialectRegistry registry;
  streamhal::registerStreamHALDialects(registry);
  startForwarding();
  bool failed = mlir::failed(mlir::MlirLspServerMain(argc, argv, registry));
  finishForwarding();
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
