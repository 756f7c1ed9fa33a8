//! Removing parallelism-hindering anti dependences by array copying (thesis Sec. 4.2.3,
//! Fig. 4.4, following the thesis' reference [130]).
//!
//! For an anti dependence from a read of `A` in statement `R` to a later write of `A`, the
//! values the read needs are saved in a fresh array `A0` right before `R`, inside the loops
//! that enclose the dependence's level — and those carrying or enclosing the flow dependences
//! into the read, so that the copy sees every value the read receives — and the read is
//! redirected to `A0`:
//!
//! ```text
//! A0[I+1] = A[I+1];                         // initialisation: read, never written
//! for j: { for i: S0: A0[i] = A[i];         // the copy: read ∩ written elements
//!          for i: S1: A[i] = 0.5*(A[i] + A0[i+1]); }   // the redirected read
//! ```
//!
//! [`plan_array_copies`] describes the copies in IR-free terms (which array, before which
//! statement at which loop depth, which reads, which elements); [`ArrayCopy::apply`] performs
//! them on a [`Scop`] whose schedules have the loop-nest form `(β0, i1, β1, …)`.

use crate::affine::AffineForm;
use crate::dependence::{DependenceGraph, DependenceId, DependenceKind, DependenceLevel};
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::{AccessId, AccessRelation, ArrayId, Schedule, Scop, Statement, StatementId};
use crate::space::Space;

use super::error::{ScheduleError, ScheduleResult};

/// One array copy (thesis Fig. 4.4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArrayCopy {
    /// The array whose old values are preserved (`A`).
    pub array: ArrayId,
    /// The name of the copy (`A0`: the array's name followed by the first free number).
    pub copy_name: String,
    /// The statement whose reads are redirected; the copy runs right before it.
    pub reader: StatementId,
    /// The copy runs inside the reader's first `depth` loops: those enclosing the removed
    /// dependences' level (thesis Fig. 4.4 copies once per time step, `depth = 1`), or more
    /// where a flow dependence into a redirected read requires it (see `flow_depth`).
    pub depth: usize,
    /// The reads of `reader` that must read the copy instead of `array`.
    pub redirected: Vec<AccessId>,
    /// The anti dependences the copy removes.
    pub removes: Vec<DependenceId>,
    /// The copy statement's iteration domain over `[reader's first depth iterators, element
    /// indices] + params`: at each outer iteration, the elements the redirected reads access
    /// that some statement writes (`A0[x] = A[x]`) — their simple hull (the constraints of the
    /// per-read pieces valid for all of them), so one statement copies them, at most a few
    /// written elements more than needed.
    pub copy_domain: Polyhedron,
    /// Elements the redirected reads access that nothing writes, over `[element indices] +
    /// params` (their simple hull, which may add elements that are also copied later): copied
    /// once before the SCoP (thesis Fig. 4.4, line 1). `None` when every read element is
    /// written inside the SCoP.
    pub initialization: Option<Polyhedron>,
}

/// Number of loop rows before row `row` of statement `s`'s original schedule, provided they
/// are the statement's first iterators in order (a loop nest); `None` otherwise.
fn enclosing_loops(scop: &Scop, s: StatementId, row: usize) -> Option<usize> {
    let st = scop.statement(s)?;
    let n = st.n_iterators();
    let mut k = 0;
    for r in st.schedule().rows().iter().take(row) {
        let it = &r.coeffs()[..n];
        if it.iter().all(|&c| c == 0) {
            continue;
        }
        let unit = it.iter().enumerate().all(|(j, &c)| if j == k { c == 1 || c == -1 } else { c == 0 });
        if !unit {
            return None;
        }
        k += 1;
    }
    Some(k)
}

