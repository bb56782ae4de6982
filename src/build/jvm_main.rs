//! Which class of a JVM build a program starts from, found as DOMjudge finds it: after the
//! compiler ran, among the classes it wrote, the one that declares `public static void
//! main(String[])`. A submission `test-hello.java` whose class is `Hello` runs as `Hello`, as
//! its file name cannot say. The class files are the compiler's output from untrusted sources,
//! so reading them is bounded: their number, each one's size, and the parse never reads past
//! the bytes it holds. Where several classes hold `main`, the language's default class
//! (`Main`, `MainKt`) and then the class the program's file name gives (problemtools' rule)
//! decide; otherwise the build fails, naming them.

use std::path::Path;

use super::cache::CacheError;
use super::error::BuildError;

/// The file in a JVM build naming the class it starts from (one line, the class's binary name).
pub(super) const CLASS_FILE: &str = "grundy-main-class";

/// At most this many class files are looked at, each at most this large (a class file's
/// constant pool holds at most 65,535 entries of at most 64 KiB each; real ones are far smaller).
const MAX_CLASSES: usize = 10_000;
const MAX_CLASS_BYTES: u64 = 16 << 20;

/// Finds the class to start in the build folder `build` (`preferred`: the names that win where
/// several hold `main`, first first), writes it into [`CLASS_FILE`] there, and returns it.
pub(super) fn find(build: &Path, preferred: &[String]) -> Result<String, BuildError> {
    let mut classes = vec![];
    let mut seen = 0;
    walk(build, build, 0, &mut seen, &mut classes)?;
    classes.sort();
    let chosen = match &classes[..] {
        [] => {
            return Err(BuildError::Failed(
                "the build exited 0, but no class declares `public static void main(String[])`"
                    .into(),
            ))
        }
        [one] => one.clone(),
        several => match preferred.iter().find(|p| several.contains(p)) {
            Some(class) => class.clone(),
            None => {
                return Err(BuildError::Failed(format!(
                    "several classes declare `public static void main(String[])` ({}); name \
                     the one to start with `entrypoint` in submissions.yaml",
                    several.join(", ")
                )))
            }
        },
    };
    let path = build.join(CLASS_FILE);
    std::fs::write(&path, format!("{chosen}\n"))
        .map_err(|e| CacheError::new("write the main class into", &path, e))?;
    Ok(chosen)
}

/// The class a published build starts from, as [`find`] wrote it.
pub(super) fn recorded(build: &Path) -> Result<String, BuildError> {
    let path = build.join(CLASS_FILE);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CacheError::new("read the main class from", &path, e))?;
    Ok(text.trim_end().to_string())
}

/// Adds to `classes` the binary names (`pkg.Main`) of the class files below `folder` that hold
/// a `main`; `seen` counts the class files read, links are not followed.
fn walk(
    root: &Path,
    folder: &Path,
    depth: usize,
    seen: &mut usize,
    classes: &mut Vec<String>,
) -> Result<(), BuildError> {
    let entries =
        std::fs::read_dir(folder).map_err(|e| CacheError::new("list the build in", folder, e))?;
    for entry in entries {
        let entry = entry.map_err(|e| CacheError::new("list the build in", folder, e))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| CacheError::new("look at", &path, e))?;
        if kind.is_dir() && depth < 64 {
            walk(root, &path, depth + 1, seen, classes)?;
        } else if kind.is_file() && path.extension().is_some_and(|e| e == "class") {
            *seen += 1;
            if *seen > MAX_CLASSES {
                return Err(BuildError::Failed(format!(
                    "the build made more than {MAX_CLASSES} class files"
                )));
            }
            let bytes = read_bounded(&path)?;
            if has_main(&bytes) {
                let relative = path.strip_prefix(root).unwrap_or(&path).with_extension("");
                let name = relative.to_string_lossy().replace('/', ".");
                classes.push(name);
            }
        }
    }
    Ok(())
}

fn read_bounded(path: &Path) -> Result<Vec<u8>, BuildError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| CacheError::new("read", path, e))?;
    let mut bytes = vec![];
    file.take(MAX_CLASS_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CacheError::new("read", path, e))?;
    if bytes.len() as u64 > MAX_CLASS_BYTES {
        return Err(BuildError::Failed(format!(
            "the class file `{}` is larger than {} MiB",
            path.display(),
            MAX_CLASS_BYTES >> 20
        )));
    }
    Ok(bytes)
}

const ACC_PUBLIC: u16 = 0x0001;
const ACC_STATIC: u16 = 0x0008;

/// Whether the class file `bytes` declares `public static void main(String[])`; a file that is
/// not a well-formed class file declares nothing.
pub(super) fn has_main(bytes: &[u8]) -> bool {
    parse(bytes).unwrap_or(false)
}

/// A cursor over a class file's bytes: every read is checked against the end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        let taken = self.bytes.get(self.at..end)?;
        self.at = end;
        Some(taken)
    }

    fn u16(&mut self) -> Option<u16> {
        self.take(2).map(|b| u16::from_be_bytes([b[0], b[1]]))
    }

    fn u32(&mut self) -> Option<u32> {
        self.take(4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// Skips a table of attributes (each a name index, a length and that many bytes).
    fn skip_attributes(&mut self) -> Option<()> {
        for _ in 0..self.u16()? {
            self.u16()?;
            let length = self.u32()?;
            self.take(usize::try_from(length).ok()?)?;
        }
        Some(())
    }
}

/// The class file format (JVMS chapter 4): the constant pool is read for its UTF-8 entries
/// alone (every other kind is skipped by its size), then the fields are skipped, and each
/// method's flags, name and descriptor are looked at.
fn parse(bytes: &[u8]) -> Option<bool> {
    let mut r = Reader { bytes, at: 0 };
    if r.u32()? != 0xCAFE_BABE {
        return None;
    }
    r.take(4)?; // minor and major version
    let count = r.u16()?;
    // Index i (1-based) holds the UTF-8 text of entry i, if it is one.
    let mut utf8: Vec<Option<&[u8]>> = vec![None; usize::from(count)];
    let mut index = 1;
    while index < usize::from(count) {
        let tag = r.take(1)?[0];
        let size = match tag {
            1 => {
                let length = r.u16()?;
                utf8[index] = Some(r.take(usize::from(length))?);
                0
            }
            7 | 8 | 16 | 19 | 20 => 2,
            15 => 3,
            3 | 4 | 9 | 10 | 11 | 12 | 17 | 18 => 4,
            5 | 6 => 8,
            _ => return None,
        };
        r.take(size)?;
        // A long or a double takes two entries.
        index += if matches!(tag, 5 | 6) { 2 } else { 1 };
    }
    let text = |i: u16| utf8.get(usize::from(i)).copied().flatten();
    r.take(6)?; // access flags, this class, super class
    let interfaces = r.u16()?;
    r.take(usize::from(interfaces) * 2)?;
    for _ in 0..r.u16()? {
        r.take(6)?;
        r.skip_attributes()?;
    }
    for _ in 0..r.u16()? {
        let flags = r.u16()?;
        let (name, descriptor) = (r.u16()?, r.u16()?);
        r.skip_attributes()?;
        let public_static = flags & (ACC_PUBLIC | ACC_STATIC) == ACC_PUBLIC | ACC_STATIC;
        if public_static
            && text(name) == Some(b"main")
            && text(descriptor) == Some(b"([Ljava/lang/String;)V")
        {
            return Some(true);
        }
    }
    Some(false)
}

#[cfg(test)]
#[path = "jvm_main_tests.rs"]
mod tests;
