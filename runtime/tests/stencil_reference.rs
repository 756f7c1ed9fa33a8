//! The stencil interpreter checked bit-exactly against independent hand-written Rust loop
//! nests (the C loops of the seeds, transcribed), on small sizes with pseudo-random inputs.

mod common;

use common::{assert_bits_eq, assert_bits_eq_f32, f32s, f64s, parse, random_f64, JACOBI_2D};
use stencil_runtime::{run_module, ElementType, FieldData, ProgramState, ScalarValue};

/// PolyBench jacobi-2d: `B = 0.2 * (5 neighbours of A); A = B` on the interior.
fn jacobi_2d_reference(a: &mut [f64], b: &mut [f64], n: usize, steps: usize) {
    for _ in 0..steps {
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                let sum = a[i * n + j] + a[i * n + j - 1] + a[i * n + j + 1] + a[(i + 1) * n + j] + a[(i - 1) * n + j];
                b[i * n + j] = 0.2 * sum;
            }
        }
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                a[i * n + j] = b[i * n + j];
            }
        }
    }
}

#[test]
fn jacobi_2d_matches_hand_written_loops() {
    let module = parse(JACOBI_2D);
    let (n, t) = (14, 5);
    let a0 = random_f64(&[n, n], 1);
    let b0 = random_f64(&[n, n], 2);
    let mut state = ProgramState::new().with_field("A", a0.clone()).with_field("B", b0.clone());
    let stats = run_module(&module, None, &mut state).unwrap();
    assert_eq!(stats.point_updates, (2 * t * (n - 2) * (n - 2)) as u64);
    let (mut a, mut b) = (f64s(&a0).to_vec(), f64s(&b0).to_vec());
    jacobi_2d_reference(&mut a, &mut b, n, t);
    assert_bits_eq(f64s(&state.fields["A"]), &a, "A");
    assert_bits_eq(f64s(&state.fields["B"]), &b, "B");
}

const SOR_2D: &str = r#"
stencil.program @sor2d(%A: !stencil.field<[N, M] x f64>, %omega: f64)
    params [T >= 1, N >= 3, M >= 3] defaults [T = 4, N = 9, M = 11, omega = 1.250000e+00] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %A over [1, 1] to [N - 1, M - 1] {
      %c = stencil.access %A[0, 0] : f64
      %n = stencil.access %A[-1, 0] : f64
      %s = stencil.access %A[1, 0] : f64
      %w = stencil.access %A[0, -1] : f64
      %e = stencil.access %A[0, 1] : f64
      %s1 = arith.addf %n, %s : f64
      %s2 = arith.addf %s1, %w : f64
      %s3 = arith.addf %s2, %e : f64
      %q = arith.constant 2.500000e-01 : f64
      %gs = arith.mulf %s3, %q : f64
      %one = arith.constant 1.000000e+00 : f64
      %keep = arith.subf %one, %omega : f64
      %t1 = arith.mulf %keep, %c : f64
      %t2 = arith.mulf %omega, %gs : f64
      %v = arith.addf %t1, %t2 : f64
      stencil.yield %v : f64
    }
  }
}
"#;

/// Successive over-relaxation, in place, forward (or backward) lexicographic order.
fn sor_2d_reference(a: &mut [f64], n: usize, m: usize, steps: usize, omega: f64, reverse: bool) {
    let rows: Vec<usize> = if reverse { (1..n - 1).rev().collect() } else { (1..n - 1).collect() };
    let cols: Vec<usize> = if reverse { (1..m - 1).rev().collect() } else { (1..m - 1).collect() };
    for _ in 0..steps {
        for &i in &rows {
            for &j in &cols {
                let gs = (a[(i - 1) * m + j] + a[(i + 1) * m + j] + a[i * m + j - 1] + a[i * m + j + 1]) * 0.25;
                a[i * m + j] = (1.0 - omega) * a[i * m + j] + omega * gs;
            }
        }
    }
}

