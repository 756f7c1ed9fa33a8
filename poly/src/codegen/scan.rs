//! Polyhedral scanning (DESIGN §5 "Scanning"): a union of statement domains over
//! `[dims, params]` becomes a loop nest that runs every instance once, in lexicographic order
//! of the dimensions.
//!
//! Level by level (Quilleré/CLooG-style, without splitting loops into separated pieces):
//! * each statement's domain is projected onto the outer dimensions by Fourier–Motzkin;
//! * a dimension on which every remaining statement is fixed to a constant is a *scalar
//!   dimension*: the statements are grouped by that constant and the groups emitted in order
//!   (statement order, thesis §3.2.3), without a loop;
//! * otherwise one loop runs over a hull of the statements' projections ([`super::hull`]); its
//!   bounds are the hull's constraints on this dimension that the enclosing loops and the
//!   context do not already imply (`gist`): a `max` of `ceild` lower bounds and a `min` of
//!   `floord` upper bounds. Constraints on outer dimensions only become a guard around the
//!   loop. A loop with a single iteration `d = e` is not emitted: `e` replaces `d` inside;
//! * at the innermost level each statement is guarded by the constraints of its full domain
//!   that the loops around it do not imply — none when it has the loops to itself.
//!
//! The inner loops always see the exact domains, so the code is correct even where a
//! Fourier–Motzkin projection is not integer-exact (then only an outer loop may run an
//! iteration with nothing to do).

use super::ast::{Bound, ForLoop, Guard, GuardKind, LoopAst, NestStatement};
use super::error::{CodegenError, CodegenResult};
use super::hull::union_hull;
use super::invert::invert;
use super::problem::{ScanOptions, ScanProblem};
use super::LoopNest;
use crate::affine::AffineForm;
use crate::limits::Limits;
use crate::lp::simplex::LpOutcome;
use crate::polyhedron::Polyhedron;
use crate::scop::StatementId;
use crate::space::Space;

/// A statement prepared for scanning.
struct Prepared {
    statement: StatementId,
    name: String,
    /// Its iterators over `[dims, params]`.
    iter_values: Vec<AffineForm>,
    /// `proj[k]`: the domain projected onto dimensions `0..=k` (inner columns unconstrained);
    /// `proj[nd − 1]` is the full domain.
    proj: Vec<Polyhedron>,
    /// The full domain over `[dims, params]` (with the context).
    full: Polyhedron,
}

/// Generates the loop nest of `problem` (see the module documentation).
pub fn generate(problem: &ScanProblem, options: &ScanOptions) -> CodegenResult<LoopNest> {
    problem.validate()?;
    let limits = &options.limits;
    let nd = problem.dims.len();
    let params = problem.context.space().params().to_vec();
    let space = Space::new(problem.dims.iter().map(|d| d.name.clone()), params.clone());
    let param_cols: Vec<usize> = (0..params.len()).map(|p| nd + p).collect();
    let context = problem.context.embed(space.clone(), &param_cols)?;
    let mut stmts = Vec::with_capacity(problem.statements.len());
    for st in &problem.statements {
        let inv = invert(st, &space)?;
        let full = inv.domain.intersect(&context)?;
        if full.is_rationally_empty(limits)? {
            continue;
        }
        // Projections, innermost first. Dropping a dimension that an equality ties to the
        // iterators (a point or untiled dimension) is done from the domain over [dims,
        // iterators, params], where Fourier–Motzkin eliminates the iterators in its own order —
        // far fewer combinations than eliminating point dimensions after the (dense, with the
        // skew Θ_S) inverse was substituted. A tile or scalar dimension is dropped from the
        // next projection.
        let n_iters = st.iterators.len();
        let tied = |e: &AffineForm, k: usize| e.coeff(k) != 0 && (nd..nd + n_iters).any(|c| e.coeff(c) != 0);
        let defined: Vec<bool> = (0..nd).map(|k| st.domain.equalities().iter().any(|e| tied(e, k))).collect();
        let mut proj = vec![full.clone(); nd];
        for k in (0..nd.saturating_sub(1)).rev() {
            let (below, dropped) = if defined[k + 1] {
                (st.domain.project_out(k + 1, nd - k - 1 + n_iters, limits)?.set, nd - k - 1)
            } else {
                (proj[k + 1].project_out(k + 1, 1, limits)?.set, 1)
            };
            let mapping: Vec<usize> = (0..below.n_columns()).map(|c| if c <= k { c } else { c + dropped }).collect();
            proj[k] = below.embed(space.clone(), &mapping)?.intersect(&context)?;
        }
        stmts.push(Prepared {
            statement: st.statement,
            name: st.name.clone(),
            iter_values: inv.iter_values,
            proj,
            full,
        });
    }
    let scanner = Scanner { problem, stmts: &stmts, limits, nd, depth: options.depth };
    let all: Vec<usize> = (0..stmts.len()).collect();
    let mut fixed: Vec<Option<AffineForm>> = vec![None; nd];
    let root = LoopAst::seq(scanner.level(0, &all, &context, &mut fixed)?);
    let statements = problem
        .statements
        .iter()
        .map(|s| NestStatement { statement: s.statement, name: s.name.clone(), iterators: s.iterators.clone() })
        .collect();
    Ok(LoopNest { space, dims: problem.dims.clone(), statements, root })
}

