# closed, layer, w and x come from the first block
import jax.extend as jex


def evaluate(jaxpr, consts, *args):
    env = {}

    def read(atom):
        # An operand is a variable, looked up, or a literal, which carries
        # its value.
        return atom.val if isinstance(atom, jex.core.Literal) else env[atom]

    for var, value in zip(jaxpr.constvars, consts, strict=True):
        env[var] = value
    for var, value in zip(jaxpr.invars, args, strict=True):
        env[var] = value
    for eqn in jaxpr.eqns:
        invals = [read(atom) for atom in eqn.invars]
        # the params bind expects
        params = eqn.primitive.get_bind_params(eqn.params)
        # apply the primitive itself, under the settings it was traced with
        with eqn.ctx.manager:
            outs = eqn.primitive.bind(*invals, **params)
        if not eqn.primitive.multiple_results:
            outs = [outs]
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    return [read(atom) for atom in jaxpr.outvars]


print(evaluate(closed, closed.consts, w, x))
