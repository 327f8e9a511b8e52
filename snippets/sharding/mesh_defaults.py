import jax
import numpy as np
from jax.sharding import Mesh

from bookexec.facts import record  # hidden

by_make_mesh = jax.make_mesh((2, 4), ("data", "model"))
by_constructor = Mesh(
    np.array(jax.devices()).reshape(2, 4), ("data", "model")
)
print("jax.make_mesh(shape, names):       ", by_make_mesh.axis_types)
print("jax.sharding.Mesh(devices, names): ", by_constructor.axis_types)
record("make_mesh_types", str(by_make_mesh.axis_types))  # hidden
record("mesh_types", str(by_constructor.axis_types))  # hidden
