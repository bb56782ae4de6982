use super::plan::{seed, seed_span};
use super::*;

fn read(text: &str) -> Plan {
    read_with(text, &Context::default())
}

fn read_with(text: &str, context: &Context) -> Plan {
    parse(Path::new("generators.yaml"), text, context).unwrap_or_else(|e| panic!("{e:?}"))
}

fn errors(text: &str) -> Vec<String> {
    match parse(Path::new("generators.yaml"), text, &Context::default()) {
        Ok(_) => panic!("read without errors"),
        Err(errors) => errors.iter().map(ToString::to_string).collect(),
    }
}

fn paths(plan: &Plan) -> Vec<&str> {
    plan.cases.iter().map(|c| c.path.as_str()).collect()
}

fn rule(case: &Case) -> &Rule {
    match &case.source {
        Source::Rule(rule) => rule,
        Source::Included(from) => panic!("included from {from}"),
    }
}

/// The package `testseed` of BAPCtools' tests, and the seed each of its cases got from
/// `bt generate` (BAPCtools 2026.10.0, run on a copy of the package; its generator prints its
/// arguments, so each `.in` shows the seed). The case names are bt's too.
const TESTSEED: &str = r#"solution: /submissions/accepted/echo.py
data:
  sample:
    data:
      - basic_seed:
          generate: "stdout.py {seed}"
      - whitespace:
          generate: "stdout.py {seed} a  aa  b "
      - seed-42:
          generate: "stdout.py {seed:42}"
      - random_salt:
          generate: "stdout.py {seed:42}"
          random_salt: "bob"
      - count:
          generate: "stdout.py {seed} {count}"
          count: 5
      - count-list:
          generate: "stdout.py {seed:1} {count}"
          count: [-2, 0, 1, 2]
      - count-range:
          generate: "stdout.py {seed:2} {count}"
          count: -2..=3
  secret:
    data: []
"#;

const TESTSEED_BY_BT: [(&str, u32); 19] = [
    ("sample/01-basic_seed", 162981470),
    ("sample/02-whitespace", 2133905738),
    ("sample/03-seed-42", 1750401614),
    ("sample/04-random_salt", 593058468),
    ("sample/05-count-1", 256329547),
    ("sample/06-count-2", 1581952888),
    ("sample/07-count-3", 969404650),
    ("sample/08-count-4", 1490385484),
    ("sample/09-count-5", 498227416),
    ("sample/10-count-list--2", 207342926),
    ("sample/11-count-list-0", 627447910),
    ("sample/12-count-list-1", 699508446),
    ("sample/13-count-list-2", 2075121131),
    ("sample/14-count-range--2", 458079516),
    ("sample/15-count-range--1", 1599491640),
    ("sample/16-count-range-00", 1577057647),
    ("sample/17-count-range-01", 176819904),
    ("sample/18-count-range-02", 2011330370),
    ("sample/19-count-range-03", 839616175),
];

#[test]
fn seeds_and_names_are_those_bt_generate_gives() {
    let plan = read(TESTSEED);
    let got: Vec<(&str, u32)> = plan
        .cases
        .iter()
        .map(|c| (c.path.as_str(), rule(c).generate.as_ref().unwrap().seed))
        .collect();
    assert_eq!(got, TESTSEED_BY_BT);
    let whitespace = rule(&plan.cases[1]).generate.as_ref().unwrap();
    assert_eq!(
        whitespace.arguments("testcase", 0),
        ["2133905738", "a", "aa", "b"]
    );
    assert_eq!(
        rule(&plan.cases[0]).solution,
        Solution::Given("submissions/accepted/echo.py".into())
    );
    assert_eq!(plan.groups.len(), 3);
}

#[test]
fn retries_take_the_next_seeds_and_name_is_replaced() {
    let command = Command {
        text: "g {name} {seed:3}".into(),
        program: "g".into(),
        args: vec!["{name}".into(), "x{seed:3}y".into()],
        seed: (1 << 31) - 1,
        uses_seed: true,
    };
    assert_eq!(
        command.arguments("testcase", 0),
        ["testcase", "x2147483647y"]
    );
    assert_eq!(command.arguments("testcase", 1), ["testcase", "x0y"]);
    assert_eq!(command.keyed_text(), "g {name} 2147483647");
}

