//! Tells the tests what this machine lets them do, so a test that cannot run here is
//! `#[ignore]`d with its reason instead of passing without testing anything:
//! - `cfg(as_root)`: built as root (tests that become another user need it);
//! - `cfg(boxes)`: new user, PID, mount, network, IPC and UTS namespaces can be made here, so
//!   the sandbox's boxes can be (tests of the box are compiled in). `GRUNDY_REQUIRE_BOX=1`
//!   compiles them in whatever the probe says: where a box must exist (CI), a machine that
//!   refuses one then fails those tests instead of skipping them.
//!
//! The answers are also handed to the crates that depend on this one (`links` metadata:
//! `DEP_GRUNDY_SANDBOX_PROBE_BOXES`, `_ROOT`), so the runner's tests agree with these.

fn main() {
    println!("cargo:rustc-check-cfg=cfg(as_root)");
    println!("cargo:rustc-check-cfg=cfg(boxes)");
    // A build by another user (su, sudo) sets another USER; rebuild to ask again.
    println!("cargo:rerun-if-env-changed=USER");
    println!("cargo:rerun-if-env-changed=GRUNDY_REQUIRE_BOX");
    let root = is_root();
    let required = std::env::var("GRUNDY_REQUIRE_BOX").is_ok_and(|v| v == "1");
    let boxes = required || namespaces_allowed(root);
    for (cfg, holds) in [("as_root", root), ("boxes", boxes)] {
        if holds {
            println!("cargo:rustc-cfg={cfg}");
        }
        println!("cargo::metadata={cfg}={}", u8::from(holds));
    }
}

fn is_root() -> bool {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let effective_uid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1).map(str::to_owned));
    effective_uid.as_deref() == Some("0")
}

/// Whether a child may enter the namespaces a box is made of (the user namespace too unless
/// root), as the sandbox's keeper does.
fn namespaces_allowed(root: bool) -> bool {
    let mut flags = libc::CLONE_NEWPID
        | libc::CLONE_NEWNS
        | libc::CLONE_NEWNET
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS;
    if !root {
        flags |= libc::CLONE_NEWUSER;
    }
    // SAFETY: the child makes one system call and exits without returning into Rust; the
    // parent reaps it. A build script runs on one thread, so the fork copies no held lock.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::_exit(i32::from(libc::unshare(flags) != 0));
        }
        let mut status = 0;
        pid > 0 && libc::waitpid(pid, &mut status, 0) == pid && status == 0
    }
}
