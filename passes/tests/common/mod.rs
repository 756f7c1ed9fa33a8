//! Shared helpers of the stencil-passes tests: parsing, a direct executor of stencil programs
//! that records every memory access (straight from the IR and the dialect's documented
//! semantics, independent of the SCoP extraction), and the dependent instance pairs of such a
//! trace and of a dependence graph.

#![allow(dead_code)]

use std::collections::{BTreeSet, HashMap};

use stencil_dialects::stencil::ApplyOrder;
use stencil_ir::ir::ValueDef;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::verifier::verify;
use stencil_ir::{Attribute, BlockId, DialectRegistry, Ir, Module, OpId, SourceFile, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::{DependenceGraph, Limits};

/// Parses `text` (panics with the diagnostic on a parse error); verifies it when `verified`.
pub fn parse(text: &str, registry: &DialectRegistry, verified: bool) -> Module {
    let source = SourceFile::new("test.mlir", text);
    let module = parse_source(&source, ParserConfig { registry, allow_unregistered: true })
        .unwrap_or_else(|d| panic!("{}\n{text}", d.render()));
    if verified {
        verify(&module.ir, registry, module.top, true).unwrap_or_else(|d| panic!("{}\n{text}", d.render()));
    }
    module
}

/// The first `stencil.program` of a module.
pub fn program(module: &Module) -> OpId {
    module
        .ir
        .collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)
        .into_iter()
        .find(|&o| module.ir.op_name(o) == "stencil.program")
        .expect("a stencil.program")
}

/// One memory access of an execution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// Index of the instance in execution order.
    pub instance: usize,
    /// The apply and the access op (the apply itself for the write).
    pub apply: OpId,
    pub op: OpId,
    pub field: ValueId,
    pub element: Vec<i64>,
    pub is_write: bool,
}

/// An execution: its instances in order (apply, iteration vector = enclosing induction
/// variables outermost first, then the point) and its accesses.
#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub instances: Vec<(OpId, Vec<i64>)>,
    pub events: Vec<Event>,
}

/// Runs `program` with the given parameter values as `docs/dialects/stencil.md` defines it —
/// iterates in order, ops of a body in textual order, the points of an apply in lexicographic
/// (or reverse lexicographic) order, each point's reads (body order) before its write — and
/// records every access.
pub fn execute(ir: &Ir, program: OpId, params: &[i64]) -> Trace {
    let mut trace = Trace::default();
    let body = ir.entry_block(ir.regions(program)[0]).unwrap();
    run_block(ir, body, params, &mut Vec::new(), &mut trace);
    trace
}

fn bound(ir: &Ir, op: OpId, attr: &str, params: &[i64]) -> Vec<i64> {
    ir.attr(op, attr).and_then(Attribute::as_affine_map).unwrap().eval(&[], params).unwrap()
}

fn run_block(ir: &Ir, block: BlockId, params: &[i64], ivs: &mut Vec<(ValueId, i64)>, trace: &mut Trace) {
    for op in ir.block_ops(block) {
        match ir.op_name(op) {
            "stencil.iterate" => {
                let (lo, hi) = (bound(ir, op, "lower_bound", params)[0], bound(ir, op, "upper_bound", params)[0]);
                let body = ir.entry_block(ir.regions(op)[0]).unwrap();
                let iv = ir.block_args(body)[0];
                for v in lo..hi {
                    ivs.push((iv, v));
                    run_block(ir, body, params, ivs, trace);
                    ivs.pop();
                }
            }
            "stencil.apply" => run_apply(ir, op, params, ivs, trace),
            other => panic!("unexpected {other}"),
        }
    }
}

fn box_points(lo: &[i64], hi: &[i64]) -> Vec<Vec<i64>> {
    let mut points = vec![vec![]];
    for (&l, &h) in lo.iter().zip(hi) {
        points = points.into_iter().flat_map(|p| (l..h).map(move |x| [p.clone(), vec![x]].concat())).collect();
    }
    points
}

