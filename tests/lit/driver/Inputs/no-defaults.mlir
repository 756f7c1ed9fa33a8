// A program whose parameters have no defaults: stencil-run needs --param for each.
stencil.program @copy(%A: !stencil.field<[N] x f64>, %B: !stencil.field<[N] x f64>) params [N >= 2] {
  stencil.apply @S writes %B over [0] to [N] {
    %a = stencil.access %A[0] : f64
    stencil.yield %a : f64
  }
}