#[test]
fn sor_2d_runs_in_place_in_lexicographic_order() {
    let module = parse(SOR_2D);
    let a0 = random_f64(&[9, 11], 3);
    let mut state = ProgramState::new().with_field("A", a0.clone());
    run_module(&module, None, &mut state).unwrap();
    let mut a = f64s(&a0).to_vec();
    sor_2d_reference(&mut a, 9, 11, 4, 1.25, false);
    assert_bits_eq(f64s(&state.fields["A"]), &a, "A");

    // Overridden scalar and parameters.
    let a0 = random_f64(&[6, 7], 4);
    let mut state = ProgramState::new()
        .with_param("N", 6)
        .with_param("M", 7)
        .with_param("T", 3)
        .with_scalar("omega", ScalarValue::Float(0.75))
        .with_field("A", a0.clone());
    run_module(&module, None, &mut state).unwrap();
    let mut a = f64s(&a0).to_vec();
    sor_2d_reference(&mut a, 6, 7, 3, 0.75, false);
    assert_bits_eq(f64s(&state.fields["A"]), &a, "A (overridden)");
}

#[test]
fn reverse_order_runs_lexicographically_backwards() {
    let module = parse(&SOR_2D.replace("to [N - 1, M - 1] {", "to [N - 1, M - 1] order reverse {"));
    let a0 = random_f64(&[9, 11], 5);
    let mut state = ProgramState::new().with_field("A", a0.clone());
    run_module(&module, None, &mut state).unwrap();
    let mut backward = f64s(&a0).to_vec();
    sor_2d_reference(&mut backward, 9, 11, 4, 1.25, true);
    assert_bits_eq(f64s(&state.fields["A"]), &backward, "A");
    // In place, the order matters: the forward sweep gives other values.
    let mut forward = f64s(&a0).to_vec();
    sor_2d_reference(&mut forward, 9, 11, 4, 1.25, false);
    assert_ne!(forward, backward);
}

const FDTD_2D: &str = r#"
stencil.program @fdtd2d(%ex: !stencil.field<[NX, NY] x f64>, %ey: !stencil.field<[NX, NY] x f64>,
                        %hz: !stencil.field<[NX, NY] x f64>, %fict: !stencil.field<[T] x f64>)
    params [T >= 1, NX >= 2, NY >= 2] defaults [T = 4, NX = 7, NY = 9] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S0 writes %ey over [0, 0] to [1, NY] {
      %f = stencil.access %fict at [%t] : f64
      stencil.yield %f : f64
    }
    stencil.apply @S1 writes %ey over [1, 0] to [NX, NY] {
      %y = stencil.access %ey[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hn = stencil.access %hz[-1, 0] : f64
      %d = arith.subf %h, %hn : f64
      %half = arith.constant 5.000000e-01 : f64
      %m = arith.mulf %half, %d : f64
      %v = arith.subf %y, %m : f64
      stencil.yield %v : f64
    }
    stencil.apply @S2 writes %ex over [0, 1] to [NX, NY] {
      %x = stencil.access %ex[0, 0] : f64
      %h = stencil.access %hz[0, 0] : f64
      %hw = stencil.access %hz[0, -1] : f64
      %d = arith.subf %h, %hw : f64
      %half = arith.constant 5.000000e-01 : f64
      %m = arith.mulf %half, %d : f64
      %v = arith.subf %x, %m : f64
      stencil.yield %v : f64
    }
    stencil.apply @S3 writes %hz over [0, 0] to [NX - 1, NY - 1] {
      %h = stencil.access %hz[0, 0] : f64
      %xe = stencil.access %ex[0, 1] : f64
      %x = stencil.access %ex[0, 0] : f64
      %ys = stencil.access %ey[1, 0] : f64
      %y = stencil.access %ey[0, 0] : f64
      %d1 = arith.subf %xe, %x : f64
      %d2 = arith.addf %d1, %ys : f64
      %d3 = arith.subf %d2, %y : f64
      %k = arith.constant 0.69999999999999996 : f64
      %m = arith.mulf %k, %d3 : f64
      %v = arith.subf %h, %m : f64
      stencil.yield %v : f64
    }
  }
}
"#;

