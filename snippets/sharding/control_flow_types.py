# grid and place come from the blocks above
import jax
from jax import reshard
from jax.sharding import PartitionSpec as P

tile = place((8, 12), P("data", "model"))


def types_line(error):
    # the message's line that names both types
    lines = str(error).splitlines()
    return next(line for line in lines if " has type " in line)


def branches(x, flag):
    # one branch keeps the placement, the other gathers a full copy
    return jax.lax.cond(flag, lambda v: v, lambda v: reshard(v, P()), x)


def loop(x):
    # the carry comes back with another placement than it went in with
    return jax.lax.scan(lambda c, _: (reshard(c, P()), None), x, length=3)


with jax.set_mesh(grid):
    for name, fn, args in [
        ("cond", branches, (tile, True)),
        ("scan", loop, (tile,)),
    ]:
        try:
            jax.make_jaxpr(fn)(*args)
        except TypeError as error:
            print(f"{name}: {types_line(error)}")
    kept = jax.lax.cond(
        True, lambda v: v, lambda v: reshard(2 * v, P("data", "model")), tile
    )
    print("cond with both branches placed alike:", jax.typeof(kept))
