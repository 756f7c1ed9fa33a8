//! Recognition of a relaxed Gauss-Seidel (SOR) update inside a `stencil.apply` (thesis Eq. 6.4:
//! `u[i][j] = (1 − ω)·u[i][j] + ω/4·(u[i−1][j] + u[i][j−1] + u[i+1][j] + u[i][j+1])`, and its
//! 3-D 7-point analogue with `ω/6`), however the body writes it.
//!
//! Three steps, each able to refuse with the reason:
//!
//! 1. **Structure** (`BodyExpr::build`): the yielded value is an expression of `+ − × ÷`,
//!    negation and `math.fma` over reads of the written field at constant offsets, float scalar
//!    arguments and constants. The reads must be the current point (optional: ω = 1 has no
//!    centre term) and exactly the `2·rank` unit neighbours of the Laplacian; at most one scalar
//!    (it is ω).
//! 2. **Weights** (`probe`): the expression is evaluated at unit vectors to read off the weight
//!    of every leaf. This finds ω (the scalar, or `rank·2·w` for a constant neighbour weight
//!    `w`) and explains a refusal precisely (unequal neighbour weights, a centre weight other
//!    than `1 − ω`, a constant term, non-linearity). Evaluation only *suggests*; it proves
//!    nothing.
//! 3. **Proof** (`prove`): an e-graph (egg) holding the body's expression and the canonical
//!    update `(1 − ω)·c + ω/(2·rank)·Σ neighbours` is saturated with the chosen [`RuleSet`]
//!    until the two are in one e-class — then they are equal as real expressions — or a limit
//!    ([`RecognitionOptions`]) stops it, which refuses the update.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use egg::{Id, RecExpr, Runner, StopReason, Symbol};
use stencil_dialects::stencil::{program_arg_names, ApplyOrder};
use stencil_ir::ir::ValueDef;
use stencil_ir::{Attribute, Ir, OpId, Type, ValueId};
use thiserror::Error;

use super::lang::{ConstantFold, Num, RuleSet, SorLang};

/// Rule set and run limits of the e-graph proof (pass options `rules`, `iter-limit`,
/// `node-limit`, `time-limit-ms` of every pass that recognises SOR updates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecognitionOptions {
    /// The rewrite rules ([`RuleSet::Algebra`] by default).
    pub rules: RuleSet,
    /// Most saturation iterations (default 30).
    pub iter_limit: usize,
    /// Most e-nodes (default 50,000; a 3-D update needs about 20,000).
    pub node_limit: usize,
    /// Most wall-clock time (default 5 s).
    pub time_limit: Duration,
}

impl Default for RecognitionOptions {
    fn default() -> Self {
        RecognitionOptions {
            rules: RuleSet::Algebra,
            iter_limit: 30,
            node_limit: 50_000,
            time_limit: Duration::from_secs(5),
        }
    }
}

/// The relaxation factor ω of a recognised update.
#[derive(Clone, Debug, PartialEq)]
pub enum Omega {
    /// A scalar argument of the program.
    Scalar {
        /// Its name (`omega`).
        name: String,
        /// The program's block argument.
        value: ValueId,
    },
    /// A constant (`1.5`).
    Constant(f64),
}

impl std::fmt::Display for Omega {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Omega::Scalar { name, .. } => write!(f, "%{name}"),
            Omega::Constant(v) => write!(f, "{v}"),
        }
    }
}

/// What proving the update took.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Saturation iterations run.
    pub iterations: usize,
    /// E-nodes at the end.
    pub nodes: usize,
    /// E-classes at the end.
    pub classes: usize,
    /// Wall-clock time.
    pub time: Duration,
}

