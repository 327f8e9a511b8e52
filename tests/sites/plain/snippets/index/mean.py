import statistics

import numpy as np

values = np.arange(1, 11)
print("numpy mean:", values.mean())
print("statistics median:", statistics.median(values.tolist()))
