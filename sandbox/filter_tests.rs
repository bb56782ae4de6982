use super::*;

/// Runs the filter on one system call, as the kernel would.
fn verdict(code: &[libc::sock_filter], nr: i64, args: [u64; 6]) -> u32 {
    let mut data = [0u8; 64];
    data[0..4].copy_from_slice(&(nr as u32).to_le_bytes());
    data[4..8].copy_from_slice(&native_audit_arch().to_le_bytes());
    for (i, a) in args.iter().enumerate() {
        data[16 + 8 * i..24 + 8 * i].copy_from_slice(&a.to_le_bytes());
    }
    let (mut pc, mut acc) = (0usize, 0u32);
    loop {
        let ins = code[pc];
        match ins.code {
            0x20 => {
                let k = ins.k as usize;
                acc = u32::from_le_bytes(data[k..k + 4].try_into().unwrap());
            }
            0x06 => return ins.k,
            op => {
                let hit = match op {
                    0x15 => acc == ins.k,
                    0x35 => acc >= ins.k,
                    _ => acc & ins.k != 0,
                };
                pc += usize::from(if hit { ins.jt } else { ins.jf });
            }
        }
        pc += 1;
    }
}

#[test]
fn refuses_what_the_policy_forbids() {
    let policy = Policy {
        trace_allocations: true,
        network_namespace: false,
        protect: Some((4242, 4240)),
        ipc_namespace: false,
        memory_counted: false,
        failed_exits: false,
        program: true,
    };
    let code = build(&policy);
    let call = |nr, a0: u64, a1: u64| verdict(&code, nr, [a0, a1, 0, 0, 0, 0]);
    let eperm = ERRNO | libc::EPERM as u32;
    assert_eq!(call(libc::SYS_clone, libc::SIGCHLD as u64, 0), ALLOW);
    assert_eq!(call(libc::SYS_clone, libc::CLONE_UNTRACED as u64, 0), eperm);
    assert_eq!(call(libc::SYS_clone, libc::CLONE_NEWUSER as u64, 0), eperm);
    assert_eq!(call(libc::SYS_clone3, 0, 0), ERRNO | libc::ENOSYS as u32);
    assert_eq!(call(libc::SYS_kill, u64::MAX, 9), eperm);
    assert_eq!(call(libc::SYS_kill, 0xffff_ffff, 9), eperm);
    assert_eq!(call(libc::SYS_kill, (-4240i64) as u64, 9), eperm);
    assert_eq!(call(libc::SYS_kill, 4242, 9), eperm);
    assert_eq!(call(libc::SYS_kill, 77, 9), ALLOW);
    assert_eq!(call(libc::SYS_tgkill, 4242, 4243), eperm);
    assert_eq!(call(libc::SYS_socket, libc::AF_INET as u64, 0), ERRNO | 13);
    assert_eq!(call(libc::SYS_socket, libc::AF_UNIX as u64, 0), ERRNO | 13);
    assert_eq!(call(libc::SYS_mmap, 0, 8 << 20), TRACE);
    assert_eq!(call(libc::SYS_mmap, 0, 4096), ALLOW);
    assert_eq!(call(libc::SYS_mmap, 0, 1 << 40), TRACE);
    assert_eq!(call(libc::SYS_read, 0, 0), ALLOW);
    let (enosys, enolck) = (ERRNO | libc::ENOSYS as u32, ERRNO | libc::ENOLCK as u32);
    assert_eq!(call(libc::SYS_flock, 3, libc::LOCK_EX as u64), enolck);
    for command in [libc::F_SETLK, libc::F_OFD_GETLK, libc::F_NOTIFY] {
        assert_eq!(call(libc::SYS_fcntl, 3, command as u64), enolck);
    }
    assert_eq!(call(libc::SYS_fcntl, 3, libc::F_GETFL as u64), ALLOW);
    assert_eq!(
        call(libc::SYS_fcntl, 3, libc::F_DUPFD_CLOEXEC as u64),
        ALLOW
    );
    assert_eq!(call(libc::SYS_inotify_init1, 0, 0), enosys);
    assert_eq!(call(libc::SYS_ptrace, libc::PTRACE_ATTACH as u64, 1), eperm);
    assert_eq!(call(libc::SYS_process_vm_readv, 1, 0), eperm);
    // Neither an IPC namespace nor a cgroup counting memory here.
    for call_nr in [
        libc::SYS_memfd_create,
        libc::SYS_shmget,
        libc::SYS_semget,
        libc::SYS_msgget,
    ] {
        assert_eq!(call(call_nr, 0, 0), enosys);
    }
    if cfg!(target_arch = "x86_64") {
        assert_eq!(call(0x4000_0000, 0, 0), ERRNO | libc::ENOSYS as u32);
    }
}

