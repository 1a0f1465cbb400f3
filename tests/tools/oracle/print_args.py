# The Python twin of tests/golden/oracle/print_args.tl.
print("a", "b", "c", sep=", ")
print("no", "space", sep="")
print("loss", 0.5, sep=": ", end=" (epoch 1)\n")
for i in range(4):
    print(i, end=" ")
print()
print("x", end="")
print("y", sep="-", end="|\n")
print(1, 2, sep=None, end=None)
print(sep="+")
print("done", flush=True)
