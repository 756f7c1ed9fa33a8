//! Printing affine maps is a fixed point of parse+print: for random expression text `x`,
//! `print(parse(print(parse(x)))) == print(parse(x))`, and the parsed maps evaluate equal to
//! a direct evaluation of the text's meaning.

use proptest::prelude::*;
use stencil_ir::parser::{parse_source, ParserConfig};
use stencil_ir::printer::{print_op, PrintOptions};
use stencil_ir::registry::DialectRegistry;
use stencil_ir::{Attribute, SourceFile};

#[derive(Clone, Debug)]
enum E {
    Dim(u8),
    Sym(u8),
    Const(i8),
    Add(Box<E>, Box<E>),
    Sub(Box<E>, Box<E>),
    MulC(Box<E>, i8),
    Neg(Box<E>),
    FloorDiv(Box<E>, u8),
    CeilDiv(Box<E>, u8),
    Mod(Box<E>, u8),
}

impl E {
    fn text(&self) -> String {
        match self {
            E::Dim(d) => format!("d{d}"),
            E::Sym(s) => format!("s{s}"),
            E::Const(c) => format!("({c})"),
            E::Add(a, b) => format!("({} + {})", a.text(), b.text()),
            E::Sub(a, b) => format!("({} - {})", a.text(), b.text()),
            E::MulC(a, c) => format!("({} * ({c}))", a.text()),
            E::Neg(a) => format!("(-{})", a.text()),
            E::FloorDiv(a, q) => format!("({} floordiv {})", a.text(), q),
            E::CeilDiv(a, q) => format!("({} ceildiv {})", a.text(), q),
            E::Mod(a, q) => format!("({} mod {})", a.text(), q),
        }
    }

    fn eval(&self, d: &[i64], s: &[i64]) -> i64 {
        match self {
            E::Dim(i) => d[*i as usize],
            E::Sym(i) => s[*i as usize],
            E::Const(c) => i64::from(*c),
            E::Add(a, b) => a.eval(d, s) + b.eval(d, s),
            E::Sub(a, b) => a.eval(d, s) - b.eval(d, s),
            E::MulC(a, c) => a.eval(d, s) * i64::from(*c),
            E::Neg(a) => -a.eval(d, s),
            E::FloorDiv(a, q) => a.eval(d, s).div_euclid(i64::from(*q)),
            E::CeilDiv(a, q) => -(-a.eval(d, s)).div_euclid(i64::from(*q)),
            E::Mod(a, q) => a.eval(d, s).rem_euclid(i64::from(*q)),
        }
    }
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![(0u8..2).prop_map(E::Dim), (0u8..2).prop_map(E::Sym), (-5i8..6).prop_map(E::Const)];
    leaf.prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| E::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), -4i8..5).prop_map(|(a, c)| E::MulC(Box::new(a), c)),
            inner.clone().prop_map(|a| E::Neg(Box::new(a))),
            (inner.clone(), 1u8..5).prop_map(|(a, q)| E::FloorDiv(Box::new(a), q)),
            (inner.clone(), 1u8..5).prop_map(|(a, q)| E::CeilDiv(Box::new(a), q)),
            (inner, 1u8..5).prop_map(|(a, q)| E::Mod(Box::new(a), q)),
        ]
    })
}

fn registry() -> DialectRegistry {
    DialectRegistry::new()
}

fn parse_print(text: &str) -> (String, stencil_ir::Module) {
    let r = registry();
    let m = parse_source(&SourceFile::new("m.mlir", text), ParserConfig { registry: &r, allow_unregistered: true })
        .unwrap_or_else(|e| panic!("parse failed: {e}\n{text}"));
    (print_op(&m.ir, &r, m.top, PrintOptions { generic: true, debug_info: false }), m)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn affine_map_printing_is_a_fixed_point(exprs in proptest::collection::vec(expr(), 1..3), d0 in -7i64..8, d1 in -7i64..8, s0 in -7i64..8, s1 in -7i64..8) {
        let body: Vec<String> = exprs.iter().map(E::text).collect();
        let text = format!("\"test.op\"() {{m = affine_map<(d0, d1)[s0, s1] -> ({})>}} : () -> ()\n", body.join(", "));
        let (once, module) = parse_print(&text);
        let (twice, _) = parse_print(&once);
        prop_assert_eq!(&twice, &once);
        // The simplified map still computes the written expressions.
        let op = module.ir.collect_ops(module.top, stencil_ir::ir::WalkOrder::PreOrder)[1];
        let map = module.ir.attr(op, "m").and_then(Attribute::as_affine_map).expect("map attribute").clone();
        let got = map.eval(&[d0, d1], &[s0, s1]).expect("evaluates");
        let want: Vec<i64> = exprs.iter().map(|e| e.eval(&[d0, d1], &[s0, s1])).collect();
        prop_assert_eq!(got, want, "{}", once);
    }
}