/// Describes the copies that remove the `hindering` dependences (thesis Alg. 4.2 line 10).
/// Dependences with the same array, reader and depth share one copy.
pub fn plan_array_copies(
    scop: &Scop,
    graph: &DependenceGraph,
    hindering: &[DependenceId],
    limits: &Limits,
) -> ScheduleResult<Vec<ArrayCopy>> {
    let mut groups: Vec<ArrayCopy> = Vec::new();
    for &id in hindering {
        let d = graph.dependence(id).ok_or(ScheduleError::UnknownDependence(id))?;
        let fail = |reason: &str| ScheduleError::CopyNotPossible { dependence: id.0, reason: reason.into() };
        if d.kind != DependenceKind::Anti {
            return Err(fail("only anti dependences are removed by copying; an output dependence needs renaming"));
        }
        let reader = d.source.statement;
        let access = scop
            .statement(reader)
            .and_then(|s| s.accesses().get(d.source.access.0))
            .ok_or_else(|| fail("the source access is not in the SCoP"))?;
        let depth = enclosing_loops(scop, reader, d.schedule_row)
            .ok_or_else(|| fail("the reader's schedule is not a loop nest (β0, i1, β1, …)"))?
            .max(flow_depth(scop, graph, reader, d.source.access));
        match groups.iter_mut().find(|g| g.array == access.array() && g.reader == reader && g.depth == depth) {
            Some(g) => {
                if !g.redirected.contains(&d.source.access) {
                    g.redirected.push(d.source.access);
                }
                g.removes.push(id);
            }
            None => groups.push(ArrayCopy {
                array: access.array(),
                copy_name: String::new(),
                reader,
                depth,
                redirected: vec![d.source.access],
                removes: vec![id],
                copy_domain: Polyhedron::universe(Space::default()),
                initialization: None,
            }),
        }
    }
    let mut taken: Vec<String> = scop.arrays().iter().map(|a| a.name.clone()).collect();
    for g in &mut groups {
        check_redirect(scop, graph, g)?;
        let base = &scop.arrays()[g.array.0].name;
        g.copy_name = (0..).map(|k| format!("{base}{k}")).find(|n| !taken.contains(n)).unwrap_or_default();
        taken.push(g.copy_name.clone());
        footprints(scop, g, limits)?;
    }
    Ok(groups)
}

/// The number of loops a copy for the read `access` of `reader` must run inside so that
/// every flow dependence into the read comes from before the copy point: the loop carrying
/// it, or the loops enclosing a loop-independent one (0 without flow dependences).
///
/// The dependence's own level puts the copy inside the loops enclosing the loop that carries
/// it (thesis Fig. 4.4: the anti dependence `(0, 1)` is carried by `i`, the copy runs once per
/// `j`). When the dependence is carried by the time loop — PolyBench fdtd-2d: the `hz` update
/// reads `ey[0][j]` at `t`, the excitation overwrites it at `t + 1` — that alone would be a
/// single copy before the SCoP, yet the same read receives `ey[0][j] = fict[t]` of its own time
/// step. The copy then runs once per `t`, after the excitation and the `ey` update, right
/// before the reader: the copied program reads exactly the values of the original, and the
/// read, redirected, no longer depends on the excitation's next write. A flow dependence
/// whose level is not a loop of a loop-nest schedule is skipped here; `check_redirect`
/// reports it.
fn flow_depth(scop: &Scop, graph: &DependenceGraph, reader: StatementId, access: AccessId) -> usize {
    let loops = enclosing_loops(scop, reader, usize::MAX).unwrap_or(0);
    graph
        .dependences()
        .iter()
        .filter(|d| d.kind == DependenceKind::Flow && d.target.statement == reader && d.target.access == access)
        .filter_map(|d| match d.level {
            DependenceLevel::Carried { depth } => Some(depth),
            DependenceLevel::Independent => enclosing_loops(scop, reader, d.schedule_row),
        })
        .filter(|&k| k <= loops)
        .max()
        .unwrap_or(0)
}

/// A redirected read must not see a value written after the copy point: every flow
/// dependence into it is carried by one of the copy's enclosing loops, or comes from a
/// statement that shares at most those loops.
fn check_redirect(scop: &Scop, graph: &DependenceGraph, g: &ArrayCopy) -> ScheduleResult<()> {
    for (e, d) in graph.dependences().iter().enumerate() {
        if d.kind != DependenceKind::Flow || d.target.statement != g.reader || !g.redirected.contains(&d.target.access)
        {
            continue;
        }
        let ok = match d.level {
            DependenceLevel::Carried { depth } => depth <= g.depth,
            DependenceLevel::Independent => {
                enclosing_loops(scop, d.target.statement, d.schedule_row).is_some_and(|m| m <= g.depth)
            }
        };
        if !ok {
            return Err(ScheduleError::CopyNotPossible {
                dependence: g.removes[0].0,
                reason: format!(
                    "the read also receives values written inside the copy's loop level (flow dependence {e}); a copy would hide them"
                ),
            });
        }
    }
    Ok(())
}

/// Names of the element dimensions: the reader's inner iterators when it has enough of them.
fn element_names(scop: &Scop, g: &ArrayCopy) -> Vec<String> {
    let st = &scop.statements()[g.reader.0];
    let rank = scop.arrays()[g.array.0].rank;
    let inner = &st.space().dims()[g.depth..];
    if inner.len() >= rank {
        inner[..rank].to_vec()
    } else {
        (0..rank).map(|j| format!("x{j}")).collect()
    }
}

