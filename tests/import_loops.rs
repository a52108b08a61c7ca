//! No file-level import loops in the shader bytecode, interpreter and recorder modules: a file that names an item of
//! another file (by a `crate::`, `super::` or `self::` path, in a `use` tree or inline) depends on it, and no two
//! files of `src/dxbc`, `src/shader`, `src/text.rs` or `recorder/src` may depend on each other, directly or round a
//! longer loop. A path through a `pub use` re-export counts as naming the file that defines the item, so a parent
//! module that only re-exports its children adds no edge.
//!
//! The reading is lexical, not a compiler's: comments and string literals are dropped, inline `mod name { ... }`
//! blocks shift what `super::` means, and a path is resolved to the longest prefix that names a file.

// A test reading the project's own sources: a panic is a failed test.
#![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::arithmetic_side_effects)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module path below its crate's root (`["dxbc", "container"]`).
type Module = Vec<String>;

/// One crate's source files, read.
struct Crate {
    /// Each file's module path and text (comments and literals dropped).
    files: BTreeMap<Module, (PathBuf, String)>,
}

/// `text` without comments, and with every string and character literal emptied.
fn strip(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = at(i);
        let ident_before = i > 0 && (at(i - 1).is_alphanumeric() || at(i - 1) == '_');
        if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && at(i) != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            let mut depth = 1;
            i += 2;
            while i < chars.len() && depth > 0 {
                if at(i) == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if at(i) == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                } else {
                    i += 1;
                }
            }
        } else if c == 'r' && !ident_before && (at(i + 1) == '"' || (at(i + 1) == '#' && at(i + 2) != '[')) {
            let mut hashes = 0;
            let mut j = i + 1;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) != '"' {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if at(j) == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && at(i) != '"' {
                i += if at(i) == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (at(i + 2) == '\'' || at(i + 1) == '\\') {
            // A character literal (a lifetime has no closing quote two characters on).
            let mut j = i + 1;
            if at(j) == '\\' {
                j += 2;
            } else {
                j += 1;
            }
            while j < chars.len() && at(j) != '\'' && j < i + 12 {
                j += 1;
            }
            out.push_str("' '");
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// The leaves of a `use` tree (`a::{b, c::{d as e, f}}` → `a::b`, `a::c::d`, `a::c::f`).
fn expand(tree: &str) -> Vec<String> {
    let words: Vec<&str> = tree.split_whitespace().collect();
    let mut cleaned = String::new();
    let mut skip = false;
    for (n, word) in words.iter().enumerate() {
        if skip {
            skip = false;
            // The alias may carry the separator that followed it.
            cleaned.push_str(word.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_'));
            continue;
        }
        if *word == "as" && n > 0 {
            skip = true;
            continue;
        }
        cleaned.push_str(word);
    }
    let mut leaves = Vec::new();
    expand_into(&cleaned, "", &mut leaves);
    leaves
}

fn expand_into(tree: &str, prefix: &str, leaves: &mut Vec<String>) {
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in tree.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&tree[start..]);
    for part in parts.into_iter().filter(|p| !p.is_empty()) {
        let joined = |tail: &str| {
            if prefix.is_empty() {
                tail.to_owned()
            } else {
                format!("{prefix}::{tail}")
            }
        };
        match (part.find('{'), part.rfind('}')) {
            (Some(open), Some(close)) => {
                let head = part[..open].trim_end_matches(':');
                let inner_prefix = if head.is_empty() {
                    prefix.to_owned()
                } else {
                    joined(head)
                };
                expand_into(&part[open + 1..close], &inner_prefix, leaves);
            }
            _ => leaves.push(joined(part)),
        }
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every path a file names, with where it is and whether it is a `pub use` re-export.
fn references(text: &str) -> Vec<(usize, String, bool)> {
    let mut found = Vec::new();
    let char_at = |i: usize| text.as_bytes().get(i).map_or('\0', |&b| char::from(b));
    let string = text;
    // `use` trees.
    let mut from = 0;
    while let Some(offset) = string[from..].find("use ") {
        let start = from + offset;
        from = start + 4;
        let before = string[..start].chars().next_back().unwrap_or(' ');
        if is_ident(before) {
            continue;
        }
        let Some(end) = string[start..].find(';') else { break };
        let tree = &string[start + 4..start + end];
        let head = string[..start].trim_end();
        let public = head.ends_with("pub") || head.ends_with(')') && head.contains("pub(");
        for leaf in expand(tree) {
            found.push((start, leaf, public));
        }
    }
    // Inline paths.
    for keyword in ["crate::", "super::", "self::"] {
        let mut from = 0;
        while let Some(offset) = string[from..].find(keyword) {
            let start = from + offset;
            from = start + keyword.len();
            let before = string[..start].chars().next_back().unwrap_or(' ');
            if is_ident(before) || before == ':' {
                continue;
            }
            let mut end = start;
            loop {
                let mut j = end;
                while is_ident(char_at(j)) {
                    j += 1;
                }
                end = j;
                if char_at(end) == ':' && char_at(end + 1) == ':' && is_ident(char_at(end + 2)) {
                    end += 2;
                } else {
                    break;
                }
            }
            found.push((start, string[start..end].to_owned(), false));
        }
    }
    found
}

/// The inline modules of a file: where each `mod name {` block starts and ends, and its name.
fn inline_modules(text: &str) -> Vec<(usize, usize, String)> {
    let string = text;
    let mut spans = Vec::new();
    let mut from = 0;
    while let Some(offset) = string[from..].find("mod ") {
        let start = from + offset;
        from = start + 4;
        if string[..start].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let rest = &string[start + 4..];
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        let after = rest[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = start + 4 + name.len() + (rest.len() - name.len() - after.len());
        let mut depth = 0;
        let mut end = open;
        for (i, c) in string.bytes().enumerate().skip(open) {
            match c {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = i;
                        break;
                    }
                }
                _ => {}
            }
        }
        spans.push((start, end, name));
    }
    spans
}

impl Crate {
    /// Reads every `.rs` file under `root` (the directory of the crate's `lib.rs`), `main.rs` aside.
    fn read(root: &Path) -> Self {
        let mut files = BTreeMap::new();
        let mut dirs = vec![root.to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") && path != root.join("main.rs") {
                    let relative = path.strip_prefix(root).unwrap().with_extension("");
                    let mut module: Module = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                    if module.last().is_some_and(|l| l == "mod" || l == "lib") {
                        module.pop();
                    }
                    let text = strip(&std::fs::read_to_string(&path).unwrap());
                    files.insert(module, (path, text));
                }
            }
        }
        Self { files }
    }

    /// The absolute module path `path` names from position `at` of `file`, for `crate::`/`super::`/`self::` paths.
    fn absolute(&self, file: &Module, at: usize, path: &str) -> Option<Module> {
        let mut current = file.clone();
        let text = &self.files.get(file)?.1;
        for (start, end, name) in inline_modules(text) {
            if start <= at && at < end {
                current.push(name);
            }
        }
        let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        match segments.first().copied() {
            Some("crate") => Some(segments.drain(1..).map(str::to_owned).collect()),
            Some("super" | "self") => {
                while let Some(&first) = segments.first() {
                    match first {
                        "super" => {
                            current.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    segments.remove(0);
                }
                current.extend(segments.into_iter().map(str::to_owned));
                Some(current)
            }
            _ => None,
        }
    }

    /// The names a file defines itself.
    fn defines(&self, file: &Module, name: &str) -> bool {
        let text = &self.files[file].1;
        [
            "fn ",
            "struct ",
            "enum ",
            "trait ",
            "type ",
            "const ",
            "static ",
            "mod ",
            "macro_rules! ",
        ]
        .iter()
        .any(|kind| {
            text.match_indices(&format!("{kind}{name}"))
                .any(|(i, _)| !text[i + kind.len() + name.len()..].starts_with(is_ident))
        })
    }

    /// The file an absolute path leads to, through re-exports.
    fn resolve(
        &self,
        path: &[String],
        reexports: &BTreeMap<Module, BTreeMap<String, Module>>,
        depth: u32,
    ) -> Option<Module> {
        let path: Vec<String> = path.iter().filter(|s| *s != "*").cloned().collect();
        for k in (0..=path.len()).rev() {
            let prefix = path[..k].to_vec();
            if self.files.contains_key(&prefix) {
                if let Some(next) = path.get(k)
                    && depth < 8
                    && !self.defines(&prefix, next)
                    && let Some(target) = reexports.get(&prefix).and_then(|r| r.get(next))
                {
                    return self.resolve(target, reexports, depth + 1);
                }
                return Some(prefix);
            }
        }
        None
    }

    /// Each file's dependencies on the crate's other files.
    fn edges(&self) -> BTreeMap<Module, BTreeSet<Module>> {
        let mut reexports: BTreeMap<Module, BTreeMap<String, Module>> = BTreeMap::new();
        let mut refs = BTreeMap::new();
        for (module, (_, text)) in &self.files {
            let found = references(text);
            for (at, path, public) in &found {
                if *public
                    && let Some(absolute) = self.absolute(module, *at, path)
                    && let Some(last) = absolute.last()
                {
                    reexports
                        .entry(module.clone())
                        .or_default()
                        .insert(last.clone(), absolute.clone());
                }
            }
            refs.insert(module.clone(), found);
        }
        let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
        for (module, found) in refs {
            let out = edges.entry(module.clone()).or_default();
            for (at, path, _) in found {
                if let Some(absolute) = self.absolute(&module, at, &path)
                    && let Some(target) = self.resolve(&absolute, &reexports, 0)
                    && target != module
                {
                    out.insert(target);
                }
            }
        }
        edges
    }

    /// The loops among the files under `within`: each set of files that depend on each other, with the edges.
    fn loops(&self, within: &[&str]) -> Vec<String> {
        let edges = self.edges();
        let reach = |from: &Module| {
            let mut seen = BTreeSet::new();
            let mut stack = vec![from.clone()];
            while let Some(m) = stack.pop() {
                for next in edges.get(&m).into_iter().flatten() {
                    if seen.insert(next.clone()) {
                        stack.push(next.clone());
                    }
                }
            }
            seen
        };
        let reachable: BTreeMap<&Module, BTreeSet<Module>> = self.files.keys().map(|m| (m, reach(m))).collect();
        let name = |m: &Module| self.files[m].0.display().to_string();
        let mut loops = BTreeSet::new();
        for (module, reached) in &reachable {
            if !within.iter().any(|w| name(module).contains(w)) || !reached.contains(*module) {
                continue;
            }
            let members: BTreeSet<String> = reached
                .iter()
                .filter(|other| reachable[other].contains(*module))
                .map(name)
                .collect();
            loops.insert(members.into_iter().collect::<Vec<_>>().join(" <-> "));
        }
        loops.into_iter().collect()
    }
}

#[test]
fn the_bytecode_and_interpreter_files_import_each_other_in_one_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = Crate::read(&root.join("src"));
    let loops = library.loops(&["src/dxbc/", "src/shader/", "src/text.rs"]);
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

#[test]
fn the_recorder_files_import_each_other_in_one_direction() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let recorder = Crate::read(&root.join("recorder/src"));
    let loops = recorder.loops(&["recorder/src/"]);
    assert!(loops.is_empty(), "import loops:\n{}", loops.join("\n"));
}

#[test]
fn a_pair_of_files_naming_each_other_is_a_loop() {
    // The check itself, on a crate written here: a.rs and b.rs name each other, c.rs only names a.rs.
    let dir = std::env::temp_dir().join(format!("iridia-import-loops-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.rs"), "mod a;\nmod b;\nmod c;\npub use a::A;\n").unwrap();
    std::fs::write(
        dir.join("a.rs"),
        "use crate::b::B; // crate::c::C in a comment\npub struct A;\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("b.rs"),
        "pub struct B;\nfn f() -> super::a::A { let _ = \"crate::c::C\"; super::a::A }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("c.rs"),
        "use crate::{A as Named, b::{self, B}};\npub struct C;\n#[cfg(test)]\nmod tests {\n    use super::*;\n}\n",
    )
    .unwrap();
    let loops = Crate::read(&dir).loops(&[""]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(loops.len(), 1, "{loops:?}");
    assert!(
        loops[0].ends_with("a.rs <-> ") || loops[0].contains("a.rs <-> "),
        "{loops:?}"
    );
    assert!(loops[0].ends_with("b.rs"), "{loops:?}");
    assert!(!loops[0].contains("c.rs"), "{loops:?}");
}
