side = 7
print("area:", side * side)
