# -*- Python -*-
# lit configuration for the streamhal regression tests.

import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "STREAMHAL"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.streamhal_obj_root, "test")
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%streamhal_src_root", config.streamhal_src_root))

llvm_config.with_system_environment(
    ["HOME", "INCLUDE", "LIB", "TMP", "TEMP", "CCACHE_DIR", "CCACHE_BASEDIR",
     "CCACHE_MAXSIZE"])
llvm_config.use_default_substitutions()

# The downstream example is built with the compiler and generator of this
# build; it finds MLIR through the installed streamhalConfig.cmake.
config.substitutions.append(("%cmake_generator", '"%s"' % config.cmake_generator))
config.substitutions.append(("%cmake", '"%s"' % config.cmake_command))
downstream_args = [
    "-DCMAKE_MAKE_PROGRAM=%s" % config.cmake_make_program,
    "-DCMAKE_CXX_COMPILER=%s" % config.cmake_cxx_compiler,
]
if config.cmake_cxx_compiler_launcher:
    downstream_args.append(
        "-DCMAKE_CXX_COMPILER_LAUNCHER=%s" % config.cmake_cxx_compiler_launcher)
config.substitutions.append(
    ("%downstream_cmake_args", " ".join('"%s"' % arg for arg in downstream_args)))
config.substitutions.append(("%streamhal_obj_root", config.streamhal_obj_root))

tool_dirs = [config.streamhal_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(config.streamhal_tools, tool_dirs)
config.substitutions.append(("%streamhal_tools", " ".join(config.streamhal_tools)))
llvm_config.with_environment("PATH", config.streamhal_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

# The Vulkan device (docs/device.md): `vulkan-build` when hal-exec has it,
# `vulkan` when it also finds a usable device and the validation layer
# (lavapipe in CI; the first GPU elsewhere).
if config.streamhal_has_vulkan:
    import subprocess
    config.available_features.add("vulkan-build")
    hal_exec = os.path.join(config.streamhal_tools_dir, "hal-exec")
    try:
        listing = subprocess.run([hal_exec, "--list-devices", "--validate"],
                                 capture_output=True, text=True, timeout=60)
        usable = [line for line in listing.stdout.splitlines()
                  if line and "unusable" not in line]
        if listing.returncode == 0 and usable:
            config.available_features.add("vulkan")
        else:
            lit_config.note("Vulkan tests disabled: no usable Vulkan device "
                            "with validation: " + listing.stderr.strip())
    except (OSError, subprocess.TimeoutExpired) as error:
        lit_config.note("Vulkan tests disabled: %s" % error)
