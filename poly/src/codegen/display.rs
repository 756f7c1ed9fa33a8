//! C-like pseudo-code for loop nests (for debugging, tests and documentation), in CLooG's
//! notation: `max`/`min` of bounds, `ceild`/`floord` for divisions that round up/down.

use std::fmt;

use super::ast::{Bound, Guard, GuardKind, LoopAst, LoopNest};
use crate::affine::AffineForm;
use crate::space::Space;

impl fmt::Display for LoopNest {
    /// ```text
    /// for (t1 = 0; t1 <= floord(2*T + N - 3, 4); t1++) {  // DOSEQ inter-tile wavefront
    ///   ...
    ///         S0(t = e1 - e2, i = -e1 + 2*e2);
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_node(f, self, &self.root, 0)
    }
}

fn write_node(f: &mut fmt::Formatter<'_>, nest: &LoopNest, node: &LoopAst, depth: usize) -> fmt::Result {
    let pad = "  ".repeat(depth);
    let space = &nest.space;
    match node {
        LoopAst::For(l) => {
            let d = &nest.dims[l.dim];
            let v = &d.name;
            let step = if l.step == 1 { format!("{v}++") } else { format!("{v} += {}", l.step) };
            writeln!(
                f,
                "{pad}for ({v} = {}; {v} <= {}; {step}) {{  // {} {}",
                bounds(&l.lower, "max", "ceild", space),
                bounds(&l.upper, "min", "floord", space),
                if l.parallel { "DOALL" } else { "DOSEQ" },
                d.kind.describe()
            )?;
            write_node(f, nest, &l.body, depth + 1)?;
            writeln!(f, "{pad}}}")
        }
        LoopAst::If { guards, then } => {
            let conds: Vec<String> = guards.iter().map(|g| guard(g, space)).collect();
            writeln!(f, "{pad}if ({}) {{", conds.join(" && "))?;
            write_node(f, nest, then, depth + 1)?;
            writeln!(f, "{pad}}}")
        }
        LoopAst::Stmt { statement, iter_values } => {
            let info = nest.statements.iter().find(|s| s.statement == *statement);
            let name = info.map_or("?", |s| s.name.as_str());
            let args: Vec<String> = iter_values
                .iter()
                .enumerate()
                .map(|(k, v)| {
                    let it = info.and_then(|s| s.iterators.get(k)).map_or("?", String::as_str);
                    format!("{it} = {}", v.display(space))
                })
                .collect();
            writeln!(f, "{pad}{name}({});", args.join(", "))
        }
        LoopAst::Seq(items) => items.iter().try_for_each(|x| write_node(f, nest, x, depth)),
    }
}

/// `e`, `ceild(e, 2)`, or `max(a, b, …)`.
fn bounds(list: &[Bound], combine: &str, div: &str, space: &Space) -> String {
    let one = |b: &Bound| {
        if b.divisor == 1 {
            b.expr.display(space).to_string()
        } else {
            format!("{div}({}, {})", b.expr.display(space), b.divisor)
        }
    };
    match list {
        [b] => one(b),
        _ => format!("{combine}({})", list.iter().map(one).collect::<Vec<_>>().join(", ")),
    }
}

/// `e1 >= 2*t2 + 3`, `N <= 5`, `e1 == t2`: positive terms on the left.
fn guard(g: &Guard, space: &Space) -> String {
    let pos: Vec<i64> = g.expr.coeffs().iter().map(|&c| c.max(0)).collect();
    let neg: Vec<i64> = g.expr.coeffs().iter().map(|&c| if c < 0 { c.saturating_neg() } else { 0 }).collect();
    let c = g.expr.constant();
    let op = match g.kind {
        GuardKind::NonNegative => (">=", "<="),
        GuardKind::Zero => ("==", "=="),
    };
    let p = AffineForm::new(pos, 0);
    if p.is_constant() {
        let q = AffineForm::new(neg, 0);
        return format!("{} {} {c}", q.display(space), op.1);
    }
    let rhs = AffineForm::new(neg, c.saturating_neg());
    format!("{} {} {}", p.display(space), op.0, rhs.display(space))
}
