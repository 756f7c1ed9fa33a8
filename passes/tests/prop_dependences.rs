//! Dependences of extracted SCoPs against executions: for random small stencil programs
//! (1–2 dimensions, 1–3 applies, random offsets inside the fields, in place or on two fields,
//! forward or reverse applies, applies outside any iterate, nested and sibling iterates,
//! general accesses at the point and at the time iterator) the dependence polyhedra of
//! `extract_scop`'s SCoP hold exactly the dependent instance pairs of a direct execution of
//! the IR (`common::execute`, which follows docs/dialects/stencil.md and shares no code with
//! the extraction). The same executions check the extraction itself: the SCoP's instances in
//! original-schedule order are the execution's instances in execution order, and every
//! access relation gives the element the execution touches.

mod common;

use std::fmt::Write;

use proptest::prelude::*;
use stencil_passes::stencil_to_poly::{extract_scop, ScopInfo};
use stencil_poly::{DependenceGraph, DependenceMode, DependenceOptions, Limits};

/// A read of an apply body.
#[derive(Clone, Debug)]
enum Read {
    /// `%F[o0, o1]`.
    Offset { field: usize, offsets: Vec<i64> },
    /// `%F at [%i + o0, %j + o1]`: the same element through the general form.
    AtPoint { field: usize, offsets: Vec<i64> },
    /// `%C at [%t]`: the read-only time-indexed field at the outermost induction variable.
    AtTime,
}

#[derive(Clone, Debug)]
struct Apply {
    write: usize,
    reads: Vec<Read>,
    /// Per dimension, how much the box `[1, N − 1)` shrinks at each end.
    shrink: Vec<(i64, i64)>,
    reverse: bool,
}

/// How the applies are nested in iterates.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// `iterate { A0; A1; A2 }`.
    OneLoop,
    /// `A0; iterate { A1; A2 }`.
    ApplyThenLoop,
    /// `iterate { iterate { A0 }; A1; A2 }`.
    NestedLoop,
    /// `iterate { A0 }; iterate { A1; A2 }`.
    SiblingLoops,
}

#[derive(Clone, Debug)]
struct Program {
    dims: usize,
    two_fields: bool,
    shape: Shape,
    applies: Vec<Apply>,
}

fn read(dims: usize) -> impl Strategy<Value = Read> {
    prop_oneof![
        4 => (0usize..2, proptest::collection::vec(-1i64..=1, dims)).prop_map(|(field, offsets)| Read::Offset { field, offsets }),
        1 => (0usize..2, proptest::collection::vec(-1i64..=1, dims)).prop_map(|(field, offsets)| Read::AtPoint { field, offsets }),
        1 => Just(Read::AtTime),
    ]
}

fn apply(dims: usize) -> impl Strategy<Value = Apply> {
    (
        0usize..2,
        proptest::collection::vec(read(dims), 1..=3),
        proptest::collection::vec((0i64..=1, 0i64..=1), dims),
        proptest::bool::weighted(0.3),
    )
        .prop_map(|(write, reads, shrink, reverse)| Apply { write, reads, shrink, reverse })
}

fn program() -> impl Strategy<Value = Program> {
    let shape = prop_oneof![
        Just(Shape::OneLoop),
        Just(Shape::ApplyThenLoop),
        Just(Shape::NestedLoop),
        Just(Shape::SiblingLoops)
    ];
    (1usize..=2, 1usize..=3, any::<bool>(), shape).prop_flat_map(|(dims, n, two_fields, shape)| {
        proptest::collection::vec(apply(dims), n).prop_map(move |applies| Program { dims, two_fields, shape, applies })
    })
}

