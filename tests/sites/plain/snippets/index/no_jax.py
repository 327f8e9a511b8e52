import sys

print("jax imported:", "jax" in sys.modules)
