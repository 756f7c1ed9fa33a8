//! Instance spaces for pairs (and triples) of statement instances, and the lexicographic
//! precedence constraints of thesis Thm 3.1 split by level.

use crate::affine::AffineForm;
use crate::error::Result;
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::scop::{AccessRelation, Scop, Statement};
use crate::space::Space;

/// Column layout of a space holding several statement instances side by side
/// (`[iters of instance 0, iters of instance 1, …, params]`).
pub(crate) struct Layout {
    pub space: Space,
    offsets: Vec<usize>,
    n_iters: Vec<usize>,
}

impl Layout {
    /// Instances of `statements`, their iterators renamed with `suffixes`.
    pub fn new(scop: &Scop, statements: &[&Statement], suffixes: &[&str]) -> Layout {
        let mut dims = Vec::new();
        let mut offsets = Vec::new();
        let mut n_iters = Vec::new();
        for (s, suffix) in statements.iter().zip(suffixes) {
            offsets.push(dims.len());
            n_iters.push(s.n_iterators());
            dims.extend(s.space().dims().iter().map(|d| format!("{d}{suffix}")));
        }
        let space = Space::new(dims, scop.params().iter().cloned());
        Layout { space, offsets, n_iters }
    }

    fn mapping(&self, which: usize) -> Vec<usize> {
        let nd = self.space.n_dims();
        let off = self.offsets[which];
        (0..self.n_iters[which]).map(|k| off + k).chain((0..self.space.n_params()).map(|j| nd + j)).collect()
    }

    /// A form over instance `which`'s statement space, lifted into this layout.
    pub fn lift(&self, which: usize, f: &AffineForm) -> Result<AffineForm> {
        f.remap(self.space.n_columns(), &self.mapping(which))
    }

    /// A polyhedron over instance `which`'s statement space, lifted into this layout.
    pub fn lift_polyhedron(&self, which: usize, p: &Polyhedron) -> Result<Polyhedron> {
        p.embed(self.space.clone(), &self.mapping(which))
    }

    /// The SCoP context lifted into this layout.
    pub fn context(&self, scop: &Scop) -> Result<Polyhedron> {
        let nd = self.space.n_dims();
        let mapping: Vec<usize> = (0..self.space.n_params()).map(|j| nd + j).collect();
        scop.context().embed(self.space.clone(), &mapping)
    }

    /// Column of iterator `k` of instance `which`.
    pub fn column(&self, which: usize, k: usize) -> usize {
        self.offsets[which] + k
    }

    /// Number of iterators of instance `which`.
    pub fn n_iters(&self, which: usize) -> usize {
        self.n_iters[which]
    }

    /// `a(x) = b(y)` element-wise: both accesses touch the same element.
    pub fn same_element(
        &self,
        p: &mut Polyhedron,
        x: (usize, &AccessRelation),
        y: (usize, &AccessRelation),
    ) -> Result<()> {
        for (f, g) in x.1.index().iter().zip(y.1.index()) {
            p.add_equality(&self.lift(x.0, f)?.checked_sub(&self.lift(y.0, g)?)?)?;
        }
        Ok(())
    }

    /// Adds `Θ_y[q](y) = Θ_x[q](x)` for the schedule row `q`.
    pub fn equal_row(
        &self,
        p: &mut Polyhedron,
        x: (usize, &Statement),
        y: (usize, &Statement),
        q: usize,
    ) -> Result<()> {
        let d = self.row_difference(x, y, q)?;
        p.add_equality(&d)
    }

    /// Adds `Θ_y[q](y) − Θ_x[q](x) ≥ 1`: `x` precedes `y` strictly at row `q`.
    pub fn strict_row(
        &self,
        p: &mut Polyhedron,
        x: (usize, &Statement),
        y: (usize, &Statement),
        q: usize,
    ) -> Result<()> {
        let d = self.row_difference(x, y, q)?;
        p.add_inequality(&d.checked_add_constant(-1)?)
    }

    /// Adds "`x ≺ y`, carried at schedule row `level`": equal rows before it, strictly
    /// increasing at it.
    pub fn precedes_at(
        &self,
        p: &mut Polyhedron,
        x: (usize, &Statement),
        y: (usize, &Statement),
        level: usize,
    ) -> Result<()> {
        for q in 0..level {
            self.equal_row(p, x, y, q)?;
        }
        self.strict_row(p, x, y, level)
    }

    fn row_difference(&self, x: (usize, &Statement), y: (usize, &Statement), q: usize) -> Result<AffineForm> {
        let rx = &x.1.schedule().rows()[q];
        let ry = &y.1.schedule().rows()[q];
        self.lift(y.0, ry)?.checked_sub(&self.lift(x.0, rx)?)
    }

    /// The iterator values of instance `which` in a point of this layout.
    pub fn instance_of(&self, which: usize, point: &[i64]) -> Vec<i64> {
        let off = self.offsets[which];
        point[off..off + self.n_iters[which]].to_vec()
    }
}

/// Number of schedule rows on which instances of `a` and `b` can be compared.
pub(crate) fn common_rows(a: &Statement, b: &Statement) -> usize {
    a.schedule().len().min(b.schedule().len())
}

/// Two distinct instances of statements `si` and `ti` (in the context) with equal time stamps
/// on their common rows, if any.
pub(crate) fn equal_time_witness(
    scop: &Scop,
    si: usize,
    ti: usize,
    limits: &Limits,
) -> Result<Option<(Vec<i64>, Vec<i64>)>> {
    let (s, t) = (&scop.statements()[si], &scop.statements()[ti]);
    let layout = Layout::new(scop, &[s, t], &["_s", "_t"]);
    let mut base = layout.context(scop)?;
    base = base.intersect(&layout.lift_polyhedron(0, s.domain())?)?;
    base = base.intersect(&layout.lift_polyhedron(1, t.domain())?)?;
    for q in 0..common_rows(s, t) {
        layout.equal_row(&mut base, (0, s), (1, t), q)?;
    }
    let mut candidates = Vec::new();
    if si == ti {
        // Distinct instances of one statement: s ≺lex t on the iterators (the other order is
        // symmetric).
        for k in 0..s.n_iterators() {
            let mut p = base.clone();
            for j in 0..k {
                let f = AffineForm::from_terms(
                    layout.space.n_columns(),
                    &[(layout.column(1, j), 1), (layout.column(0, j), -1)],
                    0,
                )?;
                p.add_equality(&f)?;
            }
            let f = AffineForm::from_terms(
                layout.space.n_columns(),
                &[(layout.column(1, k), 1), (layout.column(0, k), -1)],
                -1,
            )?;
            p.add_inequality(&f)?;
            candidates.push(p);
        }
    } else {
        candidates.push(base);
    }
    for p in candidates {
        if p.is_known_empty() || p.is_rationally_empty(limits)? {
            continue;
        }
        if let Some(pt) = p.find_point(limits)? {
            return Ok(Some((layout.instance_of(0, &pt), layout.instance_of(1, &pt))));
        }
    }
    Ok(None)
}
