# Batches, sgd_step, as_is and traced come from the blocks above
import jax
import jax.numpy as jnp

from bookexec.facts import claim, figure, record, timing

STEPS = record("steps", 8)
DISTINCT = (1, 2, 4, 8)


def run(distinct):
    jax.clear_caches()  # every run starts cold
    traced.clear()
    w = jnp.zeros(8, jnp.float32)
    for step in range(STEPS):
        X, y = batches[step % distinct]  # cycle through `distinct` batch sizes
        w = sgd_step(w, *as_is(X, y))
    return w


for k in DISTINCT:
    t = timing(f"run_{k}", lambda k=k: run(k), repeat=2, warmup=0)
    print(f"{k:2} distinct sizes: {record(f'traces_{k}', len(traced))} traces, {t} per run")

figure(
    "run_time",
    x=list(DISTINCT),
    series={f"{STEPS} steps of sgd_step": [f"run_{k}" for k in DISTINCT]},
    xlabel="distinct batch sizes among the steps",
    ylabel="time for the steps (s)",
    alt=f"Line chart of the time to run {STEPS} training steps against the number of distinct "
    "batch sizes among them: the time rises roughly in step with the number of traces.",
)
claim("run_8", ">", "run_1", says="more distinct batch sizes make the same steps slower")