/// A recognised SOR update of a `stencil.apply`.
#[derive(Clone, Debug)]
pub struct SorUpdate {
    /// The apply.
    pub apply: OpId,
    /// The written (and only read) field.
    pub field: ValueId,
    /// Its argument name.
    pub field_name: String,
    /// Its rank (2 or 3).
    pub rank: usize,
    /// Its traversal order (forward: Eq. 6.4; reverse: Eq. 6.5).
    pub order: ApplyOrder,
    /// The relaxation factor.
    pub omega: Omega,
    /// The body's read of the current point, if it has one (ω = 1 needs none).
    pub centre: Option<ValueId>,
    /// The neighbour offsets, in the canonical order of the proof's sum.
    pub neighbours: Vec<Vec<i64>>,
    /// What the proof took.
    pub proof: ProofStats,
}

/// A weight as refusals print it: at most 10 significant digits (`0.685`, not
/// `0.6849999999999999`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct W(pub f64);

impl std::fmt::Display for W {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = format!("{:.9e}", self.0);
        let value: f64 = text.parse().unwrap_or(self.0);
        write!(f, "{value}")
    }
}

/// Why an apply is not an SOR update.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum Refusal {
    /// Not a 2-D or 3-D field.
    #[error("is a {0}-D update; SOR recognition handles 2-D 5-point and 3-D 7-point updates")]
    Rank(usize),
    /// An op outside the arithmetic of an SOR update.
    #[error("computes with '{0}', which is not part of an SOR update (only +, -, *, /, negation and math.fma of field reads, one scalar and constants)")]
    Unsupported(String),
    /// A read of another field.
    #[error("reads field '{other}'; an SOR update reads only the field it writes ('{field}')")]
    OtherField {
        /// The field read.
        other: String,
        /// The written field.
        field: String,
    },
    /// A general-form access.
    #[error("reads '{0}' through a general affine index; an SOR update reads constant offsets")]
    GeneralAccess(String),
    /// A coordinate, induction variable or integer in the arithmetic.
    #[error("depends on a non-floating-point value (a coordinate, induction variable or integer); an SOR update has constant weights")]
    NonFloat,
    /// A read outside the Laplacian's neighbourhood.
    #[error("reads {0}, which is not a neighbour of the {1}-point Laplacian (offsets ±1 along one dimension)")]
    NotNeighbour(String, usize),
    /// A Laplacian neighbour that is never read.
    #[error("never reads the neighbour {0}; the {1}-point Laplacian needs all of them")]
    MissingNeighbour(String, usize),
    /// More than one scalar argument.
    #[error("uses the scalars {0}; ω must be one scalar argument or a constant")]
    TooManyScalars(String),
    /// A constant term.
    #[error("adds a constant term ({0}); an SOR update of the Laplace equation has none")]
    ConstantTerm(W),
    /// Products of field values.
    #[error("is not linear in the field values (it multiplies or divides reads)")]
    NotLinear,
    /// Neighbours with different weights.
    #[error(
        "weights the neighbours differently ({a} by {wa}, {b} by {wb}); the Laplacian weights every neighbour ω/{n}"
    )]
    UnequalWeights {
        /// One neighbour.
        a: String,
        /// Its weight.
        wa: W,
        /// Another.
        b: String,
        /// Its weight.
        wb: W,
        /// `2·rank`.
        n: usize,
    },
    /// The neighbour weight is not ω/(2·rank) of the scalar.
    #[error("weights the neighbours {found} for ω = {omega}, not ω/{n} = {expected}: not a Laplacian weight")]
    NotLaplacianWeight {
        /// The weight found.
        found: W,
        /// The scalar's probe value.
        omega: W,
        /// `2·rank`.
        n: usize,
        /// `omega / n`.
        expected: W,
    },
    /// The centre weight is not `1 − ω`.
    #[error("weights the current point {found}, but an SOR update with ω = {omega} weights it 1 - ω = {expected}")]
    CentreWeight {
        /// The weight found.
        found: W,
        /// ω (the scalar's probe value or the constant).
        omega: W,
        /// `1 − ω`.
        expected: W,
    },
    /// The `1 − ω` weight sits on a neighbour: the relaxation term reads another point than the
    /// one written.
    #[error("weights {0} by 1 - ω and the current point by 0: the relaxation term must read the point being written, not one at an offset")]
    CentreAtOffset(String),
    /// ω = 0: the update changes nothing.
    #[error("has ω = 0: it never changes the field")]
    ZeroOmega,
    /// The e-graph did not prove the equality within its limits.
    #[error("could not be proved equal to (1 - ω)·c + ω/{n}·Σ neighbours with ω = {omega} using rules={rules}: {reason} after {iterations} iterations and {nodes} e-nodes")]
    ProofFailed {
        /// `2·rank`.
        n: usize,
        /// The ω tried.
        omega: String,
        /// The rule set.
        rules: &'static str,
        /// Why saturation stopped.
        reason: String,
        /// Iterations run.
        iterations: usize,
        /// E-nodes at the end.
        nodes: usize,
    },
}

