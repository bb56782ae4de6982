//! Files after a run, under every containment: copied out of the box (within the output
//! limit, never past a folder too deep, links and FIFOs left behind), a writable copy of a host
//! folder coming back out, and a program file someone still holds open for a moment.

mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use common::*;
use grundy_sandbox::{BoxFile, Containment, End, ExportError, Program, Spec};

#[test]
fn a_finished_runs_files_can_be_copied_out_and_host_folders_shown() {
    let limits = default_limits();
    for containment in available_containments() {
        // Without a mount namespace a box user must be able to reach a shown folder by its own
        // path, which a clone under a private folder does not allow: the system's temporary
        // folder does.
        let shown = match containment {
            Containment::PidNamespace => folder(),
            _ => {
                let open = std::env::temp_dir().join(format!("grundy-api-{}", unique()));
                std::fs::create_dir_all(&open).unwrap();
                open
            }
        };
        std::fs::write(shown.join("data.txt"), "seen\n").unwrap();
        // A folder shown to the program, as a built program's folder is.
        let script = format!(
            "cat '{}/data.txt' > built.txt && mkdir -p out/sub && echo b > out/sub/b && \
             chmod +x built.txt && ln -s /etc/hostname out/link && mkfifo out/fifo",
            shown.display()
        );
        let program = Program {
            show: vec![shown.to_path_buf()],
            ..sh(&script)
        };
        let host = folder();
        let spec = Spec {
            export: vec![
                (PathBuf::from("built.txt"), host.join("built.txt")),
                (PathBuf::from("out"), host.join("out")),
                (PathBuf::from("missing"), host.join("missing")),
            ],
            ..Spec::new(&program, &limits)
        };
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        let built = host.join("built.txt");
        assert_eq!(
            std::fs::read_to_string(&built).unwrap(),
            "seen\n",
            "{containment}"
        );
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&built).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o755, "an executable stays executable");
        let out = host.join("out");
        assert_eq!(std::fs::read_to_string(out.join("sub/b")).unwrap(), "b\n");
        // Links and special files are never copied (nor followed).
        assert!(!out.join("link").exists() && out.join("link").symlink_metadata().is_err());
        assert!(
            out.join("fifo").symlink_metadata().is_err(),
            "{containment}"
        );
        assert!(!host.join("missing").exists());
        assert!(o.exported.contains(&built), "{:?}", o.exported);
        let failures: Vec<_> = o
            .export_failures
            .iter()
            .map(|f| (f.relative.to_str().unwrap(), f.why.clone()))
            .collect();
        assert_eq!(
            failures,
            [("missing", ExportError::Missing)],
            "{containment}"
        );
        if shown.starts_with(std::env::temp_dir()) {
            std::fs::remove_dir_all(&shown).unwrap();
        }
    }
}

#[test]
fn copying_out_stops_at_the_output_limit() {
    let limits = limits(5000, 256, 64);
    let program = sh("head -c 200000 /dev/zero > big && echo small > small");
    let host = folder();
    let spec = Spec {
        export: vec![
            (PathBuf::from("big"), host.join("big")),
            (PathBuf::from("small"), host.join("small")),
        ],
        ..Spec::new(&program, &limits)
    };
    let o = grundy_sandbox::run(spec).unwrap();
    assert_eq!(o.end, End::Exited(0), "{o:?}");
    assert!(!host.join("big").exists(), "larger than the 64 KiB limit");
    assert!(host.join("small").exists());
    assert_eq!(o.export_failures.len(), 1, "{o:?}");
    assert_eq!(o.export_failures[0].why, ExportError::TooBig);
}

#[test]
fn a_folder_too_deep_to_copy_out_leaves_nothing_on_the_host() {
    let limits = default_limits();
    // 100 levels, past the 64 copied out, each with a file, beside a file that fits.
    let program =
        sh("mkdir out && cd out && for i in $(seq 100); do echo $i > f; mkdir d; cd d; done");
    let host = folder();
    let spec = Spec {
        export: vec![(PathBuf::from("out"), host.join("out"))],
        ..Spec::new(&program, &limits)
    };
    let o = grundy_sandbox::run(spec).unwrap();
    assert_eq!(o.end, End::Exited(0), "{o:?}");
    assert_eq!(o.export_failures.len(), 1, "{o:?}");
    assert_eq!(o.export_failures[0].why, ExportError::TooBig);
    assert!(o.exported.is_empty(), "{:?}", o.exported);
    assert!(
        !host.join("out").exists(),
        "what was copied of it was removed"
    );
}

