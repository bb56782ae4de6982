use super::staging::LAUNCHER;
use super::*;
use crate::package::programs::Needed;
use std::os::unix::fs::PermissionsExt;

/// The program at `path`, in a package rooted at its folder.
fn program_at(path: &Path) -> Program {
    let package = crate::package::test_support::root(path.parent().unwrap());
    Program::new(&package.join(path.file_name().unwrap()), None, None).unwrap()
}

/// A plan of no language in `dir`.
fn plan(dir: &Path, run: Vec<String>, needs: Vec<Needed>) -> Plan {
    Plan {
        key: "k".into(),
        dir: dir.to_path_buf(),
        compile: vec![],
        compile_env: vec![],
        runs_sources: false,
        run,
        reserves_address_space: false,
        needs,
        main_class: None,
    }
}

#[test]
fn the_launcher_runs_the_run_script_from_its_folder_with_its_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let plan = plan(
        dir.path(),
        vec![dir.path().join("run").display().to_string()],
        vec![],
    );
    let run = dir.path().join("run");
    std::fs::write(&run, "#!/bin/sh\necho \"$1\" \"$2\" \"$(cat beside)\"\n").unwrap();
    std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(dir.path().join("beside"), "it's here").unwrap();
    write_launcher(&plan, dir.path()).unwrap();
    let program = program_at(dir.path());
    let command = launch(&program, &plan, true, 256, true).unwrap();
    assert_eq!(command.argv, [dir.path().join(LAUNCHER).into_os_string()]);
    assert_eq!(command.show, [dir.path().to_path_buf()]);
    // Started elsewhere, with a file of that folder as an argument.
    let caller = tempfile::tempdir().unwrap();
    std::fs::write(caller.path().join("input"), "").unwrap();
    let output = std::process::Command::new(&command.argv[0])
        .args(["first", "input"])
        .current_dir(caller.path())
        .output()
        .unwrap();
    let input = caller.path().join("input");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        format!("first {} it's here\n", input.display())
    );
}

#[test]
fn a_build_without_what_its_run_command_needs_is_a_compile_error() {
    let dir = tempfile::tempdir().unwrap();
    let needed = Needed {
        path: PathBuf::from("main"),
        executable: true,
        what: "the compiled program",
    };
    let plan = plan(dir.path(), vec![], vec![needed]);
    let said = |plan: &Plan| match check_outputs(plan, dir.path()) {
        Ok(()) => "ok".to_string(),
        Err(BuildError::Failed(message)) => message,
        Err(BuildError::Host(error)) => panic!("the host's fault: {error}"),
    };
    let main = dir.path().join("main");
    let wrong = |what: &str| format!("the build exited 0, but the compiled program `main` {what}");
    assert_eq!(said(&plan), wrong("is missing"));
    std::fs::create_dir(&main).unwrap();
    assert_eq!(said(&plan), wrong("is not a regular file"));
    std::fs::remove_dir(&main).unwrap();
    std::os::unix::fs::symlink("/bin/sh", &main).unwrap();
    assert_eq!(
        said(&plan),
        wrong("is not a regular file"),
        "a link is not followed"
    );
    std::fs::remove_file(&main).unwrap();
    std::fs::write(&main, "").unwrap();
    assert_eq!(said(&plan), wrong("is not executable"));
    std::fs::set_permissions(&main, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(said(&plan), "ok");
}

#[test]
fn an_interpreted_program_runs_its_files_from_the_build_folder() {
    let package = tempfile::tempdir().unwrap();
    let source = package.path().join("sol.py");
    std::fs::write(&source, "print(1)\n").unwrap();
    let program = program_at(&source);
    let run = vec!["python3".into(), source.display().to_string()];
    let plan = plan(Path::new("/cache/k"), run, vec![]);
    let command = launch(&program, &plan, false, 256, false).unwrap();
    // The interpreter as the user has it: by name from the system folders, or by its real
    // path with its installation shown (a pyenv version, say).
    let python = crate::package::toolchains::locate("python3").unwrap();
    assert_eq!(command.argv, [python.command.as_str(), "/cache/k/sol.py"]);
    let mut shown = vec![PathBuf::from("/cache/k")];
    shown.extend(python.show);
    assert_eq!(command.show, shown);
    assert!(!command.reserves_address_space);
}

#[test]
fn a_jvm_program_gets_its_heap_from_the_memory_limit_less_the_jvms_room_and_its_address_space_free()
{
    let package = tempfile::tempdir().unwrap();
    let source = package.path().join("Main.java");
    std::fs::write(&source, "public class Main {}\n").unwrap();
    let program = program_at(&source);
    let cache = tempfile::tempdir().unwrap();
    let plan = program.plan(cache.path(), |_| None).unwrap();
    assert!(plan.reserves_address_space);
    // Its class is the one its build found.
    std::fs::create_dir_all(&plan.dir).unwrap();
    std::fs::write(plan.dir.join(super::jvm_main::CLASS_FILE), "Main\n").unwrap();
    let command = launch(&program, &plan, false, 512, false).unwrap();
    let argv: Vec<String> = command
        .argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    assert_eq!(argv[0], "java");
    // 512 MiB less the 128 DOMjudge keeps for the JVM and the main thread's stack.
    for heap in ["-Xms384m", "-Xmx384m"] {
        assert!(argv.iter().any(|a| a == heap), "{argv:?}");
    }
    assert!(command.reserves_address_space);
}