/// `{(i, x) : i ∈ D, x = f(i)}` over `[iterators, x] + params`, then the iterators from `keep`
/// on projected out.
fn accessed(
    st: &Statement,
    access: &AccessRelation,
    names: &[String],
    keep: usize,
    limits: &Limits,
) -> ScheduleResult<Polyhedron> {
    let n = st.n_iterators();
    let r = access.index().len();
    let np = st.space().n_params();
    let dims: Vec<String> = st.space().dims().iter().map(|d| format!("{d}'")).chain(names.iter().cloned()).collect();
    let space = st.space().with_dims(dims);
    let total = n + r + np;
    let mapping: Vec<usize> = (0..n).chain(n + r..total).collect();
    let mut p = st.domain().embed(space, &mapping)?;
    for (j, f) in access.index().iter().enumerate() {
        let f = f.remap(total, &mapping)?;
        p.add_equality(&AffineForm::from_terms(total, &[(n + j, 1)], 0)?.checked_sub(&f)?)?;
    }
    let projected = p.project_out(keep, n - keep, limits)?.set;
    // Names: the kept iterators under their own names.
    let kept: Vec<String> = st.space().dims()[..keep].iter().cloned().chain(names.iter().cloned()).collect();
    let sys_space = projected.space().with_dims(kept);
    Ok(Polyhedron::from_constraints(sys_space, projected.equalities(), projected.inequalities())?)
}

/// Adds the pieces of `p` not covered by `pieces` to `pieces`.
fn add_disjoint(pieces: &mut Vec<Polyhedron>, p: Polyhedron, limits: &Limits) -> ScheduleResult<()> {
    let mut fresh = if p.is_empty(limits)? { Vec::new() } else { vec![p] };
    for q in pieces.iter() {
        let mut next = Vec::new();
        for f in fresh {
            next.extend(f.subtract(q, limits)?);
        }
        fresh = next;
    }
    pieces.extend(fresh);
    Ok(())
}

/// The intersection of the constraints of `pieces` that every piece satisfies (isl's simple
/// hull): a convex superset of their union, `None` for no pieces.
fn simple_hull(pieces: &[Polyhedron], limits: &Limits) -> ScheduleResult<Option<Polyhedron>> {
    let Some(first) = pieces.first() else { return Ok(None) };
    let mut hull = Polyhedron::universe(first.space().clone());
    for p in pieces {
        let mut rows: Vec<AffineForm> = p.inequalities().to_vec();
        for e in p.equalities() {
            rows.push(e.clone());
            rows.push(e.checked_neg()?);
        }
        for g in rows {
            let mut valid = true;
            for q in pieces {
                let mut outside = q.clone();
                outside.add_inequality(&g.checked_neg()?.checked_add_constant(-1)?)?;
                if !outside.is_empty(limits)? {
                    valid = false;
                    break;
                }
            }
            if valid {
                hull.add_inequality(&g)?;
            }
        }
    }
    Ok(Some(hull))
}

/// Fills the copy and initialisation domains of `g`.
fn footprints(scop: &Scop, g: &mut ArrayCopy, limits: &Limits) -> ScheduleResult<()> {
    let names = element_names(scop, g);
    let reader = &scop.statements()[g.reader.0];
    let r = names.len();
    let k = g.depth;
    let np = scop.params().len();
    // Elements written anywhere, over [x] + params.
    let mut written = Vec::new();
    for st in scop.statements() {
        for a in st.accesses().iter().filter(|a| a.is_write() && a.array() == g.array) {
            written.push(accessed(st, a, &names, 0, limits)?);
        }
    }
    let ctx = |space: &Space| -> ScheduleResult<Polyhedron> {
        let nd = space.n_dims();
        Ok(scop.context().embed(space.clone(), &(nd..nd + np).collect::<Vec<_>>())?)
    };
    // Per outer iteration: read and written (copied every time); read, never written (once).
    let mut copy = Vec::new();
    let mut init = Vec::new();
    for &a in &g.redirected {
        let f = accessed(reader, &reader.accesses()[a.0], &names, k, limits)?;
        let f = f.intersect(&ctx(f.space())?)?;
        let mapping: Vec<usize> = (k..k + r + np).collect();
        for w in &written {
            let w_lifted = w.embed(f.space().clone(), &mapping)?;
            add_disjoint(&mut copy, f.intersect(&w_lifted)?, limits)?;
        }
        let mut rest = vec![f.project_out(0, k, limits)?.set];
        for w in &written {
            let mut next = Vec::new();
            for p in rest {
                next.extend(p.subtract(w, limits)?);
            }
            rest = next;
        }
        for p in rest {
            add_disjoint(&mut init, p, limits)?;
        }
    }
    let canonical = |p: Polyhedron| -> ScheduleResult<Polyhedron> {
        let c = ctx(p.space())?;
        Ok(p.canonicalize(Some(&c), limits)?)
    };
    let hull = simple_hull(&copy, limits)?.ok_or_else(|| ScheduleError::CopyNotPossible {
        dependence: g.removes[0].0,
        reason: "the redirected reads access no element that is written".into(),
    })?;
    g.copy_domain = canonical(hull)?;
    g.initialization = simple_hull(&init, limits)?.map(canonical).transpose()?;
    Ok(())
}