/// A refusal located at the op that causes it (the apply, or an op of its body).
#[derive(Clone, Debug, PartialEq)]
pub struct Refused {
    /// Where to report it.
    pub at: OpId,
    /// Why.
    pub reason: Refusal,
}

/// A leaf of the body's expression.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Leaf {
    /// A read of the written field at an offset.
    Read(Vec<i64>),
    /// A scalar argument, by name.
    Scalar(String),
}

/// The yielded value of an apply body as an e-graph expression.
struct BodyExpr {
    expr: RecExpr<SorLang>,
    /// Every leaf, with its symbol and (reads) the value read.
    leaves: BTreeMap<Leaf, (Symbol, Option<ValueId>, Option<ValueId>)>,
}

fn offset_text(field: &str, offset: &[i64]) -> String {
    let parts: Vec<String> = offset.iter().map(i64::to_string).collect();
    format!("{field}[{}]", parts.join(", "))
}

/// The neighbour offsets of the `2·rank + 1`-point Laplacian, in canonical order.
fn laplacian_neighbours(rank: usize) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for d in 0..rank {
        for s in [-1, 1] {
            let mut o = vec![0; rank];
            o[d] = s;
            out.push(o);
        }
    }
    out.sort();
    out
}

/// One step of [`Lowering::lower`]'s explicit stack.
enum Task {
    /// Lower the value `v`, an operand of `user`.
    Value {
        /// The value.
        v: ValueId,
        /// The op using it (where a refusal about a value no op defines is reported).
        user: OpId,
    },
    /// The `arity` operands of `op`, which defines `v`, are lowered (their ids on top of the
    /// id stack, the first deepest): add its node.
    Finish {
        /// The value `op` defines.
        v: ValueId,
        /// The arithmetic op.
        op: OpId,
        /// Its operand count.
        arity: usize,
    },
    /// `op` has fewer operands than its arithmetic takes: refuse it, once the operands it has
    /// are lowered (the order a recursive walk finds the refusals in).
    Missing {
        /// The op.
        op: OpId,
    },
}

/// What an op defining a value of the body is to the lowering.
enum Shape {
    /// A leaf, with its node.
    Leaf(SorLang),
    /// Arithmetic on this many operands, lowered first.
    Arith(usize),
}

/// What lowering the body of one apply reads: the IR, the written field and the program's
/// arguments.
struct Lowering<'a> {
    ir: &'a Ir,
    field: ValueId,
    field_name: &'a str,
    arg_names: &'a [Option<String>],
    program_block: Option<stencil_ir::BlockId>,
}

