//! The safe API against the real runtimes set-up fetched and the build
//! tree's test models (see tests/common/mod.rs for where they are found).
mod common;

use common::{material, model, runtime_new, runtime_old, stubs};
use ortkit::{
    CacheState, Code, ElementType, EpPolicy, Outputs, RunControl, Runtime, Session, Tensor, TensorView, ValueKind,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};

fn runtime() -> Runtime {
    Runtime::builder().path(runtime_new()).open().expect("open set-up's runtime")
}

fn scratch(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const A: [f32; 6] = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
const B: [f32; 6] = [10.0, 20.0, 30.0, 40.0, 50.0, 60.0];

#[test]
fn the_types_are_send_and_sync_as_documented() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Runtime>();
    send_sync::<Session>();
    send_sync::<Tensor>();
    send_sync::<TensorView<'static>>();
    send_sync::<Outputs>();
    send_sync::<RunControl>();
    send_sync::<ortkit::Error>();
    send::<ortkit::Resolution>();
    send::<Mutex<Session>>();
    send_sync::<Arc<Mutex<Session>>>();
}

#[test]
fn runtime_from_the_environment_and_from_a_path() {
    // ORTKIT_RUNTIME is set to set-up's runtime by run_tests.sh; a plain
    // `cargo test` leaves the search to find one.
    let rt = Runtime::open().unwrap();
    if std::env::var_os("ORTKIT_RUNTIME").map_or(false, |v| !v.is_empty()) {
        assert_eq!(rt.source(), "ORTKIT_RUNTIME");
        assert_eq!(rt.version(), "1.30.0");
    } else {
        eprintln!("ORTKIT_RUNTIME is unset (a plain cargo test): the search took {}", rt.source());
    }
    assert!(rt.api_level() >= 17);
    assert!(rt.path().is_absolute() && rt.path().exists(), "{:?}", rt.path());
    assert_eq!(rt.providers().last().copied(), Some("CPUExecutionProvider"));

    let old = Runtime::builder().path(runtime_old()).open().unwrap();
    assert_eq!(old.source(), "options");
    assert_eq!(old.version(), "1.17.3");
    assert!(old.path().starts_with(runtime_old().canonicalize().unwrap()), "{:?}", old.path());
}

#[test]
fn the_account_of_why() {
    let b = Runtime::builder().path(runtime_new());
    let res = b.explain().unwrap();
    res.status().unwrap();
    assert_eq!(res.source(), "options");
    let steps = res.steps();
    assert_eq!(steps[0].source, "options");
    assert_eq!(steps[0].verdict, ortkit::Verdict::Taken);
    assert_eq!(steps[0].verdict_name, "taken");
    assert!(steps.iter().skip(1).all(|s| s.verdict == ortkit::Verdict::NotReached), "{}", res);
    let rt = res.open().unwrap();
    assert_eq!(rt.path(), res.path().unwrap().canonicalize().unwrap());
    assert_eq!(rt.source(), "options");

    // A path that holds no runtime: the resolution says so, and opening fails alike.
    let missing = Runtime::builder().path("/nonexistent/libonnxruntime.so");
    let res = missing.resolve().unwrap();
    let want = res.status().unwrap_err();
    let got = missing.open().unwrap_err();
    assert_eq!(got.code(), want.code());
    assert_eq!(got.message(), want.message());
    assert!(got.message().contains("/nonexistent/libonnxruntime.so"), "{}", got);
    assert!(res.open().is_err());
}

