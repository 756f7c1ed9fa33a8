//! The benchmark stencils as SCoPs, built by hand exactly as `examples/*.mlir` (and Pluto's
//! test programs) write them: thesis Table 4.1's eight benchmarks, 3-D SOR, and Pluto's
//! reference programs.

use stencil_poly::*;

/// A small builder: statements are declared with their iterators, domain, β vector, reads
/// and the write, as `stencil.apply` bodies read their fields and then store.
pub struct Builder {
    pub scop: Scop,
    arrays: Vec<(String, ArrayId)>,
}

impl Builder {
    pub fn new(params: &[&str], context: &str) -> Builder {
        let mut scop = Scop::new(params.iter().copied());
        scop.add_context(context).unwrap();
        Builder { scop, arrays: Vec::new() }
    }

    pub fn array(mut self, name: &str, rank: usize) -> Builder {
        let id = self.scop.add_array(name, rank).unwrap();
        self.arrays.push((name.to_string(), id));
        self
    }

    fn id(&self, name: &str) -> ArrayId {
        self.arrays.iter().find(|(n, _)| n == name).map(|(_, id)| *id).expect("declared array")
    }

    /// `reads`/`write`: `("A", "i - 1, j")`.
    pub fn stmt(
        mut self,
        name: &str,
        iters: &[&str],
        domain: &str,
        beta: &[i64],
        reads: &[(&str, &str)],
        write: (&str, &str),
    ) -> Builder {
        let space = self.scop.statement_space(iters.iter().copied());
        let dom = Polyhedron::parse(space.clone(), domain).unwrap();
        let s = self.scop.add_statement(Statement::new(name, dom, Schedule::from_beta(beta, &space).unwrap())).unwrap();
        for &(a, idx) in reads {
            let r = AccessRelation::parse(AccessKind::Read, self.id(a), &space, idx).unwrap();
            self.scop.add_access(s, r).unwrap();
        }
        let w = AccessRelation::parse(AccessKind::Write, self.id(write.0), &space, write.1).unwrap();
        self.scop.add_access(s, w).unwrap();
        self
    }

    pub fn build(self) -> Scop {
        self.scop
    }
}

/// Offsets `-1, 0, 1` per dimension, `|o|_1 <= max_norm`, written as index expressions.
fn star(iters: &[&str], max_norm: i64, full: bool) -> Vec<String> {
    let d = iters.len();
    let mut out = Vec::new();
    let total = 3usize.pow(d as u32);
    for code in 0..total {
        let mut c = code;
        let offs: Vec<i64> = (0..d)
            .map(|_| {
                let o = (c % 3) as i64 - 1;
                c /= 3;
                o
            })
            .collect();
        let norm: i64 = offs.iter().map(|o| o.abs()).sum();
        if !full && norm > max_norm {
            continue;
        }
        let idx: Vec<String> = iters
            .iter()
            .zip(&offs)
            .map(|(it, &o)| match o {
                0 => it.to_string(),
                o if o > 0 => format!("{it} + {o}"),
                o => format!("{it} - {}", -o),
            })
            .collect();
        out.push(idx.join(", "));
    }
    out
}

