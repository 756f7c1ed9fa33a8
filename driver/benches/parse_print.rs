//! Benchmark: parse + verify + print of a large module (DESIGN §3 target: a 100k-op module in
//! well under a second in release). Run with `make bench` (or `cargo bench -p stencil-driver
//! --bench parse_print`); the figures are recorded in `bench/results/`, never asserted.

use std::time::{Duration, Instant};
use stencil_driver::opt::Registries;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::verifier::verify;
use stencil_ir::SourceFile;

/// A function of `loops` loop nests, each body a 2-D 5-point stencil update written with
/// memref/arith ops: realistic op mix (loads, float arithmetic, index arithmetic, stores,
/// nested regions) for the text the compiler's later stages print.
fn generate(loops: usize) -> String {
    let mut s = String::from("func.func @big(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %n: index) {\n");
    s.push_str("  %c0 = arith.constant 0 : index\n  %c1 = arith.constant 1 : index\n  %w = arith.constant 2.000000e-01 : f64\n");
    for l in 0..loops {
        s.push_str(&format!(
            "  scf.for %i{l} = %c1 to %n step %c1 {{\n    scf.for %j{l} = %c1 to %n step %c1 {{\n\
      %im{l} = arith.subi %i{l}, %c1 : index\n      %ip{l} = arith.addi %i{l}, %c1 : index\n\
      %jm{l} = arith.subi %j{l}, %c1 : index\n      %jp{l} = arith.addi %j{l}, %c1 : index\n\
      %a{l} = memref.load %A[%i{l}, %j{l}] : memref<?x?xf64>\n      %b{l} = memref.load %A[%im{l}, %j{l}] : memref<?x?xf64>\n\
      %c{l} = memref.load %A[%ip{l}, %j{l}] : memref<?x?xf64>\n      %d{l} = memref.load %A[%i{l}, %jm{l}] : memref<?x?xf64>\n\
      %e{l} = memref.load %A[%i{l}, %jp{l}] : memref<?x?xf64>\n      %s1{l} = arith.addf %a{l}, %b{l} : f64\n\
      %s2{l} = arith.addf %s1{l}, %c{l} : f64\n      %s3{l} = arith.addf %s2{l}, %d{l} : f64\n\
      %s4{l} = arith.addf %s3{l}, %e{l} : f64\n      %r{l} = arith.mulf %s4{l}, %w : f64\n\
      memref.store %r{l}, %B[%i{l}, %j{l}] : memref<?x?xf64>\n    }}\n  }}\n"
        ));
    }
    s.push_str("  return\n}\n");
    s
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let registries = Registries::all();
    // 19 ops per nest: 5263 nests ≈ 100k ops.
    let text = generate(5263);
    let source = SourceFile::new("big.mlir", &text);
    let config = ParserConfig { registry: &registries.dialects, allow_unregistered: false };
    let (mut parse_t, mut verify_t, mut print_t) = (vec![], vec![], vec![]);
    let mut num_ops = 0;
    for _ in 0..7 {
        let t = Instant::now();
        let module = match parse_source(&source, config) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("benchmark input does not parse: {e}");
                std::process::exit(1);
            }
        };
        parse_t.push(t.elapsed());
        let t = Instant::now();
        if let Err(e) = verify(&module.ir, &registries.dialects, module.top, false) {
            eprintln!("benchmark input does not verify: {e}");
            std::process::exit(1);
        }
        verify_t.push(t.elapsed());
        let t = Instant::now();
        let printed = print_op(&module.ir, &registries.dialects, module.top, PrintOptions::default());
        print_t.push(t.elapsed());
        num_ops = module.ir.op_capacity();
        std::hint::black_box(printed);
    }
    let (p, v, r) = (median(parse_t), median(verify_t), median(print_t));
    println!("parse_print: {num_ops} ops, {} bytes of input", text.len());
    println!("  parse   {:8.1} ms", p.as_secs_f64() * 1e3);
    println!("  verify  {:8.1} ms", v.as_secs_f64() * 1e3);
    println!("  print   {:8.1} ms", r.as_secs_f64() * 1e3);
    println!("  total   {:8.1} ms  (median of 7 runs each)", (p + v + r).as_secs_f64() * 1e3);
}
