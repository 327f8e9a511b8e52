# Continues varying_batch.py: train, cold_run, traced, batches, as_is and
# w_varying come from there
import time

import numpy as np

from bookexec.facts import claim, record  # hidden

FIXED = 64  # every batch is padded to this many rows


def pad_rows(X, y, size):
    n, extra = len(y), size - len(y)
    mask = np.ones(n, np.float32)
    return (
        np.pad(X, ((0, extra), (0, 0))),
        np.pad(y, (0, extra)),
        np.pad(mask, (0, extra)),  # padded rows get mask 0
    )


def pad_fixed(X, y):
    return pad_rows(X, y, FIXED)


runs = {"varying": (as_is, []), "padded": (pad_fixed, [])}
# in turns, twice each, so that a busy moment slows both alike
for _ in range(2):
    for prepare, took in runs.values():
        start = time.perf_counter()
        cold_run(prepare)
        took.append(time.perf_counter() - start)
t_varying, t_padded = (min(took) for _, took in runs.values())
# hidden: begin
t_varying = record("varying", t_varying, kind="timing")
t_padded = record("padded", t_padded, kind="timing")
# hidden: end
print(f"retracing every step: {t_varying:.2f} s per run")

w_padded = cold_run(pad_fixed)
record("traces", len(traced))  # hidden
print(
    f"padded: {len(batches)} steps, {len(traced)} trace(s), "
    f"{t_padded:.2f} s per run"
)
print(
    "same weights as unpadded training:",
    np.allclose(w_padded, w_varying, atol=1e-5),
)

speedup = t_varying / t_padded
# hidden: begin
speedup = record("speedup", speedup, kind="ratio")
claim(
    "speedup",
    ">=",
    3,
    says="padding is at least 3 times faster than retracing every step",
)
# hidden: end
print(f"padding made the run {speedup:.3g} times faster")
