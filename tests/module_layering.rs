//! The source tree's layering, checked from the files themselves: no import loop between files of `src/` (or of
//! `recorder/src/`), and no module of a lower pipeline stage importing one of a higher stage (`docs/architecture.md`,
//! "Layers", explains the order).
//!
//! Every `.rs` file is read with its comments, doc comments and string literals blanked out. An import is a `use`
//! declaration's path or a path in code that starts with `crate::`, `super::`, `self::`, a child module's name or, from
//! the command line and the recorder, `iridia::`. It is resolved down the module tree (the files, and `mod x { ... }`
//! blocks inside a file) to the deepest module it names: the file holding that module is the one imported. A path
//! that ends at an item of a `mod.rs` depends on that `mod.rs` and, when the `mod.rs` re-exports the item, on the file
//! that defines it too. A module's `pub use` of its own descendants is its table of contents, not an import, and
//! `mod child;` is not one either.

// A test reading the project's own sources: a panic is a failed test.
#![allow(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::panic
)]

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The stages, lowest first; modules on one line are of the same stage and may import each other (the cycle check
/// still applies between their files). A module of the library or of the command line not listed here fails the test.
/// `compare` needs only `format`, and a draw hands its targets out as `compare::Image`s, so it sits below `draw`. The
/// tessellator needs nothing but errors, and a hull program declares its state in the tessellator's terms, so it sits
/// below `shader`.
/// Unit-test files (`#[cfg(test)] mod tests;` and what they declare) may import any stage.
const STAGES: &[&[&str]] = &[
    &["error", "text", "api", "format"],
    &["dxbc"],
    &["tessellator"],
    &["shader"],
    &["input_assembler"],
    &["raster"],
    &["output_merger"],
    &["compare"],
    &["draw", "dispatch"],
    &["description", "capture"],
    &["replay"],
    &["inspect"],
    &["viewer_api"],
    &["cli", "wasm"],
];

/// A crate: where its root file is and which files are its modules.
struct Crate {
    /// `iridia`, `iridia (bin)` or `iridia_recorder`.
    name: &'static str,
    /// The root file (`src/lib.rs`), relative to the workspace.
    root: PathBuf,
    /// Module path (without `crate`) to its file, relative to the workspace.
    modules: BTreeMap<Vec<String>, PathBuf>,
    /// The files compiled only for the crate's unit tests (`#[cfg(test)] mod x;` and below).
    test_only: BTreeSet<PathBuf>,
}

impl Crate {
    /// The crate rooted at `root` (a `lib.rs` or `main.rs`), its modules found by following `mod x;` declarations
    /// from the root, as the compiler does (so `src/main.rs` owns `src/cli/`, `src/lib.rs` the rest).
    fn new(workspace: &Path, name: &'static str, root: &str) -> Crate {
        let mut modules = BTreeMap::new();
        let root = PathBuf::from(root);
        let mut test_only = BTreeSet::new();
        let mut pending = vec![(Vec::new(), root.clone(), false)];
        while let Some((path, file, test)) = pending.pop() {
            if test {
                test_only.insert(file.clone());
            }
            let text = blank(&read(&workspace.join(&file)));
            let tokens = tokenize(&text);
            // the folder a child module's file is in: `a/` for `a/mod.rs`, `lib.rs`, `main.rs`; `a/b/` for `a/b.rs`
            let stem = file.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
            let folder = if matches!(stem, "mod" | "lib" | "main") {
                file.parent().unwrap_or(Path::new("")).to_path_buf()
            } else {
                file.with_extension("")
            };
            for (inline, child, child_test) in file_modules(&tokens) {
                let mut dir = folder.clone();
                dir.extend(&inline);
                let candidates = [dir.join(format!("{child}.rs")), dir.join(&child).join("mod.rs")];
                let found = candidates.into_iter().find(|c| workspace.join(c).is_file());
                let found = found.unwrap_or_else(|| panic!("{}: no file for `mod {child};`", file.display()));
                let mut child_path = path.clone();
                child_path.extend(inline);
                child_path.push(child);
                pending.push((child_path, found, test || child_test));
            }
            modules.insert(path, file);
        }
        Crate {
            name,
            root,
            modules,
            test_only,
        }
    }
}

/// A file's text.
fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `text` with comments (doc comments too), string and character literals replaced by spaces, newlines kept.
fn blank(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let space = |c: char| if c == '\n' { '\n' } else { ' ' };
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(space(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !prev_is_ident(&chars, i)
            && raw_string_hashes(&chars, if c == 'b' { i + 2 } else { i + 1 }).is_some()
        {
            let start = if c == 'b' { i + 2 } else { i + 1 };
            let hashes = raw_string_hashes(&chars, start).unwrap_or(0);
            let closing: Vec<char> = std::iter::once('"').chain(std::iter::repeat_n('#', hashes)).collect();
            let body = start + hashes + 1;
            while i < body {
                out.push(' ');
                i += 1;
            }
            while i < chars.len() && !chars[i..].starts_with(&closing) {
                out.push(space(chars[i]));
                i += 1;
            }
            for _ in 0..closing.len().min(chars.len() - i) {
                out.push(' ');
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                let skip = if chars[i] == '\\' { 2 } else { 1 };
                for _ in 0..skip.min(chars.len() - i) {
                    out.push(space(chars[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' && char_literal_length(&chars, i).is_some() {
            for _ in 0..char_literal_length(&chars, i).unwrap_or(1) {
                out.push(' ');
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Whether the character before `i` continues an identifier (so an `r` at `i` is not a raw string's).
fn prev_is_ident(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// The number of `#`s of a raw string whose `#`s (or opening quote) start at `start`, if one does.
fn raw_string_hashes(chars: &[char], start: usize) -> Option<usize> {
    let hashes = chars.get(start..)?.iter().take_while(|&&c| c == '#').count();
    (chars.get(start + hashes) == Some(&'"')).then_some(hashes)
}

/// The length of a character literal starting at `i` (`'a'`, `'\n'`, `'\u{1f600}'`), or `None` for a lifetime.
fn char_literal_length(chars: &[char], i: usize) -> Option<usize> {
    if chars.get(i + 1) == Some(&'\\') {
        let end = (i + 2..chars.len().min(i + 12)).find(|&j| chars[j] == '\'')?;
        Some(end - i + 1)
    } else {
        (chars.get(i + 2) == Some(&'\'')).then_some(3)
    }
}

/// A token: an identifier (keywords too) or one punctuation character; `::` is one token.
fn tokenize(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push(chars[start..i].iter().collect());
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            tokens.push("0".into());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            tokens.push("::".into());
            i += 2;
        } else if c.is_whitespace() {
            i += 1;
        } else {
            tokens.push(c.to_string());
            i += 1;
        }
    }
    tokens
}

/// Whether `token` is an identifier.
fn is_ident(token: &str) -> bool {
    token.chars().next().is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The `mod x;` declarations of a file, each with the inline modules (`mod a { ... }`) it is inside and whether it is
/// compiled for tests only (`#[cfg(test)]` before it).
fn file_modules(tokens: &[String]) -> Vec<(Vec<String>, String, bool)> {
    let mut found = Vec::new();
    walk(tokens, |inline, at| {
        if tokens[at] == "mod" && tokens.get(at + 2).is_some_and(|t| t == ";") {
            let start = at.saturating_sub(if at >= 1 && tokens[at - 1] == "pub" { 8 } else { 7 });
            let test = tokens[start..at].concat().starts_with("#[cfg(test)]");
            found.push((inline.to_vec(), tokens[at + 1].clone(), test));
        }
    });
    found
}

/// Calls `visit` with every token's index and the inline modules it is inside.
fn walk(tokens: &[String], mut visit: impl FnMut(&[String], usize)) {
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    for at in 0..tokens.len() {
        let names: Vec<String> = inline.iter().map(|(n, _)| n.clone()).collect();
        visit(&names, at);
        match tokens[at].as_str() {
            "{" => {
                let opens_module = at >= 2 && tokens[at - 2] == "mod" && is_ident(&tokens[at - 1]);
                depth += 1;
                if opens_module {
                    inline.push((tokens[at - 1].clone(), depth));
                }
            }
            "}" => {
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
}

/// One import of a file: the path as written and whether it is a `pub use`.
struct Import {
    path: Vec<String>,
    inline: Vec<String>,
    public: bool,
}

/// The imports of a file: every `use` declaration's paths and every path in code that may name a module.
fn imports(tokens: &[String]) -> Vec<Import> {
    let mut found = Vec::new();
    let mut in_use_until = 0;
    walk(tokens, |inline, at| {
        if at < in_use_until {
            return;
        }
        let token = tokens[at].as_str();
        if token == "use" {
            let public =
                at >= 1 && (tokens[at - 1] == "pub" || (at >= 4 && tokens[at - 1] == ")" && tokens[at - 4] == "pub"));
            let mut paths = Vec::new();
            let end = use_tree(tokens, at + 1, Vec::new(), &mut paths);
            in_use_until = end;
            for path in paths {
                found.push(Import {
                    path,
                    inline: inline.to_vec(),
                    public,
                });
            }
        } else if is_ident(token)
            && tokens.get(at + 1).is_some_and(|t| t == "::")
            && !(at >= 1 && tokens[at - 1] == "::")
        {
            let mut path = vec![token.to_string()];
            let mut i = at + 1;
            while tokens.get(i).is_some_and(|t| t == "::") && tokens.get(i + 1).is_some_and(|t| is_ident(t)) {
                path.push(tokens[i + 1].clone());
                i += 2;
            }
            found.push(Import {
                path,
                inline: inline.to_vec(),
                public: false,
            });
        }
    });
    found
}

/// Reads a use tree starting at `at` below `prefix`, pushing each full path; returns the index past it.
fn use_tree(tokens: &[String], mut at: usize, mut prefix: Vec<String>, paths: &mut Vec<Vec<String>>) -> usize {
    if tokens.get(at).is_some_and(|t| t == "::") {
        at += 1;
    }
    loop {
        match tokens.get(at).map(String::as_str) {
            Some("{") => {
                at += 1;
                loop {
                    match tokens.get(at).map(String::as_str) {
                        Some("}") => return at + 1,
                        Some(",") => at += 1,
                        None => return at,
                        _ => at = use_tree(tokens, at, prefix.clone(), paths),
                    }
                }
            }
            Some("*") => {
                paths.push(prefix);
                return at + 1;
            }
            Some(t) if is_ident(t) => {
                if t != "self" || prefix.is_empty() {
                    prefix.push(t.to_string());
                }
                at += 1;
                if tokens.get(at).is_some_and(|t| t == "::") {
                    at += 1;
                    continue;
                }
                if tokens.get(at).is_some_and(|t| t == "as") {
                    at += 2;
                }
                paths.push(prefix);
                return at;
            }
            _ => {
                if !prefix.is_empty() {
                    paths.push(prefix);
                }
                return at;
            }
        }
    }
}

/// Where a path written in module `module` leads, if it names one of `krate`'s modules or, with `iridia::`, the
/// library's (`library`): the crate, the deepest module it names and the segment after it (an item's name).
fn resolve<'a>(
    krate: &'a Crate,
    library: &'a Crate,
    module: &[String],
    path: &[String],
) -> Option<(&'a Crate, Vec<String>, Option<String>)> {
    let (tree, mut at, rest): (&Crate, Vec<String>, &[String]) = match path.first()?.as_str() {
        "crate" => (krate, Vec::new(), &path[1..]),
        "iridia" if krate.name != "iridia" => (library, Vec::new(), &path[1..]),
        "self" => (krate, module.to_vec(), &path[1..]),
        "super" => {
            let mut at = module.to_vec();
            let mut rest = path;
            while rest.first().is_some_and(|s| s == "super") {
                at.pop()?;
                rest = &rest[1..];
            }
            (krate, at, rest)
        }
        first => {
            // a child module of this one, named without `self::`
            let mut child = module.to_vec();
            child.push(first.to_string());
            if !krate.modules.contains_key(&child) && !has_inline(krate, &child) {
                return None;
            }
            (krate, module.to_vec(), path)
        }
    };
    let mut item = None;
    for segment in rest {
        let mut next = at.clone();
        next.push(segment.clone());
        if tree.modules.contains_key(&next) || has_inline(tree, &next) {
            at = next;
        } else {
            item = Some(segment.clone());
            break;
        }
    }
    Some((tree, at, item))
}

/// Whether `module` is an inline module (`mod x { ... }`) of a file of `krate`.
fn has_inline(krate: &Crate, module: &[String]) -> bool {
    INLINE.with(|inline| inline.borrow().contains(&(krate.name, module.to_vec())))
}

thread_local! {
    /// Every inline module, by crate and module path.
    static INLINE: std::cell::RefCell<BTreeSet<(&'static str, Vec<String>)>> = const {
        std::cell::RefCell::new(BTreeSet::new())
    };
}

/// The file holding `module`: its own, or its nearest ancestor's for an inline module.
fn file_of(krate: &Crate, module: &[String]) -> Option<PathBuf> {
    (0..=module.len())
        .rev()
        .find_map(|n| krate.modules.get(&module[..n]).cloned())
}

/// A file's stage: the index in [`STAGES`] of its top module (`None` for a crate root, for the recorder).
fn stage(krate: &Crate, file: &Path) -> Option<(usize, String)> {
    if krate.name == "iridia_recorder" || file == krate.root {
        return None;
    }
    let top = krate
        .modules
        .iter()
        .find(|(_, f)| f.as_path() == file)
        .and_then(|(m, _)| m.first().cloned())?;
    let index = STAGES.iter().position(|line| line.contains(&top.as_str()));
    let index = index.unwrap_or_else(|| panic!("{}: module `{top}` is in no stage of STAGES", file.display()));
    Some((index, top))
}

/// Every file-level dependency: importing file, imported file, whether through a `pub use`.
fn dependencies(workspace: &Path, crates: &[Crate]) -> BTreeSet<(PathBuf, PathBuf)> {
    let library = &crates[0];
    for krate in crates {
        for (module, file) in &krate.modules {
            let tokens = tokenize(&blank(&read(&workspace.join(file))));
            walk(&tokens, |inline, at| {
                if at + 2 < tokens.len() && tokens[at] == "mod" && tokens[at + 2] == "{" {
                    let mut path = module.clone();
                    path.extend(inline.iter().cloned());
                    path.push(tokens[at + 1].clone());
                    INLINE.with(|set| set.borrow_mut().insert((krate.name, path)));
                }
            });
        }
    }
    // every `pub use` of a module's own file: (crate, module, name) -> (crate, module reached, item)
    type Place<'a> = (&'a Crate, Vec<String>, Option<String>);
    let mut exports: BTreeMap<(&str, Vec<String>, String), Place<'_>> = BTreeMap::new();
    let mut imports_of = Vec::new();
    for krate in crates {
        for (module, file) in &krate.modules {
            let tokens = tokenize(&blank(&read(&workspace.join(file))));
            for import in imports(&tokens) {
                let mut here = module.clone();
                here.extend(import.inline.iter().cloned());
                let Some(place) = resolve(krate, library, &here, &import.path) else {
                    continue;
                };
                if import.public
                    && import.inline.is_empty()
                    && let Some(name) = import.path.last()
                {
                    exports.insert((krate.name, module.clone(), name.clone()), place.clone());
                }
                imports_of.push((krate, file, here, import.public, place));
            }
        }
    }
    let mut edges = BTreeSet::new();
    for (krate, file, here, public, place) in imports_of {
        let (tree, reached, item) = place;
        // a module's `pub use` of its own descendant is its table of contents, not a use
        let own = reached.len() > here.len() && reached.starts_with(&here) && std::ptr::eq(tree, krate);
        if public && own {
            continue;
        }
        let mut targets = vec![file_of(tree, &reached)];
        // through re-exports to the file that defines the item
        let (mut tree, mut reached, mut item) = (tree, reached, item);
        for _ in 0..8 {
            let Some(name) = item.clone() else { break };
            let Some((next_tree, next, next_item)) = exports.get(&(tree.name, reached.clone(), name)).cloned() else {
                break;
            };
            targets.push(file_of(next_tree, &next));
            (tree, reached, item) = (next_tree, next, next_item);
        }
        for target in targets.into_iter().flatten() {
            if &target != file {
                edges.insert((file.clone(), target));
            }
        }
    }
    edges
}

/// The workspace's crates: the library first.
fn crates(workspace: &Path) -> Vec<Crate> {
    vec![
        Crate::new(workspace, "iridia", "src/lib.rs"),
        Crate::new(workspace, "iridia (bin)", "src/main.rs"),
        Crate::new(workspace, "iridia_recorder", "recorder/src/lib.rs"),
    ]
}

/// The strongly connected components of more than one file (Tarjan's algorithm, iteratively).
fn loops(edges: &BTreeSet<(PathBuf, PathBuf)>) -> Vec<Vec<PathBuf>> {
    let nodes: BTreeSet<&PathBuf> = edges.iter().flat_map(|(a, b)| [a, b]).collect();
    let nodes: Vec<&PathBuf> = nodes.into_iter().collect();
    let index_of = |p: &PathBuf| nodes.binary_search(&p).unwrap_or(0);
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (a, b) in edges {
        out[index_of(a)].push(index_of(b));
    }
    let n = nodes.len();
    let (mut index, mut low, mut on_stack) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut components, mut counter) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut call: Vec<(usize, usize)> = vec![(start, 0)];
        index[start] = counter;
        low[start] = counter;
        counter += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut next)) = call.last_mut() {
            if let Some(&w) = out[v].get(*next) {
                *next += 1;
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    call.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut component = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w] = false;
                        component.push(nodes[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if component.len() > 1 {
                        component.sort();
                        components.push(component);
                    }
                }
            }
        }
    }
    components
}

/// A shortest loop through `component`'s first file, as `a -> b -> a`.
fn one_loop(component: &[PathBuf], edges: &BTreeSet<(PathBuf, PathBuf)>) -> String {
    let start = &component[0];
    let mut previous: BTreeMap<&PathBuf, &PathBuf> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for (_, next) in edges.range((at.clone(), PathBuf::new())..).take_while(|(a, _)| a == at) {
            if !component.contains(next) || previous.contains_key(next) {
                continue;
            }
            previous.insert(next, at);
            if next == start {
                let mut path = vec![start];
                let mut back = previous[start];
                while back != start {
                    path.push(back);
                    back = previous[back];
                }
                path.push(start);
                path.reverse();
                return path
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(" -> ");
            }
            queue.push_back(next);
        }
    }
    String::new()
}

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_file_of_src_or_of_the_recorder_imports_itself_through_others() {
    let workspace = workspace();
    let crates = crates(&workspace);
    let edges = dependencies(&workspace, &crates);
    let reported: Vec<String> = loops(&edges)
        .iter()
        .map(|c| {
            let files: Vec<String> = c.iter().map(|f| f.display().to_string()).collect();
            format!(
                "{} files import each other: {}\n  e.g. {}",
                c.len(),
                files.join(", "),
                one_loop(c, &edges)
            )
        })
        .collect();
    assert!(reported.is_empty(), "import loops:\n{}", reported.join("\n"));
}

#[test]
fn no_module_imports_one_of_a_higher_stage() {
    let workspace = workspace();
    let crates = crates(&workspace);
    let edges = dependencies(&workspace, &crates);
    let mut wrong = Vec::new();
    for (from, to) in &edges {
        let of = |file: &Path| crates.iter().find(|k| k.modules.values().any(|f| f == file));
        let (Some(from_crate), Some(to_crate)) = (of(from), of(to)) else {
            continue;
        };
        // a unit test may build its draws with a front door or a higher stage's test kit
        if from_crate.test_only.contains(from) {
            continue;
        }
        if let (Some((low, low_name)), Some((high, high_name))) = (stage(from_crate, from), stage(to_crate, to))
            && low < high
        {
            wrong.push(format!(
                "{} ({low_name}) imports {} ({high_name}), a higher stage",
                from.display(),
                to.display()
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the stage order:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_reader_finds_the_imports_it_is_meant_to() {
    let text = blank(
        "// use crate::a;\n/// crate::b::c\nuse crate::d::{e::{self, F}, g as h, *};\nfn f() { \"crate::x\"; r#\"crate::y\"#; \
         let c = '\"'; super::k::L; }\nmod tests { use super::*; }",
    );
    let found: Vec<(String, Vec<String>)> = imports(&tokenize(&text))
        .into_iter()
        .map(|i| (i.path.join("::"), i.inline))
        .collect();
    let expected: Vec<(String, Vec<String>)> = vec![
        ("crate::d::e".into(), vec![]),
        ("crate::d::e::F".into(), vec![]),
        ("crate::d::g".into(), vec![]),
        ("crate::d".into(), vec![]),
        ("super::k::L".into(), vec![]),
        ("super".into(), vec!["tests".into()]),
    ];
    assert_eq!(found, expected);
}