/// `B = f(A at the star); A = B` (thesis Fig. 3.2(a) extended to d dimensions; `full`: all
/// 3^d neighbours, the 27-point 3-D stencil).
fn jacobi(d: usize, full: bool) -> Scop {
    let sp = ["i", "j", "k"];
    let par = ["N", "M", "L"];
    let params: Vec<&str> = std::iter::once("T").chain(par[..d].iter().copied()).collect();
    let ctx: Vec<String> =
        std::iter::once("T >= 1".to_string()).chain(par[..d].iter().map(|p| format!("{p} >= 3"))).collect();
    let iters: Vec<&str> = std::iter::once("t").chain(sp[..d].iter().copied()).collect();
    let mut dom = vec!["0 <= t < T".to_string()];
    for k in 0..d {
        dom.push(format!("1 <= {} < {} - 1", sp[k], par[k]));
    }
    let dom = dom.join(", ");
    let here = sp[..d].join(", ");
    let reads = star(&sp[..d], 1, full);
    let reads: Vec<(&str, &str)> = reads.iter().map(|r| ("A", r.as_str())).collect();
    let mut beta0 = vec![0i64; d + 2];
    let mut beta1 = vec![0i64; d + 2];
    beta0[1] = 0;
    beta1[1] = 1;
    Builder::new(&params, &ctx.join(", "))
        .array("A", d)
        .array("B", d)
        .stmt("S0", &iters, &dom, &beta0, &reads, ("B", &here))
        .stmt("S1", &iters, &dom, &beta1, &[("B", &here)], ("A", &here))
        .build()
}

/// 1-D Jacobi-3 (`examples/jacobi-1d-3pt.mlir`, thesis Fig. 3.2(a)).
pub fn jacobi_1d_3pt() -> Scop {
    jacobi(1, false)
}

/// 2-D Jacobi-5.
pub fn jacobi_2d_5pt() -> Scop {
    jacobi(2, false)
}

/// 3-D Jacobi-7.
pub fn jacobi_3d_7pt() -> Scop {
    jacobi(3, false)
}

/// 3-D Jacobi-27.
pub fn jacobi_3d_27pt() -> Scop {
    jacobi(3, true)
}

/// 2-D Heat (`examples/heat-2d.mlir`): `B = A + alpha * lap(A); A = B`, the Jacobi-5 nest.
pub fn heat_2d() -> Scop {
    jacobi(2, false)
}

/// SOR in place over `d` dimensions (`examples/sor-*.mlir`): the "minus" neighbours are this
/// sweep's values.
fn sor(d: usize) -> Scop {
    let sp = ["i", "j", "k"];
    let par = ["N", "M", "L"];
    let params: Vec<&str> = std::iter::once("T").chain(par[..d].iter().copied()).collect();
    let ctx: Vec<String> =
        std::iter::once("T >= 1".to_string()).chain(par[..d].iter().map(|p| format!("{p} >= 3"))).collect();
    let iters: Vec<&str> = std::iter::once("t").chain(sp[..d].iter().copied()).collect();
    let mut dom = vec!["0 <= t < T".to_string()];
    for k in 0..d {
        dom.push(format!("1 <= {} < {} - 1", sp[k], par[k]));
    }
    let here = sp[..d].join(", ");
    let reads = star(&sp[..d], 1, false);
    let reads: Vec<(&str, &str)> = reads.iter().map(|r| ("A", r.as_str())).collect();
    Builder::new(&params, &ctx.join(", "))
        .array("A", d)
        .stmt("S", &iters, &dom.join(", "), &vec![0; d + 2], &reads, ("A", &here))
        .build()
}

/// 1-D SOR-3.
pub fn sor_1d_3pt() -> Scop {
    sor(1)
}

/// 2-D SOR-5.
pub fn sor_2d_5pt() -> Scop {
    sor(2)
}

/// 3-D SOR-7 (thesis Ch. 5).
pub fn sor_3d_7pt() -> Scop {
    sor(3)
}