#[test]
fn a_runtime_older_than_asked_is_an_error() {
    // Older than ortkit accepts (a library answering as ONNX Runtime 1.16.3).
    let stub = stubs().join("libstub_too_old.so");
    let e = Runtime::builder().path(&stub).open().unwrap_err();
    assert_eq!(e.code(), Code::RuntimeTooOld, "{:?}", e);
    assert!(e.message().contains("1.16.3") && e.message().contains("1.17"), "{}", e);
    assert_eq!(e.code().name(), "ORTKIT_E_RUNTIME_TOO_OLD");

    // Older than the program asks for.
    let e = Runtime::builder().path(runtime_old()).min_version("1.20").open().unwrap_err();
    assert_eq!(e.code(), Code::RuntimeTooOld);
    assert!(e.message().contains("1.17.3") && e.message().contains("1.20"), "{}", e);
    let rt = Runtime::builder().path(runtime_new()).min_version("1.20").open().unwrap();
    assert_eq!(rt.version(), "1.30.0");
    let e = Runtime::builder().path(runtime_new()).min_version("new").open().unwrap_err();
    assert_eq!(e.code(), Code::InvalidArg);
}

#[test]
fn errors_carry_ortkits_code_and_message() {
    let rt = runtime();
    // A missing model.
    let e = rt.session().open("/nonexistent/model.onnx").unwrap_err();
    assert_eq!(e.code(), Code::Io, "{:?}", e);
    assert!(e.message().contains("/nonexistent/model.onnx"), "{}", e);
    assert_eq!(format!("{}", e), e.message());
    assert!(format!("{:?}", e).starts_with("ORTKIT_E_IO: "));
    // Not a model.
    let e = rt.session().open(model("not_onnx.onnx")).unwrap_err();
    assert_eq!(e.code(), Code::Model, "{:?}", e);

    let s = rt.session().open(model("add.onnx")).unwrap();
    // The wrong input type, as ortkit words it.
    let ints = Tensor::from_slice(&[1, 3], &[1i64, 2, 3]).unwrap();
    let b = Tensor::borrow(&[2, 3], &B).unwrap();
    let e = s.run(&[("a", &ints), ("b", &b)]).unwrap_err();
    assert_eq!(e.code(), Code::Shape);
    assert_eq!(e.message(), "input 'a' expects float32[N,3], got int64[1,3]");
    // A name the model lacks.
    let e = s.run(&[("nope", &b), ("b", &b)]).unwrap_err();
    assert_eq!(e.code(), Code::Name, "{:?}", e);
    assert!(e.message().contains("nope"), "{}", e);
    let e = s.run_with(&[("a", &b), ("b", &b)], &["nope"], None).unwrap_err();
    assert_eq!(e.code(), Code::Name, "{:?}", e);
    // A shape that does not fit the data, caught by ortkit before anything is made.
    let e = Tensor::borrow(&[4, 3], &A).unwrap_err();
    assert_eq!(e.code(), Code::Shape, "{:?}", e);
    let e = Tensor::from_slice(&[4, 3], &A).unwrap_err();
    assert_eq!(e.code(), Code::Shape, "{:?}", e);
    // The code the library recorded is the code returned.
    assert_eq!(unsafe { ortkit::sys::ortkit_error_code() }, Code::Shape.raw());
    // Reading an output as the wrong type.
    let out = s.run(&[("a", &b), ("b", &b)]).unwrap();
    let e = out["sum"].data::<i64>().unwrap_err();
    assert_eq!(e.code(), Code::Shape);
    assert_eq!(e.message(), "the tensor is float32[2,3], not int64");
    // A NUL in a Rust string, refused before the C API sees it.
    let e = rt.session().open("a\0b").unwrap_err();
    assert_eq!(e.code(), Code::InvalidArg);
}

