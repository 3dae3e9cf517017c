//! The floors the compiler keeps, and the ones it cannot: each crate
//! depends only on the crates below it (types at the ground, chains and
//! store on it, analysis on both, the server on top), nothing below the
//! server knows HTTP (no `riskintel-api`, no dropshot, however far down the
//! dependency graph), and no source file reaches,
//! through `crate::`, `super::` or `use` paths, a file that reaches back
//! to it (no import circle, however long).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Each floor's source root, and the workspace crates it may depend on.
const FLOORS: &[(&str, &str, &[&str])] = &[
    ("riskintel-types", "crates/types", &[]),
    ("riskintel-chains", "crates/chains", &["riskintel-types"]),
    ("riskintel-store", "crates/store", &["riskintel-types"]),
    (
        "riskintel-analysis",
        "crates/analysis",
        &["riskintel-types", "riskintel-chains", "riskintel-store"],
    ),
    ("riskintel-api", "server/api", &["riskintel-types"]),
    (
        "riskintel-server",
        "server",
        &[
            "riskintel-types",
            "riskintel-api",
            "riskintel-chains",
            "riskintel-store",
            "riskintel-analysis",
        ],
    ),
];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[test]
fn each_crate_depends_only_on_the_floors_below_it() {
    for (name, dir, allowed) in FLOORS {
        let manifest = std::fs::read_to_string(workspace().join(dir).join("Cargo.toml")).unwrap();
        let manifest: toml::Table = manifest.parse().unwrap();
        assert_eq!(manifest["package"]["name"].as_str(), Some(*name));
        for section in ["dependencies", "dev-dependencies", "build-dependencies"] {
            let Some(deps) = manifest.get(section).and_then(|d| d.as_table()) else {
                continue;
            };
            for dep in deps.keys().filter(|d| d.starts_with("riskintel-")) {
                assert!(
                    allowed.contains(&dep.as_str()),
                    "{name} depends on {dep} ({section}): a floor reaches up or sideways"
                );
            }
        }
    }
}

/// The floors below the HTTP edge.
const BELOW_HTTP: &[&str] = &[
    "riskintel-types",
    "riskintel-chains",
    "riskintel-store",
    "riskintel-analysis",
];

/// What only the HTTP floors (`server/api`, `server/`) may build on.
const HTTP_ONLY: &[&str] = &["riskintel-api", "dropshot", "dropshot_endpoint"];

/// Every package `package` is built with, however far down, from the lock
/// file's graph.
fn built_with(package: &str) -> BTreeSet<String> {
    let lock: toml::Table = std::fs::read_to_string(workspace().join("Cargo.lock"))
        .unwrap()
        .parse()
        .unwrap();
    let packages = lock["package"].as_array().unwrap();
    let depends_on = |name: &str| -> Vec<String> {
        packages
            .iter()
            .filter(|p| p["name"].as_str() == Some(name))
            .flat_map(|p| p.get("dependencies").and_then(|d| d.as_array()).cloned())
            .flatten()
            // "name" or "name version" when two versions are locked.
            .filter_map(|d| Some(d.as_str()?.split(' ').next()?.to_string()))
            .collect()
    };
    let mut seen = BTreeSet::new();
    let mut next = vec![package.to_string()];
    while let Some(name) = next.pop() {
        for dep in depends_on(&name) {
            if seen.insert(dep.clone()) {
                next.push(dep);
            }
        }
    }
    seen
}

#[test]
fn nothing_below_the_server_knows_http() {
    // The walk sees HTTP where it is.
    assert!(built_with("riskintel-server").contains("dropshot"));
    for floor in BELOW_HTTP {
        let deps = built_with(floor);
        assert!(deps.contains("serde"), "the walk sees {floor}'s graph");
        for http in HTTP_ONLY {
            assert!(
                !deps.contains(*http),
                "{floor} is built with {http}: HTTP reaches below the server"
            );
        }
    }
    // Nor is it named in their code.
    for (name, dir, _) in FLOORS.iter().filter(|(n, ..)| BELOW_HTTP.contains(n)) {
        for file in rust_files(&workspace().join(dir).join("src")) {
            let source = std::fs::read_to_string(&file).unwrap();
            for word in ["riskintel_api", "dropshot::", "hyper::"] {
                assert!(
                    !source.contains(word),
                    "{name}: {} names {word}",
                    file.display()
                );
            }
        }
    }
}

