//! Construction of dependence polyhedra, the direct-dependence refinement, and distance vectors.

use std::cell::Cell;

use super::precedence::{common_rows, Layout};
use super::{AccessRef, Dependence, DependenceKind, DependenceLevel, DependenceMode, DependenceOptions};
use crate::affine::AffineForm;
use crate::error::Result;
use crate::limits::Limits;
use crate::polyhedron::{Optimum, Polyhedron};
use crate::scop::{AccessId, AccessKind, AccessRelation, Scop, Statement, StatementId};

/// All dependences of `scop`, sorted by (source statement, target statement, kind, source
/// access, target access, schedule row).
pub(crate) fn compute(scop: &Scop, options: &DependenceOptions) -> Result<Vec<Dependence>> {
    let limits = &options.limits;
    scop.check_schedules(limits)?;
    let kill_tests = Cell::new(0usize);
    let mut deps = Vec::new();
    for (si, s) in scop.statements().iter().enumerate() {
        for (ti, t) in scop.statements().iter().enumerate() {
            let layout = Layout::new(scop, &[s, t], &["_s", "_t"]);
            let ctx = layout.context(scop)?;
            let domains = ctx
                .intersect(&layout.lift_polyhedron(0, s.domain())?)?
                .intersect(&layout.lift_polyhedron(1, t.domain())?)?;
            if domains.is_rationally_empty(limits)? {
                continue;
            }
            for (ai, a) in s.accesses().iter().enumerate() {
                for (bi, b) in t.accesses().iter().enumerate() {
                    let Some(kind) = kind_of(a, b) else { continue };
                    let pair = Pair {
                        scop,
                        layout: &layout,
                        ctx: &ctx,
                        source: (StatementId(si), s, AccessId(ai), a),
                        target: (StatementId(ti), t, AccessId(bi), b),
                        kind,
                        kill_tests: &kill_tests,
                    };
                    pair.dependences(&domains, options, &mut deps)?;
                }
            }
        }
    }
    let tests = kill_tests.get();
    if tests > limits.max_kill_tests {
        tracing::warn!(
            budget = limits.max_kill_tests,
            over_approximated = deps.iter().filter(|d| d.over_approximated).count(),
            "dependence analysis: the exact search for direct dependences ran out of its budget of kill tests; the remaining dependences are kept memory-based (a superset: still safe, but they may rule out schedules and parallel loops the program allows)"
        );
    } else {
        tracing::debug!(kill_tests = tests, "direct-dependence analysis");
    }
    deps.sort_by_key(|d| {
        (d.source.statement, d.target.statement, d.kind, d.source.access, d.target.access, d.schedule_row)
    });
    Ok(deps)
}

fn kind_of(a: &AccessRelation, b: &AccessRelation) -> Option<DependenceKind> {
    if a.array() != b.array() {
        return None;
    }
    match (a.kind(), b.kind()) {
        (AccessKind::Write, AccessKind::Read) => Some(DependenceKind::Flow),
        (AccessKind::Read, AccessKind::Write) => Some(DependenceKind::Anti),
        (AccessKind::Write, AccessKind::Write) => Some(DependenceKind::Output),
        (AccessKind::Read, AccessKind::Read) => None,
    }
}

/// One ordered pair of accesses.
struct Pair<'a> {
    scop: &'a Scop,
    layout: &'a Layout,
    ctx: &'a Polyhedron,
    source: (StatementId, &'a Statement, AccessId, &'a AccessRelation),
    target: (StatementId, &'a Statement, AccessId, &'a AccessRelation),
    kind: DependenceKind,
    /// Kill tests run so far by the whole analysis (bounded by `Limits::max_kill_tests`).
    kill_tests: &'a Cell<usize>,
}

