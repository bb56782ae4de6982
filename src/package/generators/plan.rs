//! What a `generators.yaml` says, as data: the [`Plan`] (every group with its `test_group.yaml`,
//! every case with where its files come from: a [`Rule`] with its generator [`Command`] and seed,
//! a copied file, inline text, links, or an included case), the [`Context`] it is read in, the
//! names and extensions the format fixes, and `bt`'s seeds ([`seed`]). Reading the file into it
//! is the other parts' of [`super`].

use sha2::{Digest, Sha512};

use crate::package::yaml::Diagnostic;

/// The folder of a package holding its generators and `generators.yaml`.
pub const FOLDER: &str = "generators";
/// The file, below [`FOLDER`].
pub const FILE: &str = "generators.yaml";
/// The most bytes of `generators.yaml` grundy reads: real ones are tens of KiB.
pub const GENERATORS_YAML_BYTES: u64 = 4 << 20;

/// The extensions a case's files may have, as `bt generate` knows them, in the order it handles
/// them (without the dot): the judged files, the sample-only overrides, the rest.
pub const TEXT_EXTENSIONS: [&str; 9] = [
    "in",
    "ans",
    "out",
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
    "interaction",
    "yaml",
];
/// Image extensions a visualizer or a `copy:` may bring along.
pub const IMAGE_EXTENSIONS: [&str; 4] = ["png", "jpg", "svg", "pdf"];
/// The extensions only a sample may have.
pub const SAMPLE_ONLY: [&str; 4] = [
    "in.statement",
    "ans.statement",
    "in.download",
    "ans.download",
];
/// The top-level groups `data:` may hold, in the order they are generated.
pub const ROOT_GROUPS: [&str; 8] = [
    "sample",
    "secret",
    "invalid_output",
    "invalid_answer",
    "invalid_input",
    "valid_output",
    "testing_tool_test",
    "fuzz",
];

/// What the package tells the reading about itself.
#[derive(Clone, Debug, Default)]
pub struct Context {
    /// Interactive or multi-pass: samples may be given by `.interaction`, and no solution writes
    /// a `.ans` (it is left empty).
    pub interactive_or_multi_pass: bool,
    /// `problem.yaml`'s `constants`, as `{{name}}` (and `{{name.field}}`) in `generate:` commands
    /// name them.
    pub constants: Vec<(String, String)>,
    /// A built-in problem's `fixtures/<problem>/generators.yaml` rather than a package's: the
    /// top of `data:` is the problem's fixtures folder, whose groups have any name (`random`,
    /// `large`), taken in order of name like the groups below them.
    pub fixtures: bool,
}

/// A whole `generators.yaml`, read.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    /// `generators:`: a generator's name and the files (below `generators/`) it is built from,
    /// the first giving its entry point.
    pub programs: Vec<(String, Vec<String>)>,
    /// Every group, parents before children, in generation order (the root, `""`, first).
    pub groups: Vec<Group>,
    /// Every case, in generation order; included ones after the cases of the plan's groups.
    pub cases: Vec<Case>,
    /// Everything worth telling that did not stop the reading, located.
    pub warnings: Vec<Diagnostic>,
    /// Each program the file names, where it first names it: what `generation` checks the
    /// package has, before anything is made.
    pub named: Vec<Named>,
}

/// A program `generators.yaml` names, and where it first does (line and column, 1-based).
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    pub program: NamedProgram,
    pub line: usize,
    pub column: usize,
}

/// A generator or a solution, as a case's rule names it.
#[derive(Clone, Debug, PartialEq)]
pub enum NamedProgram {
    /// A `generate:` command's program, as written.
    Generator(String),
    /// A `solution:`, its path from the package root (without the leading `/`).
    Solution(String),
}

/// A group of `data/`.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Below `data/`, `/`-separated; `""` for `data/` itself.
    pub path: String,
    pub test_group_yaml: GroupYaml,
}

/// What becomes of a group's `test_group.yaml`.
#[derive(Clone, Debug, PartialEq)]
pub enum GroupYaml {
    /// Not mentioned: a file already there is left alone.
    Unset,
    /// Set to nothing: a file already there is removed.
    Remove,
    /// Written with this text.
    Write(String),
}

/// One case of `data/`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// Below `data/`, without extension: `secret/03-random-1`.
    pub path: String,
    /// Where it is described in `generators.yaml` (the rule of an included case).
    pub line: usize,
    pub column: usize,
    pub source: Source,
}

impl Case {
    /// The top-level group it is in (`sample`, `secret`, `invalid_input`...).
    pub fn root(&self) -> &str {
        self.path.split('/').next().unwrap_or_default()
    }
}

/// Where a case's files come from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Rule(Box<Rule>),
    /// The same files as the case at this path (below `data/`), made by its rule.
    Included(String),
}

