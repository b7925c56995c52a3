"""interpeval: measure what NLP models can do and how interpretable their predictions are."""

import os

__version__ = "0.1.0"

#: MKL's strict conditional-numerical-reproducibility mode (``MKL_CBWR``), which interpeval sets for its process
#: unless the environment sets one. MKL, torch's matrix library on x86 CPUs, splits small matrix products (a few
#: rows, e.g. a classifier's pooler over a batch of 5-11 LIME perturbations) differently with 1 and with 2 threads,
#: which moved LIME scores by up to 1.6e-7 between a 2-thread driver and a 1-thread Ray worker. Intel documents strict
#: mode as bitwise reproducible at any thread count for ?gemm/?symm/?hemm/?trsm on its AVX2 and AVX-512 branches
#: (64-bit); other routines and branches fall back to the normal mode (docs/cluster.md). MKL reads it at its first
#: product, so it is set when the package is imported, before any model pass; Ray workers get the driver's value. It
#: also applies to any other MKL code in the process and to child processes; a non-MKL BLAS ignores it.
MKL_REPRODUCIBLE = "AUTO,STRICT"
os.environ.setdefault("MKL_CBWR", MKL_REPRODUCIBLE)
