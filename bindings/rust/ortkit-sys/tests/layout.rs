//! The declarations of src/lib.rs against the C headers they mirror.
//!
//! A small C program is compiled against the headers build.rs found beside
//! the library (`DEP_ORTKIT_INCLUDE`):
//! - it prints the size, alignment and every field's offset of each struct
//!   declared here, the value of every constant, and the fields of the
//!   options structs' `_INIT` macros, which are compared with Rust's
//!   `size_of`, offsets, constants and `Default`;
//! - it carries a `_Static_assert` for every function of the `extern "C"`
//!   block, written from the Rust signature: the header's prototype must be
//!   the same C type, or the program does not compile.
//!
//! Options structs are versioned: the Rust struct is the version its
//! `_VERSION` constant says.  When the header has moved on (a later
//! version), the fields declared here must still sit where they are, and the
//! size is not compared: a library reads only the bytes of the caller's
//! version (docs/CONVENTIONS.md).  Structs the library allocates are
//! declared as a prefix, so only their fields' offsets are compared.
use ortkit_sys::*;
use std::collections::HashMap;
use std::mem::{align_of, size_of, MaybeUninit};
use std::path::{Path, PathBuf};
use std::process::Command;

macro_rules! offset {
    ($t:ty, $f:ident) => {{
        let u = MaybeUninit::<$t>::uninit();
        let base = u.as_ptr();
        // addr_of! takes the field's address without reading the uninitialised value.
        unsafe { (std::ptr::addr_of!((*base).$f) as usize) - (base as usize) }
    }};
}

