"""Timing whole commands: wall time and CPU time (user + system, the command and everything it
waited for), each run measured with wait4(2) on that one child. (Its ru_maxrss is not the
command's peak memory: a child forked from Python keeps Python's RSS until exec. Peak memory is
measured through bench/c/peak_rss.c instead.) Several commands are
run interleaved (A B C, A B C, ...) so that load from other work on the machine falls on all of
them alike, and the median of each is kept."""

import os
import statistics
import subprocess
import tempfile
import time


def loadavg():
    """The 1-minute load average, as a string."""
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def run_once(argv, cwd=None, stdin=None, stdout=None):
    """Runs argv once; returns a dict of wall and cpu seconds, ru_maxrss and the exit code.
    stdin: a path or None; stdout: a path or None (discarded)."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    fout = open(stdout, "wb") if stdout else subprocess.DEVNULL
    # stderr goes to a file (a pipe read only after the wait could fill up and block the child).
    ferr = tempfile.TemporaryFile()
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdin=fin, stdout=fout, stderr=ferr)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        ferr.seek(0)
        err = ferr.read()[-4000:].decode(errors="replace")
    finally:
        ferr.close()
        if stdin:
            fin.close()
        if stdout:
            fout.close()
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "maxrss_kb": usage.ru_maxrss,
        "rc": proc.returncode,
        "stderr": err,
    }


class Measured:
    """The runs of one command and their medians."""

    def __init__(self, name, runs):
        self.name = name
        self.runs = runs

    def median(self, key):
        return statistics.median(r[key] for r in self.runs)

    @property
    def wall(self):
        return self.median("wall")

    @property
    def cpu(self):
        return self.median("cpu")

    def spread(self, key="wall"):
        values = [r[key] for r in self.runs]
        return min(values), max(values)


def interleaved(commands, runs, warmup=1, ok_codes=(0,)):
    """commands: list of (name, dict(argv=..., cwd=..., stdin=..., stdout=...)). Runs each
    `warmup` times unmeasured, then `runs` rounds of all of them; returns {name: Measured}."""
    for _ in range(warmup):
        for name, spec in commands:
            check(name, run_once(**spec), ok_codes)
    results = {name: [] for name, _ in commands}
    for _ in range(runs):
        for name, spec in commands:
            r = run_once(**spec)
            check(name, r, ok_codes)
            results[name].append(r)
    return {name: Measured(name, rs) for name, rs in results.items()}


def check(name, result, ok_codes):
    if result["rc"] not in ok_codes:
        raise SystemExit(
            f"{name}: exit code {result['rc']}\n{result['stderr'][-2000:]}"
        )