/// PolyBench fdtd-2d.
fn fdtd_2d_reference(ex: &mut [f64], ey: &mut [f64], hz: &mut [f64], fict: &[f64], nx: usize, ny: usize) {
    for &f in fict {
        // The first row of ey is the source term.
        ey[..ny].fill(f);
        for i in 1..nx {
            for j in 0..ny {
                ey[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
            }
        }
        for i in 0..nx {
            for j in 1..ny {
                ex[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
            }
        }
        for i in 0..nx - 1 {
            for j in 0..ny - 1 {
                hz[i * ny + j] -= 0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
            }
        }
    }
}

#[test]
fn fdtd_2d_matches_hand_written_loops() {
    let module = parse(FDTD_2D);
    let (nx, ny, t) = (7, 9, 4);
    let fields = [("ex", random_f64(&[nx, ny], 6)), ("ey", random_f64(&[nx, ny], 7)), ("hz", random_f64(&[nx, ny], 8))];
    let fict = random_f64(&[t], 9);
    let mut state = ProgramState::new().with_field("fict", fict.clone());
    for (name, f) in &fields {
        state = state.with_field(name, f.clone());
    }
    run_module(&module, None, &mut state).unwrap();
    let (mut ex, mut ey, mut hz) =
        (f64s(&fields[0].1).to_vec(), f64s(&fields[1].1).to_vec(), f64s(&fields[2].1).to_vec());
    fdtd_2d_reference(&mut ex, &mut ey, &mut hz, f64s(&fict), nx, ny);
    assert_bits_eq(f64s(&state.fields["ex"]), &ex, "ex");
    assert_bits_eq(f64s(&state.fields["ey"]), &ey, "ey");
    assert_bits_eq(f64s(&state.fields["hz"]), &hz, "hz");
}

#[test]
fn f32_fields_compute_in_f32_with_fused_multiply_add() {
    let text = r#"
stencil.program @heat1d(%A: !stencil.field<[N] x f32>, %B: !stencil.field<[N] x f32>, %r: f32)
    params [T >= 1, N >= 3] defaults [T = 6, N = 17, r = 1.000000e-01] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %B over [1] to [N - 1] {
      %w = stencil.access %A[-1] : f32
      %c = stencil.access %A[0] : f32
      %e = stencil.access %A[1] : f32
      %two = arith.constant 2.000000e+00 : f32
      %s = arith.addf %w, %e : f32
      %d = math.fma %two, %c, %s : f32
      %v = math.fma %r, %d, %c : f32
      stencil.yield %v : f32
    }
    stencil.apply @C writes %A over [1] to [N - 1] {
      %b = stencil.access %B[0] : f32
      stencil.yield %b : f32
    }
  }
}
"#;
    let module = parse(text);
    let a0 = FieldData::pseudo_random(vec![17], ElementType::F32, 10).unwrap();
    let b0 = FieldData::zeros(vec![17], ElementType::F32).unwrap();
    let mut state = ProgramState::new().with_field("A", a0.clone()).with_field("B", b0.clone());
    run_module(&module, None, &mut state).unwrap();
    let (mut a, mut b) = (f32s(&a0).to_vec(), f32s(&b0).to_vec());
    let r = 0.1f32;
    for _ in 0..6 {
        for i in 1..16 {
            let d = 2.0f32.mul_add(a[i], a[i - 1] + a[i + 1]);
            b[i] = r.mul_add(d, a[i]);
        }
        a[1..16].copy_from_slice(&b[1..16]);
    }
    assert_bits_eq_f32(f32s(&state.fields["A"]), &a, "A");
    assert_bits_eq_f32(f32s(&state.fields["B"]), &b, "B");
}

