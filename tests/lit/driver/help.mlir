// stencil-opt --help describes each flag with its own text (the --list-passes description once
// sat at the head of --param's, and --list-passes had none).
// RUN: stencil-opt --help | FileCheck %s
// CHECK:      --param <NAME=VALUE>
// CHECK-NEXT: {{^ *}}Problem sizes for the tile model
// CHECK-NOT:  List the registered passes
// CHECK:      --list-passes
// CHECK-NEXT: {{^ *}}List the registered passes with their options and exit
