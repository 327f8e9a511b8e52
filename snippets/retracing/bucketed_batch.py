# Continues varying_batch.py (train, cold_run, traced, batches, sizes)
# and the padded batch block above (pad_rows)
import timeit

from bookexec.facts import record  # hidden


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


def pad_bucket(X, y):
    return pad_rows(X, y, next_power_of_two(len(y)))


t_bucketed = min(
    timeit.repeat(lambda: cold_run(pad_bucket), number=1, repeat=3)
)
t_bucketed = record("bucketed", t_bucketed, kind="timing")  # hidden
record("traces", len(traced))  # hidden
print("buckets:", sorted({next_power_of_two(int(n)) for n in sizes}))
print(
    f"{len(batches)} steps, {len(traced)} traces, {t_bucketed:.2f} s per run"
)
print("traced for batch sizes", traced)