impl Pair<'_> {
    fn dependences(&self, domains: &Polyhedron, options: &DependenceOptions, out: &mut Vec<Dependence>) -> Result<()> {
        let limits = &options.limits;
        let (s, t) = (self.source.1, self.target.1);
        let mut base = domains.clone();
        self.layout.same_element(&mut base, (0, self.source.3), (1, self.target.3))?;
        if base.is_known_empty() || base.is_rationally_empty(limits)? {
            return Ok(());
        }
        // `prefix`: base with the rows before `level` equal.
        let mut prefix = base;
        for level in 0..common_rows(s, t) {
            let mut p = prefix.clone();
            self.layout.strict_row(&mut p, (0, s), (1, t), level)?;
            if !p.is_known_empty() && !p.is_empty(limits)? {
                let pieces = match options.mode {
                    DependenceMode::MemoryBased => Some(vec![p.clone()]),
                    DependenceMode::Direct => self.direct_pieces(&p, level, limits)?,
                };
                match pieces {
                    Some(pieces) => {
                        for piece in pieces {
                            out.push(self.finish(piece, level, false, limits)?);
                        }
                    }
                    None => out.push(self.finish(p, level, true, limits)?),
                }
            }
            self.layout.equal_row(&mut prefix, (0, s), (1, t), level)?;
            if prefix.is_known_empty() || prefix.is_rationally_empty(limits)? {
                break;
            }
        }
        Ok(())
    }

    /// The pairs of `p` (carried at `level`) without a write to the same element by an instance
    /// strictly between them, as disjoint pieces; `None` when a needed projection is inexact.
    fn direct_pieces(&self, p: &Polyhedron, level: usize, limits: &Limits) -> Result<Option<Vec<Polyhedron>>> {
        let (s, t) = (self.source.1, self.target.1);
        let array = self.source.3.array();
        let mut pieces = vec![p.clone()];
        for u in self.scop.statements() {
            let layout = Layout::new(self.scop, &[s, t, u], &["_s", "_t", "_u"]);
            let lifted = p.embed(layout.space.clone(), &pair_into_triple(self.layout, &layout))?;
            let with_u = lifted.intersect(&layout.lift_polyhedron(2, u.domain())?)?;
            let su = common_rows(s, u);
            let ut = common_rows(u, t);
            // s ≺ u at p1 and u ≺ t at p2 with min(p1, p2) = level.
            let mut combos: Vec<(usize, usize)> = (level..ut).filter(|_| level < su).map(|q| (level, q)).collect();
            combos.extend((level + 1..su).filter(|_| level < ut).map(|q| (q, level)));
            for w in u.accesses().iter().filter(|w| w.is_write() && w.array() == array) {
                let mut kill = with_u.clone();
                layout.same_element(&mut kill, (2, w), (0, self.source.3))?;
                if kill.is_known_empty() || kill.is_rationally_empty(limits)? {
                    continue;
                }
                for &(p1, p2) in &combos {
                    // Over the budget: keep the memory-based polyhedron (see `Limits`).
                    let spent = self.kill_tests.get() + 1;
                    self.kill_tests.set(spent);
                    if spent > limits.max_kill_tests {
                        return Ok(None);
                    }
                    let mut k = kill.clone();
                    layout.precedes_at(&mut k, (0, s), (2, u), p1)?;
                    layout.precedes_at(&mut k, (2, u), (1, t), p2)?;
                    if k.is_known_empty() || k.is_rationally_empty(limits)? {
                        continue;
                    }
                    let proj = k.project_out(layout.column(2, 0), layout.n_iters(2), limits)?;
                    if !proj.exact {
                        return Ok(None);
                    }
                    let killed = proj.set;
                    let mut next = Vec::new();
                    for piece in &pieces {
                        next.extend(piece.subtract_from_nonempty(&killed, limits)?);
                    }
                    pieces = next;
                    if pieces.is_empty() {
                        return Ok(Some(pieces));
                    }
                }
            }
        }
        Ok(Some(pieces))
    }

    fn finish(&self, p: Polyhedron, level: usize, over_approximated: bool, limits: &Limits) -> Result<Dependence> {
        let (s, t) = (self.source.1, self.target.1);
        let polyhedron = p.canonicalize(Some(self.ctx), limits)?;
        let n = s.n_iterators().min(t.n_iterators());
        let with_ctx = polyhedron.intersect(self.ctx)?;
        let mut distance = Some(Vec::with_capacity(n));
        for k in 0..n {
            let f = AffineForm::from_terms(
                self.layout.space.n_columns(),
                &[(self.layout.column(1, k), 1), (self.layout.column(0, k), -1)],
                0,
            )?;
            let known = reduce_to_constant(&polyhedron, &f)?;
            let value = match known {
                Some(v) => Some(v),
                None => constant_value(&with_ctx, &f, limits)?,
            };
            match value {
                Some(v) => {
                    if let Some(d) = distance.as_mut() {
                        d.push(v);
                    }
                }
                None => {
                    distance = None;
                    break;
                }
            }
        }
        let loop_rows = (0..=level).filter(|&q| s.schedule().is_loop_row(q) || t.schedule().is_loop_row(q)).count();
        let level_kind = if s.schedule().is_loop_row(level) || t.schedule().is_loop_row(level) {
            DependenceLevel::Carried { depth: loop_rows }
        } else {
            DependenceLevel::Independent
        };
        Ok(Dependence {
            kind: self.kind,
            source: AccessRef { statement: self.source.0, access: self.source.2 },
            target: AccessRef { statement: self.target.0, access: self.target.2 },
            schedule_row: level,
            level: level_kind,
            polyhedron,
            distance,
            over_approximated,
        })
    }
}

/// Column mapping from the pair layout `[s, t, params]` into the triple layout `[s, t, u, params]`.
fn pair_into_triple(pair: &Layout, triple: &Layout) -> Vec<usize> {
    let nd2 = pair.space.n_dims();
    let nd3 = triple.space.n_dims();
    (0..nd2).chain((0..pair.space.n_params()).map(|j| nd3 + j)).collect()
}

/// The constant `f` reduces to through the (echelon-form, unit-pivot) equalities of `p`, if
/// it does; a cheap sufficient test before [`constant_value`].
fn reduce_to_constant(p: &Polyhedron, f: &AffineForm) -> Result<Option<i64>> {
    let mut f = f.clone();
    for e in p.equalities() {
        let Some(piv) = e.first_nonzero() else { continue };
        let (a, b) = (e.coeff(piv), f.coeff(piv));
        if b == 0 {
            continue;
        }
        if a.unsigned_abs() != 1 {
            return Ok(None);
        }
        // f − (b/a)·e, exact because a = ±1.
        f = AffineForm::combine(1, &f, crate::int::cancel_factor(a, b, "distance vector")?, e)?;
    }
    Ok(f.is_constant().then(|| f.constant()))
}

/// The value of `f` if it is constant on the integer points of `p` (exact: two integer
/// programs), `None` otherwise.
fn constant_value(p: &Polyhedron, f: &AffineForm, limits: &Limits) -> Result<Option<i64>> {
    let Optimum::Optimal { value: lo, .. } = p.minimize(f, limits)? else { return Ok(None) };
    let Optimum::Optimal { value: hi, .. } = p.maximize(f, limits)? else { return Ok(None) };
    Ok((lo == hi).then_some(lo))
}
