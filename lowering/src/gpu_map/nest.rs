//! The shape of a `stencil.program` as the direct strategies (`naive`, `overlapped`) see it:
//! `stencil.iterate` loops and `stencil.apply` boxes with bounds affine in the parameters, and
//! for each apply the field it writes and the fields it reads at which offsets.
//!
//! Those strategies build their kernels from this, not from a scanned loop nest: they keep the
//! program's own order (a DOALL apply's points are independent, so any order is the order).

use stencil_ir::affine::AffineExpr;
use stencil_ir::{Attribute, Diagnostic, Ir, Location, OpId, ValueId};
use stencil_passes::stencil_to_poly::ScopInfo;
use stencil_poly::dependence::{DependenceGraph, DependenceLevel, DependenceMode, DependenceOptions};
use stencil_poly::StatementId;

/// A `stencil.iterate` or a `stencil.apply`, in program order.
#[derive(Debug, Clone)]
pub(super) enum NestItem {
    /// `stencil.iterate %iv = lower to upper { body }`.
    Loop(TimeLoop),
    /// `stencil.apply`.
    Apply(ApplyBox),
}

/// A `stencil.iterate`.
#[derive(Debug, Clone)]
pub(super) struct TimeLoop {
    /// Lower bound, over the parameters as symbols (declaration order).
    pub lower: AffineExpr,
    /// Upper bound (exclusive).
    pub upper: AffineExpr,
    /// What it encloses.
    pub body: Vec<NestItem>,
}

/// A read of a `stencil.apply`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Read {
    /// The program argument read.
    pub field: ValueId,
    /// The constant offset from the current point; `None` for a general affine access.
    pub offset: Option<Vec<i64>>,
}

/// A `stencil.apply`.
#[derive(Debug, Clone)]
pub(super) struct ApplyBox {
    /// Its statement in the SCoP.
    pub statement: StatementId,
    /// Its name (`S0`), for messages.
    pub name: String,
    /// The field it writes (a program argument).
    pub written: ValueId,
    /// The box: lower bounds (inclusive) per dimension, over the parameters as symbols.
    pub lower: Vec<AffineExpr>,
    /// Upper bounds (exclusive).
    pub upper: Vec<AffineExpr>,
    /// Its reads, in body order.
    pub reads: Vec<Read>,
    /// Its location.
    pub location: Location,
    /// `None` where its points are independent of each other ([`ApplyBox::is_doall`]);
    /// otherwise where it reads what another point of its sweep writes (the read, or the apply
    /// itself where the analysis could not say).
    doacross_at: Option<Location>,
}

impl ApplyBox {
    /// The number of point dimensions.
    pub fn rank(&self) -> usize {
        self.lower.len()
    }

    /// The box's extent along dimension `d`, `upper − lower`, over the parameters.
    pub fn extent(&self, d: usize) -> Result<AffineExpr, String> {
        difference(&self.upper[d], &self.lower[d])
    }

    /// The field this apply copies, when its body is nothing but that field's value at the
    /// current point (`B[p]` yielded as is: Jacobi's copy-back `A = B`).
    pub fn copied_field(&self, ir: &Ir, info: &ScopInfo) -> Option<ValueId> {
        let apply = info.statements.get(self.statement.0)?.apply;
        let body = ir.regions(apply).first().and_then(|&r| ir.entry_block(r))?;
        let ops = ir.block_ops(body);
        let [access, yield_] = ops[..] else { return None };
        if ir.op_name(access) != "stencil.access" || ir.op_name(yield_) != "stencil.yield" {
            return None;
        }
        let at_point = ir.attr(access, "map").is_none()
            && ir.attr(access, "offset").and_then(Attribute::as_dense_array).is_some_and(|o| o.iter().all(|&x| x == 0));
        let yields_it = ir.operands(yield_) == [ir.result(access, 0)];
        (at_point && yields_it).then(|| ir.operands(access).first().copied()).flatten()
    }

    /// Whether every point is independent of the others: no point reads what another point of
    /// the same sweep writes (a Gauss-Seidel/SOR sweep does: DOACROSS). Decided when the nest
    /// is built ([`program_nest`]): by the offsets where they settle it, otherwise by the
    /// polyhedral dependence analysis.
    pub fn is_doall(&self) -> bool {
        self.doacross_at.is_none()
    }

