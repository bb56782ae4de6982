# Reference solution (must be accepted): Cici wins exactly when 3 divides n, since 2^j mod 3 is never 0.
import sys

print("\n".join("Cici" if int(t) % 3 == 0 else "Kiki" for t in sys.stdin.buffer.read().split()))
