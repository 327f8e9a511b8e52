# closed, layer, w and x come from the block above
import jax
import jax.extend as jex

(by_core,) = jax.core.eval_jaxpr(closed, closed.consts, w, x)
(by_fun,) = jex.core.jaxpr_as_fun(closed)(w, x)
print("eval_jaxpr:  ", by_core)
print("jaxpr_as_fun:", by_fun)
print("layer:       ", layer(w, x))