#[test]
fn a_writable_copy_of_a_host_folder_is_the_programs_to_change_and_comes_back_out() {
    let limits = default_limits();
    for containment in available_containments() {
        // A folder a previous run left (as a multi-pass validator's feedback folder).
        let kept = folder();
        std::fs::write(kept.join("state"), "1\n").unwrap();
        std::fs::write(kept.join("gone"), "x").unwrap();
        std::fs::create_dir(kept.join("sub")).unwrap();
        std::fs::write(kept.join("sub/keep"), "kept\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", kept.join("link")).unwrap();
        let fifo = std::ffi::CString::new(kept.join("fifo").into_os_string().into_encoded_bytes())
            .unwrap();
        // SAFETY: a NUL-terminated path.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        // chmod needs the file to be the program's own.
        let script = "cd feedback && [ ! -e link ] && [ ! -e fifo ] || exit 3; \
                      n=$(cat state) && echo $((n + 1)) > state && chmod 600 state && \
                      rm gone && echo new > sub/new && mkdir made && chmod 700 sub";
        let program = sh(script);
        let host = folder().join("out");
        let spec = Spec {
            files: vec![BoxFile::writable_copy("feedback", &kept)],
            export: vec![(PathBuf::from("feedback"), host.clone())],
            ..Spec::new(&program, &limits)
        };
        let o = grundy_sandbox::run_with(spec, containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        let read = |path: &str| std::fs::read_to_string(host.join(path)).ok();
        assert_eq!(read("state").as_deref(), Some("2\n"), "{containment}");
        assert_eq!(read("sub/keep").as_deref(), Some("kept\n"), "{containment}");
        assert_eq!(read("sub/new").as_deref(), Some("new\n"), "{containment}");
        assert!(host.join("made").is_dir() && !host.join("gone").exists());
        // The host folder itself is not the program's: it is as it was.
        assert_eq!(std::fs::read_to_string(kept.join("state")).unwrap(), "1\n");
        assert!(kept.join("gone").exists() && !kept.join("sub/new").exists());
    }
    let program = sh("true");
    let mut spec = Spec::new(&program, &limits);
    spec.files = vec![BoxFile::writable_copy("feedback", folder().join("missing"))];
    assert!(
        grundy_sandbox::run(spec).is_err(),
        "a missing folder cannot be copied"
    );
}

#[test]
fn a_program_starts_in_a_writable_copy_of_its_folder_when_it_asks_for_one() {
    let limits = default_limits();
    for containment in available_containments() {
        let own = folder();
        std::fs::write(own.join("lib.sh"), "greeting=hello\n").unwrap();
        std::fs::create_dir(own.join("data")).unwrap();
        std::fs::write(own.join("data/x"), "x\n").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", own.join("link")).unwrap();
        let script = "[ ! -e link ] || exit 3; . ./lib.sh && echo \"$greeting $(cat data/x)\" && \
                      echo changed > lib.sh && echo new > data/new";
        let program = Program {
            workdir_from: Some(own.clone()),
            ..sh(script)
        };
        let o = grundy_sandbox::run_with(Spec::new(&program, &limits), containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        assert_eq!(o.stdout, b"hello x\n", "{containment}");
        // The folder itself is as it was.
        let lib = std::fs::read_to_string(own.join("lib.sh")).unwrap();
        assert_eq!(lib, "greeting=hello\n", "{containment}");
        assert!(!own.join("data/new").exists(), "{containment}");
    }
}

#[test]
fn a_program_whose_working_folder_is_read_only_reads_it_and_changes_nothing_there() {
    let limits = default_limits();
    // Read-only needs a box's mount or Landlock: a plain run without Landlock leaves it
    // writable, as the book says.
    let landlock = grundy_sandbox::describe_containment().contains("Landlock (ABI");
    let enforced = available_containments()
        .into_iter()
        .filter(|&c| c == Containment::PidNamespace || landlock);
    for containment in enforced {
        let own = folder();
        std::fs::write(own.join("lib.sh"), "greeting=hello\n").unwrap();
        // Each change is tried; the line says which, if any, went through.
        let script = ". ./lib.sh && echo $greeting; \
                      (echo x > new) 2>/dev/null && echo made; \
                      (echo x >> lib.sh) 2>/dev/null && echo appended; \
                      rm -f lib.sh 2>/dev/null; [ -e lib.sh ] || echo removed; \
                      mkdir sub 2>/dev/null && echo folder; \
                      echo x > /tmp/scratch && echo tmp";
        let program = Program {
            workdir_from: Some(own.clone()),
            read_only_workdir: true,
            ..sh(script)
        };
        let o = grundy_sandbox::run_with(Spec::new(&program, &limits), containment).unwrap();
        assert_eq!(o.end, End::Exited(0), "{containment}: {o:?}");
        assert_eq!(
            String::from_utf8_lossy(&o.stdout),
            "hello\ntmp\n",
            "{containment}"
        );
        // The next run of a writable program is not held to it (a box is not reused for it).
        let writer = Program {
            workdir_from: Some(own.clone()),
            ..sh("echo x > new && echo made")
        };
        let o = grundy_sandbox::run_with(Spec::new(&writer, &limits), containment).unwrap();
        assert_eq!(o.stdout, b"made\n", "{containment}: {o:?}");
    }
}

/// A program file another process still holds open for writing (one the runner forked while a
/// thread of it was writing the file, say) cannot be executed (ETXTBSY) until that process lets
/// go: the run waits for it, briefly, instead of failing.
#[test]
fn a_program_held_open_for_writing_for_a_moment_is_waited_for() {
    let built = c_program("waited-for", "int main(void) { return 7; }");
    for containment in available_containments() {
        let exe = folder().join("program");
        std::fs::copy(&built, &exe).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut holder = std::process::Command::new("sh")
            .args(["-c", "exec 3>>\"$0\"; sleep 0.3"])
            .arg(&exe)
            .spawn()
            .unwrap();
        let held = PathBuf::from(format!("/proc/{}/fd/3", holder.id()));
        let start = Instant::now();
        while !held.exists() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the holder never opened it"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        let o = run_with(
            &program([exe.as_os_str()]),
            &input(b""),
            &default_limits(),
            containment,
        )
        .unwrap_or_else(|e| panic!("{containment}: {e}"));
        assert_eq!(o.end, End::Exited(7), "{containment}: {o:?}");
        holder.wait().unwrap();
    }
}
