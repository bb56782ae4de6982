//! The record that grundy ran programs as a box uid since the machine booted: the boot's id,
//! written into the uid's lock file (`/run/grundy/uids/<uid>`, root's alone) when grundy claims
//! the uid and finds it free. Only a recorded uid's processes and files can be a grundy's
//! leftovers, to be ended and removed at the next claim; an unrecorded uid that runs a process
//! or owns a file is someone else's (a container's mapped user, a service's dynamic user).
//! The boot's id, not the file alone, makes the record: `/run` is not a tmpfs everywhere, and a
//! record from an earlier boot says nothing about who uses the uid now. Where the boot's id
//! cannot be read nothing is recorded, and a dead grundy's leftovers cost their uids instead.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::OnceLock;

/// Whether `lock` records a claim made since this boot.
pub(super) fn recorded(lock: &File) -> bool {
    let Some(id) = boot_id() else {
        return false;
    };
    // One byte more than the id: a longer content is not the record.
    let mut held = vec![0; id.len() + 1];
    lock.read_at(&mut held, 0)
        .is_ok_and(|read| &held[..read] == id)
}

/// Records in `lock` that grundy runs programs as its uid in this boot. A record that cannot
/// be written is left out: the uid's leftovers are then refused at the next claim rather than
/// ended, which costs a uid, not safety.
pub(super) fn record(lock: &File) {
    if let Some(id) = boot_id().filter(|_| !recorded(lock)) {
        let _ = lock.set_len(0).and_then(|()| lock.write_all_at(id, 0));
    }
}

/// This boot's id (the kernel's random one, new at every boot).
fn boot_id() -> Option<&'static [u8]> {
    static ID: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    ID.get_or_init(|| {
        std::fs::read("/proc/sys/kernel/random/boot_id")
            .ok()
            .map(|id| id.trim_ascii().to_vec())
            .filter(|id| !id.is_empty())
    })
    .as_deref()
}