impl Lowering<'_> {
    /// Adds the expression of `root` (yielded by `yield_op`) to `out`, operands before the ops
    /// using them, each value once. The walk keeps its own stack rather than recursing: a body is
    /// a chain of any length (a recursion one frame pair per op overflowed the main thread's stack
    /// at 15,000 `arith.addf`), and it visits operands depth first, left to right, so it refuses
    /// the same op a recursive walk would.
    fn lower(&self, out: &mut BodyExpr, root: ValueId, yield_op: OpId) -> Result<Id, Refused> {
        let ir = self.ir;
        let mut memo: BTreeMap<ValueId, Id> = BTreeMap::new();
        // Values whose operands are being lowered: meeting one again is a cycle, which verified
        // IR has not (an operand dominates its use), but a loop here would never end.
        let mut pending: BTreeSet<ValueId> = BTreeSet::new();
        let mut tasks = vec![Task::Value { v: root, user: yield_op }];
        let mut ids: Vec<Id> = Vec::new();
        while let Some(task) = tasks.pop() {
            match task {
                Task::Value { v, user } => {
                    if let Some(&id) = memo.get(&v) {
                        ids.push(id);
                        continue;
                    }
                    if !matches!(ir.value_type(v), Type::Float(_)) {
                        return Err(Refused { at: ir.defining_op(v).unwrap_or(user), reason: Refusal::NonFloat });
                    }
                    match ir.value_def(v) {
                        ValueDef::BlockArgument { block, index } if Some(block) == self.program_block => {
                            let name = self
                                .arg_names
                                .get(index as usize)
                                .cloned()
                                .flatten()
                                .unwrap_or_else(|| format!("arg{index}"));
                            let symbol = Symbol::from(format!("${name}"));
                            out.leaves.insert(Leaf::Scalar(name), (symbol, Some(v), None));
                            let id = out.expr.add(SorLang::Leaf(symbol));
                            memo.insert(v, id);
                            ids.push(id);
                        }
                        ValueDef::Result { op, .. } => match self.shape(out, op)? {
                            Shape::Leaf(node) => {
                                let id = out.expr.add(node);
                                memo.insert(v, id);
                                ids.push(id);
                            }
                            Shape::Arith(arity) => {
                                if !pending.insert(v) {
                                    return Err(Refused {
                                        at: op,
                                        reason: Refusal::Unsupported("a value computed from itself".into()),
                                    });
                                }
                                let operands = ir.operands(op);
                                let present = operands.len().min(arity);
                                tasks.push(Task::Finish { v, op, arity });
                                if present < arity {
                                    tasks.push(Task::Missing { op });
                                }
                                tasks.extend(operands[..present].iter().rev().map(|&o| Task::Value { v: o, user: op }));
                            }
                        },
                        _ => return Err(Refused { at: user, reason: Refusal::NonFloat }),
                    }
                }
                Task::Missing { op } => {
                    return Err(Refused { at: op, reason: Refusal::Unsupported(ir.op_name(op).to_string()) });
                }
                Task::Finish { v, op, arity } => {
                    let at = ids.len().checked_sub(arity).ok_or_else(|| Refused {
                        at: op,
                        reason: Refusal::Unsupported(format!("{} (its operands were lost)", ir.op_name(op))),
                    })?;
                    let a: Vec<Id> = ids.split_off(at);
                    let node = match (ir.op_name(op), a.as_slice()) {
                        ("arith.addf", &[x, y]) => SorLang::Add([x, y]),
                        ("arith.subf", &[x, y]) => SorLang::Sub([x, y]),
                        ("arith.mulf", &[x, y]) => SorLang::Mul([x, y]),
                        ("arith.divf", &[x, y]) => SorLang::Div([x, y]),
                        ("arith.negf", &[x]) => SorLang::Neg(x),
                        ("math.fma", &[x, y, z]) => {
                            let product = out.expr.add(SorLang::Mul([x, y]));
                            SorLang::Add([product, z])
                        }
                        (name, _) => {
                            return Err(Refused { at: op, reason: Refusal::Unsupported(name.to_string()) });
                        }
                    };
                    let id = out.expr.add(node);
                    pending.remove(&v);
                    memo.insert(v, id);
                    ids.push(id);
                }
            }
        }
        // The root's task leaves exactly its id.
        ids.pop().filter(|_| ids.is_empty()).ok_or_else(|| Refused {
            at: yield_op,
            reason: Refusal::Unsupported("a stencil.yield whose value could not be lowered".into()),
        })
    }

    /// What `op` is in the expression: a leaf (a constant, a read of the field) or arithmetic.
    /// Refuses other ops.
    fn shape(&self, out: &mut BodyExpr, op: OpId) -> Result<Shape, Refused> {
        let ir = self.ir;
        let refuse = |reason: Refusal| Refused { at: op, reason };
        let name = ir.op_name(op);
        Ok(match name {
            "arith.constant" => match ir.attr(op, "value") {
                Some(Attribute::Float { value, .. }) => Shape::Leaf(SorLang::Num(Num(*value))),
                _ => return Err(refuse(Refusal::NonFloat)),
            },
            "arith.addf" | "arith.subf" | "arith.mulf" | "arith.divf" => Shape::Arith(2),
            "arith.negf" => Shape::Arith(1),
            "math.fma" => Shape::Arith(3),
            "stencil.access" => {
                let read = ir.operands(op).first().copied();
                let read_name = read.and_then(|r| match ir.value_def(r) {
                    ValueDef::BlockArgument { index, .. } => self.arg_names.get(index as usize).cloned().flatten(),
                    _ => None,
                });
                let read_name = read_name.unwrap_or_else(|| "?".into());
                if read != Some(self.field) {
                    return Err(refuse(Refusal::OtherField { other: read_name, field: self.field_name.into() }));
                }
                let Some(offset) = ir.attr(op, "offset").and_then(Attribute::as_dense_array) else {
                    return Err(refuse(Refusal::GeneralAccess(read_name)));
                };
                let offset = offset.to_vec();
                let symbol = Symbol::from(offset_text(self.field_name, &offset));
                let value = ir.results(op).first().copied();
                let entry = out.leaves.entry(Leaf::Read(offset)).or_insert((symbol, None, value));
                Shape::Leaf(SorLang::Leaf(entry.0))
            }
            _ => return Err(refuse(Refusal::Unsupported(name.to_string()))),
        })
    }
}

