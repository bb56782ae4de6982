use super::*;

fn doc(text: &str) -> Node {
    parse(Path::new("t.yaml"), text).unwrap().unwrap()
}

#[test]
fn nodes_know_their_line_and_column() {
    let root = doc("name: Hello\nlimits:\n  time_multiplier: fast\n");
    let limits = &root.as_map().unwrap()[1].1;
    let (key, value) = &limits.as_map().unwrap()[0];
    assert_eq!((key.line, key.column), (3, 3));
    assert_eq!((value.line, value.column), (3, 20));
    assert_eq!(value.describe(), "\"fast\"");
}

#[test]
fn plain_scalars_resolve_and_quoted_ones_stay_strings() {
    let root = doc("a: 2\nb: 2.5\nc: true\nd: '2'\ne: ~\nf: 1e-6\n");
    let values: Vec<_> = root
        .as_map()
        .unwrap()
        .iter()
        .map(|(_, v)| v.value.clone())
        .collect();
    assert_eq!(
        values,
        [
            Value::Int(2),
            Value::Float(2.5),
            Value::Bool(true),
            Value::Str("2".into()),
            Value::Null,
            Value::Float(1e-6)
        ]
    );
}

#[test]
fn empty_documents_are_none_and_bad_yaml_is_located() {
    assert_eq!(parse(Path::new("t.yaml"), "# nothing\n").unwrap(), None);
    let error = parse(Path::new("t.yaml"), "a: [1, 2\nb: 3\n").unwrap_err();
    assert!(error.to_string().starts_with("t.yaml:"), "{error}");
    assert!(error.line > 0);
}

#[test]
fn a_key_set_twice_in_one_map_is_refused_where_it_repeats() {
    let text = "name: a\nlimits:\n  time_limit: 1\nlimits:\n  memory: 512\n";
    let error = parse(Path::new("problem.yaml"), text).unwrap_err();
    assert_eq!((error.line, error.column), (4, 1), "{error}");
    assert_eq!(
        error.to_string(),
        "problem.yaml:4:1: duplicate key `limits`: it is set already at line 2, column 1 of \
             the same map; keep one of the two"
    );
    let nested = parse(Path::new("t.yaml"), "a:\n  x: 1\n  y: 2\n  x: 3\n").unwrap_err();
    assert_eq!((nested.line, nested.column), (4, 3), "{nested}");
    // The same key in two maps, and `2` beside `"2"`, are no duplicates.
    assert!(parse(Path::new("t.yaml"), "a: {x: 1}\nb: {x: 1}\n2: a\n'2': b\n").is_ok());
    let flow = parse(Path::new("t.yaml"), "{a: 1, a: 2}").unwrap_err();
    assert_eq!((flow.line, flow.column), (1, 8), "{flow}");
}

#[test]
fn aliases_copy_the_anchored_node() {
    let root = doc("a: &x [1, 2]\nb: *x\n");
    let map = root.as_map().unwrap();
    assert_eq!(map[0].1.value, map[1].1.value);
}

/// The "billion laughs" of 483 bytes: nine levels of nine aliases each, 9^9 values.
fn alias_bomb() -> String {
    let mut text = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
    let names = ["a", "b", "c", "d", "e", "f", "g", "h", "i"];
    for pair in names.windows(2) {
        let (last, next) = (pair[0], pair[1]);
        let aliases = vec![format!("*{last}"); 9].join(",");
        text += &format!("{next}: &{next} [{aliases}]\n");
    }
    text
}

#[test]
fn aliases_within_the_budget_are_kept_and_a_bomb_is_refused_where_it_goes_off() {
    let root = doc("base: &b {x: 1, y: [1, 2]}\nuse: *b\nagain: [*b, *b]\n");
    let map = root.as_map().unwrap();
    assert_eq!(map[1].1.value, map[0].1.value);
    let bomb = alias_bomb();
    assert!(bomb.len() < 500, "{}", bomb.len());
    let started = std::time::Instant::now();
    let error = parse(Path::new("problem.yaml"), &bomb).unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    assert!(error.message.contains("more than 100000 values"), "{error}");
    // Refused at the first alias of the sixth line, which would copy the fifth's 66,430
    // values once too often, not after expanding everything.
    assert_eq!((error.line, error.column), (6, 8), "{error}");
    assert_eq!(error.file, Path::new("problem.yaml"));
}

#[test]
fn deep_nesting_is_refused_without_recursing() {
    for (open, close) in [("[", "]"), ("{a: ", "}"), ("- ", "")] {
        let deep = format!("{}x{}", open.repeat(100_000), close.repeat(100_000));
        let error = parse(Path::new("t.yaml"), &deep).unwrap_err();
        assert!(
            error.message.contains("more than 64 levels deep")
                || error.message.contains("recursion limit"),
            "{open}: {error}"
        );
        assert_eq!(error.line, 1, "{open}: {error}");
    }
    let fine = format!("{}x{}", "[".repeat(63), "]".repeat(63));
    assert!(parse(Path::new("t.yaml"), &fine).is_ok());
    // An alias cannot nest deeper than its own nesting allows.
    let mut text = format!("a: &a {}x{}\n", "[".repeat(40), "]".repeat(40));
    text += &format!("b: {}*a{}\n", "[".repeat(30), "]".repeat(30));
    let error = parse(Path::new("t.yaml"), &text).unwrap_err();
    assert!(error.message.contains("levels deep"), "{error}");
    assert_eq!(error.line, 2);
}

#[test]
fn files_over_their_cap_are_refused_naming_their_size() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("problem.yaml"), "- name\n".repeat(200)).unwrap();
    let tree = crate::files::beneath::Tree::open(dir.path(), crate::files::beneath::Scope::Package)
        .unwrap();
    let file = tree.join("problem.yaml");
    assert!(read(&file, 4096).is_ok());
    let error = read(&file, 1024).unwrap_err();
    assert_eq!(
        error.message,
        "too large: 1400 bytes, over the 1 KiB grundy reads of this file"
    );
    assert_eq!(error.file, dir.path().join("problem.yaml"));
}
