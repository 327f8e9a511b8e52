import jax

# hidden: begin
from jax._src import core  # internal: trace_ctx.trace is the current trace

from bookexec.facts import record

views = []
# hidden: end


def outer(x):
    def inner(y):
        # hidden: begin
        views.append(
            (type(x).__name__, type(y).__name__, x._trace is y._trace)
        )
        views.append(
            (y._trace.parent_trace is x._trace, hasattr(y._trace, "level"))
        )
        # the trace the next operation goes to
        current = core.trace_ctx.trace
        views.append((current is y._trace, current is x._trace))
        # hidden: end
        return x * y  # a tracer of the outer trace meets one of the inner

    # x is foreign here: a constant binder
    print(jax.make_jaxpr(jax.grad(inner))(1.0))
    views.clear()  # hidden
    return jax.grad(inner)(1.0)


nested = jax.grad(outer)(2.0)
print("grad of grad:", nested)
# hidden: begin
(x_cls, y_cls, one_trace), (started_inside, has_level), (to_ys, to_xs) = (
    views
)
record("x_cls", x_cls)
record("y_cls", y_cls)
record("one_trace", str(one_trace))
record("started_inside", str(started_inside))
record("has_level", str(has_level))
record("to_ys", str(to_ys))
record("to_xs", str(to_xs))
# hidden: end
# d/dx [x * d/dy (x + y)] is d/dx [x * 1] = 1: the two derivatives do not mix
confusion = jax.grad(lambda x: x * jax.grad(lambda y: x + y)(1.0))(1.0)
print("no perturbation confusion:", confusion)
