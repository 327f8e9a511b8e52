import jax

print(jax.tree.leaves({2: "two", 1: "one"}))  # int keys sort too
jax.tree.leaves({"lr": 0.1, 1: 0.5})  # a str key and an int key
