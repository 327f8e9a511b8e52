def square(n):
    return n * n


print("square of 7:", square(7))
