//! S0: a session builder and one-shot inference, as the `ort-wrapper` crate
//! of the seeds offered it (`SessionBuilder` + `infer()`), on Silero VAD.
//!
//!     cargo run --example oneshot -- silero_vad.onnx
//!
//! The runtime is found as ortkit finds it (ORTKIT_RUNTIME, the best bundle
//! for this machine, the set-up location, ONNXRUNTIME_DIR, pkg-config, the
//! system); CUDA is asked for and the CPU taken when it cannot be used.
use ortkit::{Runtime, Session, Tensor};
use std::f32::consts::PI;

fn main() {
    let model = match std::env::args().nth(1) {
        Some(m) => m,
        None => {
            eprintln!("usage: oneshot SILERO_VAD.onnx");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&model) {
        eprintln!("oneshot: {}", e); // ortkit's message: it names the file, tensor or provider
        std::process::exit(1);
    }
}

fn run(model: &str) -> ortkit::Result<()> {
    let rt = Runtime::open()?;
    println!("runtime   ONNX Runtime {} ({}, found by {})", rt.version(), rt.path().display(), rt.source());

    // The builder: threads, providers in order of preference (the CPU is
    // always last), falling back when one cannot be added.
    let session = rt.session().threads(1).provider("cuda").open(model)?;
    for p in session.providers() {
        let why = if p.active { String::new() } else { format!(" (skipped: {})", p.reason) };
        println!("provider  {}{}", p.name, why);
    }

    // One-shot inference: 96 ms of a 440 Hz tone at 16 kHz, from a zero state.
    let tone: Vec<f32> = (0..1536).map(|i| 0.5 * (2.0 * PI * 440.0 * i as f32 / 16000.0).sin()).collect();
    let audio = Tensor::borrow(&[1, tone.len() as i64], &tone)?; // no copy
    let sr = Tensor::scalar(16000i64)?;
    let state = Tensor::zeros::<f32>(&[2, 1, 64])?;
    let out = session.infer(&[&audio, &sr, &state, &state])?; // inputs in model order
    let p: &[f32] = out["output"].data()?;
    println!("output    {:?} {:?}: speech probability of a tone {:.4}", out["output"].shape(), p, p[0]);

    // Or all at once, on the default runtime: ortkit::infer(model, inputs).
    let quiet = Tensor::zeros::<f32>(&[1, 1536])?;
    let out = ortkit::infer(model, &[&quiet, &sr, &state, &state])?;
    println!("output    speech probability of silence {:.4}", out[0].data::<f32>()?[0]);

    // A session builder with no runtime opens the default one itself.
    let _same = Session::builder().threads(1).open(model)?;
    Ok(())
}