/// How one case is made: the steps run in this order (generator, copy, inline text, links),
/// each later one overwriting what an earlier one wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub generate: Option<Command>,
    /// `copy:`: a path from the package root without extension (`generators/manual/3`), whose
    /// every known extension is copied.
    pub copy: Option<String>,
    /// Inline files: an extension of [`TEXT_EXTENSIONS`] and its text (ending in a newline
    /// unless empty).
    pub inline: Vec<(String, String)>,
    /// `{link: in}`: a sample's file (`in.download`) with the same content as another of its
    /// files (`in`).
    pub links: Vec<(String, String)>,
    /// Who writes the `.ans` a rule does not.
    pub solution: Solution,
    /// Attempts of the generator, each with the next seed.
    pub retries: u32,
    /// `match:`: patterns the case's `.in` (or `.ans`) should match; a miss is a warning.
    pub matches: Vec<Match>,
}

/// The program writing a case's `.ans`.
#[derive(Clone, Debug, PartialEq)]
pub enum Solution {
    /// None given anywhere: an accepted submission is picked (with a warning).
    Default,
    /// A path from the package root (`submissions/accepted/a.py`).
    Given(String),
    /// `solution:` set to nothing: no `.ans` is written by a program.
    Disabled,
}

/// A pattern of `match:`, in Python's regex syntax as `bt` reads it.
#[derive(Clone, Debug, PartialEq)]
pub struct Match {
    /// `in` or `ans`.
    pub extension: String,
    pub pattern: String,
    pub line: usize,
    pub column: usize,
}

/// A `generate:` command.
#[derive(Clone, Debug, PartialEq)]
pub struct Command {
    /// As written, `{count}` and `{{constants}}` replaced, leading and trailing space removed:
    /// what the seed is derived from and what messages show.
    pub text: String,
    /// The generator: a file or folder below `generators/`, or a name of `generators:`.
    pub program: String,
    /// The arguments, still holding `{name}` and `{seed}`.
    pub args: Vec<String>,
    /// The seed `{seed}` stands for (on the first attempt).
    pub seed: u32,
    pub uses_seed: bool,
}

impl Command {
    /// The arguments of attempt `retry` (0 first): `{name}` as `name` (the case's files are
    /// `<name>.<ext>` in the generator's folder), `{seed}` and `{seed:N}` as the seed plus
    /// `retry`, modulo 2³¹.
    pub fn arguments(&self, name: &str, retry: u32) -> Vec<String> {
        let seed = ((u64::from(self.seed) + u64::from(retry)) % (1 << 31)).to_string();
        self.args
            .iter()
            .map(|arg| {
                let arg = arg.replace("{name}", name);
                match seed_span(&arg) {
                    Some((start, end)) => format!("{}{seed}{}", &arg[..start], &arg[end..]),
                    None => arg,
                }
            })
            .collect()
    }

    /// The command as its cache key needs it: the text with the seed in place of `{seed}`.
    pub fn keyed_text(&self) -> String {
        match seed_span(&self.text) {
            Some((start, end)) if self.uses_seed => {
                format!("{}{}{}", &self.text[..start], self.seed, &self.text[end..])
            }
            _ => self.text.clone(),
        }
    }
}

/// Where `{seed}` or `{seed:DIGITS}` is in `text`, the first one.
pub fn seed_span(text: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(found) = text[from..].find("{seed") {
        let start = from + found;
        let rest = &text[start + 5..];
        if let Some(after) = rest.strip_prefix('}') {
            return Some((start, text.len() - after.len()));
        }
        if let Some(digits) = rest.strip_prefix(':') {
            let n = digits.bytes().take_while(u8::is_ascii_digit).count();
            if n > 0 && digits[n..].starts_with('}') {
                return Some((start, start + 5 + 1 + n + 1));
            }
        }
        from = start + 5;
    }
    None
}

/// How many `{seed}`/`{seed:N}` `text` holds.
pub fn seed_count(text: &str) -> usize {
    let mut count = 0;
    let mut rest = text;
    while let Some((_, end)) = seed_span(rest) {
        count += 1;
        rest = &rest[end..];
    }
    count
}

/// The seed of a command, as `bt generate` derives it: SHA-512 of the salt, then `:<count - 1>`
/// when the case is the `count` value other than 1 of a counted rule, then the command; the
/// digest read as a number, modulo 2³¹.
pub fn seed(salt: &str, count_value: i64, command: &str) -> u32 {
    let mut text = salt.to_string();
    if count_value != 1 {
        text.push_str(&format!(":{}", count_value - 1));
    }
    text.push_str(command.trim());
    let digest = Sha512::digest(text.as_bytes());
    // 2³¹ divides 16¹²⁸, so the number modulo 2³¹ is its last 31 bits.
    let tail = [digest[60], digest[61], digest[62], digest[63]];
    u32::from_be_bytes(tail) & 0x7fff_ffff
}
