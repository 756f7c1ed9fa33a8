//! SOR recognition of apply bodies far longer than any hand-written update: the body's
//! expression is lowered without recursing, so a chain of any length is refused or recognised
//! with a reason instead of overflowing the stack (15,000 `arith.addf` did, and aborted).

mod common;

use stencil_ir::ir::WalkOrder;
use stencil_ir::{Ir, Module, OpId};
use stencil_passes::sor::{recognize, Omega, RecognitionOptions, Refusal};

/// Ops in each generated chain: several times what overflows a test thread's 2 MiB stack with
/// the recursive lowering (15,000 overflowed the 8 MiB main thread in release).
const CHAIN: usize = 20_000;

/// A 2-D program whose apply yields `body`'s last value `%v{CHAIN}` (the reads `%c`, `%n`,
/// `%s`, `%e`, `%ww` and the scalar `%w` defined before it).
fn program(body: &str) -> String {
    format!(
        "stencil.program @p(%A: !stencil.field<[N, M] x f64>, %w: f64) params [T >= 1, N >= 3, M >= 3] defaults [T = 2, N = 8, M = 8, w = 1.5] {{
  stencil.iterate %t = 0 to T {{
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {{
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %e = stencil.access %A[0, -1] : f64
      %ww = stencil.access %A[0, 1] : f64
{body}      stencil.yield %v{CHAIN} : f64
    }}
  }}
}}
"
    )
}

fn apply_of(ir: &Ir, module: &Module) -> OpId {
    ir.collect_ops(module.top, WalkOrder::PreOrder)
        .into_iter()
        .find(|&o| ir.op_name(o) == "stencil.apply")
        .expect("a stencil.apply")
}

#[test]
fn a_long_chain_is_refused_with_its_reason() {
    // c + c + n + n + …: reads only two of the four neighbours.
    let mut body = String::from("      %v0 = arith.addf %c, %c : f64\n");
    for k in 1..=CHAIN {
        body.push_str(&format!("      %v{k} = arith.addf %v{}, %n : f64\n", k - 1));
    }
    let registry = stencil_dialects::registry();
    let module = common::parse(&program(&body), &registry, true);
    let apply = apply_of(&module.ir, &module);
    let refused = recognize(&module.ir, apply, &RecognitionOptions::default()).expect_err("not an SOR update");
    assert_eq!(refused.at, apply);
    assert!(matches!(&refused.reason, Refusal::MissingNeighbour(n, 5) if n == "A[0, -1]"), "{:?}", refused.reason);
}

#[test]
fn a_long_chain_is_recognised() {
    // (1 − ω·(1·1·…·1))·c + ω/4·Σ neighbours: the chain of constant products is folded as the
    // e-graph takes it in.
    let mut body = String::from(
        "      %one = arith.constant 1.0 : f64
      %four = arith.constant 4.0 : f64
      %p0 = arith.mulf %one, %one : f64
",
    );
    for k in 1..CHAIN {
        body.push_str(&format!("      %p{k} = arith.mulf %p{}, %one : f64\n", k - 1));
    }
    body.push_str(&format!(
        "      %wp = arith.mulf %w, %p{last} : f64
      %keep = arith.subf %one, %wp : f64
      %kc = arith.mulf %keep, %c : f64
      %s1 = arith.addf %n, %s : f64
      %s2 = arith.addf %s1, %e : f64
      %s3 = arith.addf %s2, %ww : f64
      %wq = arith.divf %w, %four : f64
      %r = arith.mulf %wq, %s3 : f64
      %v{CHAIN} = arith.addf %kc, %r : f64
",
        last = CHAIN - 1
    ));
    let registry = stencil_dialects::registry();
    let module = common::parse(&program(&body), &registry, true);
    let apply = apply_of(&module.ir, &module);
    let options = RecognitionOptions { node_limit: 10 * CHAIN, ..RecognitionOptions::default() };
    let update = recognize(&module.ir, apply, &options).unwrap_or_else(|r| panic!("refused: {}", r.reason));
    assert!(matches!(&update.omega, Omega::Scalar { name, .. } if name == "w"), "{:?}", update.omega);
    assert_eq!(update.neighbours.len(), 4);
    assert!(update.centre.is_some());
}
