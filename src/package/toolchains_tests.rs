use super::*;
use std::os::unix::fs::PermissionsExt;

/// An executable file at `path` (folders made).
fn executable(path: &Path) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, "#!/bin/sh\n").unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Places below `home` with `path` as the user's PATH and nothing set by variables.
fn places(home: &Path, path: &[&Path]) -> Places {
    Places {
        path: std::env::join_paths(path).unwrap(),
        cargo_bin: Some(home.join(".cargo/bin")),
        rustup_home: Some(home.join(".rustup")),
        rustup_toolchain: None,
        pyenv_root: Some(home.join(".pyenv")),
        pyenv_version: None,
        cwd: Some(home.join("work")),
        sdkman_candidates: Some(home.join(".sdkman/candidates")),
        local_bin: Some(home.join(".local/bin")),
    }
}

#[test]
fn system_tools_keep_their_names_and_paths_are_taken_as_given() {
    let home = tempfile::tempdir().unwrap();
    let system = places(home.path(), &[Path::new("/usr/bin"), Path::new("/bin")]);
    let sh = locate_in("sh", &system).unwrap();
    assert_eq!((sh.command.as_str(), sh.show.len()), ("sh", 0));
    assert_eq!(locate_in("/bin/sh", &system).unwrap().command, "/bin/sh");
    assert!(locate_in("/nonexistent/sh", &system).is_err());
    let missing = locate_in("surely-no-such-tool", &system)
        .unwrap_err()
        .to_string();
    let home = home.path().display();
    assert_eq!(
        missing,
        format!(
            "surely-no-such-tool not found on PATH (/usr/bin:/bin) or in {home}/.cargo/bin, \
             {home}/.pyenv/shims, {home}/.sdkman/candidates/*/current/bin, {home}/.local/bin"
        )
    );
    // The user's PATH decides what is there: a system tool it leaves out is not found.
    assert!(locate_in("sh", &places(Path::new("/nowhere"), &[])).is_err());
}

#[test]
fn a_rustup_proxy_runs_the_toolchains_own_program_shown_to_the_box() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    executable(&h.join(".cargo/bin/rustup"));
    std::os::unix::fs::symlink("rustup", h.join(".cargo/bin/rustc")).unwrap();
    std::fs::create_dir_all(h.join(".rustup")).unwrap();
    std::fs::write(
        h.join(".rustup/settings.toml"),
        "version = \"12\"\ndefault_toolchain = \"stable\"\n",
    )
    .unwrap();
    let toolchain = h.join(".rustup/toolchains/stable-x86_64-unknown-linux-gnu");
    executable(&toolchain.join("bin/rustc"));
    // Not on PATH: found where rustup puts it all the same.
    let mut places = places(h, &[Path::new("/usr/bin")]);
    let rustc = locate_in("rustc", &places).unwrap();
    assert_eq!(
        rustc.command,
        toolchain.join("bin/rustc").display().to_string()
    );
    assert_eq!(rustc.show, [toolchain]);
    places.rustup_toolchain = Some("nightly".into());
    assert!(locate_in("rustc", &places).is_err(), "no nightly installed");
}

#[test]
fn a_pyenv_shim_runs_the_selected_versions_python_or_passes_on() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let shims = h.join(".pyenv/shims");
    executable(&shims.join("python3"));
    executable(&shims.join("python2"));
    executable(&h.join(".pyenv/versions/3.12.1/bin/python3"));
    executable(&h.join(".pyenv/versions/3.11.7/bin/python3"));
    std::fs::write(h.join(".pyenv/version"), "3.12.1\n").unwrap();
    let system = h.join("system-bin");
    executable(&system.join("python2"));
    let mut places = places(h, &[&shims, &system]);
    let python = locate_in("python3", &places).unwrap();
    assert!(
        python
            .command
            .ends_with(".pyenv/versions/3.12.1/bin/python3"),
        "{python:?}"
    );
    assert_eq!(python.show, [h.join(".pyenv/versions/3.12.1")]);
    // The version lacks python2: the shim would fail, so the next folder's is taken.
    let python2 = locate_in("python2", &places).unwrap();
    assert_eq!(
        python2.command,
        system.join("python2").display().to_string()
    );
    assert_eq!(python2.show, [h.to_path_buf()], "the folder above its bin");
    // A local .python-version beats the global one; PYENV_VERSION beats both.
    std::fs::create_dir_all(h.join("work/deeper")).unwrap();
    std::fs::write(h.join("work/.python-version"), "3.11.7\n").unwrap();
    places.cwd = Some(h.join("work/deeper"));
    assert!(locate_in("python3", &places)
        .unwrap()
        .command
        .contains("3.11.7"));
    places.pyenv_version = Some("3.12.1:3.11.7".into());
    assert!(locate_in("python3", &places)
        .unwrap()
        .command
        .contains("3.12.1"));
    places.pyenv_version = Some("system".into());
    assert!(
        locate_in("python3", &places).is_err(),
        "no system python3 here"
    );
}

#[test]
fn an_sdkman_candidate_is_followed_to_its_version() {
    let home = tempfile::tempdir().unwrap();
    let h = home.path();
    let version = h.join(".sdkman/candidates/java/17.0.2-tem");
    executable(&version.join("bin/javac"));
    std::os::unix::fs::symlink(&version, h.join(".sdkman/candidates/java/current")).unwrap();
    let javac = locate_in("javac", &places(h, &[])).unwrap();
    assert_eq!(
        javac.command,
        version.join("bin/javac").display().to_string()
    );
    assert_eq!(javac.show, [version]);
}
