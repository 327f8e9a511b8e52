import jax

z = 1.0 + 1.0j
try:
    jax.grad(lambda z: z**2)(z)
except TypeError as error:
    # one sentence a line
    print("TypeError:", str(error).replace(". ", ".\n  "))
print(
    "holomorphic=True, d(z**2)/dz at 1+1j:",
    jax.grad(lambda z: z**2, holomorphic=True)(z),
)
_, pullback = jax.vjp(lambda z: z**2, z)
print("jax.vjp, cotangent 1 for z**2 at 1+1j:  ", pullback(1.0 + 0j)[0])
print(
    "real output |z|**2 at 1+1j:          ",
    jax.grad(lambda z: z.real**2 + z.imag**2)(z),
)
# f(x + iy)
dx, dy = jax.grad(lambda x, y: x**2 + y**2, argnums=(0, 1))(1.0, 1.0)
print("the same f in x and y, df/dx and df/dy: ", dx, dy)