#[test]
fn no_source_file_imports_its_way_back_to_itself() {
    let mut graph: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (_, dir, _) in FLOORS {
        let root = workspace().join(dir).join("src");
        for file in rust_files(&root) {
            let module = module_path(&root, &file);
            let source = std::fs::read_to_string(&file).unwrap();
            let targets = referenced_paths(&source)
                .into_iter()
                .filter_map(|path| resolve(&root, &module, &path))
                .filter(|target| *target != file)
                .collect();
            graph.insert(file, targets);
        }
    }
    let circles = strongly_connected(&graph);
    assert!(
        circles.is_empty(),
        "import circles between files: {circles:#?}"
    );
    // The check sees what it should: a file's imports through braces.
    let facts = workspace().join("crates/analysis/src/tokens/evm/facts/mod.rs");
    let roles = workspace().join("crates/analysis/src/tokens/evm/roles.rs");
    assert!(
        graph[&facts].contains(&roles),
        "facts/mod.rs uses super::roles"
    );
}

#[test]
fn the_circle_finder_finds_circles_through_brace_imports() {
    let mut paths = Vec::new();
    expand(&mut Vec::new(), "super::{a,b::{self,C},d::E@F}", &mut paths);
    let expected: Vec<Vec<String>> = [
        &["super", "a"][..],
        &["super", "b", "self"],
        &["super", "b", "C"],
        &["super", "d", "E"],
    ]
    .iter()
    .map(|p| p.iter().map(|s| s.to_string()).collect())
    .collect();
    assert_eq!(paths, expected);
    let file = |n: &str| PathBuf::from(n);
    let graph = BTreeMap::from([
        (file("a.rs"), BTreeSet::from([file("b.rs")])),
        (file("b.rs"), BTreeSet::from([file("c.rs")])),
        (file("c.rs"), BTreeSet::from([file("a.rs")])),
        (file("d.rs"), BTreeSet::from([file("a.rs")])),
    ]);
    let circles = strongly_connected(&graph);
    assert_eq!(circles.len(), 1);
    assert_eq!(circles[0].len(), 3);
}

