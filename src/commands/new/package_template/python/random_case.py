# A random input: `random_case.py SEED` prints one, the same for the same seed.
import random
import sys


def main():
    rng = random.Random(int(sys.argv[1]))
    n = rng.randint(1, 10)
    numbers = [rng.randint(-(10**9), 10**9) for _ in range(n)]
    print(n)
    print(" ".join(map(str, numbers)))


main()