/// How a struct is held: exactly (options of the current version, frozen
/// array elements) or as a prefix of what the library allocates.
#[derive(Clone, Copy, PartialEq)]
enum Held {
    Exact,
    Options(&'static str), // the name of its _VERSION macro
    Prefix,
}

struct Struct {
    c: &'static str,
    held: Held,
    size: usize,
    align: usize,
    fields: Vec<(&'static str, &'static str, usize)>, // (C field, Rust field, offset)
}

macro_rules! strukt {
    ($t:ident, $held:expr, [$(($c:literal, $f:ident)),* $(,)?]) => {
        Struct {
            c: stringify!($t),
            held: $held,
            size: size_of::<$t>(),
            align: align_of::<$t>(),
            fields: vec![$(($c, stringify!($f), offset!($t, $f))),*],
        }
    };
}

fn structs() -> Vec<Struct> {
    vec![
        strukt!(ortkit_runtime_options, Held::Options("ORTKIT_RUNTIME_OPTIONS_VERSION"), [
            ("version", version), ("path", path), ("log_level", log_level), ("log_id", log_id),
            ("bundle", bundle), ("global_thread_pools", global_thread_pools),
            ("global_intra_threads", global_intra_threads),
            ("global_inter_threads", global_inter_threads), ("global_spinning", global_spinning),
            ("cpu_arena_extend", cpu_arena_extend), ("api_base", api_base),
            ("model", model), ("model_shapes", model_shapes), ("model_threads", model_threads),
        ]),
        strukt!(ortkit_session_options, Held::Options("ORTKIT_SESSION_OPTIONS_VERSION"), [
            ("version", version), ("intra_op_threads", intra_op_threads),
            ("inter_op_threads", inter_op_threads), ("graph_opt", graph_opt),
            ("exec_mode", exec_mode), ("mem_pattern", mem_pattern), ("cpu_arena", cpu_arena),
            ("profile_prefix", profile_prefix), ("optimized_model_path", optimized_model_path),
            ("config_keys", config_keys), ("config_values", config_values),
            ("config_count", config_count), ("providers", providers),
            ("provider_count", provider_count), ("ep_policy", ep_policy),
            ("cache_dir", cache_dir), ("cache_max_bytes", cache_max_bytes),
            ("intra_op_spinning", intra_op_spinning), ("inter_op_spinning", inter_op_spinning),
        ]),
        strukt!(ortkit_dim, Held::Exact, [("value", value), ("symbol", symbol)]),
        strukt!(ortkit_io_info, Held::Prefix, [
            ("name", name), ("kind", kind), ("type", type_), ("rank", rank), ("dims", dims),
            ("value_type", value_type),
        ]),
        strukt!(ortkit_value_type, Held::Prefix, [
            ("kind", kind), ("elem", elem), ("key", key), ("inner", inner),
        ]),
        strukt!(ortkit_provider_status, Held::Prefix, [
            ("requested", requested), ("name", name), ("active", active), ("reason", reason),
            ("detail", detail), ("method", method), ("probe", probe),
        ]),
        strukt!(ortkit_resolve_step, Held::Prefix, [
            ("source", source), ("where", where_), ("verdict", verdict), ("detail", detail),
        ]),
        strukt!(ortkit_bundle_choice, Held::Prefix, [
            ("index", index), ("reason", reason), ("count", count),
        ]),
    ]
}

macro_rules! consts {
    ($($name:ident),* $(,)?) => { vec![$((stringify!($name), $name as i64 as i128)),*] };
}

fn constants() -> Vec<(&'static str, i128)> {
    consts![
        ORTKIT_VERSION_MAJOR, ORTKIT_VERSION_MINOR, ORTKIT_VERSION_PATCH,
        ORTKIT_OK, ORTKIT_E_INVALID_ARG, ORTKIT_E_NOMEM, ORTKIT_E_IO, ORTKIT_E_RUNTIME_NOT_FOUND,
        ORTKIT_E_RUNTIME_INVALID, ORTKIT_E_RUNTIME_TOO_OLD, ORTKIT_E_MODEL, ORTKIT_E_PROVIDER,
        ORTKIT_E_SHAPE, ORTKIT_E_NAME, ORTKIT_E_RUN, ORTKIT_E_CANCELLED, ORTKIT_E_FORMAT,
        ORTKIT_E_UNSUPPORTED, ORTKIT_E_ORT,
        ORTKIT_TYPE_UNDEFINED, ORTKIT_TYPE_FLOAT32, ORTKIT_TYPE_UINT8, ORTKIT_TYPE_INT8,
        ORTKIT_TYPE_UINT16, ORTKIT_TYPE_INT16, ORTKIT_TYPE_INT32, ORTKIT_TYPE_INT64,
        ORTKIT_TYPE_STRING, ORTKIT_TYPE_BOOL, ORTKIT_TYPE_FLOAT16, ORTKIT_TYPE_FLOAT64,
        ORTKIT_TYPE_UINT32, ORTKIT_TYPE_UINT64, ORTKIT_TYPE_COMPLEX64, ORTKIT_TYPE_COMPLEX128,
        ORTKIT_TYPE_BFLOAT16, ORTKIT_TYPE_FLOAT8E4M3FN, ORTKIT_TYPE_FLOAT8E4M3FNUZ,
        ORTKIT_TYPE_FLOAT8E5M2, ORTKIT_TYPE_FLOAT8E5M2FNUZ, ORTKIT_TYPE_UINT4, ORTKIT_TYPE_INT4,
        ORTKIT_MAX_RANK,
        ORTKIT_KIND_UNKNOWN, ORTKIT_KIND_TENSOR, ORTKIT_KIND_SEQUENCE, ORTKIT_KIND_MAP,
        ORTKIT_KIND_OPTIONAL, ORTKIT_KIND_SPARSE_TENSOR,
        ORTKIT_MIN_ORT_API,
        ORTKIT_LOG_DEFAULT, ORTKIT_LOG_VERBOSE, ORTKIT_LOG_INFO, ORTKIT_LOG_WARNING,
        ORTKIT_LOG_ERROR, ORTKIT_LOG_FATAL,
        ORTKIT_SWITCH_DEFAULT, ORTKIT_SWITCH_ON, ORTKIT_SWITCH_OFF,
        ORTKIT_ARENA_EXTEND_DEFAULT, ORTKIT_ARENA_EXTEND_POWER_OF_TWO,
        ORTKIT_ARENA_EXTEND_REQUESTED,
        ORTKIT_RESOLVE_SKIPPED, ORTKIT_RESOLVE_PASSED, ORTKIT_RESOLVE_TAKEN,
        ORTKIT_RESOLVE_FAILED, ORTKIT_RESOLVE_NOT_REACHED, ORTKIT_RESOLVE_EXPLAIN,
        ORTKIT_BUNDLE_NONE,
        ORTKIT_GRAPH_OPT_DEFAULT, ORTKIT_GRAPH_OPT_DISABLE, ORTKIT_GRAPH_OPT_BASIC,
        ORTKIT_GRAPH_OPT_EXTENDED, ORTKIT_GRAPH_OPT_ALL,
        ORTKIT_EXEC_DEFAULT, ORTKIT_EXEC_SEQUENTIAL, ORTKIT_EXEC_PARALLEL,
        ORTKIT_EP_FALLBACK, ORTKIT_EP_STRICT,
        ORTKIT_CACHE_OFF, ORTKIT_CACHE_HIT, ORTKIT_CACHE_FILLED, ORTKIT_CACHE_SKIPPED,
    ]
}

/// The C enums held here as c_int: each must be an int-sized type.
const ENUMS: &[&str] = &[
    "ortkit_status", "ortkit_type", "ortkit_value_kind", "ortkit_log_level", "ortkit_switch",
    "ortkit_arena_extend", "ortkit_resolve_verdict", "ortkit_graph_opt", "ortkit_exec_mode",
    "ortkit_ep_policy", "ortkit_cache_state",
];

/// The Rust `Default` of each options struct, as the C program prints its
/// `_INIT` macro: integers as they are, pointers as 0 (NULL) or 1.
fn defaults() -> Vec<(String, i128)> {
    fn p<T>(ptr: *const T) -> i128 {
        (!ptr.is_null()) as i128
    }
    let r = ortkit_runtime_options::default();
    let s = ortkit_session_options::default();
    let mut v: Vec<(&str, i128)> = vec![
        ("ortkit_runtime_options.version", r.version as i128),
        ("ortkit_runtime_options.path", p(r.path)),
        ("ortkit_runtime_options.log_level", r.log_level as i128),
        ("ortkit_runtime_options.log_id", p(r.log_id)),
        ("ortkit_runtime_options.bundle", p(r.bundle)),
        ("ortkit_runtime_options.global_thread_pools", r.global_thread_pools as i128),
        ("ortkit_runtime_options.global_intra_threads", r.global_intra_threads as i128),
        ("ortkit_runtime_options.global_inter_threads", r.global_inter_threads as i128),
        ("ortkit_runtime_options.global_spinning", r.global_spinning as i128),
        ("ortkit_runtime_options.cpu_arena_extend", r.cpu_arena_extend as i128),
        ("ortkit_runtime_options.api_base", r.api_base.is_some() as i128),
        ("ortkit_runtime_options.model", p(r.model)),
        ("ortkit_runtime_options.model_shapes", p(r.model_shapes)),
        ("ortkit_runtime_options.model_threads", r.model_threads as i128),
    ];
    v.extend_from_slice(&[
        ("ortkit_session_options.version", s.version as i128),
        ("ortkit_session_options.intra_op_threads", s.intra_op_threads as i128),
        ("ortkit_session_options.inter_op_threads", s.inter_op_threads as i128),
        ("ortkit_session_options.graph_opt", s.graph_opt as i128),
        ("ortkit_session_options.exec_mode", s.exec_mode as i128),
        ("ortkit_session_options.mem_pattern", s.mem_pattern as i128),
        ("ortkit_session_options.cpu_arena", s.cpu_arena as i128),
        ("ortkit_session_options.profile_prefix", p(s.profile_prefix)),
        ("ortkit_session_options.optimized_model_path", p(s.optimized_model_path)),
        ("ortkit_session_options.config_keys", p(s.config_keys)),
        ("ortkit_session_options.config_values", p(s.config_values)),
        ("ortkit_session_options.config_count", s.config_count as i128),
        ("ortkit_session_options.providers", p(s.providers)),
        ("ortkit_session_options.provider_count", s.provider_count as i128),
        ("ortkit_session_options.ep_policy", s.ep_policy as i128),
        ("ortkit_session_options.cache_dir", p(s.cache_dir)),
        ("ortkit_session_options.cache_max_bytes", s.cache_max_bytes as i128),
        ("ortkit_session_options.intra_op_spinning", s.intra_op_spinning as i128),
        ("ortkit_session_options.inter_op_spinning", s.inter_op_spinning as i128),
    ]);
    v.into_iter().map(|(k, x)| (format!("init {}", k), x)).collect()
}

// ---- the functions: the extern block of src/lib.rs, read as text ----------

/// A Rust FFI type as C writes it.
fn c_type(rust: &str) -> String {
    let t = rust.trim();
    if let Some(rest) = t.strip_prefix("*const ") {
        return pointer_to(rest, true);
    }
    if let Some(rest) = t.strip_prefix("*mut ") {
        return pointer_to(rest, false);
    }
    match t {
        "c_int" => "int",
        "c_uint" => "unsigned",
        "c_long" => "long",
        "c_char" => "char",
        "c_void" => "void",
        "usize" => "size_t",
        "i64" => "int64_t",
        "u64" => "uint64_t",
        other => other, // ortkit_* typedefs keep their names
    }
    .to_string()
}

fn pointer_to(pointee: &str, is_const: bool) -> String {
    let inner = c_type(pointee);
    let pointee_is_pointer = pointee.trim().starts_with('*');
    match (is_const, pointee_is_pointer) {
        (true, false) => format!("const {} *", inner),
        (false, _) => format!("{}*", with_space(&inner)),
        (true, true) => format!("{}const *", with_space(&inner)),
    }
}

fn with_space(t: &str) -> String {
    if t.ends_with('*') {
        t.to_string()
    } else {
        format!("{} ", t)
    }
}

/// (name, C return type, C parameter types) of every `pub fn` in the
/// `extern "C"` block of src/lib.rs.
fn functions() -> Vec<(String, String, Vec<String>)> {
    let src = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("read src/lib.rs");
    let block = &src[src.find("extern \"C\" {").expect("the extern block")..];
    let text: String = block
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut out = Vec::new();
    for decl in text.split("pub fn ").skip(1) {
        let decl = &decl[..decl.find(';').expect("a ';' ending each declaration")];
        let open = decl.find('(').unwrap();
        let close = decl.rfind(')').unwrap();
        let name = decl[..open].trim().to_string();
        let params: Vec<String> = decl[open + 1..close]
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| c_type(&p[p.find(':').expect("name: type") + 1..]))
            .collect();
        let ret = match decl[close + 1..].trim().strip_prefix("->") {
            Some(r) => c_type(r),
            None => "void".to_string(),
        };
        out.push((name, ret, params));
    }
    assert!(out.len() > 40, "read only {} functions from src/lib.rs", out.len());
    out
}

