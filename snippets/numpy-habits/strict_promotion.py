# half comes from the block above
import jax
import jax.numpy as jnp

# implicit promotion between dtypes is an error
with jax.numpy_dtype_promotion("strict"):
    # a weak scalar of the same kind is still fine
    print("float16 * 2.0:", (half * 2.0).dtype)
    print("float16 * 2:", (half * 2).dtype)  # and so is one of a lower kind
    for name, make in [
        ("float16 * float32", lambda: half * jnp.ones(3, jnp.float32)),
        ("int32 * 1.5", lambda: jnp.ones(3, jnp.int32) * 1.5),
        ("bool + 1", lambda: jnp.ones(3, jnp.bool_) + 1),
    ]:
        try:
            make()
        except jax.dtypes.TypePromotionError as err:
            print(f"{name}: {type(err).__name__}")
    try:  # the rule the operators apply, with its message
        jnp.promote_types("float16", "float32")
    except jax.dtypes.TypePromotionError as err:
        print(f"promote_types: {err}")
    print(
        "with a cast:",
        (half.astype(jnp.float32) * jnp.ones(3, jnp.float32)).dtype,
    )
