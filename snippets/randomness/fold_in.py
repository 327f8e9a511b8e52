import jax

from bookexec.facts import record  # hidden

run_key = jax.random.key(7)
for step in range(3):
    # a new key from a key and an integer
    step_key = jax.random.fold_in(run_key, step)
    print(f"step {step}: key data {jax.random.key_data(step_key)}")

again = jax.random.fold_in(run_key, 2)
print("folding in 2 again:", jax.random.key_data(again))
print(jax.make_jaxpr(jax.random.fold_in)(run_key, 2))
# hidden: begin
record(
    "same_again",
    str(
        bool(
            (
                jax.random.key_data(again) == jax.random.key_data(step_key)
            ).all()
        )
    ),
)
# hidden: end