/// Whether rows `0..len` of two schedules have the same loop-nest shape: equal constants for
/// scalar rows, the same iterator (by position) for loop rows.
fn same_prefix(a: &Schedule, b: &Schedule, len: usize) -> bool {
    let (na, nb) = (a.n_iterators(), b.n_iterators());
    (0..len).all(|r| match (a.rows().get(r), b.rows().get(r)) {
        (Some(x), Some(y)) => {
            let (cx, cy) = (&x.coeffs()[..na], &y.coeffs()[..nb]);
            let m = na.max(nb);
            x.constant() == y.constant()
                && (0..m).all(|j| cx.get(j).copied().unwrap_or(0) == cy.get(j).copied().unwrap_or(0))
        }
        _ => false,
    })
}

impl ArrayCopy {
    /// The SCoP with this copy performed (thesis Fig. 4.4): the array `copy_name`; the copy
    /// statement `<copy_name>_copy` over [`ArrayCopy::copy_domain`], right before the reader
    /// inside its first `depth` loops (statements after it at that level move one position
    /// later); the nest `<copy_name>_init` over [`ArrayCopy::initialization`] before
    /// everything; and the redirected reads reading the copy. New statements are numbered
    /// before the statements they precede. Requires loop-nest schedules `(β0, i1, β1, …)`.
    pub fn apply(&self, scop: &Scop) -> ScheduleResult<Scop> {
        let invalid = |m: String| ScheduleError::InvalidSchedules(m);
        let reader = scop.statement(self.reader).ok_or_else(|| invalid(format!("no statement {:?}", self.reader)))?;
        let rank = scop.arrays().get(self.array.0).map(|a| a.rank).ok_or_else(|| invalid("unknown array".into()))?;
        let k = self.depth;
        if k > reader.n_iterators() {
            return Err(invalid(format!("{} has no {k} enclosing loops", reader.name())));
        }
        for a in &self.redirected {
            let ok = reader.accesses().get(a.0).is_some_and(|acc| !acc.is_write() && acc.array() == self.array);
            if !ok {
                return Err(invalid(format!("{}: access #{} is not a read of the copied array", reader.name(), a.0)));
            }
        }
        let beta_row = 2 * k;
        let reader_beta =
            reader.schedule().rows().get(beta_row).filter(|r| r.is_constant()).map(AffineForm::constant).ok_or_else(
                || invalid(format!("{}: row {beta_row} of its schedule is not a textual position", reader.name())),
            )?;
        let first_beta = scop
            .statements()
            .iter()
            .map(|s| s.schedule().rows().first().filter(|r| r.is_constant()).map(AffineForm::constant))
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| invalid("a schedule does not start with a textual position".into()))?
            .into_iter()
            .min()
            .unwrap_or(0);

        let mut out = Scop::new(scop.params().iter().cloned());
        out.set_context(scop.context().clone())?;
        for a in scop.arrays() {
            out.add_array(a.name.clone(), a.rank)?;
        }
        let copy_array = out.add_array(self.copy_name.clone(), rank)?;
        let names: Vec<String> = element_names(scop, self);

        // The initialisation nest, before everything.
        if let Some(init) = &self.initialization {
            let space = scop.statement_space(names.iter().cloned());
            let domain = Polyhedron::from_constraints(space.clone(), init.equalities(), init.inequalities())?;
            let mut rows = vec![AffineForm::constant_form(space.n_columns(), first_beta - 1)];
            for d in 0..rank {
                rows.push(AffineForm::unit(space.n_columns(), d)?);
                rows.push(AffineForm::zero(space.n_columns()));
            }
            let name = format!("{}_init", self.copy_name);
            self.add_copy_statement(&mut out, name, domain, Schedule::new(&space, rows)?, copy_array)?;
        }

