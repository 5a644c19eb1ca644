//! Many runs through every kind of handle the crate frees, for a leak
//! checker: `valgrind --leak-check=full target/debug/examples/leakcheck
//! add.onnx 10000` (the test `valgrind_finds_no_leak` does this).
//!
//! RUNS successful runs, taking turns: by name on a borrowed and a moved-in
//! tensor, in model order on a copied tensor and the previous output (fed
//! back), for a chosen output under a run control; outputs are read as
//! slices.  Every 100th run also fails twice on purpose (a wrong element
//! type, a name the model lacks).  The runtime, session and control are
//! opened again every 2,500 runs.  Every handle is dropped by the end.
use ortkit::{Code, RunControl, Runtime, Tensor};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: leakcheck ADD.onnx RUNS");
        std::process::exit(2);
    }
    let runs: usize = args[2].parse().expect("RUNS is a number");
    if let Err(e) = run(&args[1], runs) {
        eprintln!("leakcheck: {}", e);
        std::process::exit(1);
    }
}

fn run(model: &str, runs: usize) -> ortkit::Result<()> {
    let a_data = [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0];
    let mut checksum = 0.0f64;
    let mut done = 0;
    while done < runs {
        let rt = Runtime::open()?;
        let session = rt.session().threads(1).open(model)?;
        let control = RunControl::new(&session)?;
        drop(rt); // the session keeps it alive
        let mut last = Tensor::zeros::<f32>(&[2, 3])?;
        for _ in 0..2500.min(runs - done) {
            let a = Tensor::borrow(&[2, 3], &a_data)?;
            let mut out = match done % 3 {
                0 => session.run(&[("a", &a), ("b", &Tensor::from_vec(&[2, 3], vec![0.5f32; 6])?)])?,
                1 => session.infer(&[&Tensor::from_slice(&[2, 3], &a_data)?, &last])?,
                _ => session.run_with(&[("a", &last), ("b", &a)], &["sum"], Some(&control))?,
            };
            checksum += out["sum"].data::<f32>()?.iter().map(|&x| x as f64).sum::<f64>();
            last = out.remove("sum").unwrap();
            if done % 100 == 0 {
                let wrong = Tensor::zeros::<i64>(&[2, 3])?;
                assert_eq!(session.run(&[("a", &wrong), ("b", &a)]).unwrap_err().code(), Code::Shape);
                assert_eq!(session.run(&[("x", &a), ("b", &a)]).unwrap_err().code(), Code::Name);
            }
            done += 1;
        }
    }
    println!("{} runs, checksum {}", done, checksum);
    Ok(())
}
