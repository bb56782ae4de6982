use std::fs;

use super::*;

fn contest(problems_yaml: Option<&str>) -> tempfile::TempDir {
    let folder = tempfile::tempdir().unwrap();
    if let Some(text) = problems_yaml {
        fs::write(folder.path().join(PROBLEMS_FILE), text).unwrap();
    }
    folder
}

fn names(listed: &[Listed]) -> Vec<(&str, &str)> {
    listed
        .iter()
        .map(|l| (l.folder.as_str(), l.label.as_str()))
        .collect()
}

#[test]
fn labels_run_a_to_z_then_two_letters() {
    assert_eq!(default_label(0), "A");
    assert_eq!(default_label(25), "Z");
    assert_eq!(default_label(26), "AA");
    assert_eq!(default_label(27), "AB");
    assert_eq!(default_label(52), "BA");
}

#[test]
fn problems_yaml_gives_order_and_labels_in_either_spelling() {
    let folder = contest(Some(
        "- id: zebra\n  label: A\n  rgb: '#ff0000'\n- short-name: apple\n  letter: B2\n- id: mango\n",
    ));
    let listed = listed(folder.path()).unwrap().unwrap();
    assert_eq!(
        names(&listed),
        [("zebra", "A"), ("apple", "B2"), ("mango", "C")]
    );
    assert_eq!(listed[1].line, 4);
}

#[test]
fn no_problems_yaml_is_folder_order() {
    let folder = contest(None);
    assert_eq!(listed(folder.path()).unwrap(), None);
}

#[test]
fn what_cannot_be_used_is_located() {
    let cases = [
        ("id: a\n", 1, "must be a list"),
        ("- label: A\n", 1, "has no `id`"),
        ("- id: a\n- id: a\n", 2, "listed twice"),
        (
            "- id: a\n  label: A\n- id: b\n  label: A\n",
            3,
            "given twice",
        ),
        ("- id: ../up\n", 1, "package folder of the contest"),
        ("- id: [a]\n", 1, "must be a word"),
    ];
    for (text, line, says) in cases {
        let folder = contest(Some(text));
        let error = listed(folder.path()).unwrap_err();
        assert_eq!(error.line, line, "{text}");
        assert!(error.message.contains(says), "{text}: {}", error.message);
    }
}

#[test]
fn ordered_follows_the_list_and_sets_the_unlisted_apart() {
    let listed = [("c", "X"), ("a", "Y")].map(|(folder, label)| Listed {
        folder: folder.into(),
        label: label.into(),
        line: 1,
        column: 3,
    });
    let found = vec![("a".to_string(), 1), ("b".into(), 2), ("c".into(), 3)];
    let file = Path::new("problems.yaml");
    let ordered = ordered(file, Some(&listed), found.clone()).unwrap();
    assert_eq!(ordered.labelled, [("X".to_string(), 3), ("Y".into(), 1)]);
    assert_eq!(ordered.unlisted, ["b"]);
    let plain = super::ordered(file, None, found).unwrap();
    assert_eq!(
        plain.labelled,
        [("A".to_string(), 1), ("B".into(), 2), ("C".into(), 3)]
    );
    let missing = super::ordered(file, Some(&listed), vec![("a".to_string(), 1)]).unwrap_err();
    assert!(missing.message.contains("`c` has no package folder"));
}