#[test]
fn seed_spans_are_found_and_counted() {
    assert_eq!(seed_span("a {seed} b"), Some((2, 8)));
    assert_eq!(seed_span("{seed:12}"), Some((0, 9)));
    assert_eq!(seed_span("{seed:} {seed:x}"), None);
    assert_eq!(seed_count("{seed} {seed:2}"), 2);
    assert!(
        errors("data:\n  secret:\n    data:\n      a: g {seed} {seed:2}\n")[0]
            .contains("at most once")
    );
}

#[test]
fn numbering_is_global_for_cases_and_per_group_for_groups() {
    // The numbering example of BAPCtools' doc/generators.yaml, with the numbers it states.
    let plan = read(
        "data:\n  secret:\n    data:\n      - '': tree empty\n      - a: tree a\n      - b: tree b\n\
         \x20     - g: tree g\n      - numbered_test_group:\n          data:\n            - c: tree c\n\
         \x20           - d: tree d\n      - numbered_test_group:\n          data:\n            e: tree e\n\
         \x20           f: tree f\n",
    );
    assert_eq!(
        paths(&plan),
        [
            "secret/1",
            "secret/2-a",
            "secret/3-b",
            "secret/4-g",
            "secret/1-numbered_test_group/5-c",
            "secret/1-numbered_test_group/6-d",
            "secret/2-numbered_test_group/e",
            "secret/2-numbered_test_group/f",
        ]
    );
}

#[test]
fn root_groups_go_in_their_fixed_order_and_other_keys_by_name() {
    let plan = read(
        "data:\n  secret:\n    data:\n      zeta: g 1\n      alpha: g 2\n  sample:\n    data:\n      s: {in: '1'}\n",
    );
    assert_eq!(paths(&plan), ["sample/s", "secret/alpha", "secret/zeta"]);
    let groups: Vec<&str> = plan.groups.iter().map(|g| g.path.as_str()).collect();
    assert_eq!(groups, ["", "sample", "secret"]);
}

#[test]
fn count_values_and_name_suffixes() {
    let plan = read(
        "data:\n  secret:\n    data:\n      p:\n        generate: g {count}\n        count: [-123456, 0, 1000000]\n\
         \x20     r:\n        generate: g {count}\n        count: -9..=9\n",
    );
    let names: Vec<&str> = plan
        .cases
        .iter()
        .map(|c| c.path.rsplit('/').next().unwrap())
        .collect();
    assert_eq!(&names[..3], ["p--123456", "p-0", "p-1000000"]);
    assert_eq!(&names[3..6], ["r--9", "r--8", "r--7"]);
    assert_eq!(names[12], "r-00");
    assert_eq!(rule(&plan.cases[1]).generate.as_ref().unwrap().args, ["0"]);
    assert!(errors(
        "data:\n  secret:\n    data:\n      a:\n        generate: g\n        count: 101\n"
    )[0]
    .contains("between 1 and 100"));
    assert!(errors(
        "data:\n  secret:\n    data:\n      a:\n        generate: g\n        count: 3..=1\n"
    )[0]
    .contains("starts after it ends"));
}

#[test]
fn inline_copy_links_and_yaml_files() {
    let plan = read(
        "data:\n  sample:\n    data:\n      '1':\n        in: 1 2\n        ans: '3'\n        yaml:\n          description: x\n          hint: [a, b]\n\
         \x20     '2':\n        copy: manual/2\n      '3':\n        in: x\n        in.download: {link: in}\n        ans.download: ''\n",
    );
    let one = rule(&plan.cases[0]);
    assert_eq!(
        one.inline,
        [
            ("in".into(), "1 2\n".into()),
            ("ans".into(), "3\n".into()),
            ("yaml".into(), "description: x\nhint: [a, b]\n".into()),
        ]
    );
    assert_eq!(
        rule(&plan.cases[1]).copy.as_deref(),
        Some("generators/manual/2")
    );
    let three = rule(&plan.cases[2]);
    assert_eq!(three.links, [("in.download".to_string(), "in".to_string())]);
    assert_eq!(three.inline[1], ("ans.download".into(), String::new()));
}

