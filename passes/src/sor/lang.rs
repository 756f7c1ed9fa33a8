//! The e-graph language of SOR recognition: real arithmetic over the leaves of an apply body
//! (field reads, scalar arguments, constants), a constant-folding analysis, and the rewrite
//! rule sets ([`RuleSet`]).
//!
//! Equality here is equality of **real-number** expressions: the rules (associativity,
//! distributivity, division as multiplication by a reciprocal) do not hold bit for bit in
//! floating point. That is what recognition needs — is this update *mathematically* a relaxed
//! Gauss-Seidel step? — and the rewrites never use the e-graph's forms: they keep the program's
//! own arithmetic, so a rewritten program computes every point update exactly as before.

use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

use egg::{rewrite, Analysis, DidMerge, EGraph, Id, Rewrite, Subst, Var};

/// A floating-point constant of the e-graph, compared and hashed by its bits (so it can be an
/// e-node). Parsed and printed as a decimal number.
#[derive(Clone, Copy, Debug)]
pub struct Num(pub f64);

impl PartialEq for Num {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}
impl Eq for Num {}
impl PartialOrd for Num {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Num {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}
impl std::hash::Hash for Num {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}
impl FromStr for Num {
    type Err = std::num::ParseFloatError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse::<f64>().map(Num)
    }
}
impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

pub use language::SorLang;

/// `define_language!` takes no attributes on variants; they are documented on the enum.
mod language {
    #![allow(missing_docs)]
    use super::Num;
    use egg::{define_language, Id, Symbol};

    define_language! {
        /// Real arithmetic over the leaves of an apply body: `+ − · /` (`Add`, `Sub`, `Mul`,
        /// `Div`), negation (`Neg`), the reciprocal (`Inv`), constants (`Num`) and leaves
        /// (`Leaf`): a read of the written field at an offset (`A[-1, 0]`) or a scalar argument
        /// (`$omega`).
        pub enum SorLang {
            "+" = Add([Id; 2]),
            "-" = Sub([Id; 2]),
            "*" = Mul([Id; 2]),
            "/" = Div([Id; 2]),
            "neg" = Neg(Id),
            "inv" = Inv(Id),
            Num(Num),
            Leaf(Symbol),
        }
    }
}

/// Constant folding: the value of an e-class when every expression in it is constant. Folding
/// is in `f64`; two folds of one real value that round differently keep the first (the classes
/// are equal as reals, which is what recognition decides).
#[derive(Default, Clone, Copy, Debug)]
pub struct ConstantFold;

impl Analysis<SorLang> for ConstantFold {
    type Data = Option<f64>;

    fn make(egraph: &mut EGraph<SorLang, Self>, enode: &SorLang, _id: Id) -> Self::Data {
        let c = |i: &Id| egraph[*i].data;
        Some(match enode {
            SorLang::Num(n) => n.0,
            SorLang::Add([a, b]) => c(a)? + c(b)?,
            SorLang::Sub([a, b]) => c(a)? - c(b)?,
            SorLang::Mul([a, b]) => c(a)? * c(b)?,
            SorLang::Div([a, b]) => {
                let d = c(b)?;
                if d == 0.0 {
                    return None;
                }
                c(a)? / d
            }
            SorLang::Neg(a) => -c(a)?,
            SorLang::Inv(a) => {
                let d = c(a)?;
                if d == 0.0 {
                    return None;
                }
                1.0 / d
            }
            SorLang::Leaf(_) => return None,
        })
        .filter(|v| v.is_finite())
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        match (*to, from) {
            (None, Some(v)) => {
                *to = Some(v);
                DidMerge(true, false)
            }
            (Some(_), None) => DidMerge(false, true),
            _ => DidMerge(false, false),
        }
    }

    fn modify(egraph: &mut EGraph<SorLang, Self>, id: Id) {
        if let Some(v) = egraph[id].data {
            let folded = egraph.add(SorLang::Num(Num(v)));
            egraph.union(id, folded);
        }
    }
}

/// Which rewrite rules the recognition saturates with (pass option `rules`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleSet {
    /// Commutativity and associativity of `+` and `*` only: operand order and grouping,
    /// nothing else (`rules=ac`).
    Ac,
    /// `Ac` plus subtraction and negation as `+ (-1)·x`, division as multiplication by the
    /// reciprocal, distributivity of `*` over `+`, `1·x = x`, `0 + x = x`, `0·x = 0`, and collecting like terms with
    /// constant coefficients (`rules=algebra`, the default).
    Algebra,
}