#[test]
fn a_keeper_may_trace_and_count_ipc_but_its_box_shares_no_lock() {
    for memory_counted in [false, true] {
        let code = build(&Policy::keeper(memory_counted, false));
        let call = |nr, a0: u64, a1: u64| verdict(&code, nr, [a0, a1, 0, 0, 0, 0]);
        assert_eq!(call(libc::SYS_ptrace, libc::PTRACE_CONT as u64, 5), ALLOW);
        assert_eq!(call(libc::SYS_shmctl, 0, 14), ALLOW);
        assert_eq!(call(libc::SYS_semget, 0, 1), ALLOW);
        assert_eq!(call(libc::SYS_flock, 3, 2), ERRNO | libc::ENOLCK as u32);
        let counted = |nr| (call(nr, 0, 0) == ALLOW) == memory_counted;
        assert!(counted(libc::SYS_memfd_create) && counted(libc::SYS_shmget));
        // A keeper of traced programs holds the allocation rules for them.
        assert_eq!(call(libc::SYS_mmap, 0, 8 << 20), ALLOW);
        let traced = build(&Policy {
            trace_allocations: true,
            ..Policy::keeper(memory_counted, false)
        });
        let call = |nr, a0: u64, a1: u64| verdict(&traced, nr, [a0, a1, 0, 0, 0, 0]);
        assert_eq!(call(libc::SYS_mmap, 0, 8 << 20), TRACE);
        assert_eq!(call(libc::SYS_mmap, 0, 4096), ALLOW);
        assert_eq!(call(libc::SYS_flock, 3, 2), ERRNO | libc::ENOLCK as u32);
        // Without failing-exit rules, every exit is the kernel's alone.
        assert_eq!(call(libc::SYS_exit_group, 1, 0), ALLOW);
    }
}

#[test]
fn failing_exits_go_to_the_tracer_only_where_asked_and_only_when_they_fail() {
    let policy = |failed_exits| Policy {
        trace_allocations: true,
        ..Policy::keeper(true, failed_exits)
    };
    let code = build(&policy(true));
    let call = |nr, a0: u64| verdict(&code, nr, [a0, 0, 0, 0, 0, 0]);
    for nr in [libc::SYS_exit_group, libc::SYS_exit] {
        assert_eq!(call(nr, 1), TRACE | FAILED_EXIT);
        assert_eq!(call(nr, 0x7f), TRACE | FAILED_EXIT);
        assert_eq!(call(nr, 0x1_0003), TRACE | FAILED_EXIT);
        // The low byte is the status a parent sees: 0 and 256 succeed.
        assert_eq!(call(nr, 0), ALLOW);
        assert_eq!(call(nr, 256), ALLOW);
    }
    // Watched allocations keep their own mark.
    assert_eq!(call(libc::SYS_mmap, 0), ALLOW);
    assert_eq!(
        verdict(&code, libc::SYS_mmap, [0, 8 << 20, 0, 0, 0, 0]),
        TRACE
    );
    // Asked for, but for untraced programs: no tracer to stop in, so no rule.
    let untraced = build(&Policy::keeper(true, true));
    assert_eq!(
        verdict(&untraced, libc::SYS_exit_group, [1, 0, 0, 0, 0, 0]),
        ALLOW
    );
    let without = build(&policy(false));
    assert_eq!(
        verdict(&without, libc::SYS_exit_group, [1, 0, 0, 0, 0, 0]),
        ALLOW
    );
}

#[test]
fn a_network_namespace_allows_unix_sockets_only() {
    let code = build(&Policy {
        trace_allocations: false,
        network_namespace: true,
        protect: None,
        ipc_namespace: true,
        memory_counted: true,
        failed_exits: false,
        program: true,
    });
    assert_eq!(verdict(&code, libc::SYS_socket, [1, 1, 0, 0, 0, 0]), ALLOW);
    assert_eq!(
        verdict(&code, libc::SYS_socket, [2, 1, 0, 0, 0, 0]),
        ERRNO | 13
    );
    assert_eq!(
        verdict(&code, libc::SYS_kill, [u64::MAX, 9, 0, 0, 0, 0]),
        ALLOW
    );
    assert_eq!(
        verdict(&code, libc::SYS_mmap, [0, 1 << 30, 0, 0, 0, 0]),
        ALLOW
    );
}