#[test]
fn test_group_yaml_keeps_its_text_and_empty_removes() {
    let plan = read(
        "test_group.yaml:\n  output_validator_args:\n    - case_sensitive\ndata:\n  sample:\n    test_group.yaml:\n\
         \x20   data: {}\n  secret:\n    test_group.yaml: {output_validator_args: [a, \"b c\"]}\n    data: {}\n",
    );
    assert_eq!(
        plan.groups[0].test_group_yaml,
        GroupYaml::Write("output_validator_args:\n  - case_sensitive\n".into())
    );
    assert_eq!(plan.groups[1].test_group_yaml, GroupYaml::Remove);
    assert_eq!(
        plan.groups[2].test_group_yaml,
        GroupYaml::Write("{output_validator_args: [a, \"b c\"]}\n".into())
    );
}

#[test]
fn includes_copy_cases_of_earlier_keys_and_groups() {
    // BAPCtools' test package `generatorincludes`, whose data bt makes with these paths.
    let plan = read(
        "data:\n  sample:\n    data:\n      '1':\n        in: 1 2\n        ans: '3'\n      '2':\n        in: 1 -3\n\
         \x20 secret:\n    data:\n      - small:\n          data:\n            - positive:\n                data:\n\
         \x20                 - sm-all-pos: stdout.py 4 6\n                include:\n                  - '1'\n\
         \x20           - general:\n                data:\n                  - sm-mixed: stdout.py 4 -6\n\
         \x20               include:\n                  - '1'\n                  - '2'\n      - general:\n\
         \x20         data:\n            - lg: stdout.py 8 -11\n          include:\n            - small\n            - sample\n",
    );
    let included: Vec<(&str, &str)> = plan
        .cases
        .iter()
        .filter_map(|c| match &c.source {
            Source::Included(from) => Some((c.path.as_str(), from.as_str())),
            Source::Rule(_) => None,
        })
        .collect();
    assert_eq!(
        included,
        [
            ("secret/1-small/1-positive/1", "sample/1"),
            ("secret/1-small/2-general/1", "sample/1"),
            ("secret/1-small/2-general/2", "sample/2"),
            (
                "secret/2-general/1-sm-all-pos",
                "secret/1-small/1-positive/1-sm-all-pos"
            ),
            (
                "secret/2-general/2-sm-mixed",
                "secret/1-small/2-general/2-sm-mixed"
            ),
            ("secret/2-general/1", "sample/1"),
            ("secret/2-general/2", "sample/2"),
        ]
    );
    assert!(
        errors("data:\n  sample:\n    include: [nope]\n    data: {}\n")[0]
            .contains("include `nope` names no case or group")
    );
}

#[test]
fn errors_are_located_and_unknown_keys_suggest() {
    let plan =
        read("data:\n  secret:\n    data:\n      a:\n        generate: g\n        retires: 3\n");
    assert_eq!(
        plan.warnings[0].to_string(),
        "generators.yaml:6:9: unknown key `retires` in a case (did you mean `retries`?)"
    );
    let plan = read("data:\n  secert:\n    data: {}\n");
    assert_eq!(
        plan.warnings[0].to_string(),
        "generators.yaml:2:3: `secert` is not a top-level group of data/ (did you mean `secret`?); skipped"
    );
    assert_eq!(
        errors("data:\n  secret:\n    data:\n      a:\n        solution: sub/a.py\n        in: '1'\n")[0],
        "generators.yaml:5:19: solution `sub/a.py` must be a path from the package root starting with `/` (like `/submissions/accepted/a.py`), without arguments"
    );
    assert!(
        errors("data:\n  secret:\n    data:\n      a:\n        ans: '1'\n")[0]
            .starts_with("generators.yaml:4:7: a case needs an input")
    );
    assert!(errors(
        "data:\n  secret:\n    data:\n      a:\n        in: '1'\n        in.download: x\n"
    )[0]
    .contains("for samples only"));
}

