"""The balance lab: seeded games until its questions are settled (`tether balance`).

runner: the games, in batches over a process pool or a Dask cluster (same result whatever
runs them); lab: the looks and the stopping rule; records: one compact record per game read
from its event log; inference and verdicts: anytime-valid intervals and the verdicts in
words; figures: bootstrap intervals; cardmodel: card effects with the confounders removed;
whatif: --vary; ladder: the agents; stats: the report's figures; plots and html: the page.
"""

import os as _os
import sys as _sys

if "numpy" not in _sys.modules:
    # The lab's matrices are small: one BLAS thread each (several threads per process on a
    # shared machine made a 171-by-171 solve 70 times slower). Set before numpy loads.
    for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        _os.environ.setdefault(_name, "1")
