# Continues varying_batch.py and padded_batch.py: train, traced, batches, sizes, pad_rows
# and t_varying come from there
from bookexec.facts import claim, record, timing


def next_power_of_two(n):
    return 1 << (n - 1).bit_length()


def pad_bucket(X, y):
    return pad_rows(X, y, next_power_of_two(len(y)))


t_bucketed = timing("bucketed", lambda: train(pad_bucket), repeat=3, warmup=0)
record("traces", len(traced))
print("buckets:", sorted({next_power_of_two(int(n)) for n in sizes}))
print(f"{len(batches)} steps, {len(traced)} traces, {t_bucketed} per run")
print("traced for batch sizes", traced)

# Both times are this run's: t_varying comes from the first block of the session.
faster = record("vs_varying", t_varying / t_bucketed, kind="ratio")
claim("vs_varying", ">=", 2, says="bucketing is at least twice as fast as retracing every step")
print(f"bucketing made the run {faster} times faster than retracing every step")
