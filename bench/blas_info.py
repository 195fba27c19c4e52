"""Which BLAS this process's NumPy runs on, found without threadpoolctl: the libblas / libopenblas
mapped into the process (/proc/self/maps) and, for OpenBLAS, its own corename and config.

Import after numpy; set_threads(n) sets OpenBLAS's thread count in this process (what
OPENBLAS_NUM_THREADS=n at start-up would); describe() returns e.g. "OpenBLAS 0.3.21 (Haswell kernels, ...),
/usr/lib/x86_64-linux-gnu/openblas-pthread/libblas.so.3" or "reference BLAS, /usr/lib/.../blas/libblas.so.3".
"""
import ctypes
import functools
import os


def _symbol(lib, name):
    """OpenBLAS's function `name`: plain (Debian), or as the NumPy wheels' scipy-openblas exports
    it (scipy_NAME64_ for the 64-bit-integer build, scipy_NAME without)."""
    for n in (name, f"scipy_{name}64_", f"scipy_{name}"):
        try:
            return getattr(lib, n)
        except AttributeError:
            continue
    raise AttributeError(name)


def mapped_blas():
    """Real paths of the BLAS libraries mapped into this process."""
    paths = set()
    try:
        with open("/proc/self/maps") as f:
            for line in f:
                p = line.split()[-1] if len(line.split()) >= 6 else ""
                name = os.path.basename(p)
                if name.startswith(("libblas.so", "libopenblas", "libscipy_openblas", "libcblas.so", "libmkl_rt",
                                    "libblis")):
                    paths.add(os.path.realpath(p))
    except OSError:
        pass
    return sorted(paths)


def describe():
    import numpy as np
    np.dot(np.ones((2, 2)), np.ones((2, 2)))  # make sure the BLAS is loaded
    paths = mapped_blas()
    for p in paths:
        try:
            lib = ctypes.CDLL(p)
            get = functools.partial(_symbol, lib)
            get("openblas_get_config").restype = ctypes.c_char_p
            get("openblas_get_corename").restype = ctypes.c_char_p
            cfg = get("openblas_get_config")().decode()
            core = get("openblas_get_corename")().decode()
            threads = get("openblas_get_num_threads")()
            return f"{cfg.strip()} ({core} kernels, {threads} thread(s)), {p}"
        except (OSError, AttributeError):
            continue
    if any("/blas/libblas.so" in p for p in paths):
        return "reference BLAS (Debian libblas3), " + ", ".join(paths)
    return ", ".join(paths) or "unknown"


def is_openblas():
    return describe().startswith("OpenBLAS")


def set_threads(n):
    """OpenBLAS's thread count for this process's later BLAS calls; False when not OpenBLAS."""
    import numpy as np
    np.dot(np.ones((2, 2)), np.ones((2, 2)))
    for p in mapped_blas():
        try:
            _symbol(ctypes.CDLL(p), "openblas_set_num_threads")(int(n))
            return True
        except (OSError, AttributeError):
            continue
    return False
