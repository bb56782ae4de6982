"""Timing whole commands: wall time and CPU time (user + system, the command and all its
descendants), each run measured with wait4(2) on that one child. (Its ru_maxrss is not the
command's peak memory: a child forked from Python keeps Python's RSS until exec. Peak memory is
measured through bench/c/peak_rss.c instead.) Several commands are
run interleaved (A B C, A B C, ...) so that load from other work on the machine falls on all of
them alike, and the median of each is kept.

Descendants that outlive their parent are counted too: this process is a child subreaper
(prctl PR_SET_CHILD_SUBREAPER), so they become its children when orphaned, and after each
command it reaps them and adds their CPU time. That matters for grundy: a sandbox box's keeper
(and the programs it ran and reaped) is killed when grundy exits, never waited for by it, so
wait4 on grundy alone missed most of `check --exec`'s CPU time."""

import ctypes
import os
import statistics
import subprocess
import tempfile
import time

PR_SET_CHILD_SUBREAPER = 36
_libc = ctypes.CDLL(None, use_errno=True)
SUBREAPER = _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0


def reap_orphans(patience=10.0):
    """Reaps every child left (orphaned descendants of a finished command); returns their CPU
    seconds. Waits up to `patience` seconds for ones still running (a box keeper dies a moment
    after its grundy)."""
    cpu = 0.0
    deadline = time.monotonic() + patience
    while True:
        try:
            pid, _, usage = os.wait4(-1, os.WNOHANG)
        except ChildProcessError:
            return cpu
        if pid == 0:
            if time.monotonic() > deadline:
                raise SystemExit("a command left a process running for 10 s after it ended")
            time.sleep(0.0005)
            continue
        cpu += usage.ru_utime + usage.ru_stime


def loadavg():
    """The 1-minute load average, as a string."""
    with open("/proc/loadavg") as f:
        return f.read().split()[0]


def run_once(argv, cwd=None, stdin=None, stdout=None, env=None):
    """Runs argv once; returns a dict of wall and cpu seconds (the command's and its orphaned
    descendants'), ru_maxrss and the exit code. stdin: a path or None; stdout: a path or None
    (discarded); env: variables to add to this process's environment."""
    fin = open(stdin, "rb") if stdin else subprocess.DEVNULL
    fout = open(stdout, "wb") if stdout else subprocess.DEVNULL
    # stderr goes to a file (a pipe read only after the wait could fill up and block the child).
    ferr = tempfile.TemporaryFile()
    reap_orphans()  # leftovers of a command run otherwise (subprocess.run) are not this one's
    try:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, cwd=cwd, stdin=fin, stdout=fout, stderr=ferr,
                                env=dict(os.environ, **env) if env else None)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        orphans = reap_orphans()
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
        "cpu": usage.ru_utime + usage.ru_stime + orphans,
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
