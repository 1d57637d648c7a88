"""The Python package's extension, for pyproject.toml's setuptools backend.

The extension holds the whole C library: the sources CMakeLists.txt lists in
SQLSIM_SOURCES (read from there, so there is one list), compiled with the
flags CMake uses, and libpg_query, protobuf-c and SQLite linked statically
where Debian ships their archives, with their symbols kept inside the
extension (--exclude-libs). Debian ships no static cJSON: the extension links
libcjson.so.1 (and z3's libz3.so.4, strict's solver), which a wheel built here carries beside the extension
(found through RPATH $ORIGIN), so the wheel needs no Debian package at run
time but the C library. The version is CMakeLists.txt's project version."""
import glob
import os
import re
import shutil
import sysconfig

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def cmake_text():
    with open(os.path.join(ROOT, "CMakeLists.txt"), encoding="utf-8") as f:
        return f.read()


def version():
    return re.search(r"project\(sqlsim VERSION ([0-9.]+)", cmake_text()).group(1)


def sources():
    body = re.search(r"set\(SQLSIM_SOURCES\s(.*?)\)", cmake_text(), re.S).group(1)
    return [s for s in body.split() if s.endswith(".c")]


def archive(name):
    """The static archive of a library in the system's library directories, or None."""
    dirs = [sysconfig.get_config_var("LIBDIR") or "", "/usr/lib", "/usr/local/lib"]
    multiarch = sysconfig.get_config_var("MULTIARCH")
    if multiarch:
        dirs = ["/usr/lib/" + multiarch, "/usr/local/lib/" + multiarch] + dirs
    for d in dirs:
        p = os.path.join(d, "lib%s.a" % name)
        if d and os.path.exists(p):
            return p
    return None


def shared(name):
    for d in ("/usr/lib/" + (sysconfig.get_config_var("MULTIARCH") or ""), "/usr/lib", "/usr/local/lib"):
        hits = sorted(glob.glob(os.path.join(d, "lib%s.so.*" % name)))
        if hits:
            return hits[0]
    return None


extra_objects, libraries = [], []
for lib in ("pg_query", "protobuf-c", "sqlite3", "cjson", "z3"):
    a = archive(lib)
    if a:
        extra_objects.append(a)
    else:
        libraries.append(lib)
libraries += ["m"]

v = version()
ext = Extension(
    "sqlsim._sqlsim",
    sources=["python/_sqlsim.c"] + sources(),
    include_dirs=["include", "core", ".", "/usr/include/postgresql", "/usr/include/mariadb"],
    define_macros=[("_GNU_SOURCE", None), ("SQLSIM_VERSION", '"%s"' % v)],
    extra_compile_args=["-std=c11", "-O2", "-fvisibility=hidden", "-Wno-missing-field-initializers",
                        "-Wno-cast-function-type", "-Wno-unused-parameter"],
    extra_objects=extra_objects,
    libraries=libraries,
    extra_link_args=["-pthread", "-Wl,--exclude-libs,ALL", "-Wl,-rpath,$ORIGIN"],
)


class BuildExt(build_ext):
    """Compiles the sources on every core (setuptools' build_ext compiles one at
    a time unless told), and puts the shared libraries the extension still
    needs (cJSON, z3) beside it, found through RPATH $ORIGIN."""

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def run(self):
        super().run()
        for lib in libraries:
            if lib == "m":
                continue
            so = shared(lib)
            if not so:
                continue
            target_dir = os.path.dirname(self.get_ext_fullpath("sqlsim._sqlsim"))
            os.makedirs(target_dir, exist_ok=True)
            # the name the extension asks for (its soname), a copy of the library
            soname = re.sub(r"(\.so\.\d+).*$", r"\1", os.path.basename(so))
            shutil.copyfile(so, os.path.join(target_dir, soname))
            if self.inplace:  # an editable install reads the extension from python/sqlsim
                pass


setup(version=v, ext_modules=[ext], cmdclass={"build_ext": BuildExt})
