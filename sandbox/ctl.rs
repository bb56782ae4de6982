//! The control socket between the runner and a box keeper (SOCK_SEQPACKET: one message per
//! send, in order, with descriptors passed alongside). Messages are an 8-byte header (a tag)
//! and a payload, so a payload received at an 8-aligned buffer stays 8-aligned. Allocation
//! free: the keeper uses it too.

use std::mem::size_of;

use crate::raw;

/// Runner → keeper: start a program (payload: a plan; descriptors: stdin, stdout, stderr,
/// then cgroup.procs files).
pub(crate) const RUN: u32 = 1;
/// Keeper → runner: the box is built (payload: u32 count of optional steps that failed;
/// descriptor: the scratch folder).
pub(crate) const READY: u32 = 3;
/// Keeper → runner: building the box failed (payload: u32 step index, i32 errno).
pub(crate) const SETUP_FAILED: u32 = 4;
/// Keeper → runner: the run is over and the box is empty of processes (payload: a Report).
pub(crate) const REPORT: u32 = 5;

pub(crate) const HEADER: usize = 8;
pub(crate) const MAX_FDS: usize = 8;

/// Sends one message. Errors are errno values.
pub(crate) fn send(sock: i32, tag: u32, payload: &[u8], fds: &[i32]) -> Result<(), i32> {
    let header = u64::from(tag).to_ne_bytes();
    let mut iov = [
        libc::iovec {
            iov_base: header.as_ptr().cast_mut().cast(),
            iov_len: HEADER,
        },
        libc::iovec {
            iov_base: payload.as_ptr().cast_mut().cast(),
            iov_len: payload.len(),
        },
    ];
    let mut control = [0u64; 8];
    let fds = &fds[..fds.len().min(MAX_FDS)];
    // SAFETY: msghdr is plain data; all zeroes is a valid empty header.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = iov.as_mut_ptr();
    msg.msg_iovlen = iov.len();
    if !fds.is_empty() {
        let data_len = std::mem::size_of_val(fds);
        // SAFETY: CMSG_SPACE only computes a size.
        msg.msg_controllen = unsafe { libc::CMSG_SPACE(data_len as u32) } as usize;
        msg.msg_control = control.as_mut_ptr().cast();
        // SAFETY: the control buffer (64 bytes) holds one header and up to MAX_FDS descriptors,
        // and CMSG_FIRSTHDR points into it.
        unsafe {
            let cmsg = libc::CMSG_FIRSTHDR(&msg);
            (*cmsg).cmsg_level = libc::SOL_SOCKET;
            (*cmsg).cmsg_type = libc::SCM_RIGHTS;
            (*cmsg).cmsg_len = libc::CMSG_LEN(data_len as u32) as usize;
            std::ptr::copy_nonoverlapping(fds.as_ptr(), libc::CMSG_DATA(cmsg).cast(), fds.len());
        }
    }
    // SAFETY: msg describes the iovecs and control buffer above, alive during the call.
    let sent = unsafe { raw::socket_message(false, sock, &mut msg, libc::MSG_NOSIGNAL) }?;
    if sent == HEADER + payload.len() {
        Ok(())
    } else {
        Err(libc::EMSGSIZE)
    }
}

/// Receives one message into `buf` (header included): `(length, descriptors received)`, the
/// descriptors (close-on-exec) in `fds`. A length of 0 means the other side is gone.
pub(crate) fn recv(
    sock: i32,
    buf: &mut [u8],
    fds: &mut [i32; MAX_FDS],
) -> Result<(usize, usize), i32> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr().cast(),
        iov_len: buf.len(),
    };
    let mut control = [0u64; 8];
    // SAFETY: msghdr is plain data; all zeroes is a valid empty header.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = control.as_mut_ptr().cast();
    msg.msg_controllen = size_of::<[u64; 8]>();
    // SAFETY: msg describes `buf` and the control buffer, alive during the call.
    let len = unsafe { raw::socket_message(true, sock, &mut msg, libc::MSG_CMSG_CLOEXEC) }?;
    let mut count = 0;
    // SAFETY: the kernel filled the control buffer; the CMSG macros walk it within
    // msg_controllen, and each SCM_RIGHTS payload holds whole descriptors.
    unsafe {
        let mut cmsg = libc::CMSG_FIRSTHDR(&msg);
        while !cmsg.is_null() {
            if (*cmsg).cmsg_level == libc::SOL_SOCKET && (*cmsg).cmsg_type == libc::SCM_RIGHTS {
                let data = libc::CMSG_DATA(cmsg).cast::<i32>();
                let n = ((*cmsg).cmsg_len - libc::CMSG_LEN(0) as usize) / size_of::<i32>();
                for i in 0..n {
                    let fd = data.add(i).read_unaligned();
                    if count < MAX_FDS {
                        fds[count] = fd;
                        count += 1;
                    } else {
                        raw::close(fd);
                    }
                }
            }
            cmsg = libc::CMSG_NXTHDR(&msg, cmsg);
        }
    }
    if msg.msg_flags & libc::MSG_TRUNC != 0 {
        for &fd in &fds[..count] {
            // SAFETY: descriptors we just received and own.
            unsafe { raw::close(fd) };
        }
        return Err(libc::EMSGSIZE);
    }
    Ok((len, count))
}

/// The tag of a received message (0 if it is too short to have one).
pub(crate) fn tag(message: &[u8]) -> u32 {
    message.get(..HEADER).map_or(0, |h| {
        u64::from_ne_bytes(h.try_into().unwrap_or([0; 8])) as u32
    })
}
