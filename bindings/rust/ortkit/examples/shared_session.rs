//! S3: a session held in `Arc<Mutex<_>>` and used from several threads, as
//! the seeds' TTS model holds its `ort` session; and the same without the
//! lock, since an ortkit session may be run from many threads at once.
//!
//!     cargo run --example shared_session -- silero_vad.onnx [THREADS]
//!
//! Each thread scores its own audio, chunk by chunk, carrying the model's
//! recurrent state from one chunk to the next; the results must equal those
//! of one thread doing all the work.
use ortkit::{Session, Tensor};
use std::sync::{Arc, Mutex};

/// A voice-activity detector over a shared session: what a service would
/// keep in a struct and clone into its workers.
#[derive(Clone)]
struct Vad {
    session: Arc<Mutex<Session>>,
}

impl Vad {
    /// Speech probabilities of consecutive 96 ms chunks of `audio`.
    fn score(&self, audio: &[f32]) -> ortkit::Result<Vec<f32>> {
        let sr = Tensor::scalar(16000i64)?;
        let mut h = Tensor::zeros::<f32>(&[2, 1, 64])?;
        let mut c = Tensor::zeros::<f32>(&[2, 1, 64])?;
        let mut probs = Vec::new();
        for chunk in audio.chunks_exact(1536) {
            let x = Tensor::borrow(&[1, 1536], chunk)?;
            // The lock is held for the run only; the outputs are the caller's.
            let mut out = self.session.lock().unwrap().run(&[("input", &x), ("sr", &sr), ("h", &h), ("c", &c)])?;
            probs.push(out["output"].data::<f32>()?[0]);
            h = out.remove("hn").unwrap(); // the state goes back in as it is
            c = out.remove("cn").unwrap();
        }
        Ok(probs)
    }
}

/// Deterministic audio of its own for each worker: a chirp and noise.
fn audio(seed: u32) -> Vec<f32> {
    let mut x = seed.wrapping_mul(2654435761) | 1;
    (0..1536 * 8)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let t = i as f32 / 16000.0;
            0.3 * (t * (300.0 + 50.0 * seed as f32) * std::f32::consts::TAU * (1.0 + t)).sin() + 0.05 * ((x % 2000) as f32 / 1000.0 - 1.0)
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 2 {
        eprintln!("usage: shared_session SILERO_VAD.onnx [THREADS]");
        std::process::exit(2);
    }
    let threads: u32 = args.get(2).map(|t| t.parse().expect("THREADS is a number")).unwrap_or(4);
    if let Err(e) = run(&args[1], threads) {
        eprintln!("shared_session: {}", e);
        std::process::exit(1);
    }
}

fn run(model: &str, threads: u32) -> ortkit::Result<()> {
    let session = Session::builder().threads(1).open(model)?;
    let vad = Vad { session: Arc::new(Mutex::new(session)) };

    // The reference: one thread scores every worker's audio.
    let want: Vec<Vec<f32>> = (0..threads).map(|k| vad.score(&audio(k))).collect::<Result<_, _>>()?;

    // Arc<Mutex<Session>>: every worker through the lock.
    let workers: Vec<_> = (0..threads)
        .map(|k| {
            let vad = vad.clone();
            std::thread::spawn(move || vad.score(&audio(k)))
        })
        .collect();
    let got: Vec<Vec<f32>> = workers.into_iter().map(|w| w.join().unwrap()).collect::<Result<_, _>>()?;
    check("Arc<Mutex<Session>>", &want, &got);

    // Arc<Session>: Session is Sync (run.h: "A session may be run from many
    // threads at once"), so no lock is needed at all.
    let shared: Arc<Session> = Arc::new(Arc::try_unwrap(vad.session).ok().unwrap().into_inner().unwrap());
    let workers: Vec<_> = (0..threads)
        .map(|k| {
            let s = Arc::clone(&shared);
            std::thread::spawn(move || -> ortkit::Result<f32> {
                let a = audio(k);
                let x = Tensor::borrow(&[1, 1536], &a[..1536])?;
                let (sr, z) = (Tensor::scalar(16000i64)?, Tensor::zeros::<f32>(&[2, 1, 64])?);
                Ok(s.run(&[("input", &x), ("sr", &sr), ("h", &z), ("c", &z)])?["output"].data::<f32>()?[0])
            })
        })
        .collect();
    for (k, w) in workers.into_iter().enumerate() {
        let p = w.join().unwrap()?;
        assert_eq!(p.to_bits(), want[k][0].to_bits(), "thread {}: Arc<Session> gave {}, one thread {}", k, p, want[k][0]);
    }
    println!("{} threads x {} chunks: the same probabilities as one thread, through Arc<Mutex<Session>> and Arc<Session>", threads, want[0].len());
    for (k, p) in want.iter().enumerate() {
        let shown: Vec<String> = p.iter().map(|x| format!("{:.3}", x)).collect();
        println!("thread {}: {}", k, shown.join(" "));
    }
    Ok(())
}

fn check(how: &str, want: &[Vec<f32>], got: &[Vec<f32>]) {
    for (k, (w, g)) in want.iter().zip(got).enumerate() {
        let same = w.len() == g.len() && w.iter().zip(g).all(|(a, b)| a.to_bits() == b.to_bits());
        if !same {
            eprintln!("shared_session: thread {} through {} gave {:?}, one thread {:?}", k, how, g, w);
            std::process::exit(1);
        }
    }
}