struct Scanner<'a> {
    problem: &'a ScanProblem,
    stmts: &'a [Prepared],
    limits: &'a Limits,
    nd: usize,
    /// [`ScanOptions::depth`].
    depth: Option<usize>,
}

impl Scanner<'_> {
    /// The code for dimensions `k..` of the statements `group` (indices into `stmts`, in
    /// statement order) under `ctx` (what enclosing loops and guards ensure); `fixed[j]` is the
    /// value of dimension `j` on this path when it is not a loop variable (a scalar dimension,
    /// or a dimension with a single value), over outer loop variables and parameters.
    fn level(
        &self,
        k: usize,
        group: &[usize],
        ctx: &Polyhedron,
        fixed: &mut Vec<Option<AffineForm>>,
    ) -> CodegenResult<Vec<LoopAst>> {
        if k == self.nd {
            return self.statements(group, ctx, fixed);
        }
        if self.depth == Some(k) {
            // The statements below, unscanned: what a path that reaches them has (not an empty
            // body, which drops the loop around it).
            return Ok(group
                .iter()
                .map(|&s| LoopAst::Stmt { statement: self.stmts[s].statement, iter_values: Vec::new() })
                .collect());
        }
        // The statements with instances under ctx, with their projections. Rational emptiness
        // only: tile constraints make integer emptiness hard for branch-and-bound on unbounded
        // parameters, and a statement kept by mistake only costs an empty loop.
        let mut active = Vec::with_capacity(group.len());
        for &s in group {
            let p = self.stmts[s].proj[k].intersect(ctx)?;
            if !p.is_rationally_empty(self.limits)? {
                active.push((s, p));
            }
        }
        if active.is_empty() {
            return Ok(Vec::new());
        }
        if let Some(values) = scalar_values(&active, k) {
            return self.scalar(k, &active, &values, ctx, fixed);
        }
        let parts: Vec<Polyhedron> = active.iter().map(|(_, p)| p.clone()).collect();
        let hull = if parts.len() == 1 { parts[0].clone() } else { union_hull(&parts, k, self.limits)? };
        let kept = gist(&hull, ctx, self.limits)?;
        let (mut lower, mut upper, mut outer) = (Vec::new(), Vec::new(), Vec::new());
        for e in kept.equalities() {
            let e = substitute(e, fixed)?;
            let a = e.coeff(k);
            if a == 0 {
                outer.push(Guard { expr: e, kind: GuardKind::Zero });
                continue;
            }
            // a·d + rest = 0 → d = −rest / a.
            let (a, e) = if a > 0 { (a, e) } else { (negate(a)?, e.checked_neg()?) };
            let value = without(&e, k)?.checked_neg()?;
            lower.push(Bound { expr: value.clone(), divisor: a });
            upper.push(Bound { expr: value, divisor: a });
        }
        for f in kept.inequalities() {
            let f = substitute(f, fixed)?;
            let a = f.coeff(k);
            if a == 0 {
                outer.push(Guard { expr: f, kind: GuardKind::NonNegative });
            } else if a > 0 {
                // a·d + rest ≥ 0 → d ≥ ⌈−rest / a⌉.
                lower.push(Bound { expr: without(&f, k)?.checked_neg()?, divisor: a });
            } else {
                // −|a|·d + rest ≥ 0 → d ≤ ⌊rest / |a|⌋.
                upper.push(Bound { expr: without(&f, k)?, divisor: negate(a)? });
            }
        }
        if lower.is_empty() || upper.is_empty() {
            let names: Vec<&str> = active.iter().map(|(s, _)| self.stmts[*s].name.as_str()).collect();
            return Err(CodegenError::Unbounded {
                dim: self.problem.dims[k].name.clone(),
                side: if lower.is_empty() { "below" } else { "above" },
                statements: names.join(", "),
            });
        }
        let inner_ctx = ctx.intersect(&kept)?;
        let members: Vec<usize> = active.iter().map(|(s, _)| *s).collect();
        // At most one iteration (`e` is both a lower and an upper bound): no loop, `d = e`
        // replaces `d` inside (CLooG's assignment), the other bounds become guards.
        if let Some(e) = lower.iter().find(|b| b.divisor == 1 && upper.contains(b)).map(|b| b.expr.clone()) {
            let mut guards = outer;
            for b in lower.iter().filter(|b| b.expr != e || b.divisor != 1) {
                // ⌈l / q⌉ ≤ e  ⟺  q·e − l ≥ 0.
                guards.push(Guard {
                    expr: AffineForm::combine(b.divisor, &e, -1, &b.expr)?,
                    kind: GuardKind::NonNegative,
                });
            }
            for b in upper.iter().filter(|b| b.expr != e || b.divisor != 1) {
                // e ≤ ⌊u / q⌋  ⟺  u − q·e ≥ 0.
                guards.push(Guard {
                    expr: AffineForm::combine(1, &b.expr, -b.divisor, &e)?,
                    kind: GuardKind::NonNegative,
                });
            }
            fixed[k] = Some(e);
            let body = self.level(k + 1, &members, &inner_ctx, fixed);
            fixed[k] = None;
            let body = body?;
            return Ok(if body.is_empty() { body } else { vec![guarded(guards, LoopAst::seq(body))] });
        }
        let body = self.level(k + 1, &members, &inner_ctx, fixed)?;
        if body.is_empty() {
            return Ok(Vec::new());
        }
        let node = LoopAst::For(ForLoop {
            dim: k,
            lower,
            upper,
            step: 1,
            parallel: self.problem.dims[k].parallel,
            body: Box::new(LoopAst::seq(body)),
        });
        Ok(vec![guarded(outer, node)])
    }

    /// A scalar dimension: the statement groups, one per value, in increasing order.
    fn scalar(
        &self,
        k: usize,
        active: &[(usize, Polyhedron)],
        values: &[i64],
        ctx: &Polyhedron,
        fixed: &mut Vec<Option<AffineForm>>,
    ) -> CodegenResult<Vec<LoopAst>> {
        let mut order: Vec<i64> = values.to_vec();
        order.sort_unstable();
        order.dedup();
        let mut out = Vec::new();
        for v in order {
            let members: Vec<usize> =
                active.iter().zip(values).filter(|(_, &x)| x == v).map(|((s, _), _)| *s).collect();
            let mut inner_ctx = ctx.clone();
            let cols = ctx.n_columns();
            let minus_v = v.checked_neg().ok_or(crate::error::PolyError::Overflow { operation: "scalar dimension" })?;
            inner_ctx.add_equality(&AffineForm::from_terms(cols, &[(k, 1)], minus_v)?)?;
            fixed[k] = Some(AffineForm::constant_form(cols, v));
            let code = self.level(k + 1, &members, &inner_ctx, fixed);
            fixed[k] = None;
            out.extend(code?);
        }
        Ok(out)
    }

    /// The innermost level: each statement, guarded by what the loops do not imply.
    fn statements(
        &self,
        group: &[usize],
        ctx: &Polyhedron,
        fixed: &[Option<AffineForm>],
    ) -> CodegenResult<Vec<LoopAst>> {
        let mut out = Vec::with_capacity(group.len());
        for &s in group {
            let st = &self.stmts[s];
            let rest = gist(&st.full, ctx, self.limits)?;
            let mut guards = Vec::new();
            for e in rest.equalities() {
                guards.push(Guard { expr: substitute(e, fixed)?, kind: GuardKind::Zero });
            }
            for f in rest.inequalities() {
                guards.push(Guard { expr: substitute(f, fixed)?, kind: GuardKind::NonNegative });
            }
            if rest.is_known_empty() {
                continue;
            }
            let iter_values = st.iter_values.iter().map(|v| substitute(v, fixed)).collect::<CodegenResult<_>>()?;
            out.push(guarded(guards, LoopAst::Stmt { statement: st.statement, iter_values }));
        }
        Ok(out)
    }
}

