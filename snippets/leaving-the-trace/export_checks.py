# predict, w, x and export come from the blocks above
import jax
import jax.numpy as jnp

tpu_only = export.export(
    jax.jit(predict),
    platforms=("tpu",),
    disabled_checks=[export.DisabledSafetyCheck.platform()],
)(w, x)
print(
    "tpu export, platform check off:",
    bool(jnp.allclose(tpu_only.call(w, x), predict(w, x))),
)

a = jnp.arange(16.0).reshape(4, 4) / 10 + jnp.eye(4)
pivoted_qr = jax.jit(lambda m: jax.lax.linalg.qr(m, pivoting=True))
try:
    export.export(pivoted_qr)(a)
except ValueError as err:
    refusal, call, advice = str(err).splitlines()
    print("ValueError:", refusal)
    # the call; its attributes and source location follow
    print(call.split(" {")[0], "{...}")
    print(advice)

allowed = export.DisabledSafetyCheck.custom_call("lapack_sgeqp3_ffi")
exported_qr = export.export(pivoted_qr, disabled_checks=[allowed])(a)
restored_qr = export.deserialize(exported_qr.serialize())
print(
    "disabled checks, kept in the bytes:", restored_qr.disabled_safety_checks
)
q, r, perm = restored_qr.call(a)
print(
    "q @ r equals the permuted columns:",
    bool(jnp.allclose(q @ r, a[:, perm], atol=1e-5)),
)
