import jax
import jax.numpy as jnp
import numpy as np

from bookexec.facts import record  # hidden

tenths = np.array([0.1, 0.2, 0.3])  # float64, as NumPy makes them


def report(label):
    back = np.asarray(jnp.asarray(tenths))
    print(
        f"{label}: dtype {back.dtype}, equal to NumPy: "
        f"{(back == tenths).tolist()}"
    )
    print(jax.make_jaxpr(lambda v: v * 2)(tenths))
    record(f"{label.strip()}_dtype", str(back.dtype))  # hidden


report("default")
with jax.enable_x64(True):  # 64-bit only inside this block
    report("x64    ")
