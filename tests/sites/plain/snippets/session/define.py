answer = sum(range(7)) * 2