/// 2-D FDTD as `examples/fdtd-2d.mlir` (three statements, no source term).
pub fn fdtd_2d() -> Scop {
    let it = ["t", "i", "j"];
    Builder::new(&["T", "NX", "NY"], "T >= 1, NX >= 2, NY >= 2")
        .array("ex", 2)
        .array("ey", 2)
        .array("hz", 2)
        .stmt(
            "S0",
            &it,
            "0 <= t < T, 1 <= i < NX, 0 <= j < NY",
            &[0, 0, 0, 0],
            &[("ey", "i, j"), ("hz", "i, j"), ("hz", "i - 1, j")],
            ("ey", "i, j"),
        )
        .stmt(
            "S1",
            &it,
            "0 <= t < T, 0 <= i < NX, 1 <= j < NY",
            &[0, 1, 0, 0],
            &[("ex", "i, j"), ("hz", "i, j"), ("hz", "i, j - 1")],
            ("ex", "i, j"),
        )
        .stmt(
            "S2",
            &it,
            "0 <= t < T, 0 <= i < NX - 1, 0 <= j < NY - 1",
            &[0, 2, 0, 0],
            &[("hz", "i, j"), ("ex", "i, j"), ("ex", "i, j + 1"), ("ey", "i, j"), ("ey", "i + 1, j")],
            ("hz", "i, j"),
        )
        .build()
}

/// PolyBench fdtd-2d (Pluto's `test/fdtd-2d.c`): four statements, the first a 2-D nest
/// `ey[0][j] = fict[t]`.
pub fn polybench_fdtd_2d() -> Scop {
    let it = ["t", "i", "j"];
    Builder::new(&["T", "NX", "NY"], "T >= 1, NX >= 2, NY >= 2")
        .array("ex", 2)
        .array("ey", 2)
        .array("hz", 2)
        .array("fict", 1)
        .stmt("S1", &["t", "j"], "0 <= t < T, 0 <= j < NY", &[0, 0, 0], &[("fict", "t")], ("ey", "0, j"))
        .stmt(
            "S2",
            &it,
            "0 <= t < T, 1 <= i < NX, 0 <= j < NY",
            &[0, 1, 0, 0],
            &[("ey", "i, j"), ("hz", "i, j"), ("hz", "i - 1, j")],
            ("ey", "i, j"),
        )
        .stmt(
            "S3",
            &it,
            "0 <= t < T, 0 <= i < NX, 1 <= j < NY",
            &[0, 2, 0, 0],
            &[("ex", "i, j"), ("hz", "i, j"), ("hz", "i, j - 1")],
            ("ex", "i, j"),
        )
        .stmt(
            "S4",
            &it,
            "0 <= t < T, 0 <= i < NX - 1, 0 <= j < NY - 1",
            &[0, 3, 0, 0],
            &[("hz", "i, j"), ("ex", "i, j + 1"), ("ex", "i, j"), ("ey", "i + 1, j"), ("ey", "i, j")],
            ("hz", "i, j"),
        )
        .build()
}

/// Pluto's `test/jacobi-2d-imper.c`: `b = 0.2 * (a 5-point star); a = b`, `2 <= i, j < N - 1`.
pub fn pluto_jacobi_2d_imper() -> Scop {
    let it = ["t", "i", "j"];
    let dom = "0 <= t < T, 2 <= i < N - 1, 2 <= j < N - 1";
    Builder::new(&["T", "N"], "T >= 1, N >= 5")
        .array("a", 2)
        .array("b", 2)
        .stmt(
            "S1",
            &it,
            dom,
            &[0, 0, 0, 0],
            &[("a", "i, j"), ("a", "i, j - 1"), ("a", "i, j + 1"), ("a", "i + 1, j"), ("a", "i - 1, j")],
            ("b", "i, j"),
        )
        .stmt("S2", &it, dom, &[0, 1, 0, 0], &[("b", "i, j")], ("a", "i, j"))
        .build()
}

/// Pluto's `test/jacobi-1d-imper.c`: `b = 0.33333 * (a[i-1] + a[i] + a[i+1]); a = b`,
/// `2 <= i < N - 1`.
pub fn pluto_jacobi_1d_imper() -> Scop {
    let it = ["t", "i"];
    let dom = "0 <= t < T, 2 <= i < N - 1";
    Builder::new(&["T", "N"], "T >= 1, N >= 4")
        .array("a", 1)
        .array("b", 1)
        .stmt("S1", &it, dom, &[0, 0, 0], &[("a", "i - 1"), ("a", "i"), ("a", "i + 1")], ("b", "i"))
        .stmt("S2", &it, dom, &[0, 1, 0], &[("b", "i")], ("a", "i"))
        .build()
}

