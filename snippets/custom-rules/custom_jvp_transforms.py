# softplus_ok comes from the blocks above
import jax
import jax.numpy as jnp

from bookexec.facts import record  # hidden

xs = jnp.array([-5.0, 0.0, 100.0])
print("vmap(grad):", jax.vmap(jax.grad(softplus_ok))(xs))
print(jax.make_jaxpr(jax.vmap(softplus_ok))(xs))

value_only = jax.jit(softplus_ok).lower(xs).as_text()
slopes = jax.jit(jax.vmap(jax.grad(softplus_ok))).lower(xs).as_text()
for name, text in (
    ("jit(softplus_ok)", value_only),
    ("jit(vmap(grad(softplus_ok)))", slopes),
):
    ops = sorted(
        {
            line.split("stablehlo.")[1].split()[0]
            for line in text.splitlines()
            if "= stablehlo." in line
        }
    )
    print(f"{name}:", ", ".join(ops))
    print("  log_plus_one:", text.count("stablehlo.log_plus_one"))
record("log1p_value", value_only.count("stablehlo.log_plus_one"))  # hidden
record("log1p_slopes", slopes.count("stablehlo.log_plus_one"))  # hidden
record("custom_call_left", str("custom_jvp" in value_only + slopes))  # fmt: skip  # hidden
