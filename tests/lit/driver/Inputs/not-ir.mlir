this is not IR
