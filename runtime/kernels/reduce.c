/* kernels/reduce.c — placeholder, filled in by its owner */
