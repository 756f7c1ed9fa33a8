//! Affine maps and integer sets compiled against registers: a pure affine result becomes
//! `constant + Σ coefficient·register`; one with `floordiv`, `ceildiv` or `mod` is evaluated
//! on its expression tree (as loop bounds of tiled code are, once per loop).

use crate::scalar::{Reg, Regs};
use stencil_dialects::stencil::linear::linearize;
use stencil_ir::affine::{ceil_div, floor_div, floor_mod, AffineBinOp, AffineExpr, AffineMap, IntegerSet};

/// One compiled affine expression: linear parts as `constant + Σ coefficient·register`,
/// divisions and products over them as a small tree (tiled loop bounds such as
/// `(e1 + N) floordiv 2 + 1` are evaluated once per loop entry, without allocating).
#[derive(Clone, Debug)]
pub(crate) enum CompiledExpr {
    /// `constant + Σ coefficient·register`.
    Linear { constant: i64, terms: Box<[(Reg, i64)]> },
    /// `lhs op rhs` for the operations that are not linear (or not linear in their operands).
    Binary { op: AffineBinOp, lhs: Box<CompiledExpr>, rhs: Box<CompiledExpr> },
}

/// A compiled affine map with its operand registers (dims first, then symbols).
#[derive(Clone, Debug)]
pub(crate) struct CompiledMap {
    pub results: Box<[CompiledExpr]>,
}

impl CompiledMap {
    /// Compiles `map` applied to `operands`.
    pub fn new(map: &AffineMap, operands: Vec<Reg>) -> Self {
        let results = map.results.iter().map(|e| compile_expr(e, map.num_dims, map.num_symbols, &operands)).collect();
        CompiledMap { results }
    }

    /// Calls `f` on every operand register (register allocation renames them in place).
    pub fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg)) {
        for e in self.results.iter_mut() {
            e.visit_regs(f);
        }
    }

    /// Value of result `i`; `None` on division by zero or overflow.
    #[inline]
    pub fn eval<R: Regs + ?Sized>(&self, i: usize, regs: &R) -> Option<i64> {
        self.results.get(i)?.eval(regs)
    }

    /// Maximum (or minimum) over the results in `range`.
    pub fn fold<R: Regs + ?Sized>(&self, range: std::ops::Range<usize>, regs: &R, max: bool) -> Option<i64> {
        let mut best: Option<i64> = None;
        for i in range {
            let v = self.eval(i, regs)?;
            best = Some(match best {
                None => v,
                Some(b) if max => b.max(v),
                Some(b) => b.min(v),
            });
        }
        best
    }
}

impl CompiledExpr {
    /// Calls `f` on every register the expression reads.
    fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg)) {
        match self {
            CompiledExpr::Linear { terms, .. } => terms.iter_mut().for_each(|(r, _)| f(r)),
            CompiledExpr::Binary { lhs, rhs, .. } => {
                lhs.visit_regs(f);
                rhs.visit_regs(f);
            }
        }
    }

    /// The value; `None` on division by zero or overflow (MLIR's semantics: `floordiv` and
    /// `ceildiv` round towards −∞ and +∞, `mod` is non-negative for a positive divisor).
    /// The linear case — every load and store index — is inlined into the caller; trees go
    /// through [`CompiledExpr::eval_tree`].
    #[inline(always)]
    fn eval<R: Regs + ?Sized>(&self, regs: &R) -> Option<i64> {
        match self {
            CompiledExpr::Linear { constant, terms } => {
                let mut acc = *constant;
                for &(r, c) in terms.iter() {
                    acc = acc.checked_add((regs.get(r) as i64).checked_mul(c)?)?;
                }
                Some(acc)
            }
            CompiledExpr::Binary { .. } => self.eval_tree(regs),
        }
    }

    #[inline(never)]
    fn eval_tree<R: Regs + ?Sized>(&self, regs: &R) -> Option<i64> {
        let CompiledExpr::Binary { op, lhs, rhs } = self else { return self.eval(regs) };
        let (a, b) = (lhs.eval(regs)?, rhs.eval(regs)?);
        match op {
            AffineBinOp::Add => a.checked_add(b),
            AffineBinOp::Mul => a.checked_mul(b),
            AffineBinOp::Mod => floor_mod(a, b),
            AffineBinOp::FloorDiv => floor_div(a, b),
            AffineBinOp::CeilDiv => ceil_div(a, b),
        }
    }
}

fn compile_expr(e: &AffineExpr, num_dims: u32, num_symbols: u32, operands: &[Reg]) -> CompiledExpr {
    if let Some(l) = linearize(e, num_dims as usize, num_symbols as usize) {
        let coefficients = l.dims.iter().chain(&l.symbols);
        let terms = operands.iter().zip(coefficients).filter(|(_, &c)| c != 0).map(|(&r, &c)| (r, c)).collect();
        return CompiledExpr::Linear { constant: l.constant, terms };
    }
    match e {
        AffineExpr::Binary(op, a, b) => CompiledExpr::Binary {
            op: *op,
            lhs: Box::new(compile_expr(a, num_dims, num_symbols, operands)),
            rhs: Box::new(compile_expr(b, num_dims, num_symbols, operands)),
        },
        // Dims, symbols and constants are linear; an out-of-range operand index (a malformed
        // map the verifier rejects) evaluates to an error rather than a wrong value.
        _ => CompiledExpr::Binary {
            op: AffineBinOp::FloorDiv,
            lhs: Box::new(CompiledExpr::Linear { constant: 0, terms: Box::new([]) }),
            rhs: Box::new(CompiledExpr::Linear { constant: 0, terms: Box::new([]) }),
        },
    }
}

/// A compiled `affine.if` condition: each constraint compiled like a map result (guards of
/// scanned code are evaluated once per point, so they must not allocate).
#[derive(Clone, Debug)]
pub(crate) struct CompiledSet {
    /// Per constraint, the expression and whether it is an equality (`== 0`, else `>= 0`).
    constraints: Box<[(CompiledExpr, bool)]>,
}

impl CompiledSet {
    /// Compiles `set` applied to `operands`.
    pub fn new(set: &IntegerSet, operands: Vec<Reg>) -> Self {
        let constraints = set
            .constraints
            .iter()
            .map(|c| (compile_expr(&c.expr, set.num_dims, set.num_symbols, &operands), c.is_equality))
            .collect();
        CompiledSet { constraints }
    }

    /// Calls `f` on every operand register (register allocation renames them in place).
    pub fn visit_regs(&mut self, f: &mut impl FnMut(&mut Reg)) {
        for (e, _) in self.constraints.iter_mut() {
            e.visit_regs(f);
        }
    }

    /// Whether the point satisfies the set; `None` when a constraint cannot be evaluated.
    #[inline]
    pub fn contains<R: Regs + ?Sized>(&self, regs: &R) -> Option<bool> {
        for (e, is_equality) in self.constraints.iter() {
            let v = e.eval(regs)?;
            if (*is_equality && v != 0) || (!*is_equality && v < 0) {
                return Some(false);
            }
        }
        Some(true)
    }
}