    /// Whether the offsets alone show the points independent: the written field is read at
    /// the current point only, or at an offset that leaves the box for every parameter value
    /// (a boundary condition copying row 1 into row 0), or not at all. `false` says nothing
    /// either way (a general access such as `at [0, %j]`, a parametric extent).
    fn doall_by_offsets(&self) -> bool {
        self.reads
            .iter()
            .filter(|r| r.field == self.written)
            .all(|r| r.offset.as_ref().is_some_and(|o| o.iter().all(|&x| x == 0) || self.reads_outside_the_box(o)))
    }

    /// Whether a read at `offset` from any point of the box lands outside it, whatever the
    /// parameters: along some dimension the offset is at least the box's extent there (a
    /// constant; a parametric extent can always be larger).
    fn reads_outside_the_box(&self, offset: &[i64]) -> bool {
        offset.iter().enumerate().any(|(d, &o)| {
            // `N - (N - 1)` is the constant 1: compared as a linear form.
            let extent = self.extent(d).ok().and_then(|e| {
                let (dims, symbols) = e.counts();
                let linear = stencil_dialects::stencil::linear::linearize(&e, dims as usize, symbols as usize)?;
                let constant = linear.dims.iter().chain(&linear.symbols).all(|&c| c == 0);
                constant.then_some(linear.constant)
            });
            extent.is_some_and(|e| e >= 0 && o.unsigned_abs() >= e.unsigned_abs())
        })
    }

    /// The error for a strategy that needs DOALL applies.
    pub fn doacross_error(&self, strategy: &str) -> String {
        format!(
            "gpu-map{{{strategy}}} maps DOALL applies only, and {} reads elements of the field it writes that other points of the same sweep write (a dependence along its own sweep: DOACROSS, as in SOR): schedule and tile the program (poly-schedule, poly-tile) and use gpu-map",
            self.name
        )
    }
}

/// `upper − lower` (a loop's or a box's extent), simplified; an error where a constant fold
/// overflows.
pub(super) fn difference(upper: &AffineExpr, lower: &AffineExpr) -> Result<AffineExpr, String> {
    upper
        .clone()
        .checked_sub(lower.clone())
        .map_err(|e| format!("the extent {upper} - ({lower}) overflows: {}", e.what))
}

/// The first apply of `items` (in program order) that is not DOALL ([`ApplyBox::is_doall`]).
pub(super) fn first_doacross(items: &[NestItem]) -> Option<&ApplyBox> {
    items.iter().find_map(|item| match item {
        NestItem::Loop(l) => first_doacross(&l.body),
        NestItem::Apply(a) => (!a.is_doall()).then_some(a),
    })
}

/// Refuses `nest` for a strategy that maps DOALL applies only (`strategy`, as its option
/// reads) where an apply is not ([`ApplyBox::is_doall`]): the error `fail` makes of the
/// message, with a note at that apply, so the user sees which sweep and where.
pub(super) fn require_doall(
    nest: &[NestItem],
    strategy: &str,
    fail: impl FnOnce(String) -> Diagnostic,
) -> Result<(), Diagnostic> {
    match first_doacross(nest) {
        None => Ok(()),
        Some(a) => {
            let at = a.doacross_at.clone().unwrap_or_else(|| a.location.clone());
            Err(fail(a.doacross_error(strategy)).with_note(at, format!("{} reads the field it writes here", a.name)))
        }
    }
}

/// The items of `program`'s body. Fails on ops the direct strategies do not know.
pub(super) fn program_nest(ir: &Ir, program: OpId, info: &ScopInfo) -> Result<Vec<NestItem>, String> {
    let body = ir.regions(program).first().and_then(|&r| ir.entry_block(r)).ok_or("the program has no body")?;
    let mut nest = items(ir, body, info)?;
    settle_doall(&mut nest, &mut SweepDependences::new(ir, info));
    Ok(nest)
}

/// Decides [`ApplyBox::is_doall`] for every apply of `nest`.
fn settle_doall(nest: &mut [NestItem], exact: &mut SweepDependences<'_>) {
    for item in nest {
        match item {
            NestItem::Loop(l) => settle_doall(&mut l.body, exact),
            NestItem::Apply(a) => {
                a.doacross_at = if a.doall_by_offsets() {
                    None
                } else {
                    match exact.dependent_read(a.statement) {
                        Ok(None) => None,
                        Ok(Some(read)) => Some(read),
                        Err(()) => Some(a.location.clone()),
                    }
                }
            }
        }
    }
}

/// The exact answer to "does a sweep depend on itself", from the memory-based dependences of
/// the whole SCoP, computed once and only for a program whose offsets leave the question open.
struct SweepDependences<'a> {
    ir: &'a Ir,
    info: &'a ScopInfo,
    graph: Option<Option<DependenceGraph>>,
}

