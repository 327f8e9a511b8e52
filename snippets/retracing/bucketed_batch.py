# Continues varying_batch.py: train, traced, batches, sizes come from there
from bookexec.facts import record, timing


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


def pad_bucket(X, y):
    return pad_rows(X, y, next_power_of_two(len(y)))


t_bucketed = timing("bucketed", lambda: train(pad_bucket), repeat=3, warmup=0)
record("traces", len(traced))
print("buckets:", sorted({next_power_of_two(int(n)) for n in sizes}))
print(f"{len(batches)} steps, {len(traced)} traces, {t_bucketed} per run")
print("traced for batch sizes", traced)