impl Program {
    fn field(&self, k: usize) -> &'static str {
        if self.two_fields && k % 2 == 1 {
            "B"
        } else {
            "A"
        }
    }

    /// The text of apply `k`; `time` is the outermost induction variable around it, if any.
    fn apply_text(&self, k: usize, time: Option<&str>, out: &mut String) {
        let a = &self.applies[k];
        let lower: Vec<String> = a.shrink.iter().map(|(lo, _)| (1 + lo).to_string()).collect();
        let upper: Vec<String> = a.shrink.iter().map(|(_, hi)| format!("N - {}", 1 + hi)).collect();
        let order = if a.reverse { " order reverse" } else { "" };
        let coords = ["%i", "%j"];
        let _ = writeln!(
            out,
            "stencil.apply @S{k} writes %{} over [{}] to [{}]{order} {{",
            self.field(a.write),
            lower.join(", "),
            upper.join(", ")
        );
        for (d, c) in coords.iter().enumerate().take(self.dims) {
            let _ = writeln!(out, "  {c} = stencil.index {d}");
        }
        let mut values = Vec::new();
        for (r, read) in a.reads.iter().enumerate() {
            let text = match read {
                Read::Offset { field, offsets } => {
                    let o: Vec<String> = offsets.iter().map(i64::to_string).collect();
                    format!("%{}[{}]", self.field(*field), o.join(", "))
                }
                Read::AtPoint { field, offsets } => {
                    let idx: Vec<String> = coords
                        .iter()
                        .zip(offsets)
                        .map(|(c, &o)| match o {
                            0 => c.to_string(),
                            o if o < 0 => format!("{c} - {}", -o),
                            o => format!("{c} + {o}"),
                        })
                        .collect();
                    format!("%{} at [{}]", self.field(*field), idx.join(", "))
                }
                Read::AtTime => match time {
                    Some(t) => format!("%C at [{t}]"),
                    None => format!("%{}[{}]", self.field(0), vec!["0"; self.dims].join(", ")),
                },
            };
            let _ = writeln!(out, "  %r{r} = stencil.access {text} : f64");
            values.push(format!("%r{r}"));
        }
        let mut acc = values[0].clone();
        for (n, v) in values.iter().enumerate().skip(1) {
            let _ = writeln!(out, "  %s{n} = arith.addf {acc}, {v} : f64");
            acc = format!("%s{n}");
        }
        let _ = writeln!(out, "  stencil.yield {acc} : f64\n}}");
    }

    fn text(&self) -> String {
        let shape = vec!["N"; self.dims].join(", ");
        let fields = if self.two_fields { "AB" } else { "A" };
        let args: Vec<String> = fields
            .chars()
            .map(|f| format!("%{f}: !stencil.field<[{shape}] x f64>"))
            .chain(["%C: !stencil.field<[T] x f64>".into()])
            .collect();
        let mut out = format!("stencil.program @p({}) params [T >= 1, N >= 3] {{\n", args.join(", "));
        let n = self.applies.len();
        match self.shape {
            Shape::OneLoop => {
                out.push_str("stencil.iterate %t = 0 to T {\n");
                (0..n).for_each(|k| self.apply_text(k, Some("%t"), &mut out));
                out.push_str("}\n");
            }
            Shape::ApplyThenLoop => {
                self.apply_text(0, None, &mut out);
                out.push_str("stencil.iterate %t = 0 to T {\n");
                (1..n).for_each(|k| self.apply_text(k, Some("%t"), &mut out));
                out.push_str("}\n");
            }
            Shape::NestedLoop => {
                out.push_str("stencil.iterate %t = 0 to T {\nstencil.iterate %u = 1 to 3 {\n");
                self.apply_text(0, Some("%t"), &mut out);
                out.push_str("}\n");
                (1..n).for_each(|k| self.apply_text(k, Some("%t"), &mut out));
                out.push_str("}\n");
            }
            Shape::SiblingLoops => {
                out.push_str("stencil.iterate %t = 0 to T {\n");
                self.apply_text(0, Some("%t"), &mut out);
                out.push_str("}\nstencil.iterate %v = 0 to T {\n");
                (1..n).for_each(|k| self.apply_text(k, Some("%v"), &mut out));
                out.push_str("}\n");
            }
        }
        out.push_str("}\n");
        out
    }

    fn param_sets(&self) -> Vec<Vec<i64>> {
        match self.dims {
            1 => vec![vec![3, 6], vec![1, 3]],
            _ => vec![vec![2, 5]],
        }
    }
}

/// The extraction agrees with the execution: same instances in the same order, same elements.
fn check_extraction(info: &ScopInfo, trace: &common::Trace, params: &[i64]) -> Result<(), TestCaseError> {
    let limits = Limits::default();
    let mut scheduled = Vec::new();
    for (s, statement) in info.scop.statements().iter().enumerate() {
        for it in statement.domain().enumerate(params, &limits).unwrap() {
            let point: Vec<i64> = it.iter().chain(params).copied().collect();
            scheduled.push((statement.schedule().eval(&point).unwrap(), info.statements[s].apply, it));
        }
    }
    scheduled.sort();
    let order: Vec<_> = scheduled.iter().map(|(_, apply, it)| (*apply, it.clone())).collect();
    prop_assert_eq!(&order, &trace.instances, "original schedule order differs from execution order");
    for e in &trace.events {
        let (apply, it) = &trace.instances[e.instance];
        let s = info.statement_of(*apply).unwrap();
        let a = info.statements[s.0].accesses.iter().position(|&o| o == e.op).unwrap();
        let access = &info.scop.statements()[s.0].accesses()[a];
        let point: Vec<i64> = it.iter().chain(params).copied().collect();
        prop_assert_eq!(access.element(&point).unwrap(), e.element.clone());
        prop_assert_eq!(access.is_write(), e.is_write);
        prop_assert_eq!(info.arrays[access.array().0], e.field);
    }
    Ok(())
}

fn check(spec: &Program, mode: DependenceMode) -> Result<(), TestCaseError> {
    let registry = stencil_dialects::registry();
    let text = spec.text();
    let module = common::parse(&text, &registry, true);
    let program = common::program(&module);
    let info = extract_scop(&module.ir, &registry, program).map_err(|d| TestCaseError::fail(d.render()))?;
    let graph = DependenceGraph::compute(&info.scop, &DependenceOptions { mode, ..Default::default() })
        .map_err(|e| TestCaseError::fail(e.to_string()))?;
    for params in spec.param_sets() {
        let trace = common::execute(&module.ir, program, &params);
        check_extraction(&info, &trace, &params)?;
        let (memory, direct) = common::traced_pairs(&info, &trace);
        let want = if mode == DependenceMode::Direct { direct } else { memory };
        let got = common::analysed_pairs(&info, &graph, &params);
        prop_assert!(got == want, "params {:?}\n{}\n{}", params, text, graph.display(&info.scop));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn direct_dependences_match_an_execution(spec in program()) {
        check(&spec, DependenceMode::Direct)?;
    }

    #[test]
    fn memory_based_dependences_match_an_execution(spec in program()) {
        check(&spec, DependenceMode::MemoryBased)?;
    }
}
