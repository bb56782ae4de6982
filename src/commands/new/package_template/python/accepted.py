import sys


def main():
    words = sys.stdin.read().split()
    n = int(words[0])
    print(sum(int(word) for word in words[1 : 1 + n]))


main()