impl<'a> SweepDependences<'a> {
    fn new(ir: &'a Ir, info: &'a ScopInfo) -> Self {
        SweepDependences { ir, info, graph: None }
    }

    /// Where an instance of `statement` reads what another instance of it writes in the same
    /// execution of its box: the read of a self-dependence (flow or anti, memory-based: every
    /// pair that touches one element) carried by a point loop rather than by the enclosing
    /// time loops; `None` where there is none. An error where the analysis fails (a limit):
    /// the caller takes DOACROSS, the safe answer.
    fn dependent_read(&mut self, statement: StatementId) -> Result<Option<Location>, ()> {
        let (ir, info) = (self.ir, self.info);
        let graph = self.graph.get_or_insert_with(|| {
            let options = DependenceOptions { mode: DependenceMode::MemoryBased, ..DependenceOptions::default() };
            DependenceGraph::compute(&info.scop, &options)
                .map_err(|e| tracing::debug!("dependence analysis for the DOALL test failed: {e}"))
                .ok()
        });
        let Some(graph) = graph else { return Err(()) };
        let origin = info.statements.get(statement.0).ok_or(())?;
        let time_loops = origin.iterates.len();
        let dependence = graph.dependences().iter().find(|d| {
            let within_sweep = matches!(d.level, DependenceLevel::Carried { depth } if depth > time_loops);
            d.source.statement == statement && d.is_self() && within_sweep
        });
        Ok(dependence.map(|d| {
            // The end that is a `stencil.access` (the other is the apply's write).
            [d.target, d.source]
                .into_iter()
                .filter_map(|end| info.access_op(end))
                .find(|&op| op != origin.apply)
                .map_or_else(|| ir.location(origin.apply).clone(), |op| ir.location(op).clone())
        }))
    }
}

fn items(ir: &Ir, block: stencil_ir::BlockId, info: &ScopInfo) -> Result<Vec<NestItem>, String> {
    let mut out = vec![];
    for op in ir.block_ops(block) {
        match ir.op_name(op) {
            "stencil.iterate" => {
                let inner =
                    ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or("a stencil.iterate without body")?;
                out.push(NestItem::Loop(TimeLoop {
                    lower: bound(ir, op, "lower_bound")?.remove(0),
                    upper: bound(ir, op, "upper_bound")?.remove(0),
                    body: items(ir, inner, info)?,
                }));
            }
            "stencil.apply" => out.push(NestItem::Apply(apply_box(ir, op, info)?)),
            // Terminators of the program and iterate bodies.
            "stencil.yield" | "stencil.end" => {}
            other => return Err(format!("'{other}' in a stencil.program body is not supported by this mapping")),
        }
    }
    Ok(out)
}

/// The results of the bound map `name` of `op` (over the parameters as symbols).
fn bound(ir: &Ir, op: OpId, name: &str) -> Result<Vec<AffineExpr>, String> {
    let map = ir
        .attr(op, name)
        .and_then(Attribute::as_affine_map)
        .ok_or_else(|| format!("'{}' has no {name}", ir.op_name(op)))?;
    if map.results.is_empty() {
        return Err(format!("'{}' has an empty {name}", ir.op_name(op)));
    }
    Ok(map.results.clone())
}

fn apply_box(ir: &Ir, op: OpId, info: &ScopInfo) -> Result<ApplyBox, String> {
    let statement = info.statement_of(op).ok_or("a stencil.apply without statement in the SCoP")?;
    let name = info.scop.statement(statement).map_or_else(|| "?".to_string(), |s| s.name().to_string());
    let written = *ir.operands(op).first().ok_or("a stencil.apply without written field")?;
    let body = ir.regions(op).first().and_then(|&r| ir.entry_block(r)).ok_or("a stencil.apply without body")?;
    let mut reads = vec![];
    for access in ir.block_ops(body) {
        if ir.op_name(access) != "stencil.access" {
            continue;
        }
        let field = *ir.operands(access).first().ok_or("a stencil.access without field")?;
        let offset = if ir.attr(access, "map").is_some() {
            None
        } else {
            Some(
                ir.attr(access, "offset")
                    .and_then(Attribute::as_dense_array)
                    .ok_or("a stencil.access without offsets")?
                    .to_vec(),
            )
        };
        reads.push(Read { field, offset });
    }
    Ok(ApplyBox {
        statement,
        name,
        written,
        lower: bound(ir, op, "lower_bounds")?,
        upper: bound(ir, op, "upper_bounds")?,
        reads,
        location: ir.location(op).clone(),
        doacross_at: None,
    })
}
