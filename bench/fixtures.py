"""Writes the fixtures of the judge benchmarks that are not a built-in problem's, into a folder
bench/run gives it (the temporary one). Run through bench/run:

    fixtures.py guess DIR CASES SEED       DIR/guess/tNNNNNN.in (a secret 1..100) and .ans, for
                                           the interactive benchmark (bench/c/guess_*.c)
    fixtures.py nim-package DIR TINY       a Kattis package of nim: the project's nim fixtures
                                           (less invalid/), the tiny cases of the fixtures root
                                           TINY (bench-data), the planted C++ submissions and
                                           bench/c/nim_validator.c as its input validator
    fixtures.py trivial-package DIR        a package of nim with two cases and one accepted
                                           submission: what `verify` costs beyond its cases

A package is written twice, the same files in two versions of the format: DIR/2025-09/nim (what
grundy and BAPCtools read; BAPCtools reads no other) with the time limit in problem.yaml, and
DIR/legacy/nim (what problemtools reads; it reads legacy and 2023-07-draft, not 2025-09), whose
legacy problem.yaml cannot hold a time limit: problemtools is given the same one on its command
line (`-t`). Both have the same memory limit."""

import os
import random
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The uuid is fixed so that BAPCtools does not write one into the package.
PROBLEM_YAML = {
    "2025-09": """\
problem_format_version: 2025-09
name: {name}
uuid: {uuid}
limits:
  time_limit: {time_limit}
  memory: 1024
""",
    "legacy": """\
name: {name}
limits:
  memory: 1024
""",
}

STATEMENT_FOLDER = {"2025-09": "statement", "legacy": "problem_statement"}

TIME_LIMIT = 2  # seconds, for every tool

STATEMENT = """\
\\problemname{{{name}}}

{text}
"""


def guess(folder, cases, seed):
    rng = random.Random(seed)
    out = os.path.join(folder, "guess")
    os.makedirs(out, exist_ok=True)
    for index in range(cases):
        name = os.path.join(out, f"t{index:06}")
        with open(name + ".in", "w") as f:
            f.write(f"{rng.randint(1, 100)}\n")
        with open(name + ".ans", "w") as f:
            f.write("guessed\n")
    print(f"{cases} guess cases in {out}")


def skeleton(pkg, version, name, uuid):
    """problem.yaml, a statement, and the input validator of a nim package."""
    os.makedirs(pkg)
    with open(os.path.join(pkg, "problem.yaml"), "w") as f:
        f.write(PROBLEM_YAML[version].format(name=name, uuid=uuid, time_limit=TIME_LIMIT))
    statement = os.path.join(pkg, STATEMENT_FOLDER[version])
    os.makedirs(statement)
    with open(os.path.join(statement, "problem.en.tex"), "w") as f:
        f.write(STATEMENT.format(
            name=name, text="For each line of heap sizes, print win or lose (Nim)."))
    validators = os.path.join(pkg, "input_validators")
    os.makedirs(validators)
    shutil.copy(os.path.join(ROOT, "bench", "c", "nim_validator.c"),
                os.path.join(validators, "nim_validator.c"))


def case(pkg, group, name, source_in, source_out):
    folder = os.path.join(pkg, "data", group, os.path.dirname(name))
    os.makedirs(folder, exist_ok=True)
    base = os.path.join(pkg, "data", group, name)
    shutil.copy(source_in, base + ".in")
    shutil.copy(source_out, base + ".ans")


def submissions(pkg, only=None):
    """The planted C++ submissions of problems/nim (or only the one named), by verdict folder."""
    planted = os.path.join(ROOT, "problems", "nim", "submissions")
    count = 0
    for verdict in sorted(os.listdir(planted)):
        for file in sorted(os.listdir(os.path.join(planted, verdict))):
            if not file.endswith(".cpp") or (only and f"{verdict}/{file}" != only):
                continue
            target = os.path.join(pkg, "submissions", verdict)
            os.makedirs(target, exist_ok=True)
            shutil.copy(os.path.join(planted, verdict, file), target)
            count += 1
    return count


def nim_package(folder, tiny):
    for version in PROBLEM_YAML:
        pkg = os.path.join(folder, version, "nim")
        skeleton(pkg, version, "Nim", "1d8e3c2a-5b7f-4e61-9a0c-6f2b8d4e7a15")
        fixtures = os.path.join(ROOT, "fixtures", "nim")
        cases = 0
        for root, _, files in os.walk(fixtures):
            for file in sorted(files):
                if not file.endswith(".in"):
                    continue
                rel = os.path.relpath(os.path.join(root, file[:-3]), fixtures)
                if rel.split(os.sep)[0] == "invalid":
                    continue
                group = "sample" if rel.startswith("sample") else "secret"
                stem = os.path.join(root, file[:-3])
                case(pkg, group, rel, stem + ".in", stem + ".out")
                cases += 1
        tiny_cases = os.path.join(tiny, "nim")
        for file in sorted(os.listdir(tiny_cases)):
            if file.endswith(".in"):
                stem = os.path.join(tiny_cases, file[:-3])
                case(pkg, "secret", os.path.join("generated", file[:-3]), stem + ".in",
                     stem + ".out")
                cases += 1
        subs = submissions(pkg)
        print(f"nim package in {pkg}: {cases} cases, {subs} submissions")


def trivial_package(folder):
    for version in PROBLEM_YAML:
        pkg = os.path.join(folder, version, "nim")
        skeleton(pkg, version, "Nim", "7c41f0d9-2e86-4b3a-8d57-0a9e6c1b3f24")
        for group, text, answer in (("sample", "1 2 3\n", "lose\n"), ("secret", "1 2\n", "win\n")):
            os.makedirs(os.path.join(pkg, "data", group))
            with open(os.path.join(pkg, "data", group, "1.in"), "w") as f:
                f.write(text)
            with open(os.path.join(pkg, "data", group, "1.ans"), "w") as f:
                f.write(answer)
        submissions(pkg, only="accepted/nim.cpp")
        print(f"trivial package in {pkg}")


def main():
    words = sys.argv[1:]
    if len(words) == 4 and words[0] == "guess":
        guess(words[1], int(words[2]), int(words[3]))
    elif len(words) == 3 and words[0] == "nim-package":
        nim_package(words[1], words[2])
    elif len(words) == 2 and words[0] == "trivial-package":
        trivial_package(words[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