#[test]
fn chains_are_typed_past_the_http_edge() {
    // Users' chain ids are read in `server/src/http` (and the operator's in
    // the configuration); below, every function takes the typed chain.
    let mut untyped = Vec::new();
    for (_, dir, _) in FLOORS {
        let root = workspace().join(dir).join("src");
        for file in rust_files(&root) {
            let relative = file.strip_prefix(&root).unwrap();
            if relative.starts_with("http") || relative == Path::new("config.rs") {
                continue;
            }
            let source = std::fs::read_to_string(&file).unwrap();
            for (n, line) in source.lines().enumerate() {
                if line.contains("chain: &str") || line.contains("chain: Option<&str>") {
                    untyped.push(format!("{}:{}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(untyped.is_empty(), "chain ids as text: {untyped:#?}");
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// A file's module path below its crate root (`a/b.rs` and `a/b/mod.rs`: `[a, b]`).
fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let mut path: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        path.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        path.pop();
    }
    path
}

/// Every path that starts with `crate`, `super` or `self`, from `use`
/// trees (braces expanded) and from paths written in the code; a file's
/// unit tests (`mod tests`, at its end) and comments are left out.
fn referenced_paths(source: &str) -> Vec<Vec<String>> {
    let code = source
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default();
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    for statement in code.split(';') {
        let trimmed = statement.trim_start();
        let tree = trimmed
            .strip_prefix("pub use ")
            .or_else(|| trimmed.strip_prefix("pub(crate) use "))
            .or_else(|| trimmed.strip_prefix("pub(super) use "))
            .or_else(|| trimmed.strip_prefix("use "));
        if let Some(tree) = tree {
            // `x as y` keeps `x`: the rename is marked before spaces go.
            let tree = tree.replace(" as ", "@");
            let tree: String = tree.chars().filter(|c| !c.is_whitespace()).collect();
            expand(&mut Vec::new(), &tree, &mut paths);
        }
    }
    let bytes: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        let word_start = i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_');
        let rest: String = bytes[i..bytes.len().min(i + 7)].iter().collect();
        if word_start && (rest.starts_with("crate::") || rest.starts_with("super:")) {
            let mut end = i;
            while end < bytes.len()
                && (bytes[end].is_alphanumeric() || bytes[end] == '_' || bytes[end] == ':')
            {
                end += 1;
            }
            let path: String = bytes[i..end].iter().collect();
            paths.push(
                path.split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
                    .collect(),
            );
            i = end;
        } else {
            i += 1;
        }
    }
    paths
        .into_iter()
        .filter(|p: &Vec<String>| matches!(p.first().map(String::as_str), Some("crate" | "super")))
        .collect()
}

/// Expand a `use` tree (no whitespace) under `prefix` into whole paths.
fn expand(prefix: &mut Vec<String>, tree: &str, out: &mut Vec<Vec<String>>) {
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let (mut depth, mut start) = (0, 0);
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(prefix, &inner[start..i], out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        if start < inner.len() {
            expand(prefix, &inner[start..], out);
        }
        return;
    }
    if let Some(open) = tree.find("::{") {
        let added: Vec<String> = tree[..open].split("::").map(str::to_string).collect();
        let n = added.len();
        prefix.extend(added);
        expand(prefix, &tree[open + 2..], out);
        prefix.truncate(prefix.len() - n);
        return;
    }
    let mut path = prefix.clone();
    let name = tree.split('@').next().unwrap_or(tree);
    path.extend(
        name.split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    );
    out.push(path);
}

/// The file a path leads to, seen from `module`: its longest prefix that names a module.
fn resolve(root: &Path, module: &[String], path: &[String]) -> Option<PathBuf> {
    let (mut base, rest) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super") => {
            let supers = path.iter().take_while(|s| *s == "super").count();
            let keep = module.len().checked_sub(supers)?;
            (module[..keep].to_vec(), &path[supers..])
        }
        _ => return None,
    };
    let mut best = None;
    for k in 0..=rest.len() {
        if let Some(file) = module_file(root, &base) {
            best = Some(file);
        } else {
            break;
        }
        if let Some(segment) = rest.get(k) {
            base.push(segment.clone());
        }
    }
    best
}

fn module_file(root: &Path, module: &[String]) -> Option<PathBuf> {
    if module.is_empty() {
        return ["lib.rs", "main.rs"]
            .iter()
            .map(|f| root.join(f))
            .find(|p| p.exists());
    }
    let path: PathBuf = module.iter().collect();
    let file = root.join(&path).with_extension("rs");
    let dir = root.join(&path).join("mod.rs");
    [file, dir].into_iter().find(|p| p.exists())
}

/// Tarjan's strongly connected components with more than one file.
fn strongly_connected(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct State<'a> {
        graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, usize>,
        low: BTreeMap<&'a PathBuf, usize>,
        stack: Vec<&'a PathBuf>,
        next: usize,
        found: Vec<Vec<PathBuf>>,
    }
    fn visit<'a>(s: &mut State<'a>, v: &'a PathBuf) {
        s.index.insert(v, s.next);
        s.low.insert(v, s.next);
        s.next += 1;
        s.stack.push(v);
        for w in s.graph.get(v).into_iter().flatten() {
            let Some((w, _)) = s.graph.get_key_value(w) else {
                continue;
            };
            if !s.index.contains_key(w) {
                visit(s, w);
                let low = s.low[v].min(s.low[w]);
                s.low.insert(v, low);
            } else if s.stack.contains(&w) {
                let low = s.low[v].min(s.index[w]);
                s.low.insert(v, low);
            }
        }
        if s.low[v] == s.index[v] {
            let mut component = Vec::new();
            while let Some(w) = s.stack.pop() {
                component.push(w.clone());
                if w == v {
                    break;
                }
            }
            if component.len() > 1 {
                s.found.push(component);
            }
        }
    }
    let mut s = State {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        next: 0,
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !s.index.contains_key(v) {
            visit(&mut s, v);
        }
    }
    s.found
}

#[test]
fn the_readme_shows_the_quickstarts_the_suite_runs() {
    // The integrators' test runs these files; the README shows each whole,
    // in a code block of its language, and links every docs page it names.
    let root = workspace();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    for (file, language) in [
        ("docs/quickstarts/quickstart.py", "python"),
        ("docs/quickstarts/quickstart.ts", "typescript"),
        ("client/examples/quickstart.rs", "rust"),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(
            readme.contains(&format!("```{language}\n{text}```")),
            "README.md does not show {file} as it is"
        );
    }
    for link in readme.split("](").skip(1) {
        let target = link.split(')').next().unwrap();
        if target.starts_with("http") || target.starts_with('#') {
            continue;
        }
        assert!(
            root.join(target).exists(),
            "README.md links {target}, which is missing"
        );
    }
}