impl BodyExpr {
    /// The expression of the value `apply` yields; refuses ops and values an SOR update has not.
    fn build(ir: &Ir, apply: OpId, field: ValueId, field_name: &str, program: OpId) -> Result<BodyExpr, Refused> {
        let refuse = |at: OpId, reason: Refusal| Refused { at, reason };
        let body = ir.regions(apply).first().and_then(|&r| ir.entry_block(r));
        let yield_op = body.and_then(|b| ir.last_op(b)).filter(|&y| ir.op_name(y) == "stencil.yield");
        let Some(yield_op) = yield_op else {
            return Err(refuse(apply, Refusal::Unsupported("a body without stencil.yield".into())));
        };
        let Some(&root) = ir.operands(yield_op).first() else {
            return Err(refuse(yield_op, Refusal::Unsupported("an empty stencil.yield".into())));
        };
        let arg_names = program_arg_names(ir, program);
        let program_block = ir.regions(program).first().and_then(|&r| ir.entry_block(r));
        let mut out = BodyExpr { expr: RecExpr::default(), leaves: BTreeMap::new() };
        let lowering = Lowering { ir, field, field_name, arg_names: &arg_names, program_block };
        lowering.lower(&mut out, root, yield_op)?;
        Ok(out)
    }

    /// The value of the expression with `values` for its leaves (0 for the others).
    fn eval(&self, values: &BTreeMap<Symbol, f64>) -> f64 {
        let nodes = self.expr.as_ref();
        let mut out = vec![0.0; nodes.len()];
        for (k, node) in nodes.iter().enumerate() {
            let c = |i: &Id| out[usize::from(*i)];
            out[k] = match node {
                SorLang::Add([a, b]) => c(a) + c(b),
                SorLang::Sub([a, b]) => c(a) - c(b),
                SorLang::Mul([a, b]) => c(a) * c(b),
                SorLang::Div([a, b]) => c(a) / c(b),
                SorLang::Neg(a) => -c(a),
                SorLang::Inv(a) => 1.0 / c(a),
                SorLang::Num(n) => n.0,
                SorLang::Leaf(s) => values.get(s).copied().unwrap_or(0.0),
            };
        }
        out.last().copied().unwrap_or(0.0)
    }
}