#[test]
fn add_with_borrowed_owned_and_moved_tensors() {
    let rt = runtime();
    let s = rt.session().threads(1).open(model("add.onnx")).unwrap();
    assert_eq!(s.input_names(), ["a", "b"]);
    assert_eq!(s.output_names(), ["sum"]);
    let inputs = s.inputs();
    assert_eq!(inputs[0].kind, ValueKind::Tensor);
    assert_eq!(inputs[0].element_type, ElementType::Float32);
    assert_eq!(inputs[0].description, "float32[N,3]");
    let dims = inputs[0].dims.as_ref().unwrap();
    assert_eq!((dims[0].value, dims[0].symbol.as_str()), (None, "N"));
    assert_eq!((dims[1].value, dims[1].symbol.as_str()), (Some(3), ""));

    let a = Tensor::borrow(&[2, 3], &A).unwrap(); // no copy
    let b = Tensor::from_vec(&[2, 3], B.to_vec()).unwrap(); // moved in, no copy
    let want = [11.0f32, 22.0, 33.0, 44.0, 55.0, 66.0];
    let out = s.run(&[("b", &b), ("a", &a)]).unwrap();
    assert_eq!(out.len(), 1);
    assert_eq!(out["sum"].shape(), [2, 3]);
    assert_eq!(format!("{:?}", out), r#"{"sum": "float32[2,3]"}"#);
    assert_eq!(out["sum"].data::<f32>().unwrap(), want);
    assert_eq!(out.get("sum").unwrap().describe(), "float32[2,3]");
    assert!(out.get("nope").is_none());

    let copied = Tensor::from_slice(&[2, 3], &A).unwrap();
    let out = s.infer(&[&copied, &b]).unwrap();
    assert_eq!(out[0].data::<f32>().unwrap(), want);

    let out = s.run_with(&[("a", &a), ("b", &b)], &["sum"], None).unwrap();
    assert_eq!(out.names(), ["sum"]);
    assert_eq!(out[0].to_vec::<f32>().unwrap(), want);

    // The saved reference, through ortkit's .npy reader.
    let ra = Tensor::read_npy(model("add_a.npy")).unwrap();
    let rb = Tensor::read_npy(model("add_b.npy")).unwrap();
    let rsum = Tensor::read_npy(model("add_sum.npy")).unwrap();
    let out = s.run(&[("a", &ra), ("b", &rb)]).unwrap();
    assert_eq!(out["sum"].shape(), rsum.shape());
    assert_eq!(out["sum"].data::<f32>().unwrap(), rsum.data::<f32>().unwrap());

    // An output may be written, fed back, and outlive the session and runtime.
    let mut sum = s.run(&[("a", &a), ("b", &b)]).unwrap().into_vec().remove(0);
    sum.data_mut::<f32>().unwrap()[0] = 100.0;
    let again = s.run(&[("a", &sum), ("b", &a)]).unwrap();
    drop(s);
    drop(rt);
    assert_eq!(again["sum"].data::<f32>().unwrap(), [101.0f32, 24.0, 36.0, 48.0, 60.0, 72.0]);
    assert_eq!(sum.data::<f32>().unwrap()[0], 100.0);

    // The one-shot call, on the default runtime.
    let out = ortkit::infer(model("add.onnx"), &[&a, &b]).unwrap();
    assert_eq!(out["sum"].data::<f32>().unwrap(), want);
}

#[test]
fn every_element_type_through_identity() {
    let s = runtime().session().open(model("identity_types.onnx")).unwrap();
    let shape = [2i64, 3];
    // Every input at once, each of its own type; strings go in as Rust strs.
    let f32s = Tensor::from_slice(&shape, &[1.5f32; 6]).unwrap();
    let f64s = Tensor::from_slice(&shape, &[2.5f64; 6]).unwrap();
    let f16s = Tensor::new_of(ElementType::Float16, &shape).unwrap();
    let bf16s = Tensor::new_of(ElementType::Bfloat16, &shape).unwrap();
    let i8s = Tensor::from_slice(&shape, &[-8i8; 6]).unwrap();
    let u8s = Tensor::from_slice(&shape, &[8u8; 6]).unwrap();
    let i16s = Tensor::from_slice(&shape, &[-16i16; 6]).unwrap();
    let u16s = Tensor::from_slice(&shape, &[16u16; 6]).unwrap();
    let i32s = Tensor::from_slice(&shape, &[-32i32; 6]).unwrap();
    let u32s = Tensor::from_slice(&shape, &[32u32; 6]).unwrap();
    let i64s = Tensor::from_slice(&shape, &[-64i64; 6]).unwrap();
    let u64s = Tensor::from_slice(&shape, &[64u64; 6]).unwrap();
    let bools = Tensor::from_slice(&shape, &[true, false, true, true, false, false]).unwrap();
    let strs = Tensor::from_strings(&shape, &["a", "bb", "", "ünï", "x y", "z"]).unwrap();
    let names: Vec<String> = s.input_names().to_vec();
    let tensors = [&f32s, &f64s, &f16s, &bf16s, &i8s, &u8s, &i16s, &u16s, &i32s, &u32s, &i64s, &u64s, &bools, &strs];
    let inputs: Vec<(&str, &Tensor)> = names.iter().map(|n| n.as_str()).zip(tensors.iter().copied()).collect();
    let out = s.run(&inputs).unwrap();
    assert_eq!(out.len(), 14);
    assert_eq!(out["out_float32"].data::<f32>().unwrap(), [1.5f32; 6]);
    assert_eq!(out["out_float64"].data::<f64>().unwrap(), [2.5f64; 6]);
    assert_eq!(out["out_float16"].element_type(), ElementType::Float16);
    assert_eq!(out["out_float16"].as_bytes(), [0u8; 12]);
    assert_eq!(out["out_bfloat16"].element_type().bits(), 16);
    assert_eq!(out["out_int8"].data::<i8>().unwrap(), [-8i8; 6]);
    assert_eq!(out["out_uint8"].data::<u8>().unwrap(), [8u8; 6]);
    assert_eq!(out["out_int16"].data::<i16>().unwrap(), [-16i16; 6]);
    assert_eq!(out["out_uint16"].data::<u16>().unwrap(), [16u16; 6]);
    assert_eq!(out["out_int32"].data::<i32>().unwrap(), [-32i32; 6]);
    assert_eq!(out["out_uint32"].data::<u32>().unwrap(), [32u32; 6]);
    assert_eq!(out["out_int64"].data::<i64>().unwrap(), [-64i64; 6]);
    assert_eq!(out["out_uint64"].data::<u64>().unwrap(), [64u64; 6]);
    assert_eq!(out["out_bool"].data::<bool>().unwrap(), [true, false, true, true, false, false]);
    assert_eq!(out["out_string"].strings().unwrap(), ["a", "bb", "", "ünï", "x y", "z"]);
    assert_eq!(out["out_string"].element_type().name(), "string");
    // Taking outputs out keeps the others in place (more than four: held in a Vec).
    let mut out = out;
    let int8 = out.remove("out_int8").unwrap();
    assert_eq!(int8.data::<i8>().unwrap(), [-8i8; 6]);
    assert_eq!(out.len(), 13);
    assert!(out.get("out_int8").is_none());
    assert_eq!(out["out_uint8"].data::<u8>().unwrap(), [8u8; 6]);
    assert_eq!(out.iter().map(|(n, _)| n).last(), Some("out_string"));
    let all = out.into_vec();
    assert_eq!(all[12].strings().unwrap()[1], "bb");
    let e = Tensor::from_strings(&[2], &["only one"]).unwrap_err();
    assert_eq!(e.code(), Code::Shape);
    let e = all[0].strings().unwrap_err(); // out_float32
    assert_eq!(e.code(), Code::Shape);
}

#[test]
fn scalars_npy_and_memory() {
    let dir = scratch("npy");
    let t = Tensor::scalar(16000i64).unwrap();
    assert_eq!(t.shape(), [] as [i64; 0]);
    assert_eq!(t.len(), 1);
    t.write_npy(dir.join("sr.npy")).unwrap();
    let back = Tensor::read_npy(dir.join("sr.npy")).unwrap();
    assert_eq!(back.data::<i64>().unwrap(), [16000]);
    let e = Tensor::read_npy(model("bad_magic.npy")).unwrap_err();
    assert_eq!(e.code(), Code::Format, "{:?}", e);
    let e = Tensor::read_npy(dir.join("missing.npy")).unwrap_err();
    assert_eq!(e.code(), Code::Io, "{:?}", e);

    let bytes = std::fs::read(model("add.onnx")).unwrap();
    let s = runtime().session().open_memory(&bytes).unwrap();
    drop(bytes); // ONNX Runtime copied what it needs
    let a = Tensor::borrow(&[1, 3], &A[..3]).unwrap();
    let out = s.infer(&[&a, &a]).unwrap();
    assert_eq!(out[0].data::<f32>().unwrap(), [2.0f32, 4.0, 6.0]);
    let empty = Tensor::from_vec::<f32>(&[0, 3], Vec::new()).unwrap();
    assert!(empty.is_empty());
    let out = s.infer(&[&empty, &empty]).unwrap();
    assert_eq!(out[0].shape(), [0, 3]);
    assert_eq!(out[0].data::<f32>().unwrap(), [] as [f32; 0]);
}

#[test]
fn providers_in_order_with_the_fallback_policy() {
    let rt = runtime();
    let s = rt.session().provider("cuda").threads(1).open(model("add.onnx")).unwrap();
    let p = s.providers();
    assert_eq!(p.len(), 2, "{:?}", p);
    assert_eq!(p[0].requested, "cuda");
    assert_eq!(p[0].name, "CUDAExecutionProvider");
    assert_eq!(p[1].name, "CPUExecutionProvider");
    assert!(p[1].active);
    let check = rt.check_provider("cuda").unwrap();
    assert_eq!(check.name, "CUDAExecutionProvider");
    assert_eq!(check.active, p[0].active, "{:?} vs {:?}", check, p[0]);
    if !p[0].active {
        assert!(!p[0].reason.is_empty());
        // Strict: the same provider fails the open, with ortkit's reason.
        let e = rt.session().provider("cuda").ep_policy(EpPolicy::Strict).open(model("add.onnx")).unwrap_err();
        assert_eq!(e.code(), Code::Provider, "{:?}", e);
        assert!(e.message().contains("CUDA"), "{}", e);
    }
    let e = rt.session().provider("no-such-provider").ep_policy(EpPolicy::Strict).open(model("add.onnx")).unwrap_err();
    assert_eq!(e.code(), Code::Provider, "{:?}", e);
}

#[test]
fn the_session_cache() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("session-cache");
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let rt = runtime();
    let b = rt.session().cache(&dir).config("session.intra_op.allow_spinning", "0");
    let first = b.open(model("matmul.onnx")).unwrap();
    assert_eq!(first.cache().0, CacheState::Filled, "{:?}", first.cache());
    let second = b.open(model("matmul.onnx")).unwrap();
    assert_eq!(second.cache().0, CacheState::Hit, "{:?}", second.cache());
    let x = Tensor::read_npy(model("matmul_x.npy")).unwrap();
    let y = Tensor::read_npy(model("matmul_y.npy")).unwrap();
    let out = second.infer(&[&x]).unwrap();
    let (got, want) = (out[0].data::<f32>().unwrap(), y.data::<f32>().unwrap());
    assert!(got.iter().zip(want).all(|(g, w)| (g - w).abs() <= 1e-4 * w.abs().max(1.0)));
    assert_eq!(rt.session().open(model("add.onnx")).unwrap().cache().0, CacheState::Off);
}

