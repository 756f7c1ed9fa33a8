//! Affine maps and integer sets compiled against registers: a pure affine result becomes
//! `constant + Σ coefficient·register`; one with `floordiv`, `ceildiv` or `mod` is evaluated
//! on its expression tree (as loop bounds of tiled code are, once per loop).

use crate::scalar::Reg;
use stencil_dialects::stencil::linear::linearize;
use stencil_ir::affine::{AffineExpr, AffineMap, IntegerSet};

/// One compiled affine expression.
#[derive(Clone, Debug)]
pub(crate) enum CompiledExpr {
    /// `constant + Σ coefficient·register`.
    Linear { constant: i64, terms: Box<[(Reg, i64)]> },
    /// The general form, evaluated with dims then symbols taken from `operands`.
    Tree { expr: AffineExpr, num_dims: u32 },
}

/// A compiled affine map with its operand registers (dims first, then symbols).
#[derive(Clone, Debug)]
pub(crate) struct CompiledMap {
    pub results: Box<[CompiledExpr]>,
    pub operands: Box<[Reg]>,
}

impl CompiledMap {
    /// Compiles `map` applied to `operands`.
    pub fn new(map: &AffineMap, operands: Vec<Reg>) -> Self {
        let results = map.results.iter().map(|e| compile_expr(e, map.num_dims, map.num_symbols, &operands)).collect();
        CompiledMap { results, operands: operands.into() }
    }

    /// Value of result `i`; `None` on division by zero or overflow.
    #[inline]
    pub fn eval(&self, i: usize, regs: &[u64]) -> Option<i64> {
        match self.results.get(i)? {
            CompiledExpr::Linear { constant, terms } => {
                let mut acc = *constant;
                for &(r, c) in terms.iter() {
                    acc = acc.checked_add((regs[r as usize] as i64).checked_mul(c)?)?;
                }
                Some(acc)
            }
            CompiledExpr::Tree { expr, num_dims } => {
                let values: Vec<i64> = self.operands.iter().map(|&r| regs[r as usize] as i64).collect();
                let (dims, symbols) = values.split_at((*num_dims as usize).min(values.len()));
                expr.eval(dims, symbols)
            }
        }
    }

    /// Maximum (or minimum) over the results in `range`.
    pub fn fold(&self, range: std::ops::Range<usize>, regs: &[u64], max: bool) -> Option<i64> {
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

fn compile_expr(e: &AffineExpr, num_dims: u32, num_symbols: u32, operands: &[Reg]) -> CompiledExpr {
    match linearize(e, num_dims as usize, num_symbols as usize) {
        Some(l) => {
            let coefficients = l.dims.iter().chain(&l.symbols);
            let terms = operands.iter().zip(coefficients).filter(|(_, &c)| c != 0).map(|(&r, &c)| (r, c)).collect();
            CompiledExpr::Linear { constant: l.constant, terms }
        }
        None => CompiledExpr::Tree { expr: e.clone(), num_dims },
    }
}

/// A compiled `affine.if` condition.
#[derive(Clone, Debug)]
pub(crate) struct CompiledSet {
    set: IntegerSet,
    operands: Box<[Reg]>,
}

impl CompiledSet {
    /// Compiles `set` applied to `operands`.
    pub fn new(set: &IntegerSet, operands: Vec<Reg>) -> Self {
        CompiledSet { set: set.clone(), operands: operands.into() }
    }

    /// Whether the point satisfies the set; `None` when a constraint cannot be evaluated.
    pub fn contains(&self, regs: &[u64]) -> Option<bool> {
        let values: Vec<i64> = self.operands.iter().map(|&r| regs[r as usize] as i64).collect();
        let (dims, symbols) = values.split_at((self.set.num_dims as usize).min(values.len()));
        self.set.contains(dims, symbols)
    }
}