/// `a ≈ b` relative to their size (weights are compared after evaluation in `f64`).
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Step 2: reads the weights off the expression and derives ω (see the module documentation).
/// Returns ω (`None`: the scalar) and its value for the proof.
fn probe(body: &BodyExpr, field_name: &str, rank: usize, apply: OpId) -> Result<Option<f64>, Refused> {
    let refuse = |reason: Refusal| Refused { at: apply, reason };
    let n = 2 * rank;
    let scalar = body.leaves.iter().find_map(|(l, (s, _, _))| matches!(l, Leaf::Scalar(_)).then_some(*s));
    let reads: Vec<(Vec<i64>, Symbol)> = body
        .leaves
        .iter()
        .filter_map(|(l, (s, _, _))| match l {
            Leaf::Read(o) => Some((o.clone(), *s)),
            Leaf::Scalar(_) => None,
        })
        .collect();
    // Two probe values of the scalar (neither 0, 1 nor 2, so no weight vanishes by accident).
    let omegas: &[f64] = if scalar.is_some() { &[1.37, 0.61] } else { &[f64::NAN] };
    let mut constant_omega = None;
    for &w in omegas {
        let base: BTreeMap<Symbol, f64> = scalar.map(|s| (s, w)).into_iter().collect();
        let at = |extra: &[(Symbol, f64)]| {
            let mut values = base.clone();
            values.extend(extra.iter().copied());
            body.eval(&values)
        };
        let zero = at(&[]);
        if !close(zero, 0.0) {
            return Err(refuse(Refusal::ConstantTerm(W(zero))));
        }
        let weight = |s: Symbol| at(&[(s, 1.0)]);
        // Linearity: the value at two generic points equals the weighted sum.
        for seed in [0.37, -1.91] {
            let point: Vec<(Symbol, f64)> =
                reads.iter().enumerate().map(|(k, (_, s))| (*s, seed * (k as f64 + 1.3))).collect();
            let expected: f64 = point.iter().map(|&(s, x)| weight(s) * x).sum();
            if !close(at(&point), expected) {
                return Err(refuse(Refusal::NotLinear));
            }
        }
        let centre = reads.iter().find(|(o, _)| o.iter().all(|&x| x == 0)).map_or(0.0, |(_, s)| weight(*s));
        let neighbours: Vec<(&Vec<i64>, f64)> =
            reads.iter().filter(|(o, _)| o.iter().any(|&x| x != 0)).map(|(o, s)| (o, weight(*s))).collect();
        let Some(&(first, w0)) = neighbours.first() else { return Err(refuse(Refusal::NotLinear)) };
        if scalar.is_some() && close(centre, 0.0) {
            if let Some((o, _)) = neighbours.iter().find(|(_, x)| close(*x, 1.0 - w)) {
                return Err(refuse(Refusal::CentreAtOffset(offset_text(field_name, o))));
            }
        }
        if let Some(&(other, w1)) = neighbours.iter().find(|(_, x)| !close(*x, w0)) {
            return Err(refuse(Refusal::UnequalWeights {
                a: offset_text(field_name, first),
                wa: W(w0),
                b: offset_text(field_name, other),
                wb: W(w1),
                n,
            }));
        }
        let omega = if scalar.is_some() {
            if !close(w0 * n as f64, w) {
                return Err(refuse(Refusal::NotLaplacianWeight {
                    found: W(w0),
                    omega: W(w),
                    n,
                    expected: W(w / n as f64),
                }));
            }
            w
        } else {
            let omega = w0 * n as f64;
            constant_omega = Some(omega);
            omega
        };
        if omega == 0.0 {
            return Err(refuse(Refusal::ZeroOmega));
        }
        if !close(centre, 1.0 - omega) {
            return Err(refuse(Refusal::CentreWeight { found: W(centre), omega: W(omega), expected: W(1.0 - omega) }));
        }
    }
    Ok(constant_omega)
}

