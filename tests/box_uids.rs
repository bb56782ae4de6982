//! Who chooses the uids grundy, as root, runs judged programs as, and what it checks before it
//! takes one: a runner.toml above the folder grundy runs in (someone else's) cannot aim grundy
//! at another user's processes, and a uid grundy never ran programs as that runs a process or
//! owns a file is refused, never killed or swept; in a box and without namespaces.
//!
//! Each test has uids of its own from 61110 to 61183: no account has them here, they are
//! neither grundy's default range (60000 to 60999) nor systemd's dynamic users (61184 and up),
//! and no other test uses them, so no test can touch a real user's processes or another test's.

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output};

use crate::common::{code, dump, set_mode, stderr, stdout, Project};
use crate::exec_support::{exec_arg, grundy, sh_program, Launch};

/// Two root-only `#[test]`s of `body(launch, uid)`: in a box, and without namespaces, each with
/// a uid of its own.
macro_rules! as_root_in_a_box_and_without_namespaces {
    ($body:ident($box_uid:expr, $plain_uid:expr): $in_a_box:ident, $without_namespaces:ident) => {
        #[test]
        #[cfg_attr(
            not(as_root),
            ignore = "needs root: programs run as box users only then"
        )]
        fn $in_a_box() {
            $body(Launch::Direct, $box_uid);
        }

        #[test]
        #[cfg_attr(
            not(as_root),
            ignore = "needs root: programs run as box users only then"
        )]
        fn $without_namespaces() {
            $body(Launch::NoNamespaces, $plain_uid);
        }
    };
}

/// `sleep` as `uid`: what a container's mapped user or a service's dynamic user runs, for
/// grundy to leave alone. Killed when dropped.
struct Stranger(Child);

impl Stranger {
    /// Starts it once any record of grundy running programs as `uid` is gone ([`fresh`]).
    fn start(uid: u32) -> Stranger {
        let child = Command::new("sleep")
            .arg("600")
            .uid(fresh(uid))
            .gid(uid)
            .spawn()
            .expect("sleep starts as another user");
        Stranger(child)
    }

    fn pid(&self) -> u32 {
        self.0.id()
    }

    fn alive(&mut self) -> bool {
        self.0.try_wait().unwrap().is_none()
    }
}

