import time

import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

rng = np.random.default_rng(0)
true_w = rng.normal(size=8).astype(np.float32)
# 20 distinct batch sizes
sizes = rng.choice(np.arange(5, 65), size=20, replace=False)
batches = []
for n in sizes:
    X = rng.normal(size=(n, 8)).astype(np.float32)
    batches.append((X, X @ true_w))

traced = []


def loss(w, X, y, mask):
    err = (X @ w - y) * mask  # rows with mask 0 contribute nothing
    return jnp.sum(err * err) / jnp.sum(mask)


@jax.jit
def sgd_step(w, X, y, mask):
    traced.append(X.shape[0])
    return w - 0.1 * jax.grad(loss)(w, X, y, mask)


def as_is(X, y):
    return X, y, np.ones(len(y), np.float32)


def train(prepare):
    traced.clear()
    w = jnp.zeros(8, jnp.float32)
    for X, y in batches:
        w = sgd_step(w, *prepare(X, y))
    return w


# for timing: forget every compiled program first, as a new process
def cold_run(prepare):
    jax.clear_caches()
    return train(prepare).block_until_ready()


print("batch sizes:", sizes.tolist())
start = time.perf_counter()
w_varying = cold_run(as_is)  # one run from cold: it compiles 20 programs
t_varying = time.perf_counter() - start
t_varying = record("varying", t_varying, kind="timing")  # hidden
record("traces", len(traced))  # hidden
print(f"{len(batches)} steps, {len(traced)} traces, {t_varying:.2f} s")