        for (sid, st) in scop.statements().iter().enumerate() {
            if StatementId(sid) == self.reader {
                self.add_copy(&mut out, scop, reader_beta, &names, copy_array)?;
            }
            let mut rows = st.schedule().rows().to_vec();
            let shifts = same_prefix(st.schedule(), reader.schedule(), beta_row)
                && rows.get(beta_row).is_some_and(|r| r.is_constant() && r.constant() >= reader_beta);
            if shifts {
                rows[beta_row] = rows[beta_row].checked_add_constant(1)?;
            }
            let mut new = Statement::new(st.name(), st.domain().clone(), Schedule::new(st.space(), rows)?);
            for (a, acc) in st.accesses().iter().enumerate() {
                let redirected = StatementId(sid) == self.reader && self.redirected.contains(&AccessId(a));
                new = new.with_access(if redirected {
                    AccessRelation::new(acc.kind(), copy_array, acc.index().to_vec())
                } else {
                    acc.clone()
                });
            }
            out.add_statement(new)?;
        }
        Ok(out)
    }

    /// The copy statement `A0[x] = A[x]`, inside the reader's first `depth` loops, at the
    /// reader's textual position `reader_beta`.
    fn add_copy(
        &self,
        out: &mut Scop,
        scop: &Scop,
        reader_beta: i64,
        names: &[String],
        copy_array: ArrayId,
    ) -> ScheduleResult<()> {
        let reader = &scop.statements()[self.reader.0];
        let (k, ni) = (self.depth, reader.n_iterators());
        let space = scop.statement_space(reader.space().dims()[..k].iter().cloned().chain(names.iter().cloned()));
        let n = space.n_columns();
        let r = names.len();
        let domain = Polyhedron::from_constraints(
            space.clone(),
            self.copy_domain.equalities(),
            self.copy_domain.inequalities(),
        )?;
        // The reader's outer rows (β0, i1, …, ik), its columns [i_0..i_{k-1}, params] moved to
        // the copy's [o, x, params].
        let mut rows = Vec::new();
        for row in reader.schedule().rows().iter().take(2 * k) {
            let mut terms = Vec::new();
            for c in (0..reader.space().n_columns()).filter(|&c| row.coeff(c) != 0) {
                let to = match c {
                    c if c < k => c,
                    c if c < ni => {
                        return Err(ScheduleError::InvalidSchedules(format!(
                            "{}: an outer schedule row uses an inner iterator",
                            reader.name()
                        )))
                    }
                    c => c - ni + k + r,
                };
                terms.push((to, row.coeff(c)));
            }
            rows.push(AffineForm::from_terms(n, &terms, row.constant())?);
        }
        rows.push(AffineForm::constant_form(n, reader_beta));
        for d in 0..r {
            rows.push(AffineForm::unit(n, k + d)?);
            rows.push(AffineForm::zero(n));
        }
        let name = format!("{}_copy", self.copy_name);
        self.add_copy_statement(out, name, domain, Schedule::new(&space, rows)?, copy_array)
    }

    /// `copy[x] = array[x]` over the last `rank` iterators of `domain`'s space.
    fn add_copy_statement(
        &self,
        out: &mut Scop,
        name: String,
        domain: Polyhedron,
        schedule: Schedule,
        copy_array: ArrayId,
    ) -> ScheduleResult<()> {
        let space = domain.space().clone();
        let n = space.n_columns();
        let nd = space.n_dims();
        let rank = out.arrays()[copy_array.0].rank;
        let index: Vec<AffineForm> =
            (nd - rank..nd).map(|c| AffineForm::unit(n, c)).collect::<crate::error::Result<_>>()?;
        let st = Statement::new(name, domain, schedule)
            .with_access(AccessRelation::read(self.array, index.clone()))
            .with_access(AccessRelation::write(copy_array, index));
        out.add_statement(st)?;
        Ok(())
    }
}

/// Applies several copies planned on the same SCoP (by [`plan_array_copies`]), one after the
/// other; each plan's statement is found again by name.
pub fn apply_array_copies(scop: &Scop, copies: &[ArrayCopy]) -> ScheduleResult<Scop> {
    let mut out = scop.clone();
    for c in copies {
        let name = scop
            .statement(c.reader)
            .map(|s| s.name().to_string())
            .ok_or_else(|| ScheduleError::InvalidSchedules(format!("no statement {:?}", c.reader)))?;
        let now = out.statements().iter().position(|s| s.name() == name).map(StatementId);
        let mut moved = c.clone();
        moved.reader = now.ok_or_else(|| ScheduleError::InvalidSchedules(format!("statement {name} vanished")))?;
        out = moved.apply(&out)?;
    }
    Ok(out)
}