#[test]
fn jacobi_3d_seven_point() {
    let text = r#"
stencil.program @j3d(%A: !stencil.field<[N, N, N] x f64>, %B: !stencil.field<[N, N, N] x f64>)
    params [T >= 1, N >= 3] defaults [T = 2, N = 6] {
  stencil.iterate %t = 0 to T {
    stencil.apply @S writes %B over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %c = stencil.access %A[0, 0, 0] : f64
      %a = stencil.access %A[-1, 0, 0] : f64
      %b = stencil.access %A[1, 0, 0] : f64
      %d = stencil.access %A[0, -1, 0] : f64
      %e = stencil.access %A[0, 1, 0] : f64
      %f = stencil.access %A[0, 0, -1] : f64
      %g = stencil.access %A[0, 0, 1] : f64
      %s1 = arith.addf %a, %b : f64
      %s2 = arith.addf %s1, %d : f64
      %s3 = arith.addf %s2, %e : f64
      %s4 = arith.addf %s3, %f : f64
      %s5 = arith.addf %s4, %g : f64
      %k = arith.constant 1.250000e-01 : f64
      %s6 = arith.addf %s5, %c : f64
      %v = arith.mulf %s6, %k : f64
      stencil.yield %v : f64
    }
    stencil.apply @C writes %A over [1, 1, 1] to [N - 1, N - 1, N - 1] {
      %b = stencil.access %B[0, 0, 0] : f64
      stencil.yield %b : f64
    }
  }
}
"#;
    let module = parse(text);
    let n = 6;
    let a0 = random_f64(&[n, n, n], 11);
    let b0 = random_f64(&[n, n, n], 12);
    let mut state = ProgramState::new().with_field("A", a0.clone()).with_field("B", b0.clone());
    run_module(&module, None, &mut state).unwrap();
    let (mut a, mut b) = (f64s(&a0).to_vec(), f64s(&b0).to_vec());
    let at = |i: usize, j: usize, k: usize| (i * n + j) * n + k;
    for _ in 0..2 {
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                for k in 1..n - 1 {
                    let s = a[at(i - 1, j, k)]
                        + a[at(i + 1, j, k)]
                        + a[at(i, j - 1, k)]
                        + a[at(i, j + 1, k)]
                        + a[at(i, j, k - 1)]
                        + a[at(i, j, k + 1)]
                        + a[at(i, j, k)];
                    b[at(i, j, k)] = s * 0.125;
                }
            }
        }
        for i in 1..n - 1 {
            for j in 1..n - 1 {
                for k in 1..n - 1 {
                    a[at(i, j, k)] = b[at(i, j, k)];
                }
            }
        }
    }
    assert_bits_eq(f64s(&state.fields["A"]), &a, "A");
}

#[test]
fn coordinates_integer_ops_and_fields_of_other_shapes() {
    // B (interior of a padded P) gets P's value plus a function of the coordinates.
    let text = r#"
stencil.program @coords(%P: !stencil.field<[N + 2, M + 2] x f64>, %B: !stencil.field<[N, M] x f64>)
    params [N >= 1, M >= 1] defaults [N = 5, M = 4] {
  stencil.apply @S writes %B over [0, 0] to [N, M] {
    %i = stencil.index 0
    %j = stencil.index 1
    %p = stencil.access %P at [%i + 1, %j + 2] : f64
    %c3 = arith.constant 3 : index
    %ij = arith.muli %i, %c3 : index
    %s = arith.addi %ij, %j : index
    %c2 = arith.constant 2 : index
    %r = arith.remsi %s, %c2 : index
    %z = arith.constant 0 : index
    %even = arith.cmpi eq, %r, %z : index
    %si = arith.index_cast %s : index to i64
    %f = arith.sitofp %si : i64 to f64
    %neg = arith.negf %f : f64
    %sel = arith.select %even, %f, %neg : f64
    %v = arith.addf %p, %sel : f64
    stencil.yield %v : f64
  }
}
"#;
    let module = parse(text);
    let (n, m) = (5usize, 4usize);
    let p = random_f64(&[n + 2, m + 2], 13);
    let mut state = ProgramState::new().with_field("P", p.clone()).with_field("B", random_f64(&[n, m], 14));
    run_module(&module, None, &mut state).unwrap();
    let mut expected = vec![0.0; n * m];
    for i in 0..n {
        for j in 0..m {
            let s = (3 * i + j) as f64;
            let sel = if (3 * i + j) % 2 == 0 { s } else { -s };
            expected[i * m + j] = f64s(&p)[(i + 1) * (m + 2) + j + 2] + sel;
        }
    }
    assert_bits_eq(f64s(&state.fields["B"]), &expected, "B");
}