// ---- the C program ----------------------------------------------------------

fn c_program(structs: &[Struct], constants: &[(&str, i128)]) -> String {
    let mut c = String::from(
        "#include <ortkit.h>\n#include <stddef.h>\n#include <stdio.h>\n\n",
    );
    for (name, ret, params) in functions() {
        let params = if params.is_empty() { "void".to_string() } else { params.join(", ") };
        c += &format!(
            "_Static_assert(__builtin_types_compatible_p(__typeof__(&{n}), {r} (*)({p})),\n    \
             \"{n}: the header's prototype is not {r} {n}({p})\");\n",
            n = name,
            r = ret,
            p = params
        );
    }
    c += "\nint main(void)\n{\n";
    for s in structs {
        c += &format!(
            "    printf(\"size {t} %zu\\nalign {t} %zu\\n\", sizeof({t}), _Alignof({t}));\n",
            t = s.c
        );
        for (f, _, _) in &s.fields {
            c += &format!(
                "    printf(\"offset {t}.{f} %zu\\n\", offsetof({t}, {f}));\n",
                t = s.c,
                f = f
            );
        }
    }
    for (name, _) in constants {
        c += &format!("    printf(\"const {n} %lld\\n\", (long long)({n}));\n", n = name);
    }
    for name in ["ORTKIT_RUNTIME_OPTIONS_VERSION", "ORTKIT_SESSION_OPTIONS_VERSION"] {
        c += &format!("    printf(\"const {n} %lld\\n\", (long long)({n}));\n", n = name);
    }
    for e in ENUMS {
        c += &format!("    printf(\"enum {e} %zu\\n\", sizeof({e}));\n", e = e);
    }
    for (t, m) in [
        ("ortkit_runtime_options", "ORTKIT_RUNTIME_OPTIONS_INIT"),
        ("ortkit_session_options", "ORTKIT_SESSION_OPTIONS_INIT"),
    ] {
        let s = structs.iter().find(|s| s.c == t).unwrap();
        c += &format!("    {{\n        {t} v = {m};\n", t = t, m = m);
        for (f, _, _) in &s.fields {
            c += &format!(
                "        printf(\"init {t}.{f} %lld\\n\", _Generic(v.{f}, \
                 default: (long long)(v.{f}), \
                 const char *: (long long)(v.{f} != 0), \
                 const char *const *: (long long)(v.{f} != 0), \
                 const struct OrtApiBase *(*)(void): (long long)(v.{f} != 0)));\n",
                t = t,
                f = f
            );
        }
        c += "    }\n";
    }
    c += "    return 0;\n}\n";
    c
}