#[test]
fn inherited_settings_and_constants() {
    let context = Context {
        interactive_or_multi_pass: false,
        constants: vec![
            ("FIVE".into(), "5".into()),
            ("FIVE.STRING".into(), "five".into()),
        ],
        fixtures: false,
    };
    let plan = read_with(
        "random_salt: s\nretries: 3\ndata:\n  secret:\n    solution:\n    data:\n      a: g {{FIVE}} {{FIVE.STRING}} {{SIX}}\n      b:\n        in: '{{FIVE}}'\n",
        &context,
    );
    let a = rule(&plan.cases[0]);
    let command = a.generate.as_ref().unwrap();
    assert_eq!(command.args, ["5", "five", "{{SIX}}"]);
    assert_eq!(command.seed, seed("s", 1, "g 5 five {{SIX}}"));
    assert_eq!((a.retries, &a.solution), (3, &Solution::Disabled));
    assert_eq!(rule(&plan.cases[1]).inline[0].1, "{{FIVE}}\n");
    assert!(plan.warnings[0].message.contains("{{SIX}}"));
}

#[test]
fn generators_dictionary_and_string_copies() {
    let plan = read(
        "generators:\n  tree: [tree.py, lib.py]\ndata:\n  secret:\n    data:\n      a: manual/a.in\n",
    );
    assert_eq!(
        plan.programs,
        [("tree".into(), vec!["tree.py".into(), "lib.py".into()])]
    );
    assert_eq!(
        rule(&plan.cases[0]).copy.as_deref(),
        Some("generators/manual/a")
    );
}

/// BAPCtools' test package `generatorcount` (its `generators.yaml` as shipped) and the names of
/// the cases `bt generate` (BAPCtools 2026.10.0) wrote for it: counts as ints, lists and ranges,
/// zero padding of consecutive values (sign included), numbering across groups.
const GENERATORCOUNT: &str = r#"solution: /submissions/accepted/thore.py
version: 2026-01  # use this version of the generators framework

data:
  sample:
    data:
      - '': { in: s 1 2}
  secret:
    data:
      - count-lo:
          generate: mygen.py a {count} 0
          count: 1
      - count-hi:
          generate: mygen.py a {count} 2
          count: 1
      - count-intended-duplicate:
          generate: mygen.py a 42 43
          count: 2
      - count-list-10:
          generate: mygen.py 't' {count} 0
          count: [1,2,3,4, 5,6,7,8,9, 10]
      - count-list-neg:
          generate: mygen.py n {count} 2
          count: [-1, 0, 1]
      - count-no-duplicate:
          generate: mygen.py d {count} 3
          count: 1
      - count-no-duplicate:
          generate: mygen.py d {count} 3
          count: [0,2]
      - count-value:
          generate: mygen.py d {count} 1
          count: [0,2]
      - count-range-padding:
          generate: mygen.py r {count} -10
          count: -9..=9
      - count-range-padding:
          generate: mygen.py r {count} 10
          count: -9..=9
      - count-no-padding:
          generate: mygen.py p {count} 999999
          count: [-123456, 0, 1000000]
"#;