/// In-place update reading the same row at offset `o` (and the row above), in the given
/// order, on rows longer than the interpreter's batches.
fn in_row_reference(a: &mut [f64], n: usize, m: usize, o: isize, reverse: bool) {
    let rows: Vec<usize> = if reverse { (1..n).rev().collect() } else { (1..n).collect() };
    let cols: Vec<usize> = if reverse { (1..m - 1).rev().collect() } else { (1..m - 1).collect() };
    for &i in &rows {
        for &j in &cols {
            let side = a[i * m + (j as isize + o) as usize];
            a[i * m + j] = 0.5 * a[i * m + j] + 0.25 * side + a[(i - 1) * m + j] * 0.125;
        }
    }
}

#[test]
fn in_place_sweeps_on_long_rows_keep_sequential_semantics() {
    // Forward reads of the east neighbour and backward reads of the west one see old values
    // (the interpreter may batch those rows); the other two see values written earlier in
    // the row.
    for (o, reverse) in [(1, false), (-1, false), (1, true), (-1, true)] {
        let order = if reverse { " order reverse" } else { "" };
        let text = format!(
            r#"
stencil.program @p(%A: !stencil.field<[N, M] x f64>) params [N >= 2, M >= 3] defaults [N = 4, M = 300] {{
  stencil.apply @S writes %A over [1, 1] to [N, M - 1]{order} {{
    %c = stencil.access %A[0, 0] : f64
    %s = stencil.access %A[0, {o}] : f64
    %u = stencil.access %A[-1, 0] : f64
    %h = arith.constant 5.000000e-01 : f64
    %q = arith.constant 2.500000e-01 : f64
    %e = arith.constant 1.250000e-01 : f64
    %t1 = arith.mulf %h, %c : f64
    %t2 = arith.mulf %q, %s : f64
    %t3 = arith.mulf %u, %e : f64
    %t4 = arith.addf %t1, %t2 : f64
    %v = arith.addf %t4, %t3 : f64
    stencil.yield %v : f64
  }}
}}
"#
        );
        let module = parse(&text);
        let a0 = random_f64(&[4, 300], 15);
        let mut state = ProgramState::new().with_field("A", a0.clone());
        run_module(&module, None, &mut state).unwrap();
        let mut a = f64s(&a0).to_vec();
        in_row_reference(&mut a, 4, 300, o, reverse);
        assert_bits_eq(f64s(&state.fields["A"]), &a, &format!("offset {o}, reverse {reverse}"));
    }
}

#[test]
fn long_rows_with_coordinates_and_affine_reads() {
    // Rows of 300 points (several batches): coordinates, integer ops and a general access.
    let text = r#"
stencil.program @p(%A: !stencil.field<[N, M] x f64>, %B: !stencil.field<[N, M] x f64>, %C: !stencil.field<[M] x f64>)
    params [N >= 1, M >= 1] defaults [N = 3, M = 300] {
  stencil.apply @S writes %B over [0, 0] to [N, M] order reverse {
    %j = stencil.index 1
    %c = stencil.access %C at [%j] : f64
    %a = stencil.access %A[0, 0] : f64
    %ji = arith.index_cast %j : index to i32
    %jf = arith.sitofp %ji : i32 to f64
    %p = math.fma %jf, %c, %a : f64
    stencil.yield %p : f64
  }
}
"#;
    let module = parse(text);
    let (a0, c0) = (random_f64(&[3, 300], 16), random_f64(&[300], 17));
    let mut state = ProgramState::new()
        .with_field("A", a0.clone())
        .with_field("B", random_f64(&[3, 300], 18))
        .with_field("C", c0.clone());
    run_module(&module, None, &mut state).unwrap();
    let mut expected = vec![0.0; 900];
    for i in 0..3 {
        for j in 0..300 {
            expected[i * 300 + j] = (j as f64).mul_add(f64s(&c0)[j], f64s(&a0)[i * 300 + j]);
        }
    }
    assert_bits_eq(f64s(&state.fields["B"]), &expected, "B");
}
