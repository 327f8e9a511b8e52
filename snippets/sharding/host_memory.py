# feats comes from the blocks above
import jax

from bookexec.facts import record  # hidden

print("memories of device 0:", jax.devices()[0].addressable_memories())

for kind in ("device", "pinned_host", "unpinned_host"):
    moved = jax.device_put(feats, feats.sharding.with_memory_kind(kind))
    print(
        f"{kind + ':':14}",
        jax.typeof(moved),
        "memory_space =",
        jax.typeof(moved).memory_space,
    )
    if kind == "pinned_host":
        on_host = moved

spaces = list(jax.memory.Space)
print("jax.memory.Space:", spaces)
record("n_spaces", spelled(len(spaces)))  # hidden
record("spaces", ", ".join(space.name for space in spaces))  # hidden

print(jax.make_jaxpr(lambda v: v * 2)(on_host))
