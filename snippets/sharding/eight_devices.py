import jax

# Eight CPU devices, on any machine. Before anything touches a device: the
# backends read this once, when they start. With eight GPUs or TPU cores,
# leave out both lines and the same code runs on them.
jax.config.update("jax_platforms", "cpu")
jax.config.update("jax_num_cpu_devices", 8)

devices = jax.devices()
print(len(devices), "devices")
print(devices)
# hidden: begin
NUMBERS = "no one two three four five six seven eight nine ten eleven twelve"


def spelled(n):
    """A count as the prose writes it: "seven", not 7."""
    words = NUMBERS.split()
    return words[n] if n < len(words) else str(n)


def in_words(talk):
    """A `collectives` count as prose: "one all-reduce", "no collectives"."""
    if not talk:
        return "no collectives"
    return " and ".join(
        f"{spelled(n)} {op}{'s' if n > 1 else ''}" for op, n in talk.items()
    )


# hidden: end