/// The canonical update `(1 − ω)·c + ω/n·Σ neighbours` (`n = 2·rank`), or `Σ/n` when the body
/// never reads the centre (Gauss-Seidel proper: ω = 1, and its weight `1 − ω` vanishes).
fn canonical_update(omega: SorLang, centre: Option<Symbol>, neighbours: &[Symbol]) -> RecExpr<SorLang> {
    let mut target = RecExpr::<SorLang>::default();
    let mut sum = target.add(SorLang::Num(Num(0.0)));
    for (k, &s) in neighbours.iter().enumerate() {
        let leaf = target.add(SorLang::Leaf(s));
        sum = if k == 0 { leaf } else { target.add(SorLang::Add([sum, leaf])) };
    }
    let n = target.add(SorLang::Num(Num(neighbours.len() as f64)));
    let Some(centre) = centre else {
        target.add(SorLang::Div([sum, n]));
        return target;
    };
    let omega = target.add(omega);
    let one = target.add(SorLang::Num(Num(1.0)));
    let keep = target.add(SorLang::Sub([one, omega]));
    let c = target.add(SorLang::Leaf(centre));
    let kept = target.add(SorLang::Mul([keep, c]));
    let relax = target.add(SorLang::Div([omega, n]));
    let relaxed = target.add(SorLang::Mul([relax, sum]));
    target.add(SorLang::Add([kept, relaxed]));
    target
}

/// Step 3: proves `body ≡ target` with egg: both in one e-graph, saturated with the rule set
/// until they share an e-class or a limit stops it (then: why, iterations, e-nodes).
fn prove(
    body: &BodyExpr,
    target: &RecExpr<SorLang>,
    options: &RecognitionOptions,
) -> Result<ProofStats, (String, usize, usize)> {
    let start = Instant::now();
    let runner = Runner::<SorLang, ConstantFold, ()>::default().with_expr(&body.expr).with_expr(target);
    let (a, b) = (runner.roots[0], runner.roots[1]);
    let runner = runner
        .with_iter_limit(options.iter_limit)
        .with_node_limit(options.node_limit)
        .with_time_limit(options.time_limit)
        .with_hook(move |r| if r.egraph.find(a) == r.egraph.find(b) { Err(PROVED.into()) } else { Ok(()) })
        .run(&options.rules.rewrites());
    let iterations = runner.iterations.len();
    let nodes = runner.egraph.total_number_of_nodes();
    if runner.egraph.find(a) == runner.egraph.find(b) {
        return Ok(ProofStats { iterations, nodes, classes: runner.egraph.number_of_classes(), time: start.elapsed() });
    }
    let reason = match &runner.stop_reason {
        Some(StopReason::Saturated) => match options.rules {
            RuleSet::Ac => "the e-graph saturated without meeting it (rules=algebra also knows subtraction, division and distributivity)".to_string(),
            RuleSet::Algebra => "the e-graph saturated without meeting it".to_string(),
        },
        Some(StopReason::IterationLimit(_)) => "the iteration limit stopped the e-graph (raise iter-limit)".to_string(),
        Some(StopReason::NodeLimit(_)) => "the e-node limit stopped the e-graph (raise node-limit)".to_string(),
        Some(StopReason::TimeLimit(_)) => "the time limit stopped the e-graph (raise time-limit-ms)".to_string(),
        Some(StopReason::Other(s)) => s.clone(),
        None => "stopped".to_string(),
    };
    Err((reason, iterations, nodes))
}

/// The hook's stop reason once the two roots meet.
const PROVED: &str = "proved";

