//! The loop AST produced by scanning: plain data, over the columns `[dimensions…, params…]`
//! of [`LoopNest::space`].

use crate::affine::AffineForm;
use crate::scop::StatementId;
use crate::space::Space;
use crate::tiling::DimKind;

/// A loop bound `expr / divisor` over the columns of [`LoopNest::space`]: rounded up
/// (`⌈expr / divisor⌉`, CLooG's `ceild`) in a lower bound, down (`⌊expr / divisor⌋`, `floord`)
/// in an upper bound. Only outer loop variables and parameters occur in `expr`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Bound {
    /// The numerator.
    pub expr: AffineForm,
    /// The divisor, `≥ 1`.
    pub divisor: i64,
}

/// A guard condition over outer loop variables and parameters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Guard {
    /// The form compared with zero.
    pub expr: AffineForm,
    /// `expr ≥ 0` or `expr = 0`.
    pub kind: GuardKind,
}

/// The comparison of a [`Guard`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GuardKind {
    /// `expr ≥ 0`.
    NonNegative,
    /// `expr = 0`.
    Zero,
}

/// A `for` loop over dimension `dim`: from `max_k ⌈lower_k⌉` to `min_k ⌊upper_k⌋` inclusive,
/// by `step`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForLoop {
    /// The dimension (column of [`LoopNest::space`]) the loop enumerates.
    pub dim: usize,
    /// Lower bounds (the loop starts at their maximum), at least one.
    pub lower: Vec<Bound>,
    /// Upper bounds (the loop ends at their minimum, inclusive), at least one.
    pub upper: Vec<Bound>,
    /// The step (1 from the scanner; the GPU mapping distributes loops cyclically).
    pub step: i64,
    /// Whether the iterations are independent (no dependence carried, thesis Thm 3.2's
    /// DOALL); sequential (DOSEQ) otherwise.
    pub parallel: bool,
    /// The loop body.
    pub body: Box<LoopAst>,
}

/// A node of the loop AST.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LoopAst {
    /// A loop.
    For(ForLoop),
    /// `if (guards…) then` (all guards must hold).
    If {
        /// The conditions.
        guards: Vec<Guard>,
        /// What runs when they hold.
        then: Box<LoopAst>,
    },
    /// One instance of a statement.
    Stmt {
        /// The statement.
        statement: StatementId,
        /// Its original iterators, as affine forms over [`LoopNest::space`].
        iter_values: Vec<AffineForm>,
    },
    /// Nodes run in order.
    Seq(Vec<LoopAst>),
}

/// How a dimension appears in the loop nest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScanDim {
    /// The loop variable's name.
    pub name: String,
    /// Its role (tile, point, scalar, …), printed in the loop comment.
    pub kind: DimKind,
    /// Whether its loops are parallel.
    pub parallel: bool,
}

/// A statement as named in a loop nest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NestStatement {
    /// The statement.
    pub statement: StatementId,
    /// Its name.
    pub name: String,
    /// Its original iterator names.
    pub iterators: Vec<String>,
}

/// Generated code: the loop AST with the names it refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopNest {
    /// The columns of every affine form in the AST: the scanned dimensions, then the
    /// parameters.
    pub space: Space,
    /// The scanned dimensions (one per dimension column of `space`).
    pub dims: Vec<ScanDim>,
    /// The statements that may occur in `Stmt` nodes.
    pub statements: Vec<NestStatement>,
    /// The code.
    pub root: LoopAst,
}

/// One loop of a [`LoopNest`] in pre-order, with its nesting depth (number of enclosing loops).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopInfo {
    /// Enclosing loops.
    pub depth: usize,
    /// The loop variable.
    pub name: String,
    /// Its role.
    pub kind: DimKind,
    /// Whether it is parallel.
    pub parallel: bool,
}

impl LoopNest {
    /// Every loop in pre-order (for tests and summaries).
    pub fn loops(&self) -> Vec<LoopInfo> {
        let mut out = Vec::new();
        self.root.visit_loops(0, &mut |depth, l| {
            let d = &self.dims[l.dim];
            out.push(LoopInfo { depth, name: d.name.clone(), kind: d.kind, parallel: l.parallel });
        });
        out
    }

    /// The name of statement `s`.
    pub fn statement_name(&self, s: StatementId) -> &str {
        self.statements.iter().find(|x| x.statement == s).map_or("?", |x| x.name.as_str())
    }
}

impl LoopAst {
    /// Calls `f(depth, loop)` for every loop in pre-order.
    pub fn visit_loops(&self, depth: usize, f: &mut impl FnMut(usize, &ForLoop)) {
        match self {
            LoopAst::For(l) => {
                f(depth, l);
                l.body.visit_loops(depth + 1, f);
            }
            LoopAst::If { then, .. } => then.visit_loops(depth, f),
            LoopAst::Stmt { .. } => {}
            LoopAst::Seq(items) => items.iter().for_each(|x| x.visit_loops(depth, f)),
        }
    }

    /// Number of `If` nodes (guards) in the tree.
    pub fn count_guards(&self) -> usize {
        match self {
            LoopAst::For(l) => l.body.count_guards(),
            LoopAst::If { then, .. } => 1 + then.count_guards(),
            LoopAst::Stmt { .. } => 0,
            LoopAst::Seq(items) => items.iter().map(LoopAst::count_guards).sum(),
        }
    }

    /// `Seq` of `items`, or the single item itself.
    pub(crate) fn seq(mut items: Vec<LoopAst>) -> LoopAst {
        if items.len() == 1 {
            items.pop().unwrap_or(LoopAst::Seq(Vec::new()))
        } else {
            LoopAst::Seq(items)
        }
    }
}