/// Per active statement, the constant its projection fixes dimension `k` to; `None` unless
/// every statement has one (then `k` is a scalar dimension here).
fn scalar_values(active: &[(usize, Polyhedron)], k: usize) -> Option<Vec<i64>> {
    active
        .iter()
        .map(|(_, p)| {
            p.equalities().iter().find_map(|e| {
                let a = e.coeff(k);
                let only_k = a != 0 && e.coeffs().iter().enumerate().all(|(c, &x)| c == k || x == 0);
                (only_k && e.constant() % a == 0).then(|| -(e.constant() / a))
            })
        })
        .collect()
}

/// The constraints of `p` that `ctx` (with the other constraints) does not imply:
/// [`Polyhedron::gist`], which drops implied inequalities and the equalities `ctx` holds
/// syntactically, followed by dropping the equalities `ctx` implies (e.g. as two opposite
/// inequalities).
fn gist(p: &Polyhedron, ctx: &Polyhedron, limits: &Limits) -> CodegenResult<Polyhedron> {
    // Rows `ctx` holds verbatim need no linear program.
    let mut fresh = Polyhedron::universe(p.space().clone());
    if p.is_known_empty() {
        return Ok(p.clone());
    }
    for e in p.equalities().iter().filter(|e| !ctx.equalities().contains(e)) {
        fresh.add_equality(e)?;
    }
    for f in p.inequalities().iter().filter(|f| !ctx.inequalities().contains(f)) {
        fresh.add_inequality(f)?;
    }
    let g = fresh.gist(ctx, limits)?;
    if g.equalities().is_empty() {
        return Ok(g);
    }
    let mut out = Polyhedron::universe(g.space().clone());
    for e in g.equalities() {
        if !(implied(ctx, e, limits)? && implied(ctx, &e.checked_neg()?, limits)?) {
            out.add_equality(e)?;
        }
    }
    for f in g.inequalities() {
        out.add_inequality(f)?;
    }
    Ok(out)
}

