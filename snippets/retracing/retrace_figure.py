# batches, sgd_step, as_is and traced come from the blocks above
import timeit

import jax
import jax.numpy as jnp

from bookexec.facts import claim, figure, record  # hidden

STEPS = 8
record("steps", STEPS)  # hidden
DISTINCT = (1, 2, 4, 8)


def run(distinct):
    jax.clear_caches()  # every run starts cold
    traced.clear()
    w = jnp.zeros(8, jnp.float32)
    for step in range(STEPS):
        # cycle through `distinct` batch sizes
        X, y = batches[step % distinct]
        w = sgd_step(w, *as_is(X, y))
    return w


for k in DISTINCT:
    t = min(
        timeit.repeat(
            lambda k=k: run(k).block_until_ready(), number=1, repeat=2
        )
    )
    t = record(f"run_{k}", t, kind="timing")  # hidden
    record(f"traces_{k}", len(traced))  # hidden
    print(f"{k:2} distinct sizes: {len(traced)} trace(s), {t:.2f} s per run")

# hidden: begin
figure(
    "run_time",
    x=list(DISTINCT),
    series={f"{STEPS} steps of sgd_step": [f"run_{k}" for k in DISTINCT]},
    xlabel="distinct batch sizes among the steps",
    ylabel="time for the steps (s)",
    alt=f"Line chart of the time to run {STEPS} training steps against the number of distinct "
    "batch sizes among them: the time rises roughly in step with the number of traces.",
)
claim(
    "run_8",
    ">",
    "run_1",
    says="more distinct batch sizes make the same steps slower",
)
# hidden: end
