// The baseline for `den render about`: the cost of starting any Swift executable on this machine.
print("hello")