fn run_apply(ir: &Ir, apply: OpId, params: &[i64], ivs: &[(ValueId, i64)], trace: &mut Trace) {
    let mut points = box_points(&bound(ir, apply, "lower_bounds", params), &bound(ir, apply, "upper_bounds", params));
    if ApplyOrder::of(ir, apply) == ApplyOrder::Reverse {
        points.reverse();
    }
    let body = ir.entry_block(ir.regions(apply)[0]).unwrap();
    for point in points {
        let instance = trace.instances.len();
        let iteration: Vec<i64> = ivs.iter().map(|&(_, v)| v).chain(point.iter().copied()).collect();
        trace.instances.push((apply, iteration));
        for op in ir.block_ops(body).into_iter().filter(|&o| ir.op_name(o) == "stencil.access") {
            let element = match ir.attr(op, "offset").and_then(Attribute::as_dense_array) {
                Some(offsets) => point.iter().zip(offsets).map(|(p, o)| p + o).collect(),
                None => {
                    let values: Vec<i64> = ir.operands(op)[1..]
                        .iter()
                        .map(|&v| match ir.value_def(v) {
                            ValueDef::Result { op: def, .. } => {
                                point[ir.attr(def, "dim").and_then(Attribute::as_i64).unwrap() as usize]
                            }
                            _ => ivs.iter().find(|(iv, _)| *iv == v).unwrap().1,
                        })
                        .collect();
                    ir.attr(op, "map").and_then(Attribute::as_affine_map).unwrap().eval(&values, &[]).unwrap()
                }
            };
            let field = ir.operands(op)[0];
            trace.events.push(Event { instance, apply, op, field, element, is_write: false });
        }
        let field = ir.operands(apply)[0];
        trace.events.push(Event { instance, apply, op: apply, field, element: point.clone(), is_write: true });
    }
}

/// A dependent pair: (source statement, access, iteration), (target statement, access,
/// iteration), with statement and access ids of the SCoP.
pub type PairKey = (usize, usize, Vec<i64>, usize, usize, Vec<i64>);

/// The dependent instance pairs of a trace: (memory-based, direct) — pairs of accesses to the
/// same element by different instances, at least one a write, the source first; direct ones
/// have no write to the element by an instance strictly between.
pub fn traced_pairs(info: &ScopInfo, trace: &Trace) -> (BTreeSet<PairKey>, BTreeSet<PairKey>) {
    let id = |e: &Event| {
        let s = info.statement_of(e.apply).expect("every apply is a statement");
        let a = info.statements[s.0].accesses.iter().position(|&o| o == e.op).expect("every access is modelled");
        (s.0, a, trace.instances[e.instance].1.clone())
    };
    let mut by_cell: HashMap<(ValueId, Vec<i64>), Vec<&Event>> = HashMap::new();
    for e in &trace.events {
        by_cell.entry((e.field, e.element.clone())).or_default().push(e);
    }
    let mut memory = BTreeSet::new();
    let mut direct = BTreeSet::new();
    for events in by_cell.values() {
        let writes: Vec<usize> = events.iter().filter(|e| e.is_write).map(|e| e.instance).collect();
        for (x, a) in events.iter().enumerate() {
            for b in &events[x + 1..] {
                if a.instance == b.instance || !(a.is_write || b.is_write) {
                    continue;
                }
                let (sa, aa, ia) = id(a);
                let (sb, ab, ib) = id(b);
                let key = (sa, aa, ia, sb, ab, ib);
                let killed = writes.iter().any(|&w| a.instance < w && w < b.instance);
                if !killed {
                    direct.insert(key.clone());
                }
                memory.insert(key);
            }
        }
    }
    (memory, direct)
}

/// The instance pairs of the dependence polyhedra at the given parameter values; panics if a
/// pair is in two dependences.
pub fn analysed_pairs(info: &ScopInfo, graph: &DependenceGraph, params: &[i64]) -> BTreeSet<PairKey> {
    let mut out = BTreeSet::new();
    for d in graph.dependences() {
        let ns = info.scop.statements()[d.source.statement.0].n_iterators();
        for p in d.polyhedron.enumerate(params, &Limits::default()).unwrap() {
            let key = (
                d.source.statement.0,
                d.source.access.0,
                p[..ns].to_vec(),
                d.target.statement.0,
                d.target.access.0,
                p[ns..].to_vec(),
            );
            assert!(out.insert(key.clone()), "pair {key:?} in two dependences:\n{}", graph.display(&info.scop));
        }
    }
    out
}