impl Drop for Stranger {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `uid`, a uid of the calling test's own, checked to have no account and with grundy's record
/// of running programs as it removed (an earlier run of the test may have left one; grundy
/// keeps them in its lock files).
fn fresh(uid: u32) -> u32 {
    assert!(
        !has_account(uid),
        "uid {uid} has an account here: the test needs one no one uses"
    );
    let _ = std::fs::remove_file(format!("/run/grundy/uids/{uid}"));
    uid
}

fn has_account(uid: u32) -> bool {
    let listed = |file: &str| {
        std::fs::read_to_string(file).is_ok_and(|text| {
            text.lines()
                .any(|line| line.split(':').nth(2) == Some(&uid.to_string()))
        })
    };
    listed("/etc/passwd") || listed("/etc/group")
}

/// A project whose one problem, `powers-of-two`, has a case, and a program that answers it.
fn project() -> (Project, String) {
    let project = Project::new();
    project.powers("a", &[1, 2, 3]);
    let program = sh_program(&project, "answers", ":");
    (project, exec_arg(&program))
}

/// The problem's folder, where a user who was handed the problem runs grundy.
fn problem_folder(project: &Project) -> PathBuf {
    project.path().join("fixtures/powers-of-two")
}

/// `grundy check --exec PROGRAM` in `folder` through `launch`, with `GRUNDY_BOX_UIDS` as given.
fn check_in(
    project: &Project,
    folder: &Path,
    launch: Launch,
    program: &str,
    box_uids: Option<&str>,
    more: &[&str],
) -> Output {
    let mut args = vec!["check", "--exec", program];
    args.extend(more);
    let mut command = grundy(project, launch, &args);
    command.current_dir(folder);
    match box_uids {
        Some(range) => command.env("GRUNDY_BOX_UIDS", range),
        None => command.env_remove("GRUNDY_BOX_UIDS"),
    };
    command.output().expect("grundy runs")
}

/// Whether the run judged the one case, accepted.
fn judged_well(output: &Output) -> bool {
    code(output) == 0 && stdout(output).contains("1 passed, 0 failed")
}

/// Writes `text` as `relative` in the project, writable by its owner alone: a settings file of
/// the user's own, whatever the test's umask.
fn own_settings(project: &Project, relative: &str, text: &str) {
    set_mode(&project.file(relative, text), 0o644);
}

fn a_parent_folders_settings_cannot_aim_grundy_at_another_users_processes(
    launch: Launch,
    uid: u32,
) {
    let (project, program) = project();
    let mut stranger = Stranger::start(uid);
    own_settings(
        &project,
        "runner.toml",
        &format!("first_box_uid = {uid}\nbox_uids = 1\n"),
    );
    let output = check_in(
        &project,
        &problem_folder(&project),
        launch,
        &program,
        None,
        &[],
    );
    assert!(stranger.alive(), "grundy killed uid {uid}'s process");
    assert!(judged_well(&output), "{}", dump(&output));
    let warning = format!(
        "warning: {}:1:17: first_box_uid is ignored: only your own settings may choose the uids \
         grundy runs judged programs as, and this file is in a folder above the one grundy runs \
         in; set GRUNDY_BOX_UIDS=FIRST:COUNT, name the file with --config, or run grundy in \
         its folder\n",
        project.path().join("runner.toml").display()
    );
    assert!(stderr(&output).starts_with(&warning), "{}", dump(&output));
    assert!(
        stderr(&output).contains("runner.toml:2:12: box_uids is ignored"),
        "{}",
        dump(&output)
    );
}

as_root_in_a_box_and_without_namespaces!(
    a_parent_folders_settings_cannot_aim_grundy_at_another_users_processes(61_110, 61_111):
    a_parent_folders_settings_cannot_aim_grundy_at_another_users_processes_in_a_box,
    a_parent_folders_settings_cannot_aim_grundy_at_another_users_processes_without_namespaces
);

/// The user's own settings name a uid that runs a process grundy did not start: grundy refuses
/// it, whichever of them chose it, and takes the next uid of the range if there is one.
fn a_uid_that_runs_someone_elses_process_is_refused_not_killed(launch: Launch, uid: u32) {
    let (project, program) = project();
    let mut stranger = Stranger::start(uid);
    fresh(uid + 1);
    let refused = format!(
        "no box user is free among uids {uid} to {uid} (set by GRUNDY_BOX_UIDS): uid {uid} runs \
         processes grundy did not start (pid {}), so it is not a free box user; choose uids \
         that no account, container or service uses\n",
        stranger.pid()
    );
    let here = project.path();
    let one = format!("{uid}:1");
    let output = check_in(&project, here, launch, &program, Some(&one), &[]);
    assert!(stranger.alive(), "grundy killed uid {uid}'s process");
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(stderr(&output).ends_with(&refused), "{}", dump(&output));

    // The same range from a file named with --config, and from the runner.toml of the folder
    // grundy runs in, which is the user's own.
    let settings = format!("first_box_uid = {uid}\nbox_uids = 1\n");
    let named = format!("fixtures = \"../fixtures\"\n{settings}");
    own_settings(&project, "settings/uids.toml", &named);
    own_settings(&project, "runner.toml", &settings);
    let sources: [&[&str]; 2] = [&["--config", "settings/uids.toml"], &[]];
    for (args, file) in sources
        .into_iter()
        .zip(["settings/uids.toml", "runner.toml"])
    {
        let output = check_in(&project, here, launch, &program, None, args);
        assert!(stranger.alive(), "grundy killed uid {uid}'s process");
        let chosen = format!("set by first_box_uid and box_uids in {file}");
        let file_refused = refused.replace("set by GRUNDY_BOX_UIDS", &chosen);
        assert!(
            stderr(&output).ends_with(&file_refused),
            "{}",
            dump(&output)
        );
    }

    let two = format!("{uid}:2");
    let output = check_in(&project, here, launch, &program, Some(&two), &[]);
    assert!(stranger.alive(), "grundy killed uid {uid}'s process");
    assert!(judged_well(&output), "{}", dump(&output));
}

as_root_in_a_box_and_without_namespaces!(
    a_uid_that_runs_someone_elses_process_is_refused_not_killed(61_120, 61_122):
    a_uid_that_runs_someone_elses_process_is_refused_not_killed_in_a_box,
    a_uid_that_runs_someone_elses_process_is_refused_not_killed_without_namespaces
);

#[test]
#[cfg_attr(
    not(as_root),
    ignore = "needs root: the test gives a file to another user"
)]
fn a_uid_that_owns_a_file_in_a_shared_folder_is_refused_and_the_file_kept() {
    let uid = fresh(61_130);
    let (project, program) = project();
    // Named after the uid, so a file an earlier run of the test left is this one.
    let file = PathBuf::from(format!("/tmp/grundy-box-uids-test-{uid}"));
    let _ = std::fs::remove_file(&file);
    std::fs::write(&file, "someone else's").unwrap();
    std::os::unix::fs::chown(&file, Some(uid), Some(uid)).unwrap();
    let range = format!("{uid}:1");
    let output = check_in(
        &project,
        project.path(),
        Launch::NoNamespaces,
        &program,
        Some(&range),
        &[],
    );
    let kept = std::fs::read_to_string(&file);
    std::fs::remove_file(&file).unwrap();
    assert_eq!(kept.unwrap(), "someone else's");
    assert_eq!(code(&output), 2, "{}", dump(&output));
    let refused = format!(
        "uid {uid} owns {}, which grundy did not make, so it is not a free box user",
        file.display()
    );
    assert!(stderr(&output).contains(&refused), "{}", dump(&output));
}

/// Where nothing keeps programs from the user's files, only the user may say to judge anyway.
#[test]
fn only_your_own_settings_turn_containment_off() {
    let (project, program) = project();
    own_settings(&project, "runner.toml", "isolate = \"off\"\n");
    let launch = Launch::NoNamespacesNoLandlock;
    let output = check_in(
        &project,
        &problem_folder(&project),
        launch,
        &program,
        None,
        &[],
    );
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert!(
        stderr(&output).contains("runner.toml:1:11: isolate = \"off\" is ignored"),
        "{}",
        dump(&output)
    );
    assert!(
        stderr(&output).contains("error: this machine cannot keep judged programs away"),
        "{}",
        dump(&output)
    );
    let output = check_in(&project, project.path(), launch, &program, None, &[]);
    assert!(judged_well(&output), "{}", dump(&output));
    assert!(!stderr(&output).contains("ignored"), "{}", dump(&output));
}

#[test]
fn a_malformed_box_uids_variable_is_an_error_that_says_what_it_takes() {
    let (project, program) = project();
    let output = check_in(
        &project,
        project.path(),
        Launch::Direct,
        &program,
        Some("60000-61000"),
        &[],
    );
    assert_eq!(code(&output), 2, "{}", dump(&output));
    assert_eq!(
        stderr(&output),
        "error: GRUNDY_BOX_UIDS=60000-61000: expected two whole numbers below 2^32 separated by \
         a colon; write FIRST:COUNT, as in GRUNDY_BOX_UIDS=60000:1000\n"
    );
}
