//! What the safe API adds to a run, measured against the C API it wraps, on
//! one session in one process (docs/PERFORMANCE.md, "The Rust crate").
//!
//!     cargo run --release --example overhead -- MODEL [-i NAME=FILE.npy]... [--rounds N] [--block N] [--only rust|c]
//!
//! Both sides run the same session on the same input tensors, in
//! alternating blocks (which side goes first alternates each round) so that
//! drift in clock speed or cache state hits both alike:
//! - C: `ortkit_session_run` by name, then `ortkit_tensor_free` of each
//!   output: what a C program writes (bench/overhead.c's ortkit side);
//! - Rust: `Session::run` by name, then the `Outputs` dropped.
//!
//! Reports the median and mean time per run of each, their difference and
//! ratio.  Inputs not given as `.npy` files are zeros (symbolic dimensions
//! 1).  `--only` runs one side's timed loop, for `valgrind
//! --tool=callgrind` to count its instructions.
use ortkit::{sys, Session, Tensor};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mut model = None;
    let (mut rounds, mut block, mut only) = (200usize, 500usize, None::<String>);
    let mut given: Vec<(String, String)> = Vec::new();
    let mut i = 1;
    while i < args.len() {
        let next = |i: usize| args.get(i + 1).cloned().unwrap_or_else(|| usage());
        match args[i].as_str() {
            "--rounds" => rounds = next(i).parse().unwrap_or_else(|_| usage()),
            "--block" => block = next(i).parse().unwrap_or_else(|_| usage()),
            "--only" => only = Some(next(i)),
            "-i" => {
                let v = next(i);
                let (name, file) = v.split_once('=').unwrap_or_else(|| usage());
                given.push((name.to_string(), file.to_string()));
            }
            m if !m.starts_with('-') && model.is_none() => {
                model = Some(m.to_string());
                i += 1;
                continue;
            }
            _ => usage(),
        }
        i += 2;
    }
    let model = model.unwrap_or_else(|| usage());
    if rounds == 0 || block == 0 || only.as_deref().map_or(false, |o| o != "rust" && o != "c") {
        usage();
    }
    if let Err(e) = bench(&model, &given, rounds, block, only.as_deref()) {
        eprintln!("overhead: {}", e);
        std::process::exit(1);
    }
}

fn usage() -> ! {
    eprintln!("usage: overhead MODEL [-i NAME=FILE.npy]... [--rounds N] [--block N] [--only rust|c]");
    std::process::exit(2);
}

fn bench(model: &str, given: &[(String, String)], rounds: usize, block: usize, only: Option<&str>) -> ortkit::Result<()> {
    let session = Session::builder().threads(1).inter_threads(1).open(model)?;
    // Each input from its file, else zeros (symbolic dimensions 1).
    let inputs: Vec<Tensor> = session
        .inputs()
        .iter()
        .map(|io| match given.iter().find(|(n, _)| *n == io.name) {
            Some((_, file)) => Tensor::read_npy(file),
            None => {
                let shape: Vec<i64> = io.dims.as_ref().map_or(vec![], |d| d.iter().map(|d| d.value.unwrap_or(1)).collect());
                Tensor::new_of(io.element_type, &shape)
            }
        })
        .collect::<Result<_, _>>()?;
    let names: Vec<String> = session.input_names().to_vec();
    let named: Vec<(&str, &Tensor)> = names.iter().map(|s| s.as_str()).zip(inputs.iter()).collect();

    // The C side's arrays, made once as a C program would.
    let c_names: Vec<std::ffi::CString> = names.iter().map(|n| std::ffi::CString::new(n.as_str()).unwrap()).collect();
    let c_name_ptrs: Vec<*const std::os::raw::c_char> = c_names.iter().map(|n| n.as_ptr()).collect();
    let c_inputs: Vec<*const sys::ortkit_tensor> = inputs.iter().map(|t| t.as_raw() as *const _).collect();
    let mut c_outs: Vec<*mut sys::ortkit_tensor> = vec![std::ptr::null_mut(); session.output_names().len()];
    let raw = session.as_raw();
    let mut c_run = || unsafe {
        let rc = sys::ortkit_session_run(raw, std::ptr::null_mut(), c_name_ptrs.as_ptr(), c_inputs.as_ptr(),
                                         c_inputs.len(), std::ptr::null(), 0, c_outs.as_mut_ptr());
        if rc != 0 {
            let msg = std::ffi::CStr::from_ptr(sys::ortkit_error_last()).to_string_lossy();
            eprintln!("overhead: the C run failed: {}", msg);
            std::process::exit(1);
        }
        for o in c_outs.iter_mut() {
            sys::ortkit_tensor_free(*o);
            *o = std::ptr::null_mut();
        }
    };
    let rust_run = || -> ortkit::Result<()> {
        drop(session.run(&named)?);
        Ok(())
    };

    for _ in 0..200 {
        c_run();
        rust_run()?;
    }
    let (mut t_c, mut t_rust) = (Vec::with_capacity(rounds), Vec::with_capacity(rounds));
    for r in 0..rounds {
        for side in 0..2 {
            let rust = (side == 0) == (r % 2 == 0);
            if only.map_or(false, |o| o != if rust { "rust" } else { "c" }) {
                continue;
            }
            let start = Instant::now();
            if rust {
                for _ in 0..block {
                    rust_run()?;
                }
            } else {
                for _ in 0..block {
                    c_run();
                }
            }
            let per_run = start.elapsed().as_secs_f64() / block as f64;
            if rust { t_rust.push(per_run) } else { t_c.push(per_run) }
        }
    }
    if only.is_some() {
        return Ok(());
    }
    let stats = |v: &mut Vec<f64>| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (v[v.len() / 2], mean)
    };
    let ((med_c, mean_c), (med_r, mean_r)) = (stats(&mut t_c), stats(&mut t_rust));
    println!("model      {}", model);
    println!("runs       {} rounds x {} runs per side, interleaved; one session, 1 intra-op thread", rounds, block);
    println!("           {:>12} {:>12} {:>12}", "C API", "Rust API", "Rust-C");
    println!("median/run {:>9.3} us {:>9.3} us {:>+9.3} us", med_c * 1e6, med_r * 1e6, (med_r - med_c) * 1e6);
    println!("mean/run   {:>9.3} us {:>9.3} us {:>+9.3} us", mean_c * 1e6, mean_r * 1e6, (mean_r - mean_c) * 1e6);
    println!("ratio      {:.4} (median), {:.4} (mean)", med_r / med_c, mean_r / mean_c);
    Ok(())
}