fn include_dir() -> PathBuf {
    let inc = env!("ORTKIT_SYS_INCLUDE");
    assert!(
        !inc.is_empty(),
        "no ortkit headers were found beside the library ({}, found by {}): the layout \
         cannot be checked; point ORTKIT_DIR at a build directory or an installed prefix",
        env!("ORTKIT_SYS_LIBDIR"),
        env!("ORTKIT_SYS_FOUND_BY")
    );
    PathBuf::from(inc)
}

fn c_facts(structs: &[Struct], constants: &[(&str, i128)]) -> HashMap<String, i128> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ortkit-sys-layout");
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("layout.c");
    let exe = dir.join("layout");
    std::fs::write(&src, c_program(structs, constants)).unwrap();
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(include_dir())
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap_or_else(|e| panic!("cannot run the C compiler '{}': {}", cc, e));
    assert!(
        out.status.success(),
        "{} does not compile against {}:\n{}",
        src.display(),
        include_dir().display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).output().expect("run the layout program");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let (k, v) = l.rsplit_once(' ').unwrap();
            (k.to_string(), v.parse::<i128>().unwrap())
        })
        .collect()
}

#[test]
fn declarations_match_the_headers() {
    let structs = structs();
    let constants = constants();
    let c = c_facts(&structs, &constants);
    let get = |k: &str| -> i128 { *c.get(k).unwrap_or_else(|| panic!("the C program printed no '{}'", k)) };
    let mut wrong: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    fn check(wrong: &mut Vec<String>, what: String, rust: i128, c: i128) {
        if rust != c {
            wrong.push(format!("{}: Rust {}, C {}", what, rust, c));
        }
    }
    for (name, value) in &constants {
        check(&mut wrong, format!("const {}", name), *value, get(&format!("const {}", name)));
    }
    for e in ENUMS {
        check(&mut wrong, format!("sizeof enum {}", e), 4, get(&format!("enum {}", e)));
    }
    for s in &structs {
        for (f, rf, off) in &s.fields {
            check(&mut wrong, format!("offset {}.{} (Rust {})", s.c, f, rf), *off as i128, get(&format!("offset {}.{}", s.c, f)));
        }
        let c_size = get(&format!("size {}", s.c));
        let c_align = get(&format!("align {}", s.c));
        check(&mut wrong, format!("align {}", s.c), s.align as i128, c_align);
        match s.held {
            Held::Exact => check(&mut wrong, format!("size {}", s.c), s.size as i128, c_size),
            Held::Prefix => {
                if (s.size as i128) > c_size {
                    wrong.push(format!("{}: the Rust prefix ({} bytes) is larger than the C struct ({})", s.c, s.size, c_size));
                } else if (s.size as i128) < c_size {
                    notes.push(format!("{} has grown to {} bytes; the crate reads its first {}", s.c, c_size, s.size));
                }
            }
            Held::Options(macro_name) => {
                let rust_v = constants_version(macro_name);
                let c_v = get(&format!("const {}", macro_name));
                if c_v == rust_v {
                    check(&mut wrong, format!("size {} (version {})", s.c, rust_v), s.size as i128, c_size);
                } else if c_v > rust_v {
                    notes.push(format!(
                        "{} is at version {} in the header, {} here: the crate passes version {} \
                         (valid: the library reads only its bytes); declare the new fields to use them",
                        s.c, c_v, rust_v, rust_v
                    ));
                } else {
                    wrong.push(format!("{}: the header's version {} is older than the crate's {}", s.c, c_v, rust_v));
                }
            }
        }
    }
    for (k, v) in defaults() {
        // The version is compared above; fields this version lacks are not here.
        if k.ends_with(".version") {
            continue;
        }
        check(&mut wrong, k.clone(), v, get(&k));
    }
    for n in &notes {
        eprintln!("note: {}", n);
    }
    assert!(wrong.is_empty(), "ortkit-sys differs from the headers in {}:\n  {}", include_dir().display(), wrong.join("\n  "));
}

fn constants_version(name: &str) -> i128 {
    match name {
        "ORTKIT_RUNTIME_OPTIONS_VERSION" => ORTKIT_RUNTIME_OPTIONS_VERSION as i128,
        "ORTKIT_SESSION_OPTIONS_VERSION" => ORTKIT_SESSION_OPTIONS_VERSION as i128,
        _ => unreachable!(),
    }
}

#[test]
fn the_library_is_the_headers_version() {
    let v = unsafe { std::ffi::CStr::from_ptr(ortkit_version()) }.to_str().unwrap().to_string();
    let want = format!("{}.{}.{}", ORTKIT_VERSION_MAJOR, ORTKIT_VERSION_MINOR, ORTKIT_VERSION_PATCH);
    assert_eq!(v, want, "libortkit in {} says {}", env!("ORTKIT_SYS_LIBDIR"), v);
}
