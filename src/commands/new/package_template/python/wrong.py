# Wrong on purpose: it forgets that numbers may be negative. `grundy verify` checks that the
# data catches it.
import sys


def main():
    words = sys.stdin.read().split()
    n = int(words[0])
    print(sum(abs(int(word)) for word in words[1 : 1 + n]))


main()