/// Recognises the SOR update of `apply` (a `stencil.apply` directly in a `stencil.program` or
/// its iterates), or says why it is not one.
pub fn recognize(ir: &Ir, apply: OpId, options: &RecognitionOptions) -> Result<SorUpdate, Refused> {
    let refuse = |reason: Refusal| Refused { at: apply, reason };
    let program = stencil_dialects::stencil::enclosing_program(ir, apply)
        .ok_or_else(|| refuse(Refusal::Unsupported("an apply outside a stencil.program".into())))?;
    let Some(&field) = ir.operands(apply).first() else {
        return Err(refuse(Refusal::Unsupported("an apply without a field".into())));
    };
    let field_type = stencil_dialects::stencil::FieldType::from_type(ir.value_type(field))
        .ok_or_else(|| refuse(Refusal::Unsupported("a write to a non-field".into())))?;
    let rank = field_type.rank();
    if !(2..=3).contains(&rank) {
        return Err(refuse(Refusal::Rank(rank)));
    }
    let field_name = match ir.value_def(field) {
        ValueDef::BlockArgument { index, .. } => program_arg_names(ir, program).get(index as usize).cloned().flatten(),
        _ => None,
    }
    .unwrap_or_else(|| "?".into());
    let body = BodyExpr::build(ir, apply, field, &field_name, program)?;

    // Step 1: the neighbourhood and the scalars.
    let points = 2 * rank + 1;
    let wanted = laplacian_neighbours(rank);
    let mut centre = None;
    let mut neighbours = Vec::new();
    let mut scalars = Vec::new();
    for (leaf, (symbol, scalar_value, read_value)) in &body.leaves {
        match leaf {
            Leaf::Read(o) if o.iter().all(|&x| x == 0) => centre = Some((*symbol, *read_value)),
            Leaf::Read(o) if wanted.contains(o) => neighbours.push((o.clone(), *symbol)),
            Leaf::Read(o) => return Err(refuse(Refusal::NotNeighbour(offset_text(&field_name, o), points))),
            Leaf::Scalar(name) => scalars.push((name.clone(), *symbol, *scalar_value)),
        }
    }
    if let Some(missing) = wanted.iter().find(|o| !neighbours.iter().any(|(n, _)| n == *o)) {
        return Err(refuse(Refusal::MissingNeighbour(offset_text(&field_name, missing), points)));
    }
    if scalars.len() > 1 {
        let names: Vec<String> = scalars.iter().map(|(n, _, _)| format!("%{n}")).collect();
        return Err(refuse(Refusal::TooManyScalars(names.join(", "))));
    }

    // Step 2: weights and ω.
    let constant = probe(&body, &field_name, rank, apply)?;
    let omega = match (scalars.first(), constant) {
        (Some((name, _, Some(value))), _) => Omega::Scalar { name: name.clone(), value: *value },
        (_, Some(w)) => Omega::Constant(w),
        _ => return Err(refuse(Refusal::NonFloat)),
    };

    // Step 3: the proof.
    let omega_node = match &omega {
        Omega::Scalar { .. } => scalars.first().map_or(SorLang::Num(Num(1.0)), |(_, s, _)| SorLang::Leaf(*s)),
        Omega::Constant(w) => SorLang::Num(Num(*w)),
    };
    let neighbour_symbols: Vec<Symbol> = neighbours.iter().map(|(_, s)| *s).collect();
    let target = canonical_update(omega_node, centre.map(|(s, _)| s), &neighbour_symbols);
    let proof = prove(&body, &target, options).map_err(|(reason, iterations, nodes)| {
        refuse(Refusal::ProofFailed {
            n: 2 * rank,
            omega: omega.to_string(),
            rules: options.rules.name(),
            reason,
            iterations,
            nodes,
        })
    })?;
    Ok(SorUpdate {
        apply,
        field,
        field_name,
        rank,
        order: ApplyOrder::of(ir, apply),
        omega,
        centre: centre.and_then(|(_, v)| v),
        neighbours: neighbours.into_iter().map(|(o, _)| o).collect(),
        proof,
    })
}