const GENERATORCOUNT_BY_BT: &str = "sample/01 secret/02-count-lo-1 secret/03-count-hi-1 secret/04-count-intended-duplicate-1 secret/05-count-intended-duplicate-2 secret/06-count-list-10-01 secret/07-count-list-10-02 secret/08-count-list-10-03 secret/09-count-list-10-04 secret/10-count-list-10-05 secret/11-count-list-10-06 secret/12-count-list-10-07 secret/13-count-list-10-08 secret/14-count-list-10-09 secret/15-count-list-10-10 secret/16-count-list-neg--1 secret/17-count-list-neg-00 secret/18-count-list-neg-01 secret/19-count-no-duplicate-1 secret/20-count-no-duplicate-0 secret/21-count-no-duplicate-2 secret/22-count-value-0 secret/23-count-value-2 secret/24-count-range-padding--9 secret/25-count-range-padding--8 secret/26-count-range-padding--7 secret/27-count-range-padding--6 secret/28-count-range-padding--5 secret/29-count-range-padding--4 secret/30-count-range-padding--3 secret/31-count-range-padding--2 secret/32-count-range-padding--1 secret/33-count-range-padding-00 secret/34-count-range-padding-01 secret/35-count-range-padding-02 secret/36-count-range-padding-03 secret/37-count-range-padding-04 secret/38-count-range-padding-05 secret/39-count-range-padding-06 secret/40-count-range-padding-07 secret/41-count-range-padding-08 secret/42-count-range-padding-09 secret/43-count-range-padding--9 secret/44-count-range-padding--8 secret/45-count-range-padding--7 secret/46-count-range-padding--6 secret/47-count-range-padding--5 secret/48-count-range-padding--4 secret/49-count-range-padding--3 secret/50-count-range-padding--2 secret/51-count-range-padding--1 secret/52-count-range-padding-00 secret/53-count-range-padding-01 secret/54-count-range-padding-02 secret/55-count-range-padding-03 secret/56-count-range-padding-04 secret/57-count-range-padding-05 secret/58-count-range-padding-06 secret/59-count-range-padding-07 secret/60-count-range-padding-08 secret/61-count-range-padding-09 secret/62-count-no-padding--123456 secret/63-count-no-padding-0 secret/64-count-no-padding-1000000";

#[test]
fn counted_names_are_those_bt_generate_gives() {
    let plan = read(GENERATORCOUNT);
    assert_eq!(paths(&plan).join(" "), GENERATORCOUNT_BY_BT);
}

#[test]
fn a_fixtures_plan_takes_any_group_at_the_top_in_order_of_name() {
    let text = "data:\n  random:\n    data:\n      r1: gen --seed 1\n  large:\n    data:\n      l1: gen --seed 2\n  sample-3: gen --seed 3\n";
    let fixtures = Context {
        fixtures: true,
        ..Context::default()
    };
    let plan = read_with(text, &fixtures);
    assert_eq!(paths(&plan), ["large/l1", "random/r1", "sample-3"]);
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
    // A package's data/ holds only the format's groups: the others are skipped, said so.
    let package = read(text);
    assert!(paths(&package).is_empty());
    assert!(package.warnings[0]
        .message
        .contains("not a top-level group"));
}

#[test]
fn a_misspelt_input_key_is_the_one_error_of_its_case_said_once() {
    // Counted: one rule, so one error however many cases it makes, at the misspelt key.
    let text = "data:\n  secret:\n    data:\n      a:\n        generat: g {seed}\n        count: 5\n        junk: 1\n";
    assert_eq!(
        errors(text),
        ["generators.yaml:5:9: unknown key `generat` in a case (did you mean `generate`?): the case has no input (`generate`, `copy` or `in`)"]
    );
    // Without `count:` the map is a group: its key is still named, with what it would make it.
    let plan = read("data:\n  secret:\n    data:\n      a:\n        generat: g\n");
    assert_eq!(
        plan.warnings[0].to_string(),
        "generators.yaml:5:9: unknown key `generat` in group `secret/a` (did you mean `generate`, which would make `secret/a` a case?)"
    );
    // A counted rule's warnings are said once too.
    let plan = read("data:\n  secret:\n    data:\n      a:\n        generate: g {seed}\n        count: 3\n        retires: 2\n");
    assert_eq!(plan.cases.len(), 3);
    let warnings: Vec<String> = plan.warnings.iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        ["generators.yaml:7:9: unknown key `retires` in a case (did you mean `retries`?)"]
    );
}

#[test]
fn the_programs_a_plan_names_are_kept_where_first_named() {
    let plan = read("solution: /submissions/accepted/a.py\ndata:\n  secret:\n    data:\n      a:\n        generate: g.py {seed}\n        count: 2\n      b: g.py 3\n");
    let named: Vec<(NamedProgram, usize, usize)> = plan
        .named
        .iter()
        .map(|n| (n.program.clone(), n.line, n.column))
        .collect();
    assert_eq!(
        named,
        [
            (
                NamedProgram::Solution("submissions/accepted/a.py".into()),
                1,
                11
            ),
            (NamedProgram::Generator("g.py".into()), 6, 19),
        ]
    );
}
