use super::*;

fn nim() -> &'static Problem {
    grundy_problems::find("nim").unwrap()
}

fn plan(text: &str) -> Plan {
    let context = PlanContext {
        fixtures: true,
        ..PlanContext::default()
    };
    generators::parse(Path::new("generators.yaml"), text, &context).unwrap()
}

/// The located errors `usable` gives a fixtures plan.
fn unusable(text: &str) -> Vec<String> {
    match usable(Path::new("generators.yaml"), &plan(text)) {
        Ok(_) => panic!("usable: {text}"),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

fn planned(text: &str) -> Vec<Planned> {
    usable(Path::new("generators.yaml"), &plan(text)).unwrap()
}

#[test]
fn a_built_in_case_is_a_gen_command_with_its_group_s_limits() {
    let cases = planned(
        "data:\n  random:\n    data:\n      r1:\n        generate: gen --seed 1 --scale 8\n  extended:\n    data:\n      e1: gen --seed 2\n",
    );
    let found: Vec<(&str, Constraints)> = cases
        .iter()
        .map(|c| (c.path.as_str(), c.constraints))
        .collect();
    assert_eq!(
        found,
        [
            ("extended/e1", Constraints::Extended),
            ("random/r1", Constraints::Original)
        ]
    );
}

#[test]
fn what_a_built_in_problem_cannot_use_is_an_error_at_its_case() {
    let errors = unusable(
        "data:\n  random:\n    data:\n      a:\n        generate: gen --sede 1\n      b:\n        in: 1 2\n      c:\n        generate: gen --seed 1\n        solution: /a.py\n  invalid:\n    data:\n      d: gen --seed 3\n",
    );
    assert_eq!(errors.len(), 4, "{errors:?}");
    // Groups in order of name; each error at its case's line.
    assert!(errors[0].starts_with("generators.yaml:13:7: case `invalid/d`"));
    assert!(errors[0].contains("by hand"));
    assert!(errors[1].starts_with("generators.yaml:5:"), "{errors:?}");
    assert!(errors[1].contains("case `random/a`") && errors[1].contains("did you mean `--seed`?"));
    assert!(errors[2].starts_with("generators.yaml:7:"));
    assert!(errors[2].contains("case `random/b`") && errors[2].contains("and nothing else"));
    assert!(errors[3].starts_with("generators.yaml:9:") && errors[3].contains("case `random/c`"));
    let errors = unusable(
        "generators:\n  g: [g.py]\ndata:\n  random:\n    test_group.yaml:\n      a: 1\n    data:\n      a: gen --seed 1\n",
    );
    assert!(errors[0].contains("`generators:`"), "{errors:?}");
    assert!(errors[1].contains("`test_group.yaml`"), "{errors:?}");
}

/// A fixtures root holding nim's folder (its path, and as a tree), and a writer of it.
fn root() -> (tempfile::TempDir, std::path::PathBuf, TreePath, Writer) {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("nim");
    std::fs::create_dir_all(folder.join("random")).unwrap();
    let here = Tree::open(&folder, Scope::Fixtures).unwrap().join("");
    let writer = Writer::open(dir.path()).unwrap();
    (dir, folder, here, writer)
}

fn files() -> (Vec<u8>, Vec<u8>) {
    (b"1\n1\n3\n".to_vec(), b"First\n".to_vec())
}

#[test]
fn a_hand_written_fixture_is_replaced_only_under_force_and_the_same_bytes_are_kept() {
    let (_dir, folder, here, writer) = root();
    let manifest = Manifest::default();
    let (input, output) = files();
    std::fs::write(folder.join("random/a.in"), &input).unwrap();
    std::fs::write(folder.join("random/a.out"), b"Second\n").unwrap();
    let write = |force| {
        let options = Options {
            force,
            clean: false,
        };
        write_case(&writer, &here, "random/a", &files(), &manifest, &options)
    };
    let refused = write(false).unwrap_err().to_string();
    assert!(refused.contains("was not made by generate"), "{refused}");
    assert_eq!(
        std::fs::read(folder.join("random/a.out")).unwrap(),
        b"Second\n"
    );
    write(true).unwrap();
    assert_eq!(std::fs::read(folder.join("random/a.out")).unwrap(), output);
    // The same bytes as written by hand: nothing to replace, so no --force needed.
    write(false).unwrap();
    // A hand-written input without output: refused whole, no `.out` written beside it.
    std::fs::write(folder.join("random/c.in"), b"1\n2\n").unwrap();
    let refused = write_case(
        &writer,
        &here,
        "random/c",
        &files(),
        &manifest,
        &Options::default(),
    );
    assert!(refused.is_err());
    assert!(!folder.join("random/c.out").exists());
    // A case with an `.err` or `.ans` is hand-written whatever the flags.
    std::fs::write(folder.join("random/b.ans"), b"x\n").unwrap();
    let options = Options {
        force: true,
        clean: false,
    };
    let refused = write_case(&writer, &here, "random/b", &files(), &manifest, &options);
    assert!(refused.unwrap_err().to_string().contains("written by hand"));
    assert!(!folder.join("random/b.in").exists());
}

#[test]
fn clean_removes_only_what_generate_made_and_an_edited_case_is_forgotten() {
    let (_dir, folder, here, writer) = root();
    let mut manifest = Manifest::default();
    let options = Options::default();
    for case in ["random/made", "random/edited"] {
        write_case(&writer, &here, case, &files(), &manifest, &options).unwrap();
        let (input, output) = files();
        let made = [("in".to_string(), input), ("out".to_string(), output)];
        manifest.record(case, "key".into(), &made.into_iter().collect());
    }
    std::fs::write(folder.join("random/edited.out"), b"edited\n").unwrap();
    std::fs::write(folder.join("random/hand.in"), b"1\n1\n").unwrap();
    let empty = plan("data:\n");
    let mut generated = Generated::default();
    no_longer_listed(&here, &empty, &mut manifest, &options, &mut generated);
    assert_eq!(generated.unlisted.len(), 2, "{:?}", generated.unlisted);
    assert!(generated.unlisted[0].ends_with("random/made.in"));
    assert!(folder.join("random/made.in").exists() && !generated.removed);
    assert_eq!(manifest.cases.keys().collect::<Vec<_>>(), ["random/made"]);

    let clean = Options {
        force: false,
        clean: true,
    };
    no_longer_listed(&here, &empty, &mut manifest, &clean, &mut generated);
    assert!(!folder.join("random/made.in").exists() && !folder.join("random/made.out").exists());
    assert!(generated.removed && manifest.cases.is_empty());
    for kept in ["random/edited.in", "random/edited.out", "random/hand.in"] {
        assert!(folder.join(kept).exists(), "{kept}");
    }
}

#[test]
fn an_input_the_validator_rejects_is_not_made_and_the_output_is_the_brute_force_s() {
    let case = &planned("data:\n  random:\n    data:\n      a: gen --seed 7 --scale 8\n")[0];
    let (input, output) = make(nim(), case).unwrap();
    assert_eq!(input, (nim().generate)(7, 8));
    assert_eq!(
        output,
        reference_run(nim(), &input, Reference::BruteForce).unwrap()
    );

    fn broken(_: u64, _: u64) -> Vec<u8> {
        b"not a number\n".to_vec()
    }
    let buggy = Problem {
        generate: broken,
        ..*nim()
    };
    let why = make(&buggy, case).unwrap_err();
    assert!(
        matches!(
            why,
            Unmade::BreaksLimits {
                constraints: Constraints::Original,
                ..
            }
        ),
        "{why}"
    );
    assert!(
        why.to_string().contains("breaks the original limits"),
        "{why}"
    );
}

#[test]
fn the_key_changes_with_the_seed_and_the_limits() {
    let cases = planned(
        "data:\n  random:\n    data:\n      a: gen --seed 1\n      b: gen --seed 2\n  extended:\n    data:\n      a: gen --seed 1\n",
    );
    let keys: Vec<String> = cases.iter().map(|c| case_key(nim(), c)).collect();
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[1], keys[2]);
    assert_eq!(keys[1], case_key(nim(), &cases[1]));
}
