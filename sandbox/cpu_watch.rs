//! The CPU clock of a run while it runs, so a run is stopped soon after its processes together
//! have used their CPU time limit, however many of them share the work. The exact account of
//! a finished run comes from its keeper or supervisor (report.rs), which reaps every process;
//! this module only watches, every few milliseconds, and owns nothing else.
//!
//! It reads `/proc`: the run's processes are the descendants of its keeper (a box) or of its
//! supervisor (a plain run), and each counts its own CPU time and that of the children it
//! waited for. The keeper and supervisor themselves are left out: their own children's time
//! spans earlier runs (a box's keeper lives on), and an orphan they reaped is counted exactly
//! in the final account. The kernel's `children` lists are not always there (they need
//! CONFIG_PROC_CHILDREN), so the tree is found from every process's parent instead.

use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The run's CPU time as last seen, and when to look next.
pub(crate) struct CpuWatch {
    root: libc::pid_t,
    limit: Duration,
    interval: Duration,
    next: Instant,
    /// The most CPU time seen so far (the clock only goes forward; a process that was reaped
    /// between two looks moves its time to a parent that may not be counted).
    pub seen: Duration,
}

impl CpuWatch {
    /// Watches the descendants of `root` from `started_at`. Short runs end before the first
    /// look, so watching costs them nothing; a long run is looked at about ten times within
    /// its limit, at most every 100 ms.
    pub(crate) fn new(root: libc::pid_t, limit: Duration, started_at: Instant) -> CpuWatch {
        let interval = (limit / 10).clamp(Duration::from_millis(10), Duration::from_millis(100));
        CpuWatch {
            root,
            limit,
            interval,
            next: started_at + interval,
            seen: Duration::ZERO,
        }
    }

    /// When the next look is due.
    pub(crate) fn due(&self) -> Instant {
        self.next
    }

    /// Looks now: true when the run has used more than its CPU time limit.
    pub(crate) fn look(&mut self, now: Instant) -> bool {
        self.seen = self.seen.max(tree_cpu(self.root));
        self.next = now + self.interval;
        self.seen > self.limit
    }
}

/// One process's line of `/proc/<pid>/stat`, the fields used here.
#[derive(Debug, PartialEq, Eq)]
struct Stat {
    parent: libc::pid_t,
    /// utime + stime + cutime + cstime, in clock ticks.
    ticks: u64,
}

/// Parses a stat line. The command name (field 2) is in parentheses and may hold anything,
/// spaces and parentheses included, so the fields are counted from the last `)`.
fn parse_stat(line: &[u8]) -> Option<Stat> {
    let close = line.iter().rposition(|&b| b == b')')?;
    let rest = std::str::from_utf8(&line[close + 1..]).ok()?;
    // After the name: state(3) ppid(4) ... utime(14) stime(15) cutime(16) cstime(17).
    let fields: Vec<&str> = rest.split_ascii_whitespace().take(15).collect();
    let number = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some(Stat {
        parent: fields.get(1)?.parse().ok()?,
        ticks: number(11)? + number(12)? + number(13)? + number(14)?,
    })
}

/// The CPU time of every descendant of `root`, from one pass over `/proc`.
fn tree_cpu(root: libc::pid_t) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut stats: HashMap<libc::pid_t, Stat> = HashMap::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
            continue;
        };
        // A process that ended since the listing is simply not counted now.
        let Ok(line) = std::fs::read(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some(stat) = parse_stat(&line) {
            stats.insert(pid, stat);
        }
    }
    let ticks = descendants_ticks(root, &stats);
    // SAFETY: sysconf has no preconditions.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    Duration::from_nanos(ticks.saturating_mul(1_000_000_000) / per_second)
}

/// The ticks of every process below `root` (not `root` itself), walked without recursion.
fn descendants_ticks(root: libc::pid_t, stats: &HashMap<libc::pid_t, Stat>) -> u64 {
    let mut children: HashMap<libc::pid_t, Vec<libc::pid_t>> = HashMap::new();
    for (&pid, stat) in stats {
        children.entry(stat.parent).or_default().push(pid);
    }
    let mut total = 0u64;
    let mut stack = children.get(&root).cloned().unwrap_or_default();
    while let Some(pid) = stack.pop() {
        total = total.saturating_add(stats[&pid].ticks);
        if let Some(below) = children.get(&pid) {
            stack.extend(below);
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_from_the_last_parenthesis() {
        let line = b"42 (a) b) (c) R 7 42 42 0 -1 4194304 100 0 0 0 250 30 5 2 20 0 1 0 9 0 0\n";
        assert_eq!(
            parse_stat(line),
            Some(Stat {
                parent: 7,
                ticks: 250 + 30 + 5 + 2
            })
        );
        assert_eq!(parse_stat(b"42 (short) R 7 1 2"), None);
        assert_eq!(parse_stat(b"no parenthesis"), None);
    }

    #[test]
    fn only_the_roots_descendants_count_and_never_the_root() {
        let stat = |parent, ticks| Stat { parent, ticks };
        let stats = HashMap::from([
            (10, stat(1, 1000)), // the root: its own time spans other runs
            (11, stat(10, 5)),
            (12, stat(11, 7)),
            (13, stat(12, 11)),
            (20, stat(1, 500)), // elsewhere on the machine
            (21, stat(20, 3)),
        ]);
        assert_eq!(descendants_ticks(10, &stats), 5 + 7 + 11);
        assert_eq!(descendants_ticks(99, &stats), 0);
    }

    #[test]
    fn a_spinning_child_is_seen() {
        // SAFETY: the child only spins until it is killed.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            loop {
                std::hint::spin_loop();
            }
        }
        let started = Instant::now();
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() };
        let mut watch = CpuWatch::new(me, Duration::from_millis(50), started);
        while !watch.look(Instant::now()) && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
        }
        // SAFETY: pid is our child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        assert!(watch.seen > Duration::from_millis(50), "{:?}", watch.seen);
    }
}
