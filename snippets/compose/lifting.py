import jax
from jax._src import core  # internal: trace_ctx.trace is the current trace

views = []


def outer(x):
    def inner(y):
        views.append((type(x).__name__, type(y).__name__, x._trace is y._trace))
        views.append((y._trace.parent_trace is x._trace, hasattr(y._trace, "level")))
        current = core.trace_ctx.trace  # the trace the next operation goes to
        views.append((current is y._trace, current is x._trace))
        return x * y  # a tracer of the outer trace meets one of the inner

    print(jax.make_jaxpr(jax.grad(inner))(1.0))  # x is foreign here: a constant binder
    views.clear()
    return jax.grad(inner)(1.0)


nested = jax.grad(outer)(2.0)
print("grad of grad:", nested)
(x_cls, y_cls, one_trace), (started_inside, has_level), (to_ys, to_xs) = views
print(f"x: {x_cls}, y: {y_cls}, one trace: {one_trace}")
print("the inner trace was started inside the outer one:", started_inside)
print("the trace has a level:", has_level)
print(f"x * y goes to the current trace: y's trace {to_ys}, x's trace {to_xs}")
# d/dx [x * d/dy (x + y)] is d/dx [x * 1] = 1: the two derivatives do not mix
confusion = jax.grad(lambda x: x * jax.grad(lambda y: x + y)(1.0))(1.0)
print("no perturbation confusion:", confusion)
