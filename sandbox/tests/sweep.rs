//! Leftovers of a grundy that died are swept by the next one, but never those of a live one,
//! even one in another PID namespace: liveness is an flock held on the folder, not a pid; and
//! a box whose keeper died is replaced. A test binary of its own: the sweep happens once per
//! process, at its first plain run, and killing keepers would break other tests' runs.

mod common;

use std::os::fd::AsRawFd;
use std::path::Path;
use std::time::Duration;

use common::*;
use grundy_sandbox::{Containment, End};

/// A working folder as grundy names them, holding a file.
fn leftover(parent: &Path, suffix: &str) -> std::path::PathBuf {
    let dir = parent.join(format!("grundy-work-{suffix}"));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("output.txt"), b"left by a run").unwrap();
    dir
}

#[test]
fn stale_working_folders_are_swept_and_live_ones_left_alone() {
    // The folder grundy uses for working folders without a box (as root: /tmp unless the
    // temporary folder is open to other users).
    let parent = if is_root() {
        let temp = std::env::temp_dir();
        let open = temp.ancestors().all(|d| {
            use std::os::unix::fs::PermissionsExt;
            std::fs::metadata(d).is_ok_and(|m| m.permissions().mode() & 0o001 != 0)
        });
        if open {
            temp
        } else {
            "/tmp".into()
        }
    } else {
        std::env::temp_dir()
    };
    let tag = format!("{:08x}", std::process::id());
    let dead = leftover(&parent, &format!("dead0000{tag}"));
    let live = leftover(&parent, &format!("a11ce000{tag}"));
    // A live run of another grundy holds its folder locked. An flock belongs to an open file
    // description, and the sweep opens the folder anew: a lock held here is as foreign to it
    // as one held by a grundy in another PID namespace.
    let holder = std::fs::File::open(&live).unwrap();
    // SAFETY: flock on a descriptor we own.
    let locked = unsafe { libc::flock(holder.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(locked, 0);
    // An older grundy's folder (named by pid) is not ours to judge.
    let older = parent.join(format!("grundy-work-1-{tag}"));
    std::fs::create_dir_all(&older).unwrap();

    let containment = if available_containments().contains(&Containment::Cgroup) {
        Containment::Cgroup
    } else {
        Containment::ProcessGroup
    };
    let o = run_with(&sh("true"), &input(b""), &default_limits(), containment).unwrap();
    assert_eq!(o.end, End::Exited(0));

    assert!(!dead.exists(), "a dead grundy's folder was not swept");
    assert!(
        live.join("output.txt").exists(),
        "a live grundy's folder was swept"
    );
    assert!(older.exists(), "an older grundy's folder was swept");
    drop(holder);
    std::fs::remove_dir_all(&live).unwrap();
    std::fs::remove_dir_all(&older).unwrap();
}

#[test]
#[cfg_attr(
    not(boxes),
    ignore = "needs a box: namespaces were refused at build time"
)]
fn a_box_whose_keeper_was_killed_is_replaced() {
    let program = sh("echo alive");
    assert_eq!(
        run(&program, &input(b""), &default_limits())
            .unwrap()
            .stdout,
        b"alive\n"
    );
    // The idle box's keeper (our child, whose command line reads grundy-box) is killed.
    let me = std::process::id().to_string();
    let mut killed = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let parent = stat
            .rsplit_once(')')
            .and_then(|(_, r)| r.split_whitespace().nth(1));
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if parent == Some(me.as_str()) && cmdline.starts_with(b"grundy-box") {
            let pid: i32 = entry.file_name().to_string_lossy().parse().unwrap();
            // SAFETY: kill has no memory-safety preconditions; the pid is our child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
            killed += 1;
        }
    }
    assert!(killed > 0, "no keeper found");
    std::thread::sleep(Duration::from_millis(100));
    let o = run(&program, &input(b""), &default_limits()).unwrap();
    assert_eq!(o.end, End::Exited(0), "{o:?}");
    assert_eq!(o.stdout, b"alive\n");
}