impl RuleSet {
    /// Every rule set with its option text.
    pub const ALL: [(&'static str, RuleSet); 2] = [("ac", RuleSet::Ac), ("algebra", RuleSet::Algebra)];

    /// The rule set named `text`, or an error listing the choices.
    pub fn parse(text: &str) -> Result<RuleSet, String> {
        Self::ALL.iter().find(|(n, _)| *n == text).map(|&(_, r)| r).ok_or_else(|| {
            format!("unknown rule set '{text}'; expected one of: {}", Self::ALL.map(|(n, _)| n).join(", "))
        })
    }

    /// The option text of this rule set.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(_, r)| *r == self).map_or("?", |(n, _)| n)
    }

    /// The rewrites of this rule set.
    pub fn rewrites(self) -> Vec<Rewrite<SorLang, ConstantFold>> {
        let mut rules: Vec<Rewrite<SorLang, ConstantFold>> = vec![
            rewrite!("comm-add"; "(+ ?a ?b)" => "(+ ?b ?a)"),
            rewrite!("comm-mul"; "(* ?a ?b)" => "(* ?b ?a)"),
            rewrite!("assoc-add"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
            rewrite!("assoc-add-rev"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"),
            rewrite!("assoc-mul"; "(* ?a (* ?b ?c))" => "(* (* ?a ?b) ?c)"),
            rewrite!("assoc-mul-rev"; "(* (* ?a ?b) ?c)" => "(* ?a (* ?b ?c))"),
        ];
        if self == RuleSet::Algebra {
            rules.extend([
                rewrite!("sub-as-add"; "(- ?a ?b)" => "(+ ?a (* -1.0 ?b))"),
                rewrite!("neg-as-mul"; "(neg ?a)" => "(* -1.0 ?a)"),
                rewrite!("div-as-reciprocal"; "(/ ?a ?b)" => "(* ?a (inv ?b))"),
                rewrite!("distribute"; "(* ?a (+ ?b ?c))" => "(+ (* ?a ?b) (* ?a ?c))"),
                rewrite!("mul-one"; "(* 1.0 ?a)" => "?a"),
                rewrite!("add-zero"; "(+ 0.0 ?a)" => "?a"),
                rewrite!("mul-zero"; "(* 0.0 ?a)" => "0.0"),
                rewrite!("collect"; "(+ (* ?a ?x) (* ?b ?x))" => "(* (+ ?a ?b) ?x)"
                    if is_constant(&["?a", "?b"])),
                rewrite!("collect-one"; "(+ ?x (* ?b ?x))" => "(* (+ 1.0 ?b) ?x)" if is_constant(&["?b"])),
            ]);
        }
        rules
    }
}

/// Rule condition: every named pattern variable is bound to a constant e-class (so collecting
/// like terms only ever adds constant coefficients and the e-graph stays small).
fn is_constant(vars: &[&str]) -> impl Fn(&mut EGraph<SorLang, ConstantFold>, Id, &Subst) -> bool {
    let vars: Vec<Var> = vars.iter().filter_map(|v| v.parse().ok()).collect();
    move |egraph, _, subst| vars.iter().all(|v| subst.get(*v).is_some_and(|id| egraph[*id].data.is_some()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use egg::{RecExpr, Runner};

    fn equal(rules: RuleSet, a: &str, b: &str) -> bool {
        let a: RecExpr<SorLang> = a.parse().expect("a");
        let b: RecExpr<SorLang> = b.parse().expect("b");
        let mut runner = Runner::<SorLang, ConstantFold, ()>::default().with_expr(&a).with_expr(&b);
        let (ra, rb) = (runner.roots[0], runner.roots[1]);
        runner = runner
            .with_node_limit(50_000)
            .with_hook(move |r| if r.egraph.find(ra) == r.egraph.find(rb) { Err("equal".into()) } else { Ok(()) })
            .run(&rules.rewrites());
        runner.egraph.find(ra) == runner.egraph.find(rb)
    }

    #[test]
    fn ac_reorders_but_does_not_distribute() {
        assert!(equal(RuleSet::Ac, "(+ (+ a b) c)", "(+ c (+ b a))"));
        assert!(!equal(RuleSet::Ac, "(* w (+ a b))", "(+ (* w a) (* w b))"));
        assert!(equal(RuleSet::Algebra, "(* w (+ a b))", "(+ (* w a) (* b w))"));
    }

    #[test]
    fn division_by_four_is_a_quarter() {
        assert!(equal(RuleSet::Algebra, "(/ (+ a b) 4.0)", "(* 0.25 (+ b a))"));
    }

    #[test]
    fn constant_weights_are_collected() {
        assert!(equal(RuleSet::Algebra, "(+ c (* 1.5 (- x c)))", "(+ (* -0.5 c) (* 1.5 x))"));
    }
}