/// Whether `f ≥ 0` holds on every rational point of `ctx`.
fn implied(ctx: &Polyhedron, f: &AffineForm, limits: &Limits) -> CodegenResult<bool> {
    Ok(match ctx.system().rational_min(f, &[], limits)? {
        LpOutcome::Optimal { value, .. } => value.numerator() >= 0,
        LpOutcome::Infeasible => true,
        LpOutcome::Unbounded => false,
    })
}

/// `guards ⇒ node`, or `node` without guards.
fn guarded(guards: Vec<Guard>, node: LoopAst) -> LoopAst {
    if guards.is_empty() {
        node
    } else {
        LoopAst::If { guards, then: Box::new(node) }
    }
}

/// `−a`, checked.
fn negate(a: i64) -> CodegenResult<i64> {
    Ok(a.checked_neg().ok_or(crate::error::PolyError::Overflow { operation: "loop bound" })?)
}

/// `f` without its column-`k` term.
fn without(f: &AffineForm, k: usize) -> CodegenResult<AffineForm> {
    let mut coeffs = f.coeffs().to_vec();
    coeffs[k] = 0;
    Ok(AffineForm::new(coeffs, f.constant()))
}

/// `f` with the dimensions of this path that are not loop variables replaced by their values
/// (forms over outer loop variables and parameters, innermost last, so one pass suffices).
fn substitute(f: &AffineForm, fixed: &[Option<AffineForm>]) -> CodegenResult<AffineForm> {
    let mut g = f.clone();
    for (col, v) in fixed.iter().enumerate().rev() {
        if let Some(v) = v {
            let a = g.coeff(col);
            if a != 0 {
                g = AffineForm::combine(1, &without(&g, col)?, a, v)?;
            }
        }
    }
    Ok(g)
}
