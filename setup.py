"""Builds rfk._rfk with CMake (the project's own build, RFK_PYTHON=ON) for `pip install .`.

Configures a build folder under setuptools' build_temp with the host library and the extension
only (no tests, benchmarks or install rules), builds the `_rfk` target and places it in the
package's build folder. CMAKE_BUILD_PARALLEL_LEVEL sets the build's jobs (default 2).
"""
import os
import re
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        out_dir = os.path.abspath(os.path.dirname(self.get_ext_fullpath(ext.name)))
        build_dir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        source = os.path.dirname(os.path.abspath(__file__))
        os.makedirs(build_dir, exist_ok=True)
        subprocess.run(["cmake", "-S", source, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DRFK_PYTHON=ON", "-DRFK_BUILD_TESTS=OFF", "-DRFK_BUILD_BENCH=OFF",
                        "-DRFK_INSTALL=OFF", "-DRFK_BACKENDS=hwy;xsimd",
                        f"-DPython_EXECUTABLE={sys.executable}", f"-DRFK_PYTHON_OUTPUT_DIR={out_dir}"],
                       check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        subprocess.run(["cmake", "--build", build_dir, "--target", "_rfk", "-j", jobs], check=True)


def project_version():
    """The version in project(rfk VERSION ...), the one place it is written."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "CMakeLists.txt")) as f:
        return re.search(r"project\(rfk VERSION ([0-9.]+)", f.read()).group(1)


setup(version=project_version(), ext_modules=[Extension("rfk._rfk", sources=[])], cmdclass={"build_ext": CMakeBuild})
