//! The CPU clock of a run while it runs, so a run is stopped soon after its processes together
//! have used their CPU time limit, however many of them share the work. The exact account of
//! a finished run comes from its keeper or supervisor (report.rs), which reaps every process;
//! this module only watches, every few milliseconds, and owns nothing else.
//!
//! It reads `/proc`: the run's processes are the members of its cgroup, where it has one (one
//! small file lists them), else the descendants of its keeper (a box) or of its supervisor (a
//! plain run), found from every process's parent (the kernel's `children` lists need
//! CONFIG_PROC_CHILDREN, which not every kernel has). Each process counts its own CPU time and
//! that of the children it waited for. The keeper and supervisor themselves are left out: their
//! own children's time spans earlier runs (a box's keeper lives on), and an orphan they reaped
//! is counted exactly in the final account.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The run's CPU time as last seen, and when to look next.
pub(crate) struct CpuWatch {
    root: libc::pid_t,
    /// The `cgroup.procs` of the run's cgroup, if it has one.
    members: Option<PathBuf>,
    limit: Duration,
    interval: Duration,
    next: Instant,
    /// The most CPU time seen so far (the clock only goes forward; a process that was reaped
    /// between two looks moves its time to a parent that may not be counted).
    pub seen: Duration,
}

impl CpuWatch {
    /// Watches the processes of a run from `started_at`: the members of its cgroup (whose
    /// `cgroup.procs` is `members`) or else the descendants of `root`, never `root` itself.
    /// Short runs end before the first look, so watching costs them nothing; a long run is
    /// looked at about ten times within its limit, at most every 100 ms.
    pub(crate) fn new(
        root: libc::pid_t,
        members: Option<PathBuf>,
        limit: Duration,
        started_at: Instant,
    ) -> CpuWatch {
        let interval = (limit / 10).clamp(Duration::from_millis(10), Duration::from_millis(100));
        CpuWatch {
            root,
            members,
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
        let ticks = match &self.members {
            Some(procs) => members_ticks(procs, self.root),
            None => descendants_ticks(self.root, &all_stats()),
        };
        self.seen = self.seen.max(from_ticks(ticks));
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

/// One process's stat, if it is still there.
fn stat_of(pid: libc::pid_t) -> Option<Stat> {
    // A process that ended since it was listed is simply not counted now.
    parse_stat(&std::fs::read(format!("/proc/{pid}/stat")).ok()?)
}

/// Every process's stat, from one pass over `/proc`.
fn all_stats() -> HashMap<libc::pid_t, Stat> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return HashMap::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .filter_map(|pid| Some((pid, stat_of(pid)?)))
        .collect()
}

/// The ticks of the members of a cgroup (listed in its `procs` file) but `root`.
fn members_ticks(procs: &std::path::Path, root: libc::pid_t) -> u64 {
    let Ok(list) = std::fs::read_to_string(procs) else {
        return 0;
    };
    list.lines()
        .filter_map(|line| line.trim().parse::<libc::pid_t>().ok())
        .filter(|&pid| pid != root)
        .filter_map(stat_of)
        .fold(0, |total, stat| total.saturating_add(stat.ticks))
}

/// Clock ticks as a duration.
fn from_ticks(ticks: u64) -> Duration {
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

    /// A file listing pids as a cgroup's `cgroup.procs` does, in the temporary folder.
    fn members_file(name: &str, pids: &str) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("grundy-cpu-watch-{}-{name}", std::process::id()));
        std::fs::write(&path, pids).unwrap();
        path
    }

    #[test]
    fn a_spinning_child_is_seen_as_a_descendant_and_as_a_member() {
        // SAFETY: the child only spins until it is killed.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            loop {
                std::hint::spin_loop();
            }
        }
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() };
        // As a cgroup lists its members: this process (the root, never counted) and the child.
        let procs = members_file("spinning", &format!("{me}\n{pid}\n"));
        let started = Instant::now();
        let limit = Duration::from_millis(50);
        let mut by_tree = CpuWatch::new(me, None, limit, started);
        let mut by_members = CpuWatch::new(me, Some(procs.clone()), limit, started);
        let mut seen = (false, false);
        while !(seen.0 && seen.1) && started.elapsed() < Duration::from_secs(30) {
            std::thread::sleep(Duration::from_millis(10));
            let now = Instant::now();
            seen = (seen.0 || by_tree.look(now), seen.1 || by_members.look(now));
        }
        // SAFETY: pid is our child.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        assert!(by_tree.seen > limit, "{:?}", by_tree.seen);
        assert!(by_members.seen > limit, "{:?}", by_members.seen);
        std::fs::remove_file(procs).unwrap();
    }

    #[test]
    fn a_members_list_without_the_child_counts_nothing_of_it() {
        // SAFETY: getpid has no preconditions.
        let me = unsafe { libc::getpid() };
        let procs = members_file("root-only", &format!("{me}\n"));
        assert_eq!(
            members_ticks(&procs, me),
            0,
            "the root alone is never counted"
        );
        std::fs::remove_file(&procs).unwrap();
        assert_eq!(
            members_ticks(&procs, me),
            0,
            "a cgroup that is gone lists nothing"
        );
    }
}
