//! Affine maps between spaces, with images and preimages of polyhedra.

use crate::affine::AffineForm;
use crate::error::{PolyError, Result};
use crate::fourier_motzkin::Projection;
use crate::limits::Limits;
use crate::polyhedron::Polyhedron;
use crate::space::Space;

/// An affine map `x ↦ M·x + m` from the dimensions of `domain` to `range` dimensions, both
/// with the parameters of `domain` (thesis Eq. 3.7/3.8: a statement-wise transformation `Φ_S`;
/// also access functions and schedules).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AffineMap {
    domain: Space,
    range: Space,
    outputs: Vec<AffineForm>,
}

impl AffineMap {
    /// The map whose output `k`, named `range_dims[k]`, is `outputs[k]` (a form over the
    /// columns of `domain`).
    pub fn new<D>(domain: Space, range_dims: D, outputs: Vec<AffineForm>) -> Result<AffineMap>
    where
        D: IntoIterator,
        D::Item: Into<String>,
    {
        let range = domain.with_dims(range_dims);
        if range.n_dims() != outputs.len() {
            return Err(PolyError::SpaceMismatch {
                context: "AffineMap::new",
                expected: range.n_dims(),
                found: outputs.len(),
            });
        }
        for f in &outputs {
            domain.check_columns(f.n_columns(), "AffineMap::new")?;
        }
        Ok(AffineMap { domain, range, outputs })
    }

    /// The domain space.
    pub fn domain(&self) -> &Space {
        &self.domain
    }

    /// The range space.
    pub fn range(&self) -> &Space {
        &self.range
    }

    /// The output forms.
    pub fn outputs(&self) -> &[AffineForm] {
        &self.outputs
    }

    /// The image of a point (all domain columns, parameters included).
    pub fn apply(&self, point: &[i64]) -> Result<Vec<i64>> {
        self.outputs.iter().map(|f| f.eval(point)).collect()
    }

    /// `{x : M(x) ∈ p}` for `p` over the range: exact (substitution).
    pub fn preimage(&self, p: &Polyhedron) -> Result<Polyhedron> {
        self.range.check_compatible(p.space(), "AffineMap::preimage")?;
        let np = self.domain.n_params();
        // Images of the range dims, and the parameters map to themselves.
        let mut q = Polyhedron::universe(self.domain.clone());
        if p.is_known_empty() {
            return Ok(Polyhedron::empty(self.domain.clone()));
        }
        for e in p.equalities() {
            q.add_equality(&e.compose(&self.outputs, np)?)?;
        }
        for f in p.inequalities() {
            q.add_inequality(&f.compose(&self.outputs, np)?)?;
        }
        Ok(q)
    }

    /// `{M(x) : x ∈ p}` for `p` over the domain: the graph `{(y, x) : y = M(x), x ∈ p}` with `x`
    /// projected out by Fourier–Motzkin (exact flag as in [`crate::fourier_motzkin`]).
    pub fn image(&self, p: &Polyhedron, limits: &Limits) -> Result<Projection<Polyhedron>> {
        self.domain.check_compatible(p.space(), "AffineMap::image")?;
        let (no, nd, np) = (self.range.n_dims(), self.domain.n_dims(), self.domain.n_params());
        let dims: Vec<String> = self.range.dims().iter().chain(self.domain.dims()).cloned().collect();
        let graph_space = self.domain.with_dims(dims);
        let n = graph_space.n_columns();
        // x → columns no.., params → after.
        let mapping: Vec<usize> = (0..nd).map(|c| no + c).chain((0..np).map(|j| no + nd + j)).collect();
        let mut g = p.embed(graph_space, &mapping)?;
        for (k, f) in self.outputs.iter().enumerate() {
            let mut row = f.remap(n, &mapping)?;
            row.set_coeff(k, -1);
            g.add_equality(&row)?;
        }
        g.project_out(no, nd, limits)
    }
}
