# add, a and c come from the block above
add(a, c, interpret=False)  # on CPU Pallas has no compiler