#[test]
fn one_session_many_threads() {
    let s = Arc::new(runtime().session().threads(1).open(model("add.onnx")).unwrap());
    let shared = Arc::new(Tensor::from_slice(&[2, 3], &B).unwrap()); // one input, every thread
    let handles: Vec<_> = (0..4)
        .map(|k| {
            let (s, shared) = (Arc::clone(&s), Arc::clone(&shared));
            std::thread::spawn(move || {
                for i in 0..200 {
                    let mine = [k as f32, i as f32, 0.0, 1.0, 2.0, 3.0];
                    let a = Tensor::borrow(&[2, 3], &mine).unwrap();
                    let out = s.run(&[("a", &a), ("b", &shared)]).unwrap();
                    let want: Vec<f32> = mine.iter().zip(&B).map(|(x, y)| x + y).collect();
                    assert_eq!(out["sum"].data::<f32>().unwrap(), want.as_slice());
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
}

#[test]
fn cancelling_a_run() {
    let s = runtime().session().threads(1).open(model("slow.onnx")).unwrap();
    let control = Arc::new(RunControl::new(&s).unwrap());
    let x = Tensor::zeros::<f32>(&[1, 256]).unwrap();
    let few = Tensor::scalar(2i64).unwrap();
    control.cancel();
    let e = s.run_with(&[("x", &x), ("iterations", &few)], &[], Some(&control)).unwrap_err();
    assert_eq!(e.code(), Code::Cancelled, "{:?}", e);
    control.reset();
    s.run_with(&[("x", &x), ("iterations", &few)], &[], Some(&control)).unwrap();
    // From another thread, while a long run is in progress.
    let many = Tensor::scalar(1_000_000i64).unwrap();
    let c2 = Arc::clone(&control);
    let t = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(50));
        c2.cancel();
    });
    let e = s.run_with(&[("x", &x), ("iterations", &many)], &[], Some(&control)).unwrap_err();
    t.join().unwrap();
    assert_eq!(e.code(), Code::Cancelled, "{:?}", e);
}

// ---- Silero VAD: the safe API against `ortkit run` ------------------------------

fn cli_run(dir: &Path, args: &[&str]) {
    let cli = material("ORTKIT_TEST_CLI", "ortkit");
    let out = Command::new(&cli)
        .arg("run")
        .arg(material("ORTKIT_TEST_APP_MODEL", "../deps/models/silero_vad.onnx"))
        .args(args)
        .args(["--threads", "1", "--runtime"])
        .arg(runtime_new())
        .arg("-o")
        .arg(dir)
        .env("ORT_DISABLE_TELEMETRY", "1")
        .output()
        .expect("run the ortkit tool");
    assert!(out.status.success(), "ortkit run failed: {}", String::from_utf8_lossy(&out.stderr));
}

fn same(rust: &Tensor, saved: &Path) {
    let cli = Tensor::read_npy(saved).unwrap();
    assert_eq!(rust.shape(), cli.shape(), "{}", saved.display());
    let (r, c) = (rust.data::<f32>().unwrap(), cli.data::<f32>().unwrap());
    // One runtime, one thread, the same inputs: the same bits.
    assert!(r.iter().zip(c).all(|(x, y)| x.to_bits() == y.to_bits()), "{}: {:?} vs {:?}", saved.display(), &r[..r.len().min(4)], &c[..c.len().min(4)]);
}

#[test]
fn silero_vad_gives_what_ortkit_run_gives() {
    let vad = match common::material_opt("ORTKIT_TEST_VAD_DIR", "vad-input") {
        Some(v) => v,
        None => {
            eprintln!("skipped: no Silero VAD inputs (vad-input: `make run` or run_tests.sh makes them)");
            return;
        }
    };
    let app = material("ORTKIT_TEST_APP_MODEL", "../deps/models/silero_vad.onnx");
    let rt = runtime();
    let s = rt.session().threads(1).open(&app).unwrap();
    assert_eq!(s.input_names(), ["input", "sr", "h", "c"]);
    assert_eq!(s.output_names(), ["output", "hn", "cn"]);

    // Audio as plain Vec<f32>s, the way a program has it; the state starts at zero.
    let context: Vec<f32> = Tensor::read_npy(vad.join("context.npy")).unwrap().to_vec().unwrap();
    let speech: Vec<f32> = Tensor::read_npy(vad.join("speech.npy")).unwrap().to_vec().unwrap();
    let sr = Tensor::scalar(16000i64).unwrap();
    let zeros = Tensor::zeros::<f32>(&[2, 1, 64]).unwrap();
    let input = Tensor::borrow(&[1, context.len() as i64], &context).unwrap();
    let first = s.run(&[("input", &input), ("sr", &sr), ("h", &zeros), ("c", &zeros)]).unwrap();
    // The state carried over: the outputs fed back as inputs, as they are.
    let input = Tensor::borrow(&[1, speech.len() as i64], &speech).unwrap();
    let second = s.run(&[("input", &input), ("sr", &sr), ("h", &first["hn"]), ("c", &first["cn"])]).unwrap();

    let dir = scratch("vad");
    let (d1, d2) = (dir.join("1"), dir.join("2"));
    let sr_npy = vad.join("sr.npy");
    let state = vad.join("state.npy");
    let arg = |name: &str, p: &Path| format!("{}={}", name, p.display());
    cli_run(&d1, &["-i", &arg("input", &vad.join("context.npy")), "-i", &arg("sr", &sr_npy), "-i", &arg("h", &state), "-i", &arg("c", &state)]);
    cli_run(&d2, &["-i", &arg("input", &vad.join("speech.npy")), "-i", &arg("sr", &sr_npy), "-i", &arg("h", &d1.join("hn.npy")), "-i", &arg("c", &d1.join("cn.npy"))]);
    for name in ["output", "hn", "cn"] {
        same(&first[name], &d1.join(format!("{}.npy", name)));
        same(&second[name], &d2.join(format!("{}.npy", name)));
    }
    // And it is speech: make_vad_input.py's numbers.
    let p = second["output"].data::<f32>().unwrap()[0];
    assert!(p > 0.5, "speech scored {}", p);
    let silence: Vec<f32> = Tensor::read_npy(vad.join("silence.npy")).unwrap().to_vec().unwrap();
    let quiet = Tensor::from_vec(&[1, silence.len() as i64], silence).unwrap();
    let out = s.run(&[("input", &quiet), ("sr", &sr), ("h", &zeros), ("c", &zeros)]).unwrap();
    assert!(out["output"].data::<f32>().unwrap()[0] < 0.1);
}

/// RuntimeBuilder::model reaches the library (runtime options version 4):
/// with the bundles chosen among, choosing by measurement answers for the
/// model named, and says nothing when none is.  Run in a child of this test
/// binary without ORTKIT_RUNTIME (which would decide before the bundles).
#[test]
fn a_model_named_reaches_choosing_by_measurement() {
    let name = "a_model_named_reaches_choosing_by_measurement";
    if std::env::var_os("ORTKIT_TEST_MODEL_CHILD").is_none() {
        let out = Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--nocapture", "--test-threads=1"])
            .env("ORTKIT_TEST_MODEL_CHILD", "1")
            .env("ORTKIT_TEST_MODELS", common::models())
            .env_remove("ORTKIT_RUNTIME")
            .env_remove("ORTKIT_BUNDLE")
            .output()
            .unwrap();
        let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        assert!(out.status.success(), "the child failed:\n{}", text);
        assert!(text.contains("1 passed"), "the child ran no test:\n{}", text);
        return;
    }
    let plain = Runtime::builder().resolve().expect("resolve");
    assert_eq!(plain.measured(), "", "no model named: {}", plain.source());
    let res = Runtime::builder().model(model("add.onnx"), "N=1", 1).resolve().expect("resolve with a model");
    if !res.source().starts_with("bundle") {
        eprintln!("skipped: no bundle is chosen among here ({})", res.source());
        return;
    }
    let said = res.measured();
    assert!(said.contains("measured"), "choosing by measurement said nothing of the model: '{}'", said);
    eprintln!("{}: {}", res.source(), said);
    let rt = Runtime::builder().model(model("add.onnx"), "", 0).open().expect("open with a model");
    assert!(!rt.version().is_empty());
}