/// Pluto's `test/seidel.c` (PolyBench seidel-2d): the 9-point Gauss-Seidel sweep in place.
pub fn pluto_seidel_2d() -> Scop {
    let reads = star(&["i", "j"], 2, true);
    let reads: Vec<(&str, &str)> = reads.iter().map(|r| ("a", r.as_str())).collect();
    Builder::new(&["T", "N"], "T >= 1, N >= 3")
        .array("a", 2)
        .stmt(
            "S1",
            &["t", "i", "j"],
            "0 <= t <= T - 1, 1 <= i <= N - 2, 1 <= j <= N - 2",
            &[0, 0, 0, 0],
            &reads,
            ("a", "i, j"),
        )
        .build()
}

/// Pluto's `test/heat-2d.c` with the time dimension of the array expanded (the `% 2` of the
/// original is not affine): `A[t+1][i][j] = f(A[t] at the 5-point star)`.
pub fn pluto_heat_2d() -> Scop {
    let reads: Vec<(&str, &str)> =
        ["t, i + 1, j", "t, i, j", "t, i - 1, j", "t, i, j + 1", "t, i, j - 1"].iter().map(|r| ("A", *r)).collect();
    Builder::new(&["T", "N"], "T >= 1, N >= 1")
        .array("A", 3)
        .stmt(
            "S1",
            &["t", "i", "j"],
            "0 <= t < T, 1 <= i < N + 1, 1 <= j < N + 1",
            &[0, 0, 0, 0],
            &reads,
            ("A", "t + 1, i, j"),
        )
        .build()
}

/// Thesis Fig. 3.4: `for t: for i in 0..N-1: S0: A[i] = 0.5 * (A[i] + A[i+1])`.
pub fn fig_3_4() -> Scop {
    Builder::new(&["T", "N"], "T >= 1, N >= 4")
        .array("A", 1)
        .stmt("S0", &["t", "i"], "0 <= t < T, 0 <= i < N - 1", &[0, 0, 0], &[("A", "i"), ("A", "i + 1")], ("A", "i"))
        .build()
}

/// Thesis Fig. 4.4, the copied Fig. 3.4 (0-based: the thesis' `i = 2..I` is `1..N-2`):
/// `S0: A0[i] = A[i]` for `1 <= i <= N - 2`, then `S1: A[i] = 0.5 * (A[i] + A0[i+1])` for
/// `0 <= i <= N - 2`; the initialisation `A0[N-1] = A[N-1]` precedes the nest.
pub fn fig_4_4() -> Scop {
    Builder::new(&["T", "N"], "T >= 1, N >= 4")
        .array("A", 1)
        .array("A0", 1)
        .stmt("S0", &["t", "i"], "0 <= t < T, 1 <= i <= N - 2", &[0, 0, 0], &[("A", "i")], ("A0", "i"))
        .stmt("S1", &["t", "i"], "0 <= t < T, 0 <= i <= N - 2", &[0, 1, 0], &[("A", "i"), ("A0", "i + 1")], ("A", "i"))
        .build()
}

/// Thesis Table 4.1's eight benchmarks, in the table's order.
pub fn table_4_1() -> Vec<(&'static str, Scop)> {
    vec![
        ("1-D Jacobi-3", jacobi_1d_3pt()),
        ("2-D Jacobi-5", jacobi_2d_5pt()),
        ("3-D Jacobi-7", jacobi_3d_7pt()),
        ("3-D Jacobi-27", jacobi_3d_27pt()),
        ("1-D SOR-3", sor_1d_3pt()),
        ("2-D SOR-5", sor_2d_5pt()),
        ("2-D FDTD", fdtd_2d()),
        ("2-D Heat", heat_2d()),
    ]
}
