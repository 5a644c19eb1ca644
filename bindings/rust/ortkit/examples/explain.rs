//! Which runtime, and why: the account ortkit keeps of its search, then the
//! runtime it loads.
//!
//!     cargo run --example explain -- [--path LIB|DIR] [--bundle NAME|VERSION] [--min-version V]
use ortkit::Runtime;

fn main() {
    let mut b = Runtime::builder();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| usage());
        b = match a.as_str() {
            "--path" => b.path(value()),
            "--bundle" => b.bundle(value()),
            "--min-version" => b.min_version(value()),
            _ => usage(),
        };
    }
    let res = match b.explain() {
        Ok(r) => r,
        Err(e) => fail(e),
    };
    print!("{}", res);
    if let Some((pin, from)) = res.pin() {
        println!("pin      {} (from {})", pin, from);
    }
    if let Some(why) = res.bundle_choice() {
        println!("bundles  {}", why);
    }
    match res.open() {
        Ok(rt) => println!("loaded   ONNX Runtime {} from {} (found by {})", rt.version(), rt.path().display(), rt.source()),
        Err(e) => fail(e),
    }
}

fn fail(e: ortkit::Error) -> ! {
    eprintln!("explain: {} ({})", e, e.code());
    std::process::exit(1);
}

fn usage() -> ! {
    eprintln!("usage: explain [--path LIB|DIR] [--bundle NAME|VERSION] [--min-version V]");
    std::process::exit(2);
}
