"""Goldens: the recorded output of every block, compared with each build's. Generic: knows
nothing of JAX; how a changed output is classified comes in as a classifier.

- `store`: the golden file format (header, output, recorded values), paths, VERSIONS.
- `compare`: one block's golden against this build's output; Drift and its classes.
- `report`: failures and drift in one order, and what the update writes.
- `measured`: recorded counts, timings, ratios and claims: written, shown, judged by band.
- `normalize`: what varies between machines and runs, removed from outputs.
- `review`: the report a failed check leaves, and `./book review` over it.
"""
